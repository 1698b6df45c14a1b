// MemtableRow: one version of one row in a memtable partition, in the arena:
// the Apply's sequence number, the clustering and the row body encoded with
// EncodeRowBody under kMemtableEncodingStats. A version is the full merge of
// every earlier version of the same clustering (the writer merges when it
// overwrites), so a reader needs only the newest version it may see.
//
// Rows are kept encoded rather than as Row objects: a 100-byte time-series
// row then costs about 150 bytes of arena instead of ~400 bytes spread over
// five heap blocks, so a memtable of a given budget holds about twice the
// rows and flushes half as often, and Apply makes no heap allocation.
#pragma once

#include <cstdint>
#include <string_view>

#include "cassette/status.h"
#include "engine/memtable/arena_skip_list.h"
#include "engine/memtable/memtable_arena.h"
#include "engine/mutation/row.h"
#include "engine/mutation/row_codec.h"

namespace cassette {

// Fixed bases: the memtable's own minima are unknown while it fills. The
// codec's zigzag deltas stay correct (if a few bytes longer) for any value.
inline constexpr EncodingStats kMemtableEncodingStats{0, 0, 0};

struct MemtableRow {
  uint64_t seq;
  uint32_t clustering_size;
  uint64_t body_size;

  std::string_view clustering() const { return {payload(), clustering_size}; }
  std::string_view body() const { return {payload() + clustering_size, body_size}; }

  // Writer. Copies clustering and encoded body into the arena.
  static const MemtableRow* New(uint64_t seq, std::string_view clustering, std::string_view body,
                                MemtableArena* arena);

  // Decodes this version into *row (all of it is overwritten).
  Status Decode(Row* row) const;

 private:
  const char* payload() const { return reinterpret_cast<const char*>(this) + sizeof(MemtableRow); }
};

// Decodes a row body the memtable encoded into *row (clustering untouched,
// everything else overwritten).
Status DecodeMemtableRowBody(std::string_view body, Row* row);

// Orders row versions by clustering bytes (memcmp), ignoring the version.
struct MemtableRowComparator {
  int operator()(const MemtableRow* row, std::string_view clustering) const {
    return row->clustering().compare(clustering);
  }
};

// A partition's rows: by clustering, and within a clustering newest first.
using MemtableRowList = ArenaSkipList<const MemtableRow*, std::string_view, MemtableRowComparator>;

}  // namespace cassette
