// Histogram: count, min, max, mean and percentiles of non-negative integer
// samples (latencies in nanoseconds or microseconds, sizes in bytes).
//
// Samples fall into fixed exponential buckets (each about 10% wider than the
// one below), so the relative error of a percentile is bounded by the bucket
// width whatever the range of the data, memory is constant, and two
// histograms merge by adding their buckets. Percentiles interpolate linearly
// inside a bucket and are clamped to the observed [min, max].
//
// Thread-compatible: concurrent const calls are safe; mutation needs
// external synchronization (or one histogram per thread, merged later).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cassette {

class Histogram {
 public:
  Histogram();

  void Add(uint64_t value);
  // Adds every sample of `other`, as if they had been added here.
  void Merge(const Histogram& other);
  void Clear();

  uint64_t count() const { return count_; }
  // 0 when empty.
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double sum() const { return sum_; }
  // 0 when empty.
  double Mean() const;
  // The value below which p percent of the samples fall, p in [0, 100]
  // (clamped). 0 when empty.
  double Percentile(double p) const;
  double Median() const { return Percentile(50); }

  // "count=.. min=.. mean=.. p50=.. p95=.. p99=.. max=..", for logs and stats.
  std::string ToString() const;

  // The bucket upper bounds (exclusive), shared by every histogram.
  static const std::vector<uint64_t>& BucketLimits();

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
  double sum_ = 0;
};

}  // namespace cassette
