// Decoding of the row codec (row_codec.h): rows, deletion times, range
// tombstones and partition updates, the scan of a row body for compaction,
// and the shortcuts for plain rows. Encoding is in row_codec.cc; the byte
// layout in FORMAT.md.
#include <algorithm>
#include <cstring>
#include <limits>

#include "engine/mutation/decode_cursor.h"
#include "engine/mutation/plain_row_parse.h"
#include "engine/mutation/row_codec.h"
#include "engine/mutation/row_codec_format.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

using namespace row_format;  // NOLINT: flag names only

bool GetTtl(DecodeCursor& in, const EncodingStats& stats, int32_t* ttl, std::string_view what) {
  int64_t v;
  if (!in.Delta(stats.min_ttl, &v, what, DeltaField::kTtl)) return false;
  if (v <= 0 || v > std::numeric_limits<int32_t>::max()) {
    return in.Fail("bad ttl in " + std::string(what));
  }
  *ttl = static_cast<int32_t>(v);
  return true;
}

// An expiry must be a real second; kNoDeletionTime would turn the data live.
bool GetExpiry(DecodeCursor& in, const EncodingStats& stats, int64_t* ldt, std::string_view what) {
  if (!in.Delta(stats.min_local_deletion_time, ldt, what, DeltaField::kLocalDeletionTime)) {
    return false;
  }
  if (*ldt == kNoDeletionTime) {
    return in.Fail("missing local deletion time in " + std::string(what));
  }
  return true;
}

// A present deletion: kNoTimestamp would read back as "no deletion".
bool GetDeletionBody(DecodeCursor& in, const EncodingStats& stats, DeletionTime* d,
                     std::string_view what) {
  if (!in.Delta(stats.min_timestamp, &d->marked_for_delete_at, what)) return false;
  if (!in.Delta(stats.min_local_deletion_time, &d->local_deletion_time, what,
                DeltaField::kLocalDeletionTime)) {
    return false;
  }
  if (d->IsLive()) return in.Fail("live deletion time in " + std::string(what));
  return true;
}

// A cell's time fields and value as parsed; the value views the input.
struct CellFields {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;
  int64_t local_deletion_time = kNoDeletionTime;
  std::string_view value;
};

bool GetCellFields(DecodeCursor& in, uint8_t flags, const RowDefaults& d,
                   const EncodingStats& stats, CellFields* c) {
  if ((flags & (kCellUseRowTimestamp | kCellUseRowTtl)) && !d.present) {
    return in.Fail("cell refers to missing row defaults");
  }
  int kinds = !!(flags & kCellUseRowTtl) + !!(flags & kCellDeleted) + !!(flags & kCellExpiring);
  if (kinds > 1) return in.Fail("conflicting cell flags");
  if (flags & kCellUseRowTimestamp) {
    c->timestamp = d.timestamp;
  } else {
    if (!in.Delta(stats.min_timestamp, &c->timestamp, "cell timestamp")) return false;
  }
  if (flags & kCellUseRowTtl) {
    c->ttl = d.ttl;
    c->local_deletion_time = d.local_deletion_time;
  } else if (flags & kCellDeleted) {
    c->ttl = 0;
    if (!GetExpiry(in, stats, &c->local_deletion_time, "cell tombstone")) return false;
  } else if (flags & kCellExpiring) {
    if (!GetTtl(in, stats, &c->ttl, "expiring cell")) return false;
    if (!GetExpiry(in, stats, &c->local_deletion_time, "expiring cell")) return false;
  } else {
    c->ttl = 0;
    c->local_deletion_time = kNoDeletionTime;
  }
  if (flags & kCellEmptyValue) {
    c->value = {};
  } else {
    if (!in.BytesView(&c->value, "cell value")) return false;
    if (c->value.empty()) return in.Fail("empty value without its flag");
  }
  return true;
}

// One parser for row bodies, with a sink that receives what it parsed:
// RowSink decodes into a Row, ScanSink summarizes (RowBodyScan). Sharing
// the parser makes the two accept exactly the same bodies. A sink is told, in order:
//   Header(row flags, defaults, marker, row deletion)
//   NoColumns() or ColumnCount(n), then per column BeginColumn(index, id,
//   id delta) and either SimpleColumn(flags, cell) or
//   BeginComplexColumn(flags, complex deletion, cell count) and
//   ComplexCell(flags, path, cell) per cell
//   End(column count)
// and nothing after a failure.
template <class Sink>
bool GetColumn(DecodeCursor& in, const RowDefaults& d, const EncodingStats& stats, Sink& sink) {
  uint8_t flags = 0;
  if (!in.Byte(&flags, "column flags")) return false;
  CellFields c;
  if (!(flags & kColumnComplex)) {
    if (flags & (kColumnComplexDeletion | ~(kCellKnownFlags))) {
      return in.Fail("unknown column flags");
    }
    if (!GetCellFields(in, flags, d, stats, &c)) return false;
    sink.SimpleColumn(flags, c);
    return true;
  }
  if (flags & ~(kColumnComplex | kColumnComplexDeletion)) return in.Fail("unknown column flags");
  DeletionTime complex_deletion = DeletionTime::Live();
  if (flags & kColumnComplexDeletion) {
    if (!GetDeletionBody(in, stats, &complex_deletion, "complex deletion")) return false;
  }
  uint64_t n;
  if (!in.Varint(&n, "collection cell count")) return false;
  sink.BeginComplexColumn(flags, complex_deletion, n);
  std::string_view prev_path;
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t cell_flags = 0;
    if (!in.Byte(&cell_flags, "cell flags")) return false;
    if (cell_flags & ~kCellKnownFlags) return in.Fail("unknown cell flags");
    std::string_view path;
    if (!in.BytesView(&path, "cell path")) return false;
    // Collection cells are sorted by path and unique (reconcile.h relies on it).
    if (i > 0 && !(prev_path < path)) return in.Fail("collection cells out of path order");
    if (!GetCellFields(in, cell_flags, d, stats, &c)) return false;
    sink.ComplexCell(cell_flags, path, c);
    prev_path = path;
  }
  return true;
}

template <class Sink>
bool ParseRowBody(DecodeCursor& in, const EncodingStats& stats, Sink& sink) {
  uint8_t flags = 0;
  if (!in.Byte(&flags, "row flags")) return false;
  if (flags & ~kRowKnownFlags) return in.Fail("unknown row flags");
  if ((flags & kRowHasMarker) && (flags & kRowHasDefault)) {
    return in.Fail("row has both a marker and defaults");
  }
  RowDefaults d;
  if (flags & (kRowHasMarker | kRowHasDefault)) {
    d.present = true;
    if (!in.Delta(stats.min_timestamp, &d.timestamp, "row timestamp")) return false;
    if (flags & kRowExpiringDefault) {
      if (!GetTtl(in, stats, &d.ttl, "row ttl")) return false;
      if (!GetExpiry(in, stats, &d.local_deletion_time, "row ttl")) return false;
    }
  } else if (flags & kRowExpiringDefault) {
    return in.Fail("row ttl without a row timestamp");
  }
  LivenessInfo marker;
  if (flags & kRowHasMarker) {
    if (d.timestamp == kNoTimestamp) return in.Fail("missing marker timestamp");
    marker.timestamp = d.timestamp;
    marker.ttl = d.ttl;
    marker.local_expiration_time = d.local_deletion_time;
  }
  DeletionTime deletion = DeletionTime::Live();
  if (flags & kRowHasDeletion) {
    if (!GetDeletionBody(in, stats, &deletion, "row deletion")) return false;
  }
  sink.Header(flags, d, marker, deletion);
  uint64_t n = 0;
  if (!(flags & kRowHasColumns)) {
    sink.NoColumns();
  } else {
    if (!in.Varint(&n, "column count")) return false;
    if (n == 0) return in.Fail("empty column list");
    sink.ColumnCount(n);
    uint64_t next_id = 0;  // smallest id the next column may have
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t delta;
      if (!in.Varint(&delta, "column id")) return false;
      uint64_t id = next_id + delta;
      if (delta > std::numeric_limits<uint32_t>::max() ||
          id > std::numeric_limits<uint32_t>::max()) {
        return in.Fail("column id out of range");
      }
      sink.BeginColumn(i, static_cast<uint32_t>(id), static_cast<uint32_t>(delta));
      if (!GetColumn(in, d, stats, sink)) return false;
      next_id = id + 1;
    }
  }
  sink.End(n);
  return true;
}

void AssignCell(const CellFields& f, Cell* c) {
  c->timestamp = f.timestamp;
  c->ttl = f.ttl;
  c->local_deletion_time = f.local_deletion_time;
  // Rows decoded into reused storage mostly keep their values' lengths
  // from row to row: a copy over the old bytes is then enough.
  if (c->value.size() == f.value.size()) {
    if (!f.value.empty()) std::memcpy(c->value.data(), f.value.data(), f.value.size());
  } else {
    c->value.assign(f.value);
  }
}

// Decodes into a Row, replacing its marker, deletion and columns (those
// absent from the body become empty). Column slots already in the row are
// reused (their vectors and strings keep their capacity): a reader
// decoding a block of rows into one Row then allocates almost nothing per
// row. The marker and deletion are set only at the end, so on error they
// are untouched (the columns are unspecified).
struct RowSink {
  explicit RowSink(Row* r) : row(r), reusable(r->columns.size()) {}

  void Header(uint8_t, const RowDefaults&, const LivenessInfo& m, const DeletionTime& d) {
    marker = m;
    deletion = d;
  }
  void NoColumns() { row->columns.clear(); }
  void ColumnCount(uint64_t) {}
  void BeginColumn(uint64_t i, uint32_t id, uint32_t) {
    col = i < reusable ? &row->columns[i] : &row->columns.emplace_back();
    col->column_id = id;
  }
  void SimpleColumn(uint8_t, const CellFields& f) {
    col->is_complex = false;
    col->complex_deletion = DeletionTime::Live();
    col->cells.resize(1);  // reuses the slot's cell and its value buffer
    Cell& c = col->cells[0];
    c.path.clear();
    AssignCell(f, &c);
  }
  void BeginComplexColumn(uint8_t, const DeletionTime& d, uint64_t) {
    col->is_complex = true;
    col->complex_deletion = d;
    col->cells.clear();
  }
  void ComplexCell(uint8_t, std::string_view path, const CellFields& f) {
    Cell& c = col->cells.emplace_back();
    c.path.assign(path);
    AssignCell(f, &c);
  }
  void End(uint64_t n) {
    if (n < row->columns.size()) row->columns.resize(n);
    row->marker = marker;
    row->deletion = deletion;
  }

  Row* row;
  size_t reusable;
  ColumnData* col = nullptr;
  LivenessInfo marker;
  DeletionTime deletion;
};

// Summarizes a body (RowBodyScan) the way StatsCollector and compaction's
// "passes unchanged" test see the decoded row.
struct ScanSink {
  explicit ScanSink(RowBodyScan* s) : scan(s) {
    std::vector<DeltaField> fields = std::move(scan->fields);  // keeps its storage
    fields.clear();
    *scan = RowBodyScan{};
    scan->fields = std::move(fields);
  }

  void Time(int64_t ts) {
    scan->min_timestamp = std::min(scan->min_timestamp, ts);
    scan->max_timestamp = std::max(scan->max_timestamp, ts);
  }
  void Ttl(int32_t ttl) {
    scan->min_ttl = std::min(scan->min_ttl, ttl);
    scan->max_ttl = std::max(scan->max_ttl, ttl);
  }
  void DeletionTimeOf(int64_t ldt) {
    scan->min_local_deletion_time = std::min(scan->min_local_deletion_time, ldt);
    scan->max_local_deletion_time = std::max(scan->max_local_deletion_time, ldt);
    if (ldt == kNoDeletionTime) return;
    if (scan->drop_time_count == 0) {
      scan->drop_time = ldt;
    } else if (ldt != scan->drop_time) {
      scan->mixed_drop_times = true;
    }
    ++scan->drop_time_count;
  }
  void Deletion(const DeletionTime& d) {
    Time(d.marked_for_delete_at);
    DeletionTimeOf(d.local_deletion_time);
  }
  void Cell(const CellFields& f) {
    ++scan->cells;
    if (f.ttl == 0 && f.local_deletion_time != kNoDeletionTime) ++scan->tombstones;
    if (f.ttl > 0) {
      ++scan->expiring_cells;
      scan->min_cell_expiry = std::min(scan->min_cell_expiry, f.local_deletion_time);
    }
    Time(f.timestamp);
    Ttl(f.ttl);
    DeletionTimeOf(f.local_deletion_time);
  }

  void Header(uint8_t, const RowDefaults& defaults, const LivenessInfo& m, const DeletionTime& d) {
    scan->defaults = defaults;
    scan->marker = m;
    if (!m.IsEmpty()) {
      Time(m.timestamp);
      Ttl(m.ttl);
      DeletionTimeOf(m.IsExpiring() ? m.local_expiration_time : kNoDeletionTime);
    }
    scan->has_deletion = !d.IsLive();
    if (scan->has_deletion) Deletion(d);
  }
  void NoColumns() {}
  void ColumnCount(uint64_t n) { scan->columns = n; }
  void BeginColumn(uint64_t, uint32_t, uint32_t) {}
  void SimpleColumn(uint8_t, const CellFields& f) { Cell(f); }
  void BeginComplexColumn(uint8_t, const DeletionTime& d, uint64_t n) {
    if (!d.IsLive()) {
      ++scan->complex_deletions;
      Deletion(d);
    }
    if (n == 0) ++scan->empty_columns;
  }
  void ComplexCell(uint8_t, std::string_view, const CellFields& f) { Cell(f); }
  void End(uint64_t) {}

  RowBodyScan* scan;
};

bool GetRowBody(DecodeCursor& in, const EncodingStats& stats, Row* row) {
  RowSink sink(row);
  return ParseRowBody(in, stats, sink);
}

bool GetRow(DecodeCursor& in, const EncodingStats& stats, Row* row) {
  if (!in.Bytes(&row->clustering, "clustering")) return false;
  return GetRowBody(in, stats, row);
}

bool GetDeletionTime(DecodeCursor& in, const EncodingStats& stats, DeletionTime* d) {
  uint8_t tag = 0;
  if (!in.Byte(&tag, "deletion time")) return false;
  if (tag == kDeletionLive) {
    *d = DeletionTime::Live();
    return true;
  }
  if (tag != kDeletionPresent) return in.Fail("bad deletion time tag");
  return GetDeletionBody(in, stats, d, "deletion time");
}

bool GetRangeTombstone(DecodeCursor& in, const EncodingStats& stats, RangeTombstone* rt) {
  uint8_t flags = 0;
  if (!in.Byte(&flags, "range tombstone flags")) return false;
  if (flags & ~kRtKnownFlags) return in.Fail("unknown range tombstone flags");
  rt->range.start.inclusive = (flags & kRtStartInclusive) != 0;
  rt->range.end.inclusive = (flags & kRtEndInclusive) != 0;
  if (!in.Bytes(&rt->range.start.prefix, "range tombstone start")) return false;
  if (!in.Bytes(&rt->range.end.prefix, "range tombstone end")) return false;
  if (flags & kRtLiveDeletion) {
    rt->deletion = DeletionTime::Live();
    return true;
  }
  return GetDeletionBody(in, stats, &rt->deletion, "range tombstone");
}

// Runs a cursor-based decoder over *in; advances *in only on success.
template <class Fn>
Status DecodeWith(std::string_view* in, Fn&& fn) {
  DecodeCursor cursor(*in);
  if (!fn(cursor)) return cursor.status();
  *in = cursor.remaining();
  return Status::OK();
}

bool GetPartitionUpdate(DecodeCursor& in, PartitionUpdate* u) {
  if (!in.Varint(&u->table_id, "table id")) return false;
  std::string key;
  if (!in.Bytes(&key, "partition key")) return false;
  u->key = DecoratedKey::FromKey(std::move(key));
  EncodingStats stats;
  if (!in.Delta(0, &stats.min_timestamp, "encoding stats")) return false;
  if (!in.Delta(0, &stats.min_local_deletion_time, "encoding stats")) return false;
  int64_t min_ttl;
  if (!in.Delta(0, &min_ttl, "encoding stats")) return false;
  if (min_ttl < 0 || min_ttl > std::numeric_limits<int32_t>::max()) {
    return in.Fail("bad minimum ttl in encoding stats");
  }
  stats.min_ttl = static_cast<int32_t>(min_ttl);
  if (!GetDeletionTime(in, stats, &u->partition_deletion)) return false;
  uint8_t flags = 0;
  if (!in.Byte(&flags, "partition flags")) return false;
  if (flags & ~kUpdateKnownFlags) return in.Fail("unknown partition flags");
  if (flags & kUpdateHasStaticRow) {
    if (!GetRowBody(in, stats, &u->static_row)) return false;
  }
  if (flags & kUpdateHasRangeTombstones) {
    uint64_t n;
    if (!in.Varint(&n, "range tombstone count")) return false;
    if (n == 0) return in.Fail("empty range tombstone list");
    for (uint64_t i = 0; i < n; ++i) {
      if (!GetRangeTombstone(in, stats, &u->range_tombstones.emplace_back())) return false;
    }
  }
  if (flags & kUpdateHasRows) {
    uint64_t n;
    if (!in.Varint(&n, "row count")) return false;
    if (n == 0) return in.Fail("empty row list");
    for (uint64_t i = 0; i < n; ++i) {
      Row& r = u->rows.emplace_back();
      if (!GetRow(in, stats, &r)) return false;
      if (u->rows.size() > 1 && !(u->rows[u->rows.size() - 2].clustering < r.clustering)) {
        return in.Fail("rows out of clustering order");
      }
    }
  }
  return true;
}

}  // namespace

namespace {

// DecodeRowBody's shortcut for the commonest rows (those ScanPlainRow
// takes: a marker or defaults, no deletion, simple columns whose cells
// take the row's timestamp and its TTL or none). Returns false for any
// other body, well-formed or not, having set only column slots (which the
// parser then redefines); it decodes exactly what the parser would.
bool DecodePlainRow(std::string_view* body, const EncodingStats& stats, Row* row) {
  PlainRowHead head;
  const size_t reusable = row->columns.size();
  size_t n = 0;
  const bool plain =
      ParsePlainRow(body, stats, &head, [&](uint32_t id, bool row_ttl, std::string_view value) {
        CellFields f;
        f.timestamp = head.timestamp;
        if (row_ttl) {
          f.ttl = head.ttl;
          f.local_deletion_time = head.local_deletion_time;
        }
        f.value = value;
        ColumnData* col = n < reusable ? &row->columns[n] : &row->columns.emplace_back();
        ++n;
        col->column_id = id;
        col->is_complex = false;
        col->complex_deletion = DeletionTime::Live();
        col->cells.resize(1);
        Cell& c = col->cells[0];
        c.path.clear();
        AssignCell(f, &c);
        return true;
      });
  if (!plain) return false;
  if (n < row->columns.size()) row->columns.resize(n);
  row->marker = head.has_marker ? LivenessInfo{head.timestamp, head.ttl, head.local_deletion_time}
                                : LivenessInfo{};
  row->deletion = DeletionTime::Live();
  return true;
}

}  // namespace

bool ReadPlainRow(std::string_view body, const EncodingStats& stats, PlainRowView* row) {
  PlainRowHead head;
  size_t n = 0;
  const bool plain =
      ParsePlainRow(&body, stats, &head, [&](uint32_t id, bool row_ttl, std::string_view value) {
        // Sized from the rows before: a table's rows mostly have the same columns.
        if (n == row->columns.size()) row->columns.emplace_back();
        row->columns[n++] = {id, row_ttl, value};
        return true;
      });
  if (!plain || !body.empty()) return false;
  row->columns.resize(n);
  row->has_marker = head.has_marker;
  row->timestamp = head.timestamp;
  row->ttl = head.ttl;
  row->local_deletion_time = head.local_deletion_time;
  return true;
}

Status DecodeRowBody(std::string_view* in, const EncodingStats& stats, Row* row) {
  if (DecodePlainRow(in, stats, row)) return Status::OK();
  // Decodes straight into the caller's row to reuse its column storage; on
  // error its columns are unspecified (marker and deletion are untouched).
  return DecodeWith(in, [&](DecodeCursor& c) { return GetRowBody(c, stats, row); });
}

namespace {

// ScanRowBody's shortcut for the commonest rows, an INSERT's or an
// UPDATE's: a marker or defaults, no deletion, and simple columns whose
// cells take the row's timestamp (and its TTL, or none). Returns false,
// having summarized nothing, for any other body, well-formed or not: the
// parser then decides, so both accept and reject exactly the same bodies
// (and give the same summary: the tests compare them).
bool ScanPlainRow(std::string_view in, const EncodingStats& stats, RowBodyScan* scan) {
  PlainRowHead head;
  uint64_t ncols = 0;
  // Cells taking the row's TTL, and the others (live, no TTL).
  uint64_t with_ttl = 0;
  if (!ParsePlainRow(&in, stats, &head,
                     [&](uint32_t, bool row_ttl, std::string_view) {
                       ++ncols;
                       if (row_ttl) ++with_ttl;
                       return true;
                     }) ||
      !in.empty()) {
    return false;
  }
  const RowDefaults d{true, head.timestamp, head.ttl, head.local_deletion_time};

  // The summary ScanSink gives such a row: every cell is at the row's
  // timestamp, with the row's TTL and expiry or with none.
  ScanSink sink(scan);
  LivenessInfo marker;
  if (head.has_marker) marker = {d.timestamp, d.ttl, d.local_deletion_time};
  sink.Header(0, d, marker, DeletionTime::Live());
  sink.ColumnCount(ncols);
  const uint64_t live = ncols - with_ttl;
  scan->cells = ncols;
  sink.Time(d.timestamp);
  if (live > 0) {
    sink.Ttl(0);
    sink.DeletionTimeOf(kNoDeletionTime);
  }
  if (with_ttl > 0) {
    sink.Ttl(d.ttl);
    // What with_ttl calls of DeletionTimeOf(d.local_deletion_time) give.
    const int64_t ldt = d.local_deletion_time;
    scan->min_local_deletion_time = std::min(scan->min_local_deletion_time, ldt);
    scan->max_local_deletion_time = std::max(scan->max_local_deletion_time, ldt);
    if (ldt != kNoDeletionTime) {
      if (scan->drop_time_count == 0) {
        scan->drop_time = ldt;
      } else if (ldt != scan->drop_time) {
        scan->mixed_drop_times = true;
      }
      scan->drop_time_count += with_ttl;
    }
    if (d.ttl > 0) {
      scan->expiring_cells = with_ttl;
      scan->min_cell_expiry = std::min(scan->min_cell_expiry, ldt);
    } else if (ldt != kNoDeletionTime) {
      scan->tombstones = with_ttl;
    }
  }
  // Where re-basing rewrites the time values: the timestamp after the
  // flags byte, then with a TTL the TTL and the expiry.
  scan->fields.push_back({1, head.time_ends[0], DeltaField::kTimestamp, head.timestamp});
  if (head.ttl > 0) {
    scan->fields.push_back({head.time_ends[0], head.time_ends[1], DeltaField::kTtl, head.ttl});
    scan->fields.push_back({head.time_ends[1], head.time_ends[2], DeltaField::kLocalDeletionTime,
                            head.local_deletion_time});
  }
  return true;
}

}  // namespace

Status ScanRowBody(std::string_view body, const EncodingStats& stats, RowBodyScan* scan) {
  if (ScanPlainRow(body, stats, scan)) return Status::OK();
  DecodeCursor cursor(body);
  ScanSink sink(scan);
  cursor.RecordDeltas(&scan->fields);
  if (!ParseRowBody(cursor, stats, sink)) return cursor.status();
  if (!cursor.remaining().empty()) return Status::Corruption("trailing bytes after row body");
  return Status::OK();
}

Status DecodeRow(std::string_view* in, const EncodingStats& stats, Row* row) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    Row decoded;
    if (!GetRow(c, stats, &decoded)) return false;
    *row = std::move(decoded);
    return true;
  });
}

Status DecodeDeletionTime(std::string_view* in, const EncodingStats& stats, DeletionTime* d) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    DeletionTime decoded;
    if (!GetDeletionTime(c, stats, &decoded)) return false;
    *d = decoded;
    return true;
  });
}

Status DecodeRangeTombstone(std::string_view* in, const EncodingStats& stats, RangeTombstone* rt) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    RangeTombstone decoded;
    if (!GetRangeTombstone(c, stats, &decoded)) return false;
    *rt = std::move(decoded);
    return true;
  });
}

Status DecodePartitionUpdate(std::string_view* in, PartitionUpdate* update) {
  return DecodeWith(in, [&](DecodeCursor& c) {
    PartitionUpdate decoded;
    if (!GetPartitionUpdate(c, &decoded)) return false;
    *update = std::move(decoded);
    return true;
  });
}

}  // namespace cassette
