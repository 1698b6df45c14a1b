// EstimatedHistogram: counts in fixed buckets whose upper bounds grow by
// about x1.2 (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, ...), plus one
// overflow bucket, as Cassandra keeps partition sizes and cells per
// partition. Percentiles are bucket upper bounds, so they overestimate by
// at most 20%. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cassette {

class EstimatedHistogram {
 public:
  // Cassandra's sizes: 155 buckets for partition sizes (up to ~2^44 bytes
  // before overflowing), 118 for cell counts.
  static constexpr uint32_t kPartitionSizeBuckets = 155;
  static constexpr uint32_t kCellCountBuckets = 118;

  // bucket_count buckets: bucket_count - 1 bounded ones and the overflow.
  explicit EstimatedHistogram(uint32_t bucket_count = kPartitionSizeBuckets);

  void Add(uint64_t value, uint64_t count = 1);
  // REQUIRES: same bucket count.
  void Merge(const EstimatedHistogram& other);

  uint64_t Count() const;
  bool IsOverflowed() const { return buckets_.back() > 0; }
  // Upper bound of the highest non-empty bucket; UINT64_MAX when
  // overflowed, 0 when empty.
  uint64_t Max() const;
  // Upper bound of the lowest non-empty bucket; 0 when empty.
  uint64_t Min() const;
  // Count-weighted mean of bucket upper bounds (ignoring overflow), rounded up.
  uint64_t Mean() const;
  // Smallest bucket upper bound covering `p` (0..1) of the values;
  // UINT64_MAX when that lands in the overflow bucket, 0 when empty.
  uint64_t Percentile(double p) const;

  const std::vector<uint64_t>& bucket_offsets() const { return offsets_; }
  const std::vector<uint64_t>& buckets() const { return buckets_; }

  void EncodeTo(std::string* out) const;
  // Consumes one histogram from the front of *in; false on malformed input.
  static bool DecodeFrom(std::string_view* in, EstimatedHistogram* h);

  friend bool operator==(const EstimatedHistogram& a, const EstimatedHistogram& b) {
    return a.buckets_ == b.buckets_;
  }

 private:
  std::vector<uint64_t> offsets_;  // upper bounds, inclusive
  std::vector<uint64_t> buckets_;  // offsets_.size() + 1 counts
};

}  // namespace cassette
