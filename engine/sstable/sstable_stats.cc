#include "engine/sstable/sstable_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/util/coding.h"

namespace cassette {

double SSTableStats::DroppableTombstoneRatio(int64_t gc_before) const {
  const double cells = static_cast<double>(cells_per_partition.Mean()) *
                       static_cast<double>(cells_per_partition.Count());
  if (cells <= 0) return 0;
  return tombstone_drop_times.Sum(gc_before) / cells;
}

void SSTableStats::AddPurgeableBytesByLag(int64_t gc_before, uint64_t file_bytes,
                                          std::map<int64_t, uint64_t>* bytes_by_lag) const {
  // Points are cells with a drop time and the row markers and deletions
  // that have one: those beside cells count among what the file holds.
  const uint64_t cells_with_drop_time = tombstone_cell_count + expiring_cell_count;
  const uint64_t all_points = tombstone_drop_times.TotalCount();
  const double points = static_cast<double>(
      cell_count + (all_points > cells_with_drop_time ? all_points - cells_with_drop_time : 0));
  if (points <= 0) return;
  for (const auto& [point, count] : tombstone_drop_times.bins()) {
    if (point > gc_before) break;
    const double share = static_cast<double>(count) / points;
    (*bytes_by_lag)[gc_before - point] +=
        static_cast<uint64_t>(std::llround(share * static_cast<double>(file_bytes)));
  }
}

uint64_t SSTableStats::PurgeablePoints(int64_t gc_before) const {
  uint64_t points = 0;
  for (const auto& [point, count] : tombstone_drop_times.bins()) {
    if (point > gc_before) break;
    points += count;
  }
  return points;
}

namespace {

void PutKey(std::string* out, const DecoratedKey& key) {
  PutFixed64(out, static_cast<uint64_t>(key.token));
  PutLengthPrefixed(out, key.key);
}

bool GetKey(std::string_view* in, DecoratedKey* key) {
  uint64_t token;
  std::string_view bytes;
  if (!GetFixed64(in, &token) || !GetLengthPrefixed(in, &bytes)) return false;
  key->token = static_cast<int64_t>(token);
  key->key.assign(bytes);
  return true;
}

bool GetSigned32(std::string_view* in, int32_t* v) {
  int64_t w;
  if (!GetSignedVarint64(in, &w) || w < INT32_MIN || w > INT32_MAX) return false;
  *v = static_cast<int32_t>(w);
  return true;
}

bool GetString(std::string_view* in, std::string* s) {
  std::string_view v;
  if (!GetLengthPrefixed(in, &v)) return false;
  s->assign(v);
  return true;
}

}  // namespace

// Field order is the on-disk order (FORMAT.md, "Statistics section").
void EncodeSSTableStats(const SSTableStats& s, std::string* out) {
  PutVarint64(out, s.partition_count);
  PutVarint64(out, s.row_count);
  PutVarint64(out, s.static_row_count);
  PutVarint64(out, s.cell_count);
  PutVarint64(out, s.tombstone_cell_count);
  PutVarint64(out, s.expiring_cell_count);
  PutVarint64(out, s.row_deletion_count);
  PutVarint64(out, s.complex_deletion_count);
  PutVarint64(out, s.partition_deletion_count);
  PutVarint64(out, s.range_tombstone_count);
  out->push_back(s.has_partition_deletions ? 1 : 0);
  PutSignedVarint64(out, s.min_timestamp);
  PutSignedVarint64(out, s.max_timestamp);
  PutSignedVarint64(out, s.min_local_deletion_time);
  PutSignedVarint64(out, s.max_local_deletion_time);
  PutSignedVarint64(out, s.min_ttl);
  PutSignedVarint64(out, s.max_ttl);
  PutLengthPrefixed(out, s.min_clustering);
  PutLengthPrefixed(out, s.max_clustering);
  PutKey(out, s.first_key);
  PutKey(out, s.last_key);
  s.tombstone_drop_times.EncodeTo(out);
  s.partition_sizes.EncodeTo(out);
  s.cells_per_partition.EncodeTo(out);
  PutVarint64(out, s.uncompressed_size);
  PutVarint64(out, s.compressed_size);
  PutSignedVarint64(out, s.creation_time_micros);
  PutSignedVarint64(out, s.encoding_stats.min_timestamp);
  PutSignedVarint64(out, s.encoding_stats.min_local_deletion_time);
  PutSignedVarint64(out, s.encoding_stats.min_ttl);
  PutFixed64(out, std::bit_cast<uint64_t>(s.bloom_fp_chance));
  PutVarint32(out, s.chunk_length);
  PutSignedVarint64(out, s.compression_level);
}

bool DecodeSSTableStats(std::string_view in, SSTableStats* stats) {
  SSTableStats s;
  uint64_t fp_bits;
  if (!GetVarint64(&in, &s.partition_count) || !GetVarint64(&in, &s.row_count) ||
      !GetVarint64(&in, &s.static_row_count) || !GetVarint64(&in, &s.cell_count) ||
      !GetVarint64(&in, &s.tombstone_cell_count) || !GetVarint64(&in, &s.expiring_cell_count) ||
      !GetVarint64(&in, &s.row_deletion_count) || !GetVarint64(&in, &s.complex_deletion_count) ||
      !GetVarint64(&in, &s.partition_deletion_count) ||
      !GetVarint64(&in, &s.range_tombstone_count) || in.empty()) {
    return false;
  }
  const auto flag = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (flag > 1) return false;
  s.has_partition_deletions = flag == 1;
  if (!GetSignedVarint64(&in, &s.min_timestamp) || !GetSignedVarint64(&in, &s.max_timestamp) ||
      !GetSignedVarint64(&in, &s.min_local_deletion_time) ||
      !GetSignedVarint64(&in, &s.max_local_deletion_time) || !GetSigned32(&in, &s.min_ttl) ||
      !GetSigned32(&in, &s.max_ttl) || !GetString(&in, &s.min_clustering) ||
      !GetString(&in, &s.max_clustering) || !GetKey(&in, &s.first_key) ||
      !GetKey(&in, &s.last_key) || !StreamingHistogram::DecodeFrom(&in, &s.tombstone_drop_times) ||
      !EstimatedHistogram::DecodeFrom(&in, &s.partition_sizes) ||
      !EstimatedHistogram::DecodeFrom(&in, &s.cells_per_partition) ||
      !GetVarint64(&in, &s.uncompressed_size) || !GetVarint64(&in, &s.compressed_size) ||
      !GetSignedVarint64(&in, &s.creation_time_micros) ||
      !GetSignedVarint64(&in, &s.encoding_stats.min_timestamp) ||
      !GetSignedVarint64(&in, &s.encoding_stats.min_local_deletion_time) ||
      !GetSigned32(&in, &s.encoding_stats.min_ttl) || !GetFixed64(&in, &fp_bits) ||
      !GetVarint32(&in, &s.chunk_length) || !GetSigned32(&in, &s.compression_level)) {
    return false;
  }
  s.bloom_fp_chance = std::bit_cast<double>(fp_bits);
  if (!in.empty()) return false;
  *stats = std::move(s);
  return true;
}

}  // namespace cassette
