// IndexSummary: the first sort key and handle of every partition index
// block (Cassandra's Summary.db, with one sample per index block). Loaded
// in memory at open, so finding a partition reads one index block.
// Immutable once built; const methods are thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sstable/sstable_format.h"

namespace cassette {

struct IndexSummaryEntry {
  std::string first_key;
  BlockHandle handle;
};

class IndexSummary {
 public:
  IndexSummary() = default;
  explicit IndexSummary(std::vector<IndexSummaryEntry> entries) : entries_(std::move(entries)) {}

  // The last block whose first key is <= key (the only block that can
  // hold it), or size() when key sorts before every block.
  size_t BlockFor(std::string_view sort_key) const;
  // The last block whose first key is < key (where entries >= key may
  // start), or 0.
  size_t FirstBlockAtOrAfter(std::string_view sort_key) const;

  size_t size() const { return entries_.size(); }
  const IndexSummaryEntry& operator[](size_t i) const { return entries_[i]; }
  const std::vector<IndexSummaryEntry>& entries() const { return entries_; }

  void EncodeTo(std::string* out) const;
  // False on malformed input, unsorted keys or handles beyond blocks_end.
  static bool DecodeFrom(std::string_view in, uint64_t blocks_end, IndexSummary* summary);

 private:
  std::vector<IndexSummaryEntry> entries_;
};

}  // namespace cassette
