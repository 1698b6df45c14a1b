#include "engine/sstable/estimated_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/util/coding.h"

namespace cassette {

namespace {

constexpr uint32_t kMaxBuckets = 1000;

std::vector<uint64_t> Offsets(uint32_t count) {
  std::vector<uint64_t> offsets;
  offsets.reserve(count);
  uint64_t last = 1;
  offsets.push_back(last);
  while (offsets.size() < count) {
    // x1.2 rounded, at least +1, saturating (huge bucket counts are capped
    // in DecodeFrom; this only guards the arithmetic).
    const double grown = std::round(static_cast<double>(last) * 1.2);
    uint64_t next =
        grown >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(grown);
    if (next <= last) next = last == std::numeric_limits<uint64_t>::max() ? last : last + 1;
    offsets.push_back(next);
    last = next;
  }
  return offsets;
}

}  // namespace

EstimatedHistogram::EstimatedHistogram(uint32_t bucket_count)
    : offsets_(Offsets(std::clamp<uint32_t>(bucket_count, 2, kMaxBuckets) - 1)),
      buckets_(offsets_.size() + 1, 0) {}

void EstimatedHistogram::Add(uint64_t value, uint64_t count) {
  const auto it = std::lower_bound(offsets_.begin(), offsets_.end(), value);
  buckets_[static_cast<size_t>(it - offsets_.begin())] += count;
}

void EstimatedHistogram::Merge(const EstimatedHistogram& other) {
  const size_t n = std::min(buckets_.size(), other.buckets_.size());
  for (size_t i = 0; i < n; ++i) buckets_[i] += other.buckets_[i];
}

uint64_t EstimatedHistogram::Count() const {
  uint64_t n = 0;
  for (uint64_t b : buckets_) n += b;
  return n;
}

uint64_t EstimatedHistogram::Max() const {
  if (IsOverflowed()) return std::numeric_limits<uint64_t>::max();
  for (size_t i = offsets_.size(); i-- > 0;) {
    if (buckets_[i] > 0) return offsets_[i];
  }
  return 0;
}

uint64_t EstimatedHistogram::Min() const {
  for (size_t i = 0; i < offsets_.size(); ++i) {
    if (buckets_[i] > 0) return offsets_[i];
  }
  return IsOverflowed() ? std::numeric_limits<uint64_t>::max() : 0;
}

uint64_t EstimatedHistogram::Mean() const {
  long double sum = 0;
  uint64_t n = 0;
  for (size_t i = 0; i < offsets_.size(); ++i) {
    sum += static_cast<long double>(buckets_[i]) * static_cast<long double>(offsets_[i]);
    n += buckets_[i];
  }
  if (n == 0) return 0;
  return static_cast<uint64_t>(std::ceil(sum / static_cast<long double>(n)));
}

uint64_t EstimatedHistogram::Percentile(double p) const {
  const uint64_t total = Count();
  if (total == 0) return 0;
  const double wanted = std::ceil(static_cast<double>(total) * std::clamp(p, 0.0, 1.0));
  const uint64_t target = std::max<uint64_t>(1, static_cast<uint64_t>(wanted));
  uint64_t seen = 0;
  for (size_t i = 0; i < offsets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= target) return offsets_[i];
  }
  return std::numeric_limits<uint64_t>::max();
}

void EstimatedHistogram::EncodeTo(std::string* out) const {
  PutVarint32(out, static_cast<uint32_t>(buckets_.size()));
  for (uint64_t b : buckets_) PutVarint64(out, b);
}

bool EstimatedHistogram::DecodeFrom(std::string_view* in, EstimatedHistogram* h) {
  uint32_t n;
  if (!GetVarint32(in, &n) || n < 2 || n > kMaxBuckets) return false;
  EstimatedHistogram result(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!GetVarint64(in, &result.buckets_[i])) return false;
  }
  *h = std::move(result);
  return true;
}

}  // namespace cassette
