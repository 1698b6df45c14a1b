// Encoding of the row codec (row_codec.h), and the re-basing of an encoded
// row body's time values. Decoding is in row_codec_decode.cc; the byte
// layout in FORMAT.md.
#include "engine/mutation/row_codec.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "engine/mutation/row_codec_format.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

using namespace row_format;  // NOLINT: flag names only

// Encoding writes through a raw pointer into room the caller sized with
// MaxEncodedRowBodySize: a row is a few dozen varints and short strings,
// and a capacity check and call per append cost more than the encoding.
constexpr size_t kMaxVarint = 10;

char* PutVarintTo(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

// Every time value is a zigzag varint of its wrapping difference from a
// base. Zigzag because callers may pass stats that are not true minima (or
// none, with negative USING TIMESTAMP values): a value below its base then
// costs a byte, not ten. Wrapping because any int64 must round-trip.
char* PutDeltaTo(char* p, int64_t v, int64_t base) {
  return PutVarintTo(p, ZigZagEncode(WrappingSub(v, base)));
}

char* PutBytesTo(char* p, std::string_view s) {
  p = PutVarintTo(p, s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

void PutDelta(std::string* out, int64_t v, int64_t base) {
  PutSignedVarint64(out, WrappingSub(v, base));
}

RowDefaults ChooseDefaults(const Row& row, uint8_t* flags) {
  RowDefaults d;
  if (!row.marker.IsEmpty()) {
    d.present = true;
    d.timestamp = row.marker.timestamp;
    if (row.marker.IsExpiring()) {
      d.ttl = row.marker.ttl;
      d.local_deletion_time = row.marker.local_expiration_time;
    }
    *flags |= kRowHasMarker;
  } else {
    for (const ColumnData& col : row.columns) {
      if (col.cells.empty()) continue;
      const Cell& c = col.cells.front();
      d.present = true;
      d.timestamp = c.timestamp;
      if (c.IsExpiring()) {
        d.ttl = c.ttl;
        d.local_deletion_time = c.local_deletion_time;
      }
      *flags |= kRowHasDefault;
      break;
    }
  }
  if (d.present && d.ttl > 0) *flags |= kRowExpiringDefault;
  return d;
}

char* PutDeletionBodyTo(char* p, const DeletionTime& d, const EncodingStats& stats) {
  p = PutDeltaTo(p, d.marked_for_delete_at, stats.min_timestamp);
  return PutDeltaTo(p, d.local_deletion_time, stats.min_local_deletion_time);
}

void PutDeletionBody(std::string* out, const DeletionTime& d, const EncodingStats& stats) {
  PutDelta(out, d.marked_for_delete_at, stats.min_timestamp);
  PutDelta(out, d.local_deletion_time, stats.min_local_deletion_time);
}

uint8_t CellFlags(const Cell& c, const RowDefaults& d) {
  uint8_t flags = 0;
  if (d.present && c.timestamp == d.timestamp) flags |= kCellUseRowTimestamp;
  if (d.present && d.ttl > 0 && c.ttl == d.ttl && c.local_deletion_time == d.local_deletion_time) {
    flags |= kCellUseRowTtl;
  } else if (c.ttl == 0 && c.local_deletion_time != kNoDeletionTime) {
    flags |= kCellDeleted;
  } else if (c.ttl != 0 || c.local_deletion_time != kNoDeletionTime) {
    flags |= kCellExpiring;
  }
  if (c.value.empty()) flags |= kCellEmptyValue;
  return flags;
}

char* PutCellBodyTo(char* p, const Cell& c, uint8_t flags, const EncodingStats& stats) {
  if (!(flags & kCellUseRowTimestamp)) p = PutDeltaTo(p, c.timestamp, stats.min_timestamp);
  if (flags & kCellDeleted) {
    p = PutDeltaTo(p, c.local_deletion_time, stats.min_local_deletion_time);
  } else if (flags & kCellExpiring) {
    p = PutDeltaTo(p, c.ttl, stats.min_ttl);
    p = PutDeltaTo(p, c.local_deletion_time, stats.min_local_deletion_time);
  }
  if (!(flags & kCellEmptyValue)) p = PutBytesTo(p, c.value);
  return p;
}

// A simple column with no cell carries nothing and is not written.
bool IsWritten(const ColumnData& col) { return col.is_complex || !col.cells.empty(); }

// Flags byte, optional path, timestamp, ttl and expiry, value.
constexpr size_t kMaxCellOverhead = 1 + 5 * kMaxVarint;

char* PutColumnTo(char* p, const ColumnData& col, uint32_t id_delta, const RowDefaults& d,
                  const EncodingStats& stats) {
  p = PutVarintTo(p, id_delta);
  if (!col.is_complex) {
    // REQUIRES: a simple column holds exactly one cell.
    const Cell& c = col.cells.front();
    uint8_t flags = CellFlags(c, d);
    *p++ = static_cast<char>(flags);
    return PutCellBodyTo(p, c, flags, stats);
  }
  uint8_t col_flags = kColumnComplex;
  if (!col.complex_deletion.IsLive()) col_flags |= kColumnComplexDeletion;
  *p++ = static_cast<char>(col_flags);
  if (col_flags & kColumnComplexDeletion) p = PutDeletionBodyTo(p, col.complex_deletion, stats);
  p = PutVarintTo(p, col.cells.size());
  for (const Cell& c : col.cells) {
    uint8_t flags = CellFlags(c, d);
    *p++ = static_cast<char>(flags);
    p = PutBytesTo(p, c.path);
    p = PutCellBodyTo(p, c, flags, stats);
  }
  return p;
}

// An update's stats from its minima, each given as its "none" sentinel
// when nothing carries one (a value equal to the sentinel counts as none).
EncodingStats StatsFromMinima(int64_t min_ts, int64_t min_ldt, int32_t min_ttl) {
  EncodingStats s;
  s.min_timestamp = min_ts == std::numeric_limits<int64_t>::max() ? 0 : min_ts;
  s.min_local_deletion_time = min_ldt == kNoDeletionTime ? 0 : min_ldt;
  s.min_ttl = min_ttl == std::numeric_limits<int32_t>::max() ? 0 : min_ttl;
  return s;
}

// Minima over the update, so that its deltas are small and non-negative.
EncodingStats StatsOf(const PartitionUpdate& u) {
  int64_t min_ldt = kNoDeletionTime;
  int32_t min_ttl = std::numeric_limits<int32_t>::max();
  auto ldt = [&](int64_t v) {
    if (v != kNoDeletionTime) min_ldt = std::min(min_ldt, v);
  };
  auto ttl = [&](int32_t v) {
    if (v > 0) min_ttl = std::min(min_ttl, v);
  };
  auto row = [&](const Row& r) {
    if (!r.marker.IsEmpty()) {
      ldt(r.marker.local_expiration_time);
      ttl(r.marker.ttl);
    }
    if (!r.deletion.IsLive()) ldt(r.deletion.local_deletion_time);
    for (const ColumnData& col : r.columns) {
      if (!col.complex_deletion.IsLive()) ldt(col.complex_deletion.local_deletion_time);
      for (const Cell& c : col.cells) {
        ldt(c.local_deletion_time);
        ttl(c.ttl);
      }
    }
  };
  if (!u.partition_deletion.IsLive()) ldt(u.partition_deletion.local_deletion_time);
  row(u.static_row);
  for (const RangeTombstone& rt : u.range_tombstones) {
    if (!rt.deletion.IsLive()) ldt(rt.deletion.local_deletion_time);
  }
  for (const Row& r : u.rows) row(r);
  return StatsFromMinima(u.MinTimestamp(), min_ldt, min_ttl);
}

}  // namespace

size_t MaxEncodedRowBodySize(const Row& row) {
  // Flags, the defaults (timestamp, ttl, expiry), the row deletion and the
  // column count; per column its id, flags, complex deletion and cell
  // count; per cell its overhead, path and value.
  size_t n = 1 + 3 * kMaxVarint + 2 * kMaxVarint + kMaxVarint;
  for (const ColumnData& col : row.columns) {
    n += kMaxVarint + 1 + 3 * kMaxVarint;
    for (const Cell& c : col.cells) n += kMaxCellOverhead + c.path.size() + c.value.size();
  }
  return n;
}

char* EncodeRowBodyTo(const Row& row, const EncodingStats& stats, char* p) {
  uint8_t flags = 0;
  RowDefaults d = ChooseDefaults(row, &flags);
  if (!row.deletion.IsLive()) flags |= kRowHasDeletion;
  size_t ncols =
      static_cast<size_t>(std::count_if(row.columns.begin(), row.columns.end(), IsWritten));
  if (ncols > 0) flags |= kRowHasColumns;
  *p++ = static_cast<char>(flags);
  if (d.present) {
    p = PutDeltaTo(p, d.timestamp, stats.min_timestamp);
    if (flags & kRowExpiringDefault) {
      p = PutDeltaTo(p, d.ttl, stats.min_ttl);
      p = PutDeltaTo(p, d.local_deletion_time, stats.min_local_deletion_time);
    }
  }
  if (flags & kRowHasDeletion) p = PutDeletionBodyTo(p, row.deletion, stats);
  if (ncols == 0) return p;
  p = PutVarintTo(p, ncols);
  uint32_t next_id = 0;
  for (const ColumnData& col : row.columns) {
    if (!IsWritten(col)) continue;
    // REQUIRES: columns sorted by id and unique.
    p = PutColumnTo(p, col, col.column_id - next_id, d, stats);
    next_id = col.column_id + 1;
  }
  return p;
}

void EncodeRowBody(const Row& row, const EncodingStats& stats, std::string* out) {
  const size_t old = out->size();
  out->resize(old + MaxEncodedRowBodySize(row));
  char* end = EncodeRowBodyTo(row, stats, out->data() + old);
  out->resize(static_cast<size_t>(end - out->data()));
}

namespace {

int64_t BaseOf(const EncodingStats& stats, DeltaField::Base base) {
  switch (base) {
    case DeltaField::kLocalDeletionTime:
      return stats.min_local_deletion_time;
    case DeltaField::kTtl:
      return stats.min_ttl;
    case DeltaField::kTimestamp:
      break;
  }
  return stats.min_timestamp;
}

}  // namespace

size_t RebasedRowBodySize(std::string_view body, const RowBodyScan& scan, const EncodingStats& to) {
  size_t n = body.size();
  for (const DeltaField& f : scan.fields) {
    n += VarintLength(ZigZagEncode(WrappingSub(f.value, BaseOf(to, f.base))));
    n -= f.end - f.begin;
  }
  return n;
}

char* RebaseRowBody(std::string_view body, const RowBodyScan& scan, const EncodingStats& to,
                    char* out) {
  // The bytes between time values are copied; each time value is written
  // again as a delta from its new base.
  size_t at = 0;
  for (const DeltaField& f : scan.fields) {
    std::memcpy(out, body.data() + at, f.begin - at);
    out = PutDeltaTo(out + (f.begin - at), f.value, BaseOf(to, f.base));
    at = f.end;
  }
  std::memcpy(out, body.data() + at, body.size() - at);
  return out + (body.size() - at);
}

void EncodeRow(const Row& row, const EncodingStats& stats, std::string* out) {
  PutLengthPrefixed(out, row.clustering);
  EncodeRowBody(row, stats, out);
}

void EncodeDeletionTime(const DeletionTime& d, const EncodingStats& stats, std::string* out) {
  if (d.IsLive()) {
    out->push_back(static_cast<char>(kDeletionLive));
    return;
  }
  out->push_back(static_cast<char>(kDeletionPresent));
  PutDeletionBody(out, d, stats);
}

void EncodeRangeTombstone(const RangeTombstone& rt, const EncodingStats& stats, std::string* out) {
  uint8_t flags = 0;
  if (rt.range.start.inclusive) flags |= kRtStartInclusive;
  if (rt.range.end.inclusive) flags |= kRtEndInclusive;
  if (rt.deletion.IsLive()) flags |= kRtLiveDeletion;
  out->push_back(static_cast<char>(flags));
  PutLengthPrefixed(out, rt.range.start.prefix);
  PutLengthPrefixed(out, rt.range.end.prefix);
  if (!rt.deletion.IsLive()) PutDeletionBody(out, rt.deletion, stats);
}

void EncodePartitionUpdate(const PartitionUpdate& update, std::string* out) {
  EncodingStats stats = StatsOf(update);
  PutVarint64(out, update.table_id);
  PutLengthPrefixed(out, update.key.key);
  PutDelta(out, stats.min_timestamp, 0);
  PutDelta(out, stats.min_local_deletion_time, 0);
  PutDelta(out, stats.min_ttl, 0);
  EncodeDeletionTime(update.partition_deletion, stats, out);
  uint8_t flags = 0;
  if (!update.static_row.IsEmpty()) flags |= kUpdateHasStaticRow;
  if (!update.range_tombstones.empty()) flags |= kUpdateHasRangeTombstones;
  if (!update.rows.empty()) flags |= kUpdateHasRows;
  out->push_back(static_cast<char>(flags));
  if (flags & kUpdateHasStaticRow) EncodeRowBody(update.static_row, stats, out);
  if (flags & kUpdateHasRangeTombstones) {
    PutVarint64(out, update.range_tombstones.size());
    for (const RangeTombstone& rt : update.range_tombstones) EncodeRangeTombstone(rt, stats, out);
  }
  if (flags & kUpdateHasRows) {
    PutVarint64(out, update.rows.size());
    for (const Row& r : update.rows) EncodeRow(r, stats, out);
  }
}

size_t MaxEncodedPlainRowBodySize(const PlainRow& row) {
  // Flags, the defaults, the column count; per column its id, flags and
  // value length, and the value.
  size_t n = 1 + 3 * kMaxVarint + kMaxVarint;
  for (const PlainColumn& column : row.columns) n += 2 * kMaxVarint + 1 + column.value.size();
  return n;
}

char* EncodePlainRowBodyTo(const PlainRow& row, const EncodingStats& stats, char* p) {
  // EncodeRowBodyTo's choices for ToRow(): the defaults are the marker's
  // (or the first cell's) timestamp and TTL, which every cell shares, so
  // each cell says so in its flags and carries only its value.
  const bool expiring = row.ttl > 0;
  uint8_t flags = row.has_marker ? kRowHasMarker : kRowHasDefault;
  if (expiring) flags |= kRowExpiringDefault;
  if (!row.columns.empty()) flags |= kRowHasColumns;
  *p++ = static_cast<char>(flags);
  p = PutDeltaTo(p, row.timestamp, stats.min_timestamp);
  if (expiring) {
    p = PutDeltaTo(p, row.ttl, stats.min_ttl);
    p = PutDeltaTo(p, row.expiry, stats.min_local_deletion_time);
  }
  if (row.columns.empty()) return p;
  p = PutVarintTo(p, row.columns.size());
  const uint8_t cell_flags = kCellUseRowTimestamp | (expiring ? kCellUseRowTtl : 0);
  uint32_t next_id = 0;
  for (const PlainColumn& column : row.columns) {
    p = PutVarintTo(p, column.id - next_id);
    next_id = column.id + 1;
    if (column.value.empty()) {
      *p++ = static_cast<char>(cell_flags | kCellEmptyValue);
    } else {
      *p++ = static_cast<char>(cell_flags);
      p = PutBytesTo(p, column.value);
    }
  }
  return p;
}

void EncodePlainRowBody(const PlainRow& row, const EncodingStats& stats, std::string* out) {
  const size_t old = out->size();
  out->resize(old + MaxEncodedPlainRowBodySize(row));
  char* end = EncodePlainRowBodyTo(row, stats, out->data() + old);
  out->resize(static_cast<size_t>(end - out->data()));
}

void EncodePlainPartitionUpdate(uint64_t table_id, const PlainRowWrite& write, std::string* out) {
  // StatsOf the update: every time value is the row's.
  const PlainRow& row = write.row;
  const bool expiring = row.ttl > 0;
  const EncodingStats stats =
      StatsFromMinima(row.timestamp, expiring ? row.expiry : kNoDeletionTime,
                      expiring ? row.ttl : std::numeric_limits<int32_t>::max());
  // Sized once and written through a pointer, as a row body is: this runs
  // for every row written.
  const size_t old = out->size();
  out->resize(old + 7 * kMaxVarint + 2 + write.key.size() + write.clustering.size() +
              MaxEncodedPlainRowBodySize(row));
  char* p = out->data() + old;
  p = PutVarintTo(p, table_id);
  p = PutBytesTo(p, write.key);
  p = PutDeltaTo(p, stats.min_timestamp, 0);
  p = PutDeltaTo(p, stats.min_local_deletion_time, 0);
  p = PutDeltaTo(p, stats.min_ttl, 0);
  *p++ = static_cast<char>(kDeletionLive);  // no partition deletion
  *p++ = static_cast<char>(kUpdateHasRows);
  p = PutVarintTo(p, 1);
  p = PutBytesTo(p, write.clustering);
  p = EncodePlainRowBodyTo(row, stats, p);
  out->resize(static_cast<size_t>(p - out->data()));
}

RowDefaults RowDefaultsOf(const Row& row) {
  uint8_t flags = 0;
  return ChooseDefaults(row, &flags);
}

}  // namespace cassette