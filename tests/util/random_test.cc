#include "engine/util/random.h"

#include <vector>

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(RandomTest, SameSeedSameSequence) {
  Random a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(RandomTest, SequenceIsPinned) {
  // splitmix64 from seed 0: the model test's seeds replay across versions.
  Random r(0);
  EXPECT_EQ(r.Next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(r.Next(), 0x6e789e6aa1b965f4ull);
}

TEST(RandomTest, UniformStaysInRangeAndCoversIt) {
  Random r(7);
  std::vector<int> hits(10, 0);
  for (int i = 0; i < 10000; ++i) {
    uint64_t v = r.Uniform(10);
    ASSERT_LT(v, 10u);
    ++hits[v];
  }
  for (int h : hits) {
    EXPECT_GT(h, 850);
    EXPECT_LT(h, 1150);
  }
  EXPECT_EQ(r.Uniform(1), 0u);
}

TEST(RandomTest, RangeIsInclusive) {
  Random r(9);
  bool lo = false, hi = false;
  for (int i = 0; i < 1000; ++i) {
    int64_t v = r.Range(-2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    lo |= v == -2;
    hi |= v == 2;
  }
  EXPECT_TRUE(lo && hi);
  // The full int64 span must not overflow.
  (void)r.Range(INT64_MIN, INT64_MAX);
}

TEST(RandomTest, DoubleBytesAndPercent) {
  Random r(5);
  for (int i = 0; i < 1000; ++i) {
    double d = r.NextDouble();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
  }
  EXPECT_EQ(r.Bytes(17).size(), 17u);
  int yes = 0;
  for (int i = 0; i < 1000; ++i) yes += r.Percent(0) ? 1 : 0;
  EXPECT_EQ(yes, 0);
  for (int i = 0; i < 1000; ++i) yes += r.Percent(100) ? 1 : 0;
  EXPECT_EQ(yes, 1000);
}

}  // namespace
}  // namespace cassette
