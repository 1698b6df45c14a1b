// SSTableStats: what an SSTable knows about its own content (Cassandra's
// Statistics.db), written by the writer and loaded in memory at open.
// Compaction strategies, the read path (skipping files) and the tools use
// it. A plain value; thread-compatible.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include "engine/mutation/decorated_key.h"
#include "engine/mutation/row_codec.h"
#include "engine/sstable/estimated_histogram.h"
#include "engine/sstable/streaming_histogram.h"

namespace cassette {

struct SSTableStats {
  uint64_t partition_count = 0;
  uint64_t row_count = 0;         // clustering rows; static rows are not counted
  uint64_t static_row_count = 0;  // partitions with a non-empty static row
  // Cells of static and clustering rows, tombstones and expiring ones included.
  uint64_t cell_count = 0;
  uint64_t tombstone_cell_count = 0;
  uint64_t expiring_cell_count = 0;
  uint64_t row_deletion_count = 0;        // rows carrying a row deletion
  uint64_t complex_deletion_count = 0;    // collection-wide deletions
  uint64_t partition_deletion_count = 0;  // partitions carrying a partition deletion
  uint64_t range_tombstone_count = 0;
  bool has_partition_deletions = false;

  // Over cell timestamps, row markers and every deletion (partition, range,
  // row, complex). INT64_MAX / INT64_MIN when there is nothing.
  int64_t min_timestamp = std::numeric_limits<int64_t>::max();
  int64_t max_timestamp = std::numeric_limits<int64_t>::min();
  // Over cells, markers and deletions, where live non-expiring cells and
  // markers count as kNoDeletionTime (INT64_MAX): one such cell makes
  // max_local_deletion_time INT64_MAX, so the file is never "fully
  // expired". INT64_MAX / INT64_MIN when there is nothing.
  int64_t min_local_deletion_time = std::numeric_limits<int64_t>::max();
  int64_t max_local_deletion_time = std::numeric_limits<int64_t>::min();
  // Over cells and non-empty markers (0 for non-expiring ones).
  // INT32_MAX / 0 when there is nothing.
  int32_t min_ttl = std::numeric_limits<int32_t>::max();
  int32_t max_ttl = 0;

  // Lowest and highest clustering (comparable bytes) of the clustering rows;
  // meaningful when row_count > 0. Range tombstones and partition deletions
  // are not included: a file with range_tombstone_count > 0 or
  // has_partition_deletions may shadow rows outside [min, max].
  std::string min_clustering;
  std::string max_clustering;

  // First and last partition in partition order; meaningful when
  // partition_count > 0.
  DecoratedKey first_key;
  DecoratedKey last_key;

  // Every local deletion time other than kNoDeletionTime (tombstone cells,
  // expiring cells and markers, all deletions), rounded up to a minute.
  StreamingHistogram tombstone_drop_times;
  // Bytes of each partition in the uncompressed data stream.
  EstimatedHistogram partition_sizes{EstimatedHistogram::kPartitionSizeBuckets};
  EstimatedHistogram cells_per_partition{EstimatedHistogram::kCellCountBuckets};

  uint64_t uncompressed_size = 0;  // the data stream
  uint64_t compressed_size = 0;    // data chunks on disk, trailers included

  int64_t creation_time_micros = 0;
  // The base the row bodies are encoded against.
  EncodingStats encoding_stats;
  double bloom_fp_chance = 0.01;
  uint32_t chunk_length = 0;
  // zstd level of the data chunks; 0 when written uncompressed.
  int32_t compression_level = 0;

  // Cassandra's estimated droppable tombstone ratio: drop-time points at or
  // before gc_before over the estimated cell count (mean cells per
  // partition x partitions). 0 for an empty file.
  double DroppableTombstoneRatio(int64_t gc_before) const;
  // The file's data past its drop time (a TTL's expiry, a deletion) by
  // gc_before, as bytes of `file_bytes` keyed by how many seconds before
  // gc_before it became purgeable, added to *bytes_by_lag: each drop-time
  // point at or before gc_before is its share of the file's cells and row
  // markers. An estimate as fine as the histogram (points rounded up to a
  // minute, at most 100 bins); how long expired data waits on disk is
  // read from it (CompactionRecord, TableStats).
  void AddPurgeableBytesByLag(int64_t gc_before, uint64_t file_bytes,
                              std::map<int64_t, uint64_t>* bytes_by_lag) const;
  // The drop-time points at or before gc_before (exact counts of whole
  // bins): what a compaction's inputs and outputs compare to tell what it
  // purged.
  uint64_t PurgeablePoints(int64_t gc_before) const;

  friend bool operator==(const SSTableStats&, const SSTableStats&) = default;
};

void EncodeSSTableStats(const SSTableStats& stats, std::string* out);
// False on malformed input (the caller names file and offset).
bool DecodeSSTableStats(std::string_view in, SSTableStats* stats);

}  // namespace cassette
