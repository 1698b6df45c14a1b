#include "engine/util/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cassette {

const std::vector<uint64_t>& Histogram::BucketLimits() {
  // Bucket i holds [limit[i-1], limit[i]); the first holds [0, 1). Small
  // values get one bucket each so tiny latencies and sizes stay exact; above
  // that each limit grows by ~10%, which bounds a percentile's relative
  // error while covering the whole uint64 range in a few hundred buckets.
  static const std::vector<uint64_t> limits = [] {
    std::vector<uint64_t> v;
    for (uint64_t i = 1; i <= 16; ++i) v.push_back(i);
    long double x = 16;
    while (true) {
      x *= 1.1L;
      if (x >= 1.8e19L) break;  // just below UINT64_MAX (~1.845e19)
      auto next = static_cast<uint64_t>(std::ceil(x));
      if (next > v.back()) v.push_back(next);
    }
    v.push_back(UINT64_MAX);
    return v;
  }();
  return limits;
}

Histogram::Histogram() : buckets_(BucketLimits().size(), 0) {}

void Histogram::Add(uint64_t value) {
  const auto& limits = BucketLimits();
  // The last limit is UINT64_MAX, which is exclusive; the maximum value
  // itself belongs to the last bucket.
  size_t b = std::upper_bound(limits.begin(), limits.end(), value) - limits.begin();
  if (b >= buckets_.size()) b = buckets_.size() - 1;
  ++buckets_[b];
  ++count_;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ += static_cast<double>(value);
}

void Histogram::Merge(const Histogram& other) {
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
}

void Histogram::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
  sum_ = 0;
}

double Histogram::Mean() const { return count_ == 0 ? 0 : sum_ / static_cast<double>(count_); }

double Histogram::Percentile(double p) const {
  if (count_ == 0) return 0;
  p = std::clamp(p, 0.0, 100.0);
  const auto& limits = BucketLimits();
  const double threshold = static_cast<double>(count_) * (p / 100.0);
  double cumulative = 0;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    if (buckets_[b] == 0) continue;
    const double before = cumulative;
    cumulative += static_cast<double>(buckets_[b]);
    if (cumulative < threshold) continue;
    // Assume the bucket's samples spread evenly over the integers it holds,
    // [lo, hi]; so a one-value bucket answers exactly.
    const double lo = b == 0 ? 0.0 : static_cast<double>(limits[b - 1]);
    const double hi = static_cast<double>(limits[b] - 1);
    const double frac = (threshold - before) / static_cast<double>(buckets_[b]);
    const double v = lo + (hi - lo) * frac;
    return std::clamp(v, static_cast<double>(min_), static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

std::string Histogram::ToString() const {
  char buf[256];
  std::snprintf(
      buf, sizeof(buf), "count=%llu min=%llu mean=%.1f p50=%.1f p95=%.1f p99=%.1f max=%llu",
      static_cast<unsigned long long>(count_), static_cast<unsigned long long>(min()), Mean(),
      Percentile(50), Percentile(95), Percentile(99), static_cast<unsigned long long>(max_));
  return buf;
}

}  // namespace cassette
