// The parse of a plain row body (PlainRowView in row_codec.h: an INSERT's
// or an UPDATE's row, the commonest by far) written out on pointers, for the
// read path's per-row loop. It hands each column to a callback, so a reader
// that wants only some values takes them straight from the body without
// listing every column first (ReadPlainRow lists them), and decoding and
// scanning build their own results from the same parse.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "engine/mutation/expiry.h"
#include "engine/mutation/row_codec.h"
#include "engine/mutation/row_codec_format.h"
#include "engine/util/coding.h"

namespace cassette {

// A plain row's time fields, which every one of its cells shares (see
// PlainRowView).
struct PlainRowHead {
  bool has_marker = false;
  int64_t timestamp = 0;
  int32_t ttl = 0;  // 0: none
  int64_t local_deletion_time = kNoDeletionTime;
  // Where the varints of the timestamp, the TTL and the expiry end in the
  // body (the first begins after the flags byte; the other two are 0
  // without a TTL): what re-basing the body rewrites.
  uint32_t time_ends[3] = {0, 0, 0};

  bool LiveAt(int64_t now_sec) const {
    return ttl == 0 || !IsExpiredAt(local_deletion_time, now_sec);
  }
};

namespace plain_row_internal {

[[gnu::always_inline]] inline bool TakeVarint(const char** p, const char* end, uint64_t* v) {
  if (*p < end && (static_cast<uint8_t>(**p) & 0x80) == 0) {
    *v = static_cast<uint8_t>(**p);
    ++*p;
    return true;
  }
  std::string_view in(*p, static_cast<size_t>(end - *p));
  if (!GetVarint64Long(&in, v)) return false;
  *p = in.data();
  return true;
}

}  // namespace plain_row_internal

// Parses a plain row from the front of *in: sets *head, then calls
// `on_column(uint32_t id, bool row_ttl, std::string_view value)` for each
// column in id order (value points into *in), and advances *in past the
// row. False for any body that is not a plain row, well-formed or not
// (the row parser then decodes it or reports it corrupt), and as soon as
// on_column returns false; *in is then unchanged, and the calls made until
// then stand. Every reader of plain rows goes through it (ReadPlainRow,
// DecodeRowBody's and ScanRowBody's shortcuts, the result builder), so
// they accept the same bodies.
template <class OnColumn>
[[gnu::always_inline]] inline bool ParsePlainRow(std::string_view* in, const EncodingStats& stats,
                                                 PlainRowHead* head, OnColumn&& on_column) {
  using namespace row_format;
  using plain_row_internal::TakeVarint;
  const char* const begin = in->data();
  const char* p = begin;
  const char* const end = p + in->size();
  if (p == end) return false;
  const auto flags = static_cast<uint8_t>(*p++);
  const uint8_t shape = flags & ~kRowExpiringDefault;
  if (shape != (kRowHasMarker | kRowHasColumns) && shape != (kRowHasDefault | kRowHasColumns)) {
    return false;
  }
  uint64_t u;
  if (!TakeVarint(&p, end, &u)) return false;
  head->timestamp = WrappingAdd(stats.min_timestamp, ZigZagDecode(u));
  head->time_ends[0] = static_cast<uint32_t>(p - begin);
  head->ttl = 0;
  head->local_deletion_time = kNoDeletionTime;
  head->time_ends[1] = head->time_ends[2] = 0;
  if (flags & kRowExpiringDefault) {
    if (!TakeVarint(&p, end, &u)) return false;
    const int64_t ttl = WrappingAdd(stats.min_ttl, ZigZagDecode(u));
    if (ttl <= 0 || ttl > std::numeric_limits<int32_t>::max()) return false;
    head->ttl = static_cast<int32_t>(ttl);
    head->time_ends[1] = static_cast<uint32_t>(p - begin);
    if (!TakeVarint(&p, end, &u)) return false;
    head->local_deletion_time = WrappingAdd(stats.min_local_deletion_time, ZigZagDecode(u));
    if (head->local_deletion_time == kNoDeletionTime) return false;
    head->time_ends[2] = static_cast<uint32_t>(p - begin);
  }
  head->has_marker = (flags & kRowHasMarker) != 0;
  if (head->has_marker && head->timestamp == kNoTimestamp) return false;
  uint64_t ncols;
  if (!TakeVarint(&p, end, &ncols) || ncols == 0 || ncols > static_cast<uint64_t>(end - p)) {
    return false;
  }
  uint64_t next_id = 0;
  for (uint64_t i = 0; i < ncols; ++i) {
    uint64_t delta_id;
    if (!TakeVarint(&p, end, &delta_id) || p == end) return false;
    const uint64_t id = next_id + delta_id;
    if (delta_id > std::numeric_limits<uint32_t>::max() ||
        id > std::numeric_limits<uint32_t>::max()) {
      return false;
    }
    next_id = id + 1;
    const auto cell_flags = static_cast<uint8_t>(*p++);
    const uint8_t kind = cell_flags & ~kCellEmptyValue;
    bool row_ttl = false;
    if (kind == (kCellUseRowTimestamp | kCellUseRowTtl)) {
      row_ttl = true;
    } else if (kind != kCellUseRowTimestamp) {
      return false;
    }
    std::string_view value;
    if (!(cell_flags & kCellEmptyValue)) {
      uint64_t n;
      if (!TakeVarint(&p, end, &n) || n == 0 || n > static_cast<uint64_t>(end - p)) return false;
      value = std::string_view(p, n);
      p += n;
    }
    if (!on_column(static_cast<uint32_t>(id), row_ttl, value)) return false;
  }
  in->remove_prefix(static_cast<size_t>(p - begin));
  return true;
}

}  // namespace cassette
