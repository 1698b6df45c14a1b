// PartitionIndexEntry: one partition in the partition index (Cassandra's
// Index.db entry): its sort key, where it starts in the data stream, how
// long it is, and its row index root when it is big enough to have one.
// Index blocks are these entries back to back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cassette {

struct PartitionIndexEntry {
  // DecoratedKey::SortKey(): memcmp order is partition order.
  std::string_view sort_key;
  uint64_t data_position = 0;     // start of the partition in the data stream
  uint64_t partition_length = 0;  // header, rows and end marker
  // Encoded RowIndexRoot (row_index.h); empty when the partition's rows
  // fit in one block.
  std::string_view row_index;
};

void EncodePartitionIndexEntry(const PartitionIndexEntry& e, std::string* out);
// Consumes one entry from *in; the views point into *in's buffer. False on
// malformed input.
bool DecodePartitionIndexEntry(std::string_view* in, PartitionIndexEntry* e);

// Token of a sort key (its first 8 bytes); false when shorter.
bool SortKeyToken(std::string_view sort_key, int64_t* token);
// The smallest sort key of `token` (its 8-byte prefix).
std::string TokenSortKeyPrefix(int64_t token);

}  // namespace cassette
