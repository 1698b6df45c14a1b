// How a partition is laid out in the uncompressed data stream:
//   varint header_length, header
//   row blocks, each: [version 3: the block's timestamp steps], then
//   row entries, each: the clustering, [version 2 on: the row's bases],
//                      varint body_length, body (EncodeRowBody)
//   one 0x00 byte: end of partition
// Clusterings are prefix-compressed against the previous row of the same
// row-index block (`shared` is 0 for a block's first row, so a reader can
// start at any block). FORMAT.md has the byte diagram.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/row_codec.h"
#include "engine/util/coding.h"

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

// Row entries. Format version 1: the clustering, prefix-compressed, then
// the body against the file's EncodingStats. Version 2 (written now) adds
// two things that make time-series rows small:
//  - a clustering that differs from the previous one only in its last
//    eight bytes is written as the difference of those bytes read as a
//    big-endian integer: a timestamp clustering advancing by a fixed step
//    costs the same two bytes every row, which the compressor then drops;
//  - each row carries its own bases (RowEncodingBases: its defaults) as
//    deltas from the previous row's, so its body writes its timestamp,
//    TTL and expiry as zeros and the head the (steady) step between rows.
// Version 3 moves each row's timestamp step out of its head into the
// block's *timestamp steps*, written before the block's first row: the
// steps of rows written in real time are irregular (a coordinator's
// milliseconds), and inline each broke the compressor's match of the row
// with the previous one; together they compress as one run.
// A block's first row starts from an empty clustering and the file's
// EncodingStats, so a reader can start at any block.

// The bases of the row after one encoded with `bases` (its defaults where
// it has them): the marker's, else the first cell's, as the body writes
// them once per row.
EncodingStats RowEncodingBases(const RowDefaults& defaults, const EncodingStats& previous);
EncodingStats RowEncodingBases(const Row& row, const EncodingStats& previous);
EncodingStats RowEncodingBases(const RowBodyScan& scan, const EncodingStats& previous);

// Bound on the bytes of a row entry's head (EncodeRowEntryHead).
size_t MaxRowEntryHeadSize(std::string_view clustering);
size_t MaxRowEntrySize(const Row& row);
// Writes the head of a row entry at `p` (room:
// MaxRowEntryHeadSize(clustering) plus the body's bound): the clustering
// against `prev_clustering` (empty at the start of a block), `bases`
// against `prev_bases`, and room for the body length. With
// `timestamp_steps` (version 3) the timestamp step is appended there
// instead of to the head; without, the head is version 2's. Returns where
// the body goes; FinishRowEntry, given where the body ended, writes its
// length and returns the end of the entry.
char* EncodeRowEntryHead(std::string_view prev_clustering, std::string_view clustering,
                         const EncodingStats& prev_bases, const EncodingStats& bases,
                         size_t body_bound, char* p, std::string* timestamp_steps = nullptr);
char* FinishRowEntry(char* body, size_t body_bound, char* body_end);
// A whole entry of `row`, its body against `bases`; `p` needs room for
// MaxRowEntrySize(row). `timestamp_steps` as for EncodeRowEntryHead.
char* EncodeRowEntryTo(std::string_view prev_clustering, const EncodingStats& prev_bases,
                       const Row& row, const EncodingStats& bases, char* p,
                       std::string* timestamp_steps = nullptr);

// Parses a row entry head of format `version` from `in`: *clustering, the
// previous row's (empty at a block's start), becomes this row's; *bases,
// the previous row's (the file's EncodingStats at a block's start), become
// this row's; *body_length is the body's. `In` reads the bytes:
//   bool Varint(uint64_t*);  bool Bytes(uint64_t n, std::string_view*);
// both false when the input ends (or fails: the source keeps why). The
// views Bytes gives must stay valid through the later Varint calls.
// Version 3 takes the timestamp step from the front of *timestamp_steps
// (the block's steps not yet used; required from version 3 on).
// Returns nullptr, or what is malformed; then *clustering, *bases and
// *timestamp_steps are unchanged.
template <class In>
const char* ParseRowEntryHead(In& in, uint32_t version, std::string* clustering,
                              EncodingStats* bases, uint64_t* body_length,
                              std::string_view* timestamp_steps = nullptr);

// ParseRowEntryHead's input from bytes in memory.
struct RowEntryHeadInput {
  std::string_view in;
  bool Varint(uint64_t* v) { return GetVarint64(&in, v); }
  bool Bytes(uint64_t n, std::string_view* out) {
    if (n > in.size()) return false;
    *out = in.substr(0, n);
    in.remove_prefix(n);
    return true;
  }
};

inline constexpr uint32_t kMaxClusteringDeltaBytes = 8;

// Adds `delta` to the last min(8, size) bytes of *clustering read as a
// big-endian integer; false (and *clustering unchanged) when the sum does
// not fit them.
bool AddClusteringDelta(std::string* clustering, uint64_t delta);

template <class In>
[[gnu::always_inline]] inline const char* ParseRowEntryHead(In& in, uint32_t version,
                                                            std::string* clustering,
                                                            EncodingStats* bases,
                                                            uint64_t* body_length,
                                                            std::string_view* timestamp_steps) {
  // Everything is read before anything changes, so that a caller parsing
  // in place can retry a head that straddles its input's end elsewhere.
  uint64_t shared_plus_one, delta = 0, unshared = 0;
  std::string_view bytes;
  if (!in.Varint(&shared_plus_one)) return "malformed row entry";
  if (shared_plus_one == 0) {
    if (version < 2 || clustering->empty() || !in.Varint(&delta)) return "malformed row entry";
  } else {
    if (shared_plus_one - 1 > clustering->size() || !in.Varint(&unshared)) {
      return "malformed row entry";
    }
    if (!in.Bytes(unshared, &bytes)) return "row clustering runs past its block";
  }
  uint64_t ts = 0, ldt = 0, ttl = 0;
  std::string_view steps;
  if (version >= 3) {
    if (timestamp_steps == nullptr) return "malformed row bases";
    steps = *timestamp_steps;
    if (!GetVarint64(&steps, &ts)) return "row block has fewer timestamp steps than rows";
    if (!(in.Varint(&ldt) && in.Varint(&ttl))) return "malformed row bases";
  } else if (version == 2 && !(in.Varint(&ts) && in.Varint(&ldt) && in.Varint(&ttl))) {
    return "malformed row bases";
  }
  uint64_t length;
  if (!in.Varint(&length)) return "malformed row entry";
  // The TTL bases are int32, so a writer's step between two lies within
  // +-2^32: anything larger is rejected before the sum could overflow.
  const int64_t ttl_delta = ZigZagDecode(ttl);
  if (ttl_delta < -(int64_t{1} << 32) || ttl_delta > (int64_t{1} << 32)) {
    return "malformed row bases";
  }
  const int64_t new_ttl = static_cast<int64_t>(bases->min_ttl) + ttl_delta;
  if (new_ttl < INT32_MIN || new_ttl > INT32_MAX) return "malformed row bases";
  if (shared_plus_one == 0) {
    // A writer only uses the form for a clustering after the previous one.
    if (delta == 0 || !AddClusteringDelta(clustering, delta)) {
      return "row clustering delta out of range";
    }
  } else {
    clustering->resize(shared_plus_one - 1);
    clustering->append(bytes);
  }
  bases->min_timestamp = WrappingAdd(bases->min_timestamp, ZigZagDecode(ts));
  bases->min_local_deletion_time = WrappingAdd(bases->min_local_deletion_time, ZigZagDecode(ldt));
  bases->min_ttl = static_cast<int32_t>(new_ttl);
  *body_length = length;
  if (version >= 3) *timestamp_steps = steps;
  return nullptr;
}

}  // namespace cassette
