#include "engine/util/histogram.h"

#include <cmath>

#include <gtest/gtest.h>

#include "engine/util/random.h"

namespace cassette {
namespace {

TEST(HistogramTest, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.Mean(), 0);
  EXPECT_EQ(h.Percentile(50), 0);
}

TEST(HistogramTest, CountMinMaxMean) {
  Histogram h;
  for (uint64_t v : {10, 20, 30, 40}) h.Add(v);
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.min(), 10u);
  EXPECT_EQ(h.max(), 40u);
  EXPECT_DOUBLE_EQ(h.Mean(), 25.0);
  EXPECT_DOUBLE_EQ(h.sum(), 100.0);
}

TEST(HistogramTest, SingleValueIsEveryPercentile) {
  Histogram h;
  for (int i = 0; i < 10; ++i) h.Add(1234);
  EXPECT_EQ(h.Percentile(0), 1234);
  EXPECT_EQ(h.Percentile(50), 1234);
  EXPECT_EQ(h.Percentile(100), 1234);
}

TEST(HistogramTest, SmallValuesAreExact) {
  Histogram h;
  for (uint64_t v = 1; v <= 10; ++v) h.Add(v);
  // One bucket per value below 16, so percentiles are exact there.
  EXPECT_EQ(h.Percentile(50), 5);
  EXPECT_EQ(h.Percentile(90), 9);
  EXPECT_EQ(h.Percentile(100), 10);
}

TEST(HistogramTest, PercentilesOfUniformDataWithinBucketError) {
  Histogram h;
  for (uint64_t v = 1; v <= 100000; ++v) h.Add(v);
  for (double p : {10.0, 50.0, 90.0, 99.0, 99.9}) {
    const double want = p * 1000;
    EXPECT_NEAR(h.Percentile(p), want, want * 0.1) << p;
  }
  EXPECT_EQ(h.Percentile(100), 100000);
  EXPECT_EQ(h.Percentile(0), 1);
  // Out-of-range p is clamped.
  EXPECT_EQ(h.Percentile(150), 100000);
  EXPECT_EQ(h.Percentile(-1), 1);
}

TEST(HistogramTest, PercentilesAreMonotonic) {
  Histogram h;
  Random rng(3);
  for (int i = 0; i < 5000; ++i) h.Add(rng.Uniform(1ull << (rng.Uniform(40) + 1)));
  double prev = -1;
  for (double p = 0; p <= 100; p += 0.5) {
    double v = h.Percentile(p);
    EXPECT_GE(v, prev) << p;
    prev = v;
  }
}

TEST(HistogramTest, ExtremeValues) {
  Histogram h;
  h.Add(0);
  h.Add(UINT64_MAX);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), UINT64_MAX);
  EXPECT_EQ(h.Percentile(0), 0);
  EXPECT_EQ(h.Percentile(100), static_cast<double>(UINT64_MAX));
}

TEST(HistogramTest, MergeEqualsAddingEverything) {
  Histogram a, b, all;
  Random rng(11);
  for (int i = 0; i < 1000; ++i) {
    uint64_t v = rng.Uniform(1000000);
    (i % 3 == 0 ? a : b).Add(v);
    all.Add(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.sum(), all.sum());
  for (double p : {1.0, 25.0, 50.0, 75.0, 99.0})
    EXPECT_DOUBLE_EQ(a.Percentile(p), all.Percentile(p));
  // Merging an empty histogram changes nothing.
  Histogram empty;
  a.Merge(empty);
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.count(), all.count());
}

TEST(HistogramTest, ClearAndToString) {
  Histogram h;
  h.Add(5);
  EXPECT_EQ(h.ToString(), "count=1 min=5 mean=5.0 p50=5.0 p95=5.0 p99=5.0 max=5");
  h.Clear();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.ToString(), "count=0 min=0 mean=0.0 p50=0.0 p95=0.0 p99=0.0 max=0");
}

TEST(HistogramTest, BucketLimitsIncreaseByAtMostTenPercentAboveSixteen) {
  const auto& limits = Histogram::BucketLimits();
  ASSERT_GT(limits.size(), 100u);
  EXPECT_EQ(limits.back(), UINT64_MAX);
  for (size_t i = 1; i + 1 < limits.size(); ++i) {
    ASSERT_GT(limits[i], limits[i - 1]);
    if (limits[i - 1] >= 16) {
      EXPECT_LE(static_cast<double>(limits[i]), static_cast<double>(limits[i - 1]) * 1.1 + 1) << i;
    }
  }
}

}  // namespace
}  // namespace cassette
