// StatsCollector: folds every partition, row, cell and deletion the writer
// stores into SSTableStats (Cassandra's MetadataCollector). Rows come in
// clustering order within a partition (the writer checks it), so only a
// partition's first row can lower min_clustering and only its last can
// raise max_clustering. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/mutation/partition_update.h"
#include "engine/sstable/sstable_stats.h"
#include "engine/sstable/streaming_histogram_builder.h"

namespace cassette {

class StatsCollector {
 public:
  void BeginPartition(const DecoratedKey& key, const DeletionTime& partition_deletion,
                      const Row& static_row, const std::vector<RangeTombstone>& range_tombstones);
  // REQUIRES: row.clustering sorts after the partition's previous row.
  void AddRow(const Row& row);
  // The same for a row known by its scan (an encoded row), with the same
  // result as AddRow of the decoded row. REQUIRES: !scan.mixed_drop_times
  // (the histogram needs those one by one: use AddRow).
  void AddScannedRow(const std::string& clustering, const RowBodyScan& scan);
  // `partition_bytes`: the partition's size in the uncompressed data stream;
  // `last_clustering`: its last row's (ignored when it has none).
  void EndPartition(uint64_t partition_bytes, std::string_view last_clustering);

  // The figures of everything added so far, drop-time histogram included.
  SSTableStats& Finish();
  // The same without the drop-time histogram, which Finish builds.
  const SSTableStats& stats() const { return stats_; }

 private:
  void UpdateRowContent(const Row& row);
  void FirstRowOfPartition(const std::string& clustering);
  void UpdateDeletion(const DeletionTime& d);
  void UpdateTimestamp(int64_t ts);
  void UpdateLocalDeletionTime(int64_t ldt);
  void UpdateTtl(int32_t ttl);

  SSTableStats stats_;
  StreamingHistogramBuilder drop_times_;
  uint64_t partition_cells_ = 0;
  bool partition_has_rows_ = false;
};

}  // namespace cassette
