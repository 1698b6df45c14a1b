// How a partition is laid out in the uncompressed data stream:
//   varint header_length, header
//   row entries, each: varint (shared + 1), varint unshared, unshared bytes,
//                      varint body_length, body (EncodeRowBody)
//   one 0x00 byte: end of partition
// Clusterings are prefix-compressed against the previous row of the same
// row-index block (`shared` is 0 for a block's first row, so a reader can
// start at any block). FORMAT.md has the byte diagram.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/row_codec.h"

namespace cassette {

inline constexpr uint8_t kEndOfPartition = 0;

// Header flags. On disk: do not renumber; retired bits stay reserved.
enum PartitionHeaderFlag : uint8_t {
  kHasPartitionDeletion = 1 << 0,
  kHasStaticRow = 1 << 1,
  kHasRangeTombstones = 1 << 2,
};

struct PartitionHeader {
  DecoratedKey key;
  DeletionTime partition_deletion;
  Row static_row;
  std::vector<RangeTombstone> range_tombstones;
};

// Appends the varint header length and the header.
void EncodePartitionHeader(const DecoratedKey& key, const DeletionTime& partition_deletion,
                           const Row& static_row,
                           const std::vector<RangeTombstone>& range_tombstones,
                           const EncodingStats& stats, std::string* out);
// Decodes a header (without its length prefix). Corruption on malformed
// input; the caller adds the file and position.
Status DecodePartitionHeader(std::string_view in, const EncodingStats& stats,
                             PartitionHeader* header);

// Appends the row entry of `row`, its clustering prefix-compressed against
// `prev_clustering` (empty at the start of a block).
void EncodeRowEntry(std::string_view prev_clustering, const Row& row, const EncodingStats& stats,
                    std::string* out);
// The same bytes written at `p`, which must have room for
// MaxRowEntrySize(row) of them; returns the end of what was written.
size_t MaxRowEntrySize(const Row& row);
char* EncodeRowEntryTo(std::string_view prev_clustering, const Row& row, const EncodingStats& stats,
                       char* p);
// A row entry written in two steps, for a body that comes already encoded:
// EncodeRowEntryHead writes the clustering part at `p` (room:
// MaxRowEntryHeadSize(clustering) plus the body's bound) and returns where
// the body goes; FinishRowEntry, given where the body ended, writes its
// length and returns the end of the entry.
size_t MaxRowEntryHeadSize(std::string_view clustering);
char* EncodeRowEntryHead(std::string_view prev_clustering, std::string_view clustering,
                         size_t body_bound, char* p);
char* FinishRowEntry(char* body, size_t body_bound, char* body_end);

}  // namespace cassette
