// SSTableWriterOptions: how one SSTable is written. A plain value.
#pragma once

#include <cstdint>

#include "cassette/status.h"
#include "engine/mutation/row_codec.h"

namespace cassette {

struct SSTableWriterOptions {
  // zstd level of the data chunks (the table's compression options).
  int compression_level = 3;
  // false: every chunk is stored raw.
  bool compress = true;
  // Uncompressed bytes per data chunk (chunk_length_in_kb).
  uint32_t chunk_length = 16384;
  // Bytes of rows per row-index block (Cassandra's column_index_size).
  uint32_t row_index_interval = 16384;
  // The table's bloom_filter_fp_chance; >= 1.0 writes no filter.
  double bloom_fp_chance = 0.01;
  // Sizes the bloom filter; the false-positive chance holds up to this
  // many partitions (flush: the memtable's count; compaction: the sum of
  // the inputs').
  uint64_t expected_partitions = 1024;
  // Recorded in the statistics (compaction's tombstone_compaction_interval).
  int64_t creation_time_micros = 0;
  // The base row bodies are encoded against (usually the minima of the
  // data written, as the memtable tracks them).
  EncodingStats encoding_stats;

  // InvalidArgument listing every bad value.
  Status Validate() const;
};

}  // namespace cassette
