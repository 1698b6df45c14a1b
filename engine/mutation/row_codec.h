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
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/mutation/partition_update.h"

namespace cassette {

struct EncodingStats {
  int64_t min_timestamp = 0;
  int64_t min_local_deletion_time = 0;
  int32_t min_ttl = 0;
  friend bool operator==(const EncodingStats&, const EncodingStats&) = default;
};

// Row body: marker, deletion and columns, without the clustering.
void EncodeRowBody(const Row& row, const EncodingStats& stats, std::string* out);
// Decodes a row body from the front of *in and advances *in past it,
// replacing the row's marker, deletion and columns (the clustering is left
// alone). Reuses the storage of the columns already in *row. On error *in
// is unchanged and the row's columns are unspecified.
Status DecodeRowBody(std::string_view* in, const EncodingStats& stats, Row* row);

// Clustering (length-prefixed) followed by the body.
void EncodeRow(const Row& row, const EncodingStats& stats, std::string* out);
Status DecodeRow(std::string_view* in, const EncodingStats& stats, Row* row);

void EncodeDeletionTime(const DeletionTime& d, const EncodingStats& stats, std::string* out);
Status DecodeDeletionTime(std::string_view* in, const EncodingStats& stats, DeletionTime* d);

void EncodeRangeTombstone(const RangeTombstone& rt, const EncodingStats& stats, std::string* out);
Status DecodeRangeTombstone(std::string_view* in, const EncodingStats& stats, RangeTombstone* rt);

// A whole update, self-contained (its own EncodingStats inside).
void EncodePartitionUpdate(const PartitionUpdate& update, std::string* out);
Status DecodePartitionUpdate(std::string_view* in, PartitionUpdate* update);

}  // namespace cassette
