// PartitionIndexWriter: packs partition index entries into raw index
// blocks of about kIndexBlockBytes, appends each block as soon as it fills
// (interleaved with data chunks) and keeps the summary: the first key and
// handle of every block. Memory stays at one block plus the summary.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/sstable/block_appender.h"
#include "engine/sstable/index_summary.h"
#include "engine/sstable/partition_index_entry.h"

namespace cassette {

inline constexpr size_t kIndexBlockBytes = 4096;

class PartitionIndexWriter {
 public:
  explicit PartitionIndexWriter(BlockAppender* out) : out_(out) {}

  // REQUIRES: keys strictly increasing.
  Status Add(const PartitionIndexEntry& entry);
  // Writes the last block and returns the summary.
  Result<IndexSummary> Finish();

  size_t buffered() const { return block_.size(); }
  uint64_t blocks_written() const { return summary_.size(); }
  uint64_t summary_bytes() const { return summary_bytes_; }

 private:
  Status FlushBlock();

  BlockAppender* out_;
  std::string block_;
  std::string block_first_key_;
  std::vector<IndexSummaryEntry> summary_;
  uint64_t summary_bytes_ = 0;
};

}  // namespace cassette
