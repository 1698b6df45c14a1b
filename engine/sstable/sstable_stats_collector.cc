#include "engine/sstable/sstable_stats_collector.h"

#include <algorithm>

namespace cassette {

void StatsCollector::BeginPartition(const DecoratedKey& key, const DeletionTime& partition_deletion,
                                    const Row& static_row,
                                    const std::vector<RangeTombstone>& range_tombstones) {
  if (stats_.partition_count == 0) stats_.first_key = key;
  stats_.last_key = key;
  ++stats_.partition_count;
  partition_cells_ = 0;
  if (!partition_deletion.IsLive()) {
    ++stats_.partition_deletion_count;
    stats_.has_partition_deletions = true;
    UpdateDeletion(partition_deletion);
  }
  if (!static_row.IsEmpty()) {
    ++stats_.static_row_count;
    UpdateRowContent(static_row);
  }
  for (const RangeTombstone& rt : range_tombstones) {
    ++stats_.range_tombstone_count;
    UpdateDeletion(rt.deletion);
  }
}

void StatsCollector::AddRow(const Row& row) {
  if (stats_.row_count == 0) {
    stats_.min_clustering = row.clustering;
    stats_.max_clustering = row.clustering;
  } else {
    if (row.clustering < stats_.min_clustering) stats_.min_clustering = row.clustering;
    if (row.clustering > stats_.max_clustering) stats_.max_clustering = row.clustering;
  }
  ++stats_.row_count;
  UpdateRowContent(row);
}

void StatsCollector::EndPartition(uint64_t partition_bytes) {
  stats_.partition_sizes.Add(partition_bytes);
  stats_.cells_per_partition.Add(partition_cells_);
}

void StatsCollector::UpdateRowContent(const Row& row) {
  if (!row.marker.IsEmpty()) {
    UpdateTimestamp(row.marker.timestamp);
    UpdateTtl(row.marker.ttl);
    UpdateLocalDeletionTime(row.marker.IsExpiring() ? row.marker.local_expiration_time
                                                    : kNoDeletionTime);
  }
  if (!row.deletion.IsLive()) {
    ++stats_.row_deletion_count;
    UpdateDeletion(row.deletion);
  }
  for (const ColumnData& column : row.columns) {
    if (!column.complex_deletion.IsLive()) {
      ++stats_.complex_deletion_count;
      UpdateDeletion(column.complex_deletion);
    }
    for (const Cell& cell : column.cells) {
      ++stats_.cell_count;
      ++partition_cells_;
      if (cell.IsTombstone()) ++stats_.tombstone_cell_count;
      if (cell.IsExpiring()) ++stats_.expiring_cell_count;
      UpdateTimestamp(cell.timestamp);
      UpdateTtl(cell.ttl);
      UpdateLocalDeletionTime(cell.local_deletion_time);
    }
  }
}

void StatsCollector::UpdateDeletion(const DeletionTime& d) {
  UpdateTimestamp(d.marked_for_delete_at);
  UpdateLocalDeletionTime(d.local_deletion_time);
}

void StatsCollector::UpdateTimestamp(int64_t ts) {
  stats_.min_timestamp = std::min(stats_.min_timestamp, ts);
  stats_.max_timestamp = std::max(stats_.max_timestamp, ts);
}

void StatsCollector::UpdateLocalDeletionTime(int64_t ldt) {
  stats_.min_local_deletion_time = std::min(stats_.min_local_deletion_time, ldt);
  stats_.max_local_deletion_time = std::max(stats_.max_local_deletion_time, ldt);
  if (ldt != kNoDeletionTime) stats_.tombstone_drop_times.Update(ldt);
}

void StatsCollector::UpdateTtl(int32_t ttl) {
  stats_.min_ttl = std::min(stats_.min_ttl, ttl);
  stats_.max_ttl = std::max(stats_.max_ttl, ttl);
}

}  // namespace cassette
