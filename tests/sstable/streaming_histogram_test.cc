#include "engine/sstable/streaming_histogram.h"

#include <gtest/gtest.h>

#include "engine/util/random.h"

namespace cassette {
namespace {

TEST(StreamingHistogram, PointsRoundUpToMinutes) {
  StreamingHistogram h;
  h.Update(1);
  h.Update(60);
  h.Update(61);
  h.Update(-59);
  h.Update(-60);
  const std::vector<std::pair<int64_t, uint64_t>> want = {{-60, 1}, {0, 1}, {60, 2}, {120, 1}};
  EXPECT_EQ(h.bins(), want);
  EXPECT_EQ(h.TotalCount(), 5u);
  h.Update(INT64_MAX - 3);
  EXPECT_EQ(h.bins().back().first, INT64_MAX);
}

TEST(StreamingHistogram, MergesClosestBinsAtCapacity) {
  StreamingHistogram h(3, 1);
  h.Update(0);
  h.Update(10);
  h.Update(100);
  h.Update(12);  // closest pair: 10 and 12 -> 11 with count 2
  const std::vector<std::pair<int64_t, uint64_t>> want = {{0, 1}, {11, 2}, {100, 1}};
  EXPECT_EQ(h.bins(), want);
  h.Update(100, 2);  // existing point: no merge
  EXPECT_EQ(h.bins().back(), (std::pair<int64_t, uint64_t>{100, 3}));
  h.Update(1000);  // 0 and 11 are closest: weighted mean (0*1 + 11*2)/3 = 7
  const std::vector<std::pair<int64_t, uint64_t>> want2 = {{7, 3}, {100, 3}, {1000, 1}};
  EXPECT_EQ(h.bins(), want2);
}

TEST(StreamingHistogram, NeverExceedsMaxBinsAndKeepsCount) {
  StreamingHistogram h;
  Random rnd(3);
  for (int i = 0; i < 10000; ++i) h.Update(rnd.Range(0, 10'000'000));
  EXPECT_LE(h.bins().size(), 100u);
  EXPECT_EQ(h.TotalCount(), 10000u);
  for (size_t i = 1; i < h.bins().size(); ++i) EXPECT_LT(h.bins()[i - 1].first, h.bins()[i].first);
}

TEST(StreamingHistogram, SumEstimatesPointsAtOrBelow) {
  StreamingHistogram h(100, 1);
  for (int i = 1; i <= 100; ++i) h.Update(i * 10);
  EXPECT_EQ(h.Sum(0), 0);
  EXPECT_EQ(h.Sum(5000), 100);
  // Inside the data: within one bin of the true count.
  EXPECT_NEAR(h.Sum(505), 50, 1.0);
  EXPECT_NEAR(h.Sum(250), 25, 1.0);
  // Uniform data through merges still estimates well.
  StreamingHistogram big;
  for (int i = 0; i < 100000; ++i) big.Update(i * 60);
  EXPECT_NEAR(big.Sum(50000 * 60), 50000, 2000);
}

TEST(StreamingHistogram, MergeAddsBins) {
  StreamingHistogram a, b;
  a.Update(60);
  b.Update(60, 2);
  b.Update(120);
  a.Merge(b);
  const std::vector<std::pair<int64_t, uint64_t>> want = {{60, 3}, {120, 1}};
  EXPECT_EQ(a.bins(), want);
}

TEST(StreamingHistogram, EncodeDecode) {
  StreamingHistogram h;
  h.Update(-1000);
  h.Update(5000, 7);
  h.Update(INT64_MAX);
  std::string bytes;
  h.EncodeTo(&bytes);
  std::string_view in(bytes);
  StreamingHistogram back;
  ASSERT_TRUE(StreamingHistogram::DecodeFrom(&in, &back));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(back, h);
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::string_view cut = std::string_view(bytes).substr(0, n);
    EXPECT_FALSE(StreamingHistogram::DecodeFrom(&cut, &back)) << n;
  }
}

}  // namespace
}  // namespace cassette
