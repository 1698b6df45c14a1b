#include "engine/sstable/estimated_histogram.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(EstimatedHistogram, OffsetsGrowByAboutTwentyPercent) {
  EstimatedHistogram h(20);
  const std::vector<uint64_t> want = {1,  2,  3,  4,  5,  6,  7,  8,  10, 12,
                                      14, 17, 20, 24, 29, 35, 42, 50, 60};
  EXPECT_EQ(h.bucket_offsets(), want);
  EXPECT_EQ(h.buckets().size(), 20u);
  EstimatedHistogram sizes;
  EXPECT_EQ(sizes.buckets().size(), EstimatedHistogram::kPartitionSizeBuckets);
  EXPECT_GT(sizes.bucket_offsets().back(), uint64_t{1} << 40);
}

TEST(EstimatedHistogram, PercentilesAreBucketBounds) {
  EstimatedHistogram h;
  EXPECT_EQ(h.Percentile(0.5), 0u);
  EXPECT_EQ(h.Max(), 0u);
  for (uint64_t v = 1; v <= 100; ++v) h.Add(v);
  EXPECT_EQ(h.Count(), 100u);
  EXPECT_EQ(h.Min(), 1u);
  const uint64_t p50 = h.Percentile(0.5);
  EXPECT_GE(p50, 50u);
  EXPECT_LE(p50, 60u);
  EXPECT_GE(h.Max(), 100u);
  EXPECT_LE(h.Max(), 120u);
  EXPECT_GE(h.Mean(), 50u);
  EXPECT_FALSE(h.IsOverflowed());
}

TEST(EstimatedHistogram, Overflow) {
  EstimatedHistogram h(5);  // bounds 1..4 and the overflow bucket
  h.Add(3);
  h.Add(1000);
  EXPECT_TRUE(h.IsOverflowed());
  EXPECT_EQ(h.Max(), UINT64_MAX);
  EXPECT_EQ(h.Percentile(1.0), UINT64_MAX);
  EXPECT_EQ(h.Percentile(0.5), 3u);
}

TEST(EstimatedHistogram, MergeAndEncode) {
  EstimatedHistogram a(30), b(30);
  a.Add(5, 3);
  b.Add(500);
  a.Merge(b);
  EXPECT_EQ(a.Count(), 4u);
  std::string bytes;
  a.EncodeTo(&bytes);
  std::string_view in(bytes);
  EstimatedHistogram back;
  ASSERT_TRUE(EstimatedHistogram::DecodeFrom(&in, &back));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(back, a);
  EXPECT_EQ(back.bucket_offsets(), a.bucket_offsets());
  std::string_view cut = std::string_view(bytes).substr(0, bytes.size() - 1);
  EXPECT_FALSE(EstimatedHistogram::DecodeFrom(&cut, &back));
}

}  // namespace
}  // namespace cassette
