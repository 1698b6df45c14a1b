// CompactionOutputWriter: writes a stream of finished partitions (a
// CompactionIterator's, or a memtable's at flush) into one or more new
// SSTables, split the way a task asks:
//   - by size: a new output starts once the current one reaches
//     max_output_bytes, at a partition boundary;
//   - by token: a partition whose token is >= shard_boundaries[i] never
//     shares an output with one below it (UCS shards);
//   - by time window (split_window_micros > 0, TWCS): every row goes to the
//     output of the epoch-aligned window of its newest timestamp (cells,
//     marker, row and collection deletions); the static row likewise; the
//     partition deletion and each range tombstone by their own timestamp.
//     Each window keeps one open output, so a partition may appear in
//     several outputs, each holding its part.
// Outputs are created only when something goes into them: an empty stream
// writes no file. On any error every output written or begun is
// deleted, and the error is returned.
//
// Thread-compatible: one Write at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/env/rate_limiter.h"
#include "engine/mutation/partition_source.h"
#include "engine/sstable/sstable_stats.h"
#include "engine/sstable/sstable_writer_options.h"

namespace cassette {

// How the output is split (the output part of a CompactionTask, or of a
// strategy's FlushOutputShape()).
struct CompactionOutputShape {
  uint64_t max_output_bytes = 0;          // 0: no size limit
  std::vector<int64_t> shard_boundaries;  // ascending tokens
  int64_t split_window_micros = 0;        // 0: no window split

  static CompactionOutputShape FromTask(const CompactionTask& task) {
    return {task.max_output_bytes, task.shard_boundaries, task.split_window_micros};
  }
};

struct CompactionOutputOptions {
  // Not owned; must outlive the writer.
  FileSystem* fs = nullptr;
  // Allocates each new output: its generation and the path to create.
  std::function<Result<std::pair<uint64_t, std::string>>()> new_output;
  // Every output is written with these options (see CompactionWriterOptions);
  // expected_partitions counts the whole stream.
  SSTableWriterOptions writer_options;
  CompactionOutputShape shape;
  // Bytes of the inputs on disk, when known (0: unknown). With a size limit,
  // it scales each output's bloom filter to its share of the partitions.
  uint64_t input_bytes = 0;
  // May be null. Asked for every byte the outputs grow by, as they grow.
  RateLimiter* rate_limiter = nullptr;
};

struct CompactionOutput {
  uint64_t generation = 0;
  std::string path;
  SSTableStats stats;
  uint64_t file_size = 0;
};

struct CompactionOutputResult {
  // By generation (the order outputs were started in).
  std::vector<CompactionOutput> outputs;
  uint64_t bytes_written = 0;  // sum of the outputs' file sizes
};

class CompactionOutputWriter {
 public:
  explicit CompactionOutputWriter(CompactionOutputOptions options);

  // Drains `input` into finished, synced SSTables (their directory is not
  // synced: the caller syncs it before recording them). REQUIRES: the
  // partitions come in partition order with rows in clustering order, and
  // new_output never returns a path twice.
  Result<CompactionOutputResult> Write(PartitionIterator* input);

 private:
  CompactionOutputOptions options_;
};

// The writer options for a compaction's outputs: the table's (compression,
// chunk length, bloom_filter_fp_chance, ...) with the bloom filter sized for
// every input partition, creation time `now_micros`, and encoding bases no
// larger than any input's minima. Null entries in `inputs` are skipped.
SSTableWriterOptions CompactionWriterOptions(SSTableWriterOptions table_options,
                                             const std::vector<const SSTableStats*>& inputs,
                                             int64_t now_micros);

}  // namespace cassette
