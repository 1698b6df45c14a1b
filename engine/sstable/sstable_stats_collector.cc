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
  partition_has_rows_ = false;
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

void StatsCollector::FirstRowOfPartition(const std::string& clustering) {
  partition_has_rows_ = true;
  if (stats_.row_count == 0) {
    stats_.min_clustering = clustering;
    stats_.max_clustering = clustering;
  } else if (clustering < stats_.min_clustering) {
    stats_.min_clustering = clustering;
  }
}

void StatsCollector::AddRow(const Row& row) {
  if (!partition_has_rows_) FirstRowOfPartition(row.clustering);
  ++stats_.row_count;
  UpdateRowContent(row);
}

void StatsCollector::AddScannedRow(const std::string& clustering, const RowBodyScan& scan) {
  if (!partition_has_rows_) FirstRowOfPartition(clustering);
  ++stats_.row_count;
  if (scan.has_deletion) ++stats_.row_deletion_count;
  stats_.complex_deletion_count += scan.complex_deletions;
  stats_.cell_count += scan.cells;
  partition_cells_ += scan.cells;
  stats_.tombstone_cell_count += scan.tombstones;
  stats_.expiring_cell_count += scan.expiring_cells;
  stats_.min_timestamp = std::min(stats_.min_timestamp, scan.min_timestamp);
  stats_.max_timestamp = std::max(stats_.max_timestamp, scan.max_timestamp);
  stats_.min_local_deletion_time =
      std::min(stats_.min_local_deletion_time, scan.min_local_deletion_time);
  stats_.max_local_deletion_time =
      std::max(stats_.max_local_deletion_time, scan.max_local_deletion_time);
  stats_.min_ttl = std::min(stats_.min_ttl, scan.min_ttl);
  stats_.max_ttl = std::max(stats_.max_ttl, scan.max_ttl);
  drop_times_.Update(scan.drop_time, scan.drop_time_count);
}

void StatsCollector::EndPartition(uint64_t partition_bytes, std::string_view last_clustering) {
  if (partition_has_rows_ && last_clustering > stats_.max_clustering) {
    stats_.max_clustering = last_clustering;
  }
  stats_.partition_sizes.Add(partition_bytes);
  stats_.cells_per_partition.Add(partition_cells_);
}

SSTableStats& StatsCollector::Finish() {
  stats_.tombstone_drop_times = drop_times_.Build();
  return stats_;
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
  // The cells' figures are gathered in locals and folded in once per row
  // (the histogram's updates, which may alias nothing here but the
  // compiler cannot tell, would otherwise reload every field per cell).
  uint64_t cells = 0;
  uint64_t tombstones = 0;
  uint64_t expiring = 0;
  int64_t min_ts = stats_.min_timestamp;
  int64_t max_ts = stats_.max_timestamp;
  int64_t min_ldt = stats_.min_local_deletion_time;
  int64_t max_ldt = stats_.max_local_deletion_time;
  int32_t min_ttl = stats_.min_ttl;
  int32_t max_ttl = stats_.max_ttl;
  StreamingHistogramBuilder& drop_times = drop_times_;
  for (const ColumnData& column : row.columns) {
    if (!column.complex_deletion.IsLive()) {
      ++stats_.complex_deletion_count;
      const DeletionTime& d = column.complex_deletion;
      min_ts = std::min(min_ts, d.marked_for_delete_at);
      max_ts = std::max(max_ts, d.marked_for_delete_at);
      min_ldt = std::min(min_ldt, d.local_deletion_time);
      max_ldt = std::max(max_ldt, d.local_deletion_time);
      if (d.local_deletion_time != kNoDeletionTime) drop_times.Update(d.local_deletion_time);
    }
    for (const Cell& cell : column.cells) {
      ++cells;
      tombstones += cell.IsTombstone() ? 1 : 0;
      expiring += cell.IsExpiring() ? 1 : 0;
      min_ts = std::min(min_ts, cell.timestamp);
      max_ts = std::max(max_ts, cell.timestamp);
      min_ttl = std::min(min_ttl, cell.ttl);
      max_ttl = std::max(max_ttl, cell.ttl);
      min_ldt = std::min(min_ldt, cell.local_deletion_time);
      max_ldt = std::max(max_ldt, cell.local_deletion_time);
      if (cell.local_deletion_time != kNoDeletionTime) drop_times.Update(cell.local_deletion_time);
    }
  }
  stats_.cell_count += cells;
  partition_cells_ += cells;
  stats_.tombstone_cell_count += tombstones;
  stats_.expiring_cell_count += expiring;
  stats_.min_timestamp = min_ts;
  stats_.max_timestamp = max_ts;
  stats_.min_local_deletion_time = min_ldt;
  stats_.max_local_deletion_time = max_ldt;
  stats_.min_ttl = min_ttl;
  stats_.max_ttl = max_ttl;
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
  if (ldt != kNoDeletionTime) drop_times_.Update(ldt);
}

void StatsCollector::UpdateTtl(int32_t ttl) {
  stats_.min_ttl = std::min(stats_.min_ttl, ttl);
  stats_.max_ttl = std::max(stats_.max_ttl, ttl);
}

}  // namespace cassette
