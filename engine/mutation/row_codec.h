// Binary encoding of rows, range tombstones and partition updates, shared
// by the commit log (whole updates) and the SSTable data blocks (rows).
// Timestamps, deletion times and TTLs are written as varint deltas against
// an EncodingStats base (Cassandra's EncodingStats), so time-series cells
// with nearby timestamps cost one or two bytes each. Decoders never trust
// their input: they return Corruption (naming the offset from where decoding
// started), never crash, and advance *in only on success. Decoded rows are
// valid: columns sorted and unique, collection cells sorted by path.
// Byte layout: FORMAT.md beside this file.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/expiry.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/plain_row.h"

namespace cassette {

struct EncodingStats {
  int64_t min_timestamp = 0;
  int64_t min_local_deletion_time = 0;
  int32_t min_ttl = 0;
  friend bool operator==(const EncodingStats&, const EncodingStats&) = default;
};

// The timestamp, ttl and expiry that cells of a row share unless they say
// otherwise: the marker's when the row has one (INSERT), else the first
// cell's (UPDATE). A body writes them once; time-series rows then pay
// nothing per cell for time.
struct RowDefaults {
  bool present = false;
  int64_t timestamp = 0;
  int32_t ttl = 0;  // > 0: the defaults are expiring
  int64_t local_deletion_time = kNoDeletionTime;
  friend bool operator==(const RowDefaults&, const RowDefaults&) = default;
};
RowDefaults RowDefaultsOf(const Row& row);

// Row body: marker, deletion and columns, without the clustering.
void EncodeRowBody(const Row& row, const EncodingStats& stats, std::string* out);
// The same bytes written at `p`, which must have room for
// MaxEncodedRowBodySize(row) of them (a bound, not the size); returns the
// end of what was written. For writers that encode many rows into one
// buffer.
size_t MaxEncodedRowBodySize(const Row& row);
char* EncodeRowBodyTo(const Row& row, const EncodingStats& stats, char* p);
// Decodes a row body from the front of *in and advances *in past it,
// replacing the row's marker, deletion and columns (the clustering is left
// alone). Reuses the storage of the columns already in *row. On error *in
// is unchanged and the row's columns are unspecified.
Status DecodeRowBody(std::string_view* in, const EncodingStats& stats, Row* row);

// A plain row body read in place: an INSERT's or an UPDATE's (a marker or
// defaults, no deletion, simple columns whose cells take the row's
// timestamp, and its TTL or none), the commonest rows by far. Values point
// into the body. What DecodeRowBody gives for the same body: the marker
// (when has_marker) and every cell carry `timestamp`; the cells of columns
// with row_ttl, and the marker, carry `ttl` and `local_deletion_time`; the
// other cells are live without TTL.
struct PlainRowView {
  struct Column {
    uint32_t id = 0;
    bool row_ttl = false;
    std::string_view value;
  };
  bool has_marker = false;
  int64_t timestamp = 0;
  int32_t ttl = 0;  // 0: none
  int64_t local_deletion_time = kNoDeletionTime;
  std::vector<Column> columns;  // sorted by id, at least one

  // Whether nothing in the row has expired at now_sec (so the row is its
  // own live view: no cell turns into a tombstone).
  bool LiveAt(int64_t now_sec) const {
    return ttl == 0 || !IsExpiredAt(local_deletion_time, now_sec);
  }
};
// Reads a whole body that is a plain row into *row (reusing its column
// storage). False for any other body, well-formed or not: DecodeRowBody
// then decodes it, or reports it corrupt.
bool ReadPlainRow(std::string_view body, const EncodingStats& stats, PlainRowView* row);

// Where a time value lies in an encoded row body, the base its delta is
// taken from and its value: what re-basing the body rewrites.
struct DeltaField {
  enum Base : uint8_t { kTimestamp, kLocalDeletionTime, kTtl };
  uint32_t begin = 0;  // offset of its varint in the body
  uint32_t end = 0;
  Base base = kTimestamp;
  int64_t value = 0;
};

// What a compaction needs of an encoded row body without decoding it: the
// figures StatsCollector folds in for the row, and what tells whether
// compacting the row would change it. Field by field the same as the
// decoded row gives.
struct RowBodyScan {
  RowDefaults defaults;
  LivenessInfo marker;
  bool has_deletion = false;   // a row deletion
  uint64_t columns = 0;        // columns written
  uint64_t empty_columns = 0;  // collections without a cell
  uint64_t complex_deletions = 0;
  uint64_t cells = 0;
  uint64_t tombstones = 0;
  uint64_t expiring_cells = 0;
  // The earliest expiry of an expiring cell (kNoDeletionTime: none).
  int64_t min_cell_expiry = kNoDeletionTime;
  // Over the marker, the row and collection deletions and the cells, as
  // SSTableStats counts them (live non-expiring data has kNoDeletionTime).
  int64_t min_timestamp = std::numeric_limits<int64_t>::max();
  int64_t max_timestamp = std::numeric_limits<int64_t>::min();
  int64_t min_local_deletion_time = std::numeric_limits<int64_t>::max();
  int64_t max_local_deletion_time = std::numeric_limits<int64_t>::min();
  int32_t min_ttl = std::numeric_limits<int32_t>::max();
  int32_t max_ttl = 0;
  // The local deletion times other than kNoDeletionTime, in body order:
  // drop_time_count of them, all equal to drop_time unless
  // mixed_drop_times.
  int64_t drop_time = 0;
  uint64_t drop_time_count = 0;
  bool mixed_drop_times = false;
  // Every time value of the body, in body order (RebaseRowBody).
  std::vector<DeltaField> fields;

  // True when compacting the row at now_sec under no covering deletion
  // leaves it exactly as it is: what Row::HoldsOnlyLiveData(now_sec) &&
  // !Row::IsEmpty() answers for the decoded row, from the scan's counts.
  bool PassesUnchanged(int64_t now_sec) const {
    if (has_deletion) return false;
    if (!marker.IsEmpty() && marker.IsExpiring() && !marker.IsLive(now_sec)) return false;
    if (columns == 0) return !marker.IsEmpty();
    return empty_columns == 0 && complex_deletions == 0 && tombstones == 0 &&
           (expiring_cells == 0 || !IsExpiredAt(min_cell_expiry, now_sec));
  }
};

// Checks a whole row body exactly as DecodeRowBody does (the same
// Corruption on the same input, plus trailing bytes) and summarizes it.
// *scan's storage is reused.
Status ScanRowBody(std::string_view body, const EncodingStats& stats, RowBodyScan* scan);
// The body re-encoded against the bases `to` (the same bytes, its time
// values as deltas from `to`), written at `out`, which must have room for
// RebasedRowBodySize(body, scan, to) bytes, exactly what is written;
// returns the end. REQUIRES: ScanRowBody(body, ..., &scan) succeeded.
size_t RebasedRowBodySize(std::string_view body, const RowBodyScan& scan, const EncodingStats& to);
char* RebaseRowBody(std::string_view body, const RowBodyScan& scan, const EncodingStats& to,
                    char* out);

// Clustering (length-prefixed) followed by the body.
void EncodeRow(const Row& row, const EncodingStats& stats, std::string* out);
Status DecodeRow(std::string_view* in, const EncodingStats& stats, Row* row);

void EncodeDeletionTime(const DeletionTime& d, const EncodingStats& stats, std::string* out);
Status DecodeDeletionTime(std::string_view* in, const EncodingStats& stats, DeletionTime* d);

void EncodeRangeTombstone(const RangeTombstone& rt, const EncodingStats& stats, std::string* out);
Status DecodeRangeTombstone(std::string_view* in, const EncodingStats& stats, RangeTombstone* rt);

// A whole update, self-contained (its own EncodingStats inside).
void EncodePartitionUpdate(const PartitionUpdate& update, std::string* out);

// Plain rows (plain_row.h), encoded from their description: the bytes are
// exactly those the functions above write for PlainRow::ToRow(), and for
// the update holding only that row.
size_t MaxEncodedPlainRowBodySize(const PlainRow& row);
char* EncodePlainRowBodyTo(const PlainRow& row, const EncodingStats& stats, char* p);
void EncodePlainRowBody(const PlainRow& row, const EncodingStats& stats, std::string* out);
void EncodePlainPartitionUpdate(uint64_t table_id, const PlainRowWrite& write, std::string* out);
Status DecodePartitionUpdate(std::string_view* in, PartitionUpdate* update);

}  // namespace cassette
