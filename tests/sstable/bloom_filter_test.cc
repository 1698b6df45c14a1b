#include "engine/sstable/bloom_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace cassette {
namespace {

TEST(BloomFilter, SizingFollowsTheOptimalFormula) {
  EXPECT_NEAR(BloomFilter::BitsPerKey(0.01), 9.585, 0.001);
  EXPECT_EQ(BloomFilter::ProbesFor(BloomFilter::BitsPerKey(0.01)), 7u);
  EXPECT_EQ(BloomFilter::ProbesFor(BloomFilter::BitsPerKey(0.1)), 3u);
  BloomFilter f = BloomFilter::ForKeys(1000, 0.01);
  EXPECT_TRUE(f.enabled());
  EXPECT_EQ(f.num_bits() % 64, 0u);
  EXPECT_GE(f.num_bits(), 9585u);
  EXPECT_LT(f.num_bits(), 9585u + 64);
}

TEST(BloomFilter, FpChanceOneOrMoreMeansNoFilter) {
  for (double p : {1.0, 1.5}) {
    BloomFilter f = BloomFilter::ForKeys(1000, p);
    EXPECT_FALSE(f.enabled());
    EXPECT_EQ(f.ByteSize(), 0u);
    f.Add("x");
    EXPECT_TRUE(f.MayContain("anything"));
  }
}

class BloomFpRate : public ::testing::TestWithParam<double> {};

TEST_P(BloomFpRate, NoFalseNegativesAndRateNearTarget) {
  const double p = GetParam();
  const int n = 20000;
  BloomFilter f = BloomFilter::ForKeys(n, p);
  for (int i = 0; i < n; ++i) f.Add("key-" + std::to_string(i));
  for (int i = 0; i < n; ++i) ASSERT_TRUE(f.MayContain("key-" + std::to_string(i))) << i;
  const int probes = 100000;
  int fp = 0;
  for (int i = 0; i < probes; ++i) fp += f.MayContain("other-" + std::to_string(i)) ? 1 : 0;
  const double rate = static_cast<double>(fp) / probes;
  EXPECT_LT(rate, p * 1.5) << "rate " << rate;
  EXPECT_GT(rate, p / 3) << "rate " << rate;
}

INSTANTIATE_TEST_SUITE_P(Chances, BloomFpRate, ::testing::Values(0.1, 0.01, 0.001));

TEST(BloomFilter, MoreKeysThanExpectedDegradesButNeverMisses) {
  BloomFilter f = BloomFilter::ForKeys(100, 0.01);
  for (int i = 0; i < 1000; ++i) f.Add("k" + std::to_string(i));
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(f.MayContain("k" + std::to_string(i)));
}

TEST(BloomFilter, EncodeDecodeRoundTrip) {
  BloomFilter f = BloomFilter::ForKeys(500, 0.01);
  for (int i = 0; i < 500; ++i) f.Add("k" + std::to_string(i));
  std::string bytes;
  f.EncodeTo(&bytes);
  BloomFilter g;
  ASSERT_TRUE(BloomFilter::DecodeFrom(bytes, &g));
  EXPECT_EQ(g.num_bits(), f.num_bits());
  EXPECT_EQ(g.num_probes(), f.num_probes());
  for (int i = 0; i < 2000; ++i) {
    const std::string k = "k" + std::to_string(i);
    EXPECT_EQ(g.MayContain(k), f.MayContain(k));
  }
  // Truncated and padded inputs are rejected.
  EXPECT_FALSE(BloomFilter::DecodeFrom(bytes.substr(0, bytes.size() - 1), &g));
  EXPECT_FALSE(BloomFilter::DecodeFrom(bytes + "x", &g));
  EXPECT_FALSE(BloomFilter::DecodeFrom("", &g));
  // Disabled filters round-trip too.
  bytes.clear();
  BloomFilter().EncodeTo(&bytes);
  ASSERT_TRUE(BloomFilter::DecodeFrom(bytes, &g));
  EXPECT_FALSE(g.enabled());
}

}  // namespace
}  // namespace cassette
