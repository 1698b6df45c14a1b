// The row index of a big partition (Cassandra's column index): one entry
// per block of about row_index_interval bytes of rows, with the block's
// first and last clustering and where it lies in the data stream. For
// partitions with many blocks the entries form a tree: nodes of about
// kRowIndexNodeBytes are written as raw index blocks, and the partition's
// index entry holds only the root (at most about kRowIndexInlineRootBytes),
// so finding a clustering reads `depth` nodes whatever the partition size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/sstable/sstable_format.h"

namespace cassette {

inline constexpr size_t kRowIndexNodeBytes = 4096;
inline constexpr size_t kRowIndexInlineRootBytes = 2048;
inline constexpr uint32_t kRowIndexMaxDepth = 16;

struct RowIndexEntry {
  std::string first;  // first clustering covered
  std::string last;   // last clustering covered
  // Leaf level: the block's start relative to the partition start and its
  // length in the data stream. Upper levels: the child node's handle.
  uint64_t offset = 0;
  uint64_t size = 0;
  friend bool operator==(const RowIndexEntry&, const RowIndexEntry&) = default;
};

// An entry as read: its clusterings point into the encoded node (or root),
// which the reader keeps alive, so reading a node copies nothing.
struct RowIndexEntryRef {
  std::string_view first;
  std::string_view last;
  uint64_t offset = 0;
  uint64_t size = 0;
};

// The root kept in the partition index entry. depth 0: the entries are the
// blocks themselves; depth d > 0: each entry points to a node whose entries
// are at depth d - 1.
struct RowIndexRoot {
  uint32_t depth = 0;
  std::vector<RowIndexEntry> entries;
};

// A node (and the root's entry list): varint count, then the entries.
void EncodeRowIndexEntries(const std::vector<RowIndexEntry>& entries, std::string* out);
// False on malformed input or an empty list.
bool DecodeRowIndexEntries(std::string_view* in, std::vector<RowIndexEntry>* entries);

// One entry from the front of *in (advanced past it); false on malformed
// input.
bool DecodeRowIndexEntry(std::string_view* in, RowIndexEntryRef* e);
// The entry count that starts a node; false when malformed or zero. Bounds
// the count by the bytes left (an entry takes at least 4).
bool DecodeRowIndexCount(std::string_view* in, uint64_t* count);

void EncodeRowIndexRoot(const RowIndexRoot& root, std::string* out);
bool DecodeRowIndexRoot(std::string_view in, RowIndexRoot* root);
// The same checks, the entries pointing into `in`.
bool DecodeRowIndexRoot(std::string_view in, uint32_t* depth,
                        std::vector<RowIndexEntryRef>* entries);

// Builds the tree over `blocks` (in clustering order, at least one),
// writing nodes through `write_node` (which stores a payload as a raw
// block and returns its handle) until the root fits inline. Returns the
// encoded root.
Result<std::string> BuildRowIndex(
    std::vector<RowIndexEntry> blocks,
    const std::function<Result<BlockHandle>(std::string_view payload)>& write_node);

}  // namespace cassette
