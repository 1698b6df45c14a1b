// PlainRow: a row whose cells are all simple, live (or expiring) and
// written with the row's own timestamp and TTL, which is what an INSERT or
// UPDATE of plain values writes, and so most rows a write path sees.
//
// It describes the row with borrowed values instead of building it as a Row
// (a vector of columns, a Cell and its strings per column), so the write
// path can encode it for the commit log (row_codec.h) and store it in a
// memtable without allocating. ToRow gives the Row it stands for: every
// encoding of a PlainRow is byte for byte the encoding of that Row.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/mutation/row.h"
#include "engine/mutation/timestamps.h"

namespace cassette {

struct PlainColumn {
  uint32_t id = 0;
  std::string_view value;  // serialized; borrowed
};

struct PlainRow {
  bool has_marker = false;  // an INSERT's primary-key liveness
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;                   // 0: nothing expires
  int64_t expiry = kNoDeletionTime;  // the second it expires at, when ttl > 0
  // Ids strictly increasing; not empty unless has_marker (a row with
  // neither is no row at all).
  std::span<const PlainColumn> columns;

  // The row this stands for: the marker (when has_marker) and one live or
  // expiring cell per column, all with the row's timestamp and TTL.
  Row ToRow(std::string_view clustering) const;
};

// One plain row written to one partition (key and clustering borrowed).
struct PlainRowWrite {
  int64_t token = 0;  // the key's Murmur3 token
  std::string_view key;
  std::string_view clustering;
  PlainRow row;
};

}  // namespace cassette
