#include "engine/mutation/row_codec.h"

#include <algorithm>
#include <limits>

#include "engine/mutation/decode_cursor.h"
#include "engine/mutation/row_codec_format.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

using namespace row_format;  // NOLINT: flag names only

// Every time value is a zigzag varint of its wrapping difference from a
// base. Zigzag because callers may pass stats that are not true minima (or
// none, with negative USING TIMESTAMP values): a value below its base then
// costs a byte, not ten. Wrapping because any int64 must round-trip.
void PutDelta(std::string* out, int64_t v, int64_t base) {
  PutSignedVarint64(out, WrappingSub(v, base));
}

// The timestamp, ttl and expiry that cells of a row share unless they say
// otherwise: the marker's when the row has one (INSERT), else the first
// cell's (UPDATE). Time-series rows then pay nothing per cell for time.
struct RowDefaults {
  bool present = false;
  int64_t timestamp = 0;
  int32_t ttl = 0;
  int64_t local_deletion_time = kNoDeletionTime;
};

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

void PutCellBody(std::string* out, const Cell& c, uint8_t flags, const EncodingStats& stats) {
  if (!(flags & kCellUseRowTimestamp)) PutDelta(out, c.timestamp, stats.min_timestamp);
  if (flags & kCellDeleted) {
    PutDelta(out, c.local_deletion_time, stats.min_local_deletion_time);
  } else if (flags & kCellExpiring) {
    PutDelta(out, c.ttl, stats.min_ttl);
    PutDelta(out, c.local_deletion_time, stats.min_local_deletion_time);
  }
  if (!(flags & kCellEmptyValue)) PutLengthPrefixed(out, c.value);
}

// A simple column with no cell carries nothing and is not written.
bool IsWritten(const ColumnData& col) { return col.is_complex || !col.cells.empty(); }

void PutColumn(std::string* out, const ColumnData& col, uint32_t id_delta, const RowDefaults& d,
               const EncodingStats& stats) {
  PutVarint32(out, id_delta);
  if (!col.is_complex) {
    // REQUIRES: a simple column holds exactly one cell.
    const Cell& c = col.cells.front();
    uint8_t flags = CellFlags(c, d);
    out->push_back(static_cast<char>(flags));
    PutCellBody(out, c, flags, stats);
    return;
  }
  uint8_t col_flags = kColumnComplex;
  if (!col.complex_deletion.IsLive()) col_flags |= kColumnComplexDeletion;
  out->push_back(static_cast<char>(col_flags));
  if (col_flags & kColumnComplexDeletion) PutDeletionBody(out, col.complex_deletion, stats);
  PutVarint64(out, col.cells.size());
  for (const Cell& c : col.cells) {
    uint8_t flags = CellFlags(c, d);
    out->push_back(static_cast<char>(flags));
    PutLengthPrefixed(out, c.path);
    PutCellBody(out, c, flags, stats);
  }
}

// ---- decoding -------------------------------------------------------------

Status GetTtl(DecodeCursor& in, const EncodingStats& stats, int32_t* ttl, std::string_view what) {
  int64_t v;
  CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_ttl, &v, what));
  if (v <= 0 || v > std::numeric_limits<int32_t>::max()) {
    return in.Error("bad ttl in " + std::string(what));
  }
  *ttl = static_cast<int32_t>(v);
  return Status::OK();
}

// An expiry must be a real second; kNoDeletionTime would turn the data live.
Status GetExpiry(DecodeCursor& in, const EncodingStats& stats, int64_t* ldt,
                 std::string_view what) {
  CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_local_deletion_time, ldt, what));
  if (*ldt == kNoDeletionTime) {
    return in.Error("missing local deletion time in " + std::string(what));
  }
  return Status::OK();
}

// A present deletion: kNoTimestamp would read back as "no deletion".
Status GetDeletionBody(DecodeCursor& in, const EncodingStats& stats, DeletionTime* d,
                       std::string_view what) {
  CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_timestamp, &d->marked_for_delete_at, what));
  CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_local_deletion_time, &d->local_deletion_time, what));
  if (d->IsLive()) return in.Error("live deletion time in " + std::string(what));
  return Status::OK();
}

Status GetCellBody(DecodeCursor& in, uint8_t flags, const RowDefaults& d,
                   const EncodingStats& stats, Cell* c) {
  if ((flags & (kCellUseRowTimestamp | kCellUseRowTtl)) && !d.present) {
    return in.Error("cell refers to missing row defaults");
  }
  int kinds = !!(flags & kCellUseRowTtl) + !!(flags & kCellDeleted) + !!(flags & kCellExpiring);
  if (kinds > 1) return in.Error("conflicting cell flags");
  if (flags & kCellUseRowTimestamp) {
    c->timestamp = d.timestamp;
  } else {
    CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_timestamp, &c->timestamp, "cell timestamp"));
  }
  if (flags & kCellUseRowTtl) {
    c->ttl = d.ttl;
    c->local_deletion_time = d.local_deletion_time;
  } else if (flags & kCellDeleted) {
    c->ttl = 0;
    CASSETTE_RETURN_IF_ERROR(GetExpiry(in, stats, &c->local_deletion_time, "cell tombstone"));
  } else if (flags & kCellExpiring) {
    CASSETTE_RETURN_IF_ERROR(GetTtl(in, stats, &c->ttl, "expiring cell"));
    CASSETTE_RETURN_IF_ERROR(GetExpiry(in, stats, &c->local_deletion_time, "expiring cell"));
  } else {
    c->ttl = 0;
    c->local_deletion_time = kNoDeletionTime;
  }
  if (flags & kCellEmptyValue) {
    c->value.clear();
  } else {
    CASSETTE_RETURN_IF_ERROR(in.Bytes(&c->value, "cell value"));
    if (c->value.empty()) return in.Error("empty value without its flag");
  }
  return Status::OK();
}

Status GetColumn(DecodeCursor& in, const RowDefaults& d, const EncodingStats& stats,
                 ColumnData* col) {
  uint8_t flags = 0;
  CASSETTE_RETURN_IF_ERROR(in.Byte(&flags, "column flags"));
  if (!(flags & kColumnComplex)) {
    if (flags & (kColumnComplexDeletion | ~(kCellKnownFlags))) {
      return in.Error("unknown column flags");
    }
    col->is_complex = false;
    col->complex_deletion = DeletionTime::Live();
    col->cells.resize(1);  // reuses the slot's cell and its value buffer
    Cell& c = col->cells[0];
    c.path.clear();
    return GetCellBody(in, flags, d, stats, &c);
  }
  if (flags & ~(kColumnComplex | kColumnComplexDeletion)) return in.Error("unknown column flags");
  col->is_complex = true;
  col->complex_deletion = DeletionTime::Live();
  col->cells.clear();
  if (flags & kColumnComplexDeletion) {
    CASSETTE_RETURN_IF_ERROR(
        GetDeletionBody(in, stats, &col->complex_deletion, "complex deletion"));
  }
  uint64_t n;
  CASSETTE_RETURN_IF_ERROR(in.Varint(&n, "collection cell count"));
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t cell_flags = 0;
    CASSETTE_RETURN_IF_ERROR(in.Byte(&cell_flags, "cell flags"));
    if (cell_flags & ~kCellKnownFlags) return in.Error("unknown cell flags");
    Cell c;
    CASSETTE_RETURN_IF_ERROR(in.Bytes(&c.path, "cell path"));
    // Collection cells are sorted by path and unique (reconcile.h relies on it).
    if (!col->cells.empty() && !(col->cells.back().path < c.path)) {
      return in.Error("collection cells out of path order");
    }
    CASSETTE_RETURN_IF_ERROR(GetCellBody(in, cell_flags, d, stats, &c));
    col->cells.push_back(std::move(c));
  }
  return Status::OK();
}

// Replaces the row's marker, deletion and columns (those absent from the
// body become empty); on error the marker and deletion are untouched.
Status GetRowBody(DecodeCursor& in, const EncodingStats& stats, Row* row) {
  uint8_t flags = 0;
  CASSETTE_RETURN_IF_ERROR(in.Byte(&flags, "row flags"));
  if (flags & ~kRowKnownFlags) return in.Error("unknown row flags");
  if ((flags & kRowHasMarker) && (flags & kRowHasDefault)) {
    return in.Error("row has both a marker and defaults");
  }
  RowDefaults d;
  if (flags & (kRowHasMarker | kRowHasDefault)) {
    d.present = true;
    CASSETTE_RETURN_IF_ERROR(in.Delta(stats.min_timestamp, &d.timestamp, "row timestamp"));
    if (flags & kRowExpiringDefault) {
      CASSETTE_RETURN_IF_ERROR(GetTtl(in, stats, &d.ttl, "row ttl"));
      CASSETTE_RETURN_IF_ERROR(GetExpiry(in, stats, &d.local_deletion_time, "row ttl"));
    }
  } else if (flags & kRowExpiringDefault) {
    return in.Error("row ttl without a row timestamp");
  }
  LivenessInfo marker;
  if (flags & kRowHasMarker) {
    if (d.timestamp == kNoTimestamp) return in.Error("missing marker timestamp");
    marker.timestamp = d.timestamp;
    marker.ttl = d.ttl;
    marker.local_expiration_time = d.local_deletion_time;
  }
  DeletionTime deletion = DeletionTime::Live();
  if (flags & kRowHasDeletion) {
    CASSETTE_RETURN_IF_ERROR(GetDeletionBody(in, stats, &deletion, "row deletion"));
  }
  // Column slots already in row->columns are reused (their vectors and
  // strings keep their capacity): a reader decoding a block of rows into one
  // Row then allocates almost nothing per row.
  const size_t reusable = row->columns.size();
  if (!(flags & kRowHasColumns)) row->columns.clear();
  if (flags & kRowHasColumns) {
    uint64_t n;
    CASSETTE_RETURN_IF_ERROR(in.Varint(&n, "column count"));
    if (n == 0) return in.Error("empty column list");
    uint64_t next_id = 0;  // smallest id the next column may have
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t delta;
      CASSETTE_RETURN_IF_ERROR(in.Varint(&delta, "column id"));
      uint64_t id = next_id + delta;
      if (delta > std::numeric_limits<uint32_t>::max() ||
          id > std::numeric_limits<uint32_t>::max()) {
        return in.Error("column id out of range");
      }
      ColumnData& col = i < reusable ? row->columns[i] : row->columns.emplace_back();
      col.column_id = static_cast<uint32_t>(id);
      CASSETTE_RETURN_IF_ERROR(GetColumn(in, d, stats, &col));
      next_id = id + 1;
    }
    if (n < row->columns.size()) row->columns.resize(n);
  }
  row->marker = marker;
  row->deletion = deletion;
  return Status::OK();
}

Status GetRow(DecodeCursor& in, const EncodingStats& stats, Row* row) {
  CASSETTE_RETURN_IF_ERROR(in.Bytes(&row->clustering, "clustering"));
  return GetRowBody(in, stats, row);
}

Status GetDeletionTime(DecodeCursor& in, const EncodingStats& stats, DeletionTime* d) {
  uint8_t tag = 0;
  CASSETTE_RETURN_IF_ERROR(in.Byte(&tag, "deletion time"));
  if (tag == kDeletionLive) {
    *d = DeletionTime::Live();
    return Status::OK();
  }
  if (tag != kDeletionPresent) return in.Error("bad deletion time tag");
  return GetDeletionBody(in, stats, d, "deletion time");
}

Status GetRangeTombstone(DecodeCursor& in, const EncodingStats& stats, RangeTombstone* rt) {
  uint8_t flags = 0;
  CASSETTE_RETURN_IF_ERROR(in.Byte(&flags, "range tombstone flags"));
  if (flags & ~kRtKnownFlags) return in.Error("unknown range tombstone flags");
  rt->range.start.inclusive = (flags & kRtStartInclusive) != 0;
  rt->range.end.inclusive = (flags & kRtEndInclusive) != 0;
  CASSETTE_RETURN_IF_ERROR(in.Bytes(&rt->range.start.prefix, "range tombstone start"));
  CASSETTE_RETURN_IF_ERROR(in.Bytes(&rt->range.end.prefix, "range tombstone end"));
  if (flags & kRtLiveDeletion) {
    rt->deletion = DeletionTime::Live();
    return Status::OK();
  }
  return GetDeletionBody(in, stats, &rt->deletion, "range tombstone");
}

// Runs a cursor-based decoder over *in; advances *in only on success.
template <class Fn>
Status DecodeWith(std::string_view* in, Fn&& fn) {
  DecodeCursor cursor(*in);
  CASSETTE_RETURN_IF_ERROR(fn(cursor));
  *in = cursor.remaining();
  return Status::OK();
}

// Minima over the update, so that its deltas are small and non-negative.
EncodingStats StatsOf(const PartitionUpdate& u) {
  EncodingStats s;
  int64_t min_ts = u.MinTimestamp();
  s.min_timestamp = min_ts == std::numeric_limits<int64_t>::max() ? 0 : min_ts;
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
  s.min_local_deletion_time = min_ldt == kNoDeletionTime ? 0 : min_ldt;
  s.min_ttl = min_ttl == std::numeric_limits<int32_t>::max() ? 0 : min_ttl;
  return s;
}

Status GetPartitionUpdate(DecodeCursor& in, PartitionUpdate* u) {
  CASSETTE_RETURN_IF_ERROR(in.Varint(&u->table_id, "table id"));
  std::string key;
  CASSETTE_RETURN_IF_ERROR(in.Bytes(&key, "partition key"));
  u->key = DecoratedKey::FromKey(std::move(key));
  EncodingStats stats;
  CASSETTE_RETURN_IF_ERROR(in.Delta(0, &stats.min_timestamp, "encoding stats"));
  CASSETTE_RETURN_IF_ERROR(in.Delta(0, &stats.min_local_deletion_time, "encoding stats"));
  int64_t min_ttl;
  CASSETTE_RETURN_IF_ERROR(in.Delta(0, &min_ttl, "encoding stats"));
  if (min_ttl < 0 || min_ttl > std::numeric_limits<int32_t>::max()) {
    return in.Error("bad minimum ttl in encoding stats");
  }
  stats.min_ttl = static_cast<int32_t>(min_ttl);
  CASSETTE_RETURN_IF_ERROR(GetDeletionTime(in, stats, &u->partition_deletion));
  uint8_t flags = 0;
  CASSETTE_RETURN_IF_ERROR(in.Byte(&flags, "partition flags"));
  if (flags & ~kUpdateKnownFlags) return in.Error("unknown partition flags");
  if (flags & kUpdateHasStaticRow) {
    CASSETTE_RETURN_IF_ERROR(GetRowBody(in, stats, &u->static_row));
  }
  if (flags & kUpdateHasRangeTombstones) {
    uint64_t n;
    CASSETTE_RETURN_IF_ERROR(in.Varint(&n, "range tombstone count"));
    if (n == 0) return in.Error("empty range tombstone list");
    for (uint64_t i = 0; i < n; ++i) {
      CASSETTE_RETURN_IF_ERROR(GetRangeTombstone(in, stats, &u->range_tombstones.emplace_back()));
    }
  }
  if (flags & kUpdateHasRows) {
    uint64_t n;
    CASSETTE_RETURN_IF_ERROR(in.Varint(&n, "row count"));
    if (n == 0) return in.Error("empty row list");
    for (uint64_t i = 0; i < n; ++i) {
      Row& r = u->rows.emplace_back();
      CASSETTE_RETURN_IF_ERROR(GetRow(in, stats, &r));
      if (u->rows.size() > 1 && !(u->rows[u->rows.size() - 2].clustering < r.clustering)) {
        return in.Error("rows out of clustering order");
      }
    }
  }
  return Status::OK();
}

}  // namespace

void EncodeRowBody(const Row& row, const EncodingStats& stats, std::string* out) {
  uint8_t flags = 0;
  RowDefaults d = ChooseDefaults(row, &flags);
  if (!row.deletion.IsLive()) flags |= kRowHasDeletion;
  size_t ncols =
      static_cast<size_t>(std::count_if(row.columns.begin(), row.columns.end(), IsWritten));
  if (ncols > 0) flags |= kRowHasColumns;
  out->push_back(static_cast<char>(flags));
  if (d.present) {
    PutDelta(out, d.timestamp, stats.min_timestamp);
    if (flags & kRowExpiringDefault) {
      PutDelta(out, d.ttl, stats.min_ttl);
      PutDelta(out, d.local_deletion_time, stats.min_local_deletion_time);
    }
  }
  if (flags & kRowHasDeletion) PutDeletionBody(out, row.deletion, stats);
  if (ncols == 0) return;
  PutVarint64(out, ncols);
  uint32_t next_id = 0;
  for (const ColumnData& col : row.columns) {
    if (!IsWritten(col)) continue;
    // REQUIRES: columns sorted by id and unique.
    PutColumn(out, col, col.column_id - next_id, d, stats);
    next_id = col.column_id + 1;
  }
}

Status DecodeRowBody(std::string_view* in, const EncodingStats& stats, Row* row) {
  // Decodes straight into the caller's row to reuse its column storage; on
  // error its columns are unspecified (marker and deletion are untouched).
  return DecodeWith(in, [&](DecodeCursor& c) { return GetRowBody(c, stats, row); });
}

void EncodeRow(const Row& row, const EncodingStats& stats, std::string* out) {
  PutLengthPrefixed(out, row.clustering);
  EncodeRowBody(row, stats, out);
}

Status DecodeRow(std::string_view* in, const EncodingStats& stats, Row* row) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    Row decoded;
    CASSETTE_RETURN_IF_ERROR(GetRow(c, stats, &decoded));
    *row = std::move(decoded);
    return Status::OK();
  });
}

void EncodeDeletionTime(const DeletionTime& d, const EncodingStats& stats, std::string* out) {
  if (d.IsLive()) {
    out->push_back(static_cast<char>(kDeletionLive));
    return;
  }
  out->push_back(static_cast<char>(kDeletionPresent));
  PutDeletionBody(out, d, stats);
}

Status DecodeDeletionTime(std::string_view* in, const EncodingStats& stats, DeletionTime* d) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    DeletionTime decoded;
    CASSETTE_RETURN_IF_ERROR(GetDeletionTime(c, stats, &decoded));
    *d = decoded;
    return Status::OK();
  });
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

Status DecodeRangeTombstone(std::string_view* in, const EncodingStats& stats, RangeTombstone* rt) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    RangeTombstone decoded;
    CASSETTE_RETURN_IF_ERROR(GetRangeTombstone(c, stats, &decoded));
    *rt = std::move(decoded);
    return Status::OK();
  });
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

Status DecodePartitionUpdate(std::string_view* in, PartitionUpdate* update) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    PartitionUpdate decoded;
    CASSETTE_RETURN_IF_ERROR(GetPartitionUpdate(c, &decoded));
    *update = std::move(decoded);
    return Status::OK();
  });
}

}  // namespace cassette
