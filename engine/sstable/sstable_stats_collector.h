// StatsCollector: folds every partition, row, cell and deletion the writer
// stores into SSTableStats (Cassandra's MetadataCollector). Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/mutation/partition_update.h"
#include "engine/sstable/sstable_stats.h"

namespace cassette {

class StatsCollector {
 public:
  void BeginPartition(const DecoratedKey& key, const DeletionTime& partition_deletion,
                      const Row& static_row, const std::vector<RangeTombstone>& range_tombstones);
  void AddRow(const Row& row);
  // `partition_bytes`: the partition's size in the uncompressed data stream.
  void EndPartition(uint64_t partition_bytes);

  SSTableStats& stats() { return stats_; }
  const SSTableStats& stats() const { return stats_; }

 private:
  void UpdateRowContent(const Row& row);
  void UpdateDeletion(const DeletionTime& d);
  void UpdateTimestamp(int64_t ts);
  void UpdateLocalDeletionTime(int64_t ldt);
  void UpdateTtl(int32_t ttl);

  SSTableStats stats_;
  uint64_t partition_cells_ = 0;
};

}  // namespace cassette
