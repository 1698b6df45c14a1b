#include "engine/sstable/streaming_histogram.h"

#include <map>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/sstable/streaming_histogram_builder.h"
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

// The algorithm as first written (round up, add to the point's bin or
// insert one, merge the closest pair past capacity): Update's shortcut for
// points that land in the bin used last, and UpdateTimes, must give the
// same bins whatever the points.
class ReferenceHistogram {
 public:
  ReferenceHistogram(uint32_t max_bins, int64_t round) : max_bins_(max_bins), round_(round) {}
  int64_t Round(int64_t point) const {
    if (round_ > 1) {
      const int64_t rem = ((point % round_) + round_) % round_;
      if (rem != 0) {
        point = point > INT64_MAX - (round_ - rem) ? INT64_MAX : point + (round_ - rem);
      }
    }
    return point;
  }
  void Update(int64_t point) { AddRounded(Round(point), 1); }
  void AddRounded(int64_t point, uint64_t count) {
    auto it = std::lower_bound(bins_.begin(), bins_.end(), point,
                               [](const auto& bin, int64_t p) { return bin.first < p; });
    if (it != bins_.end() && it->first == point) {
      it->second += count;
      return;
    }
    bins_.insert(it, {point, count});
    if (bins_.size() <= max_bins_) return;
    size_t best = 0;
    unsigned __int128 best_gap = ~static_cast<unsigned __int128>(0);
    for (size_t i = 0; i + 1 < bins_.size(); ++i) {
      const auto gap = static_cast<unsigned __int128>(static_cast<__int128>(bins_[i + 1].first) -
                                                      static_cast<__int128>(bins_[i].first));
      if (gap < best_gap) {
        best_gap = gap;
        best = i;
      }
    }
    auto& a = bins_[best];
    const auto& b = bins_[best + 1];
    const __int128 total = static_cast<__int128>(a.second) + b.second;
    const __int128 weighted =
        static_cast<__int128>(a.first) * a.second + static_cast<__int128>(b.first) * b.second;
    a.first = static_cast<int64_t>(weighted / total);
    a.second += b.second;
    bins_.erase(bins_.begin() + static_cast<std::ptrdiff_t>(best + 1));
  }
  const std::vector<std::pair<int64_t, uint64_t>>& bins() const { return bins_; }

 private:
  uint32_t max_bins_;
  int64_t round_;
  std::vector<std::pair<int64_t, uint64_t>> bins_;
};

// Runs of equal and nearby points, as a row's cells and rows written in
// the same minute give, with jumps now and then (to the top of the range
// too).
int64_t NextPoint(Random* rnd, int64_t point) {
  if (rnd->OneIn(20)) {
    return rnd->OneIn(10) ? INT64_MAX - rnd->Range(0, 100) : rnd->Range(-100000, 100000);
  }
  if (rnd->OneIn(3)) {
    return point > INT64_MAX - 100 ? point - rnd->Range(0, 70) : point + rnd->Range(-70, 70);
  }
  return point;
}

TEST(StreamingHistogram, ShortcutsKeepTheBinsOfTheAlgorithm) {
  Random rnd(20261121);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t max_bins = 1 + static_cast<uint32_t>(rnd.Uniform(8));
    const int64_t round = rnd.OneIn(3) ? 1 : 60;
    StreamingHistogram h(max_bins, round);
    StreamingHistogram times(max_bins, round);
    ReferenceHistogram want(max_bins, round);
    int64_t point = rnd.Range(-100000, 100000);
    for (int i = 0; i < 300; ++i) {
      point = NextPoint(&rnd, point);
      const uint64_t n = 1 + rnd.Uniform(4);
      for (uint64_t k = 0; k < n; ++k) {
        h.Update(point);
        want.Update(point);
      }
      times.UpdateTimes(point, n);
      ASSERT_EQ(h.bins(), want.bins()) << "trial " << trial << " step " << i;
      ASSERT_EQ(times.bins(), want.bins()) << "trial " << trial << " step " << i;
    }
  }
}

// The builder counts rounded points exactly in its spool and adds them to
// the bins in point order whenever the spool is full of distinct points
// and at Build: the bins of the algorithm above fed that way.
TEST(StreamingHistogramBuilder, SpoolsExactCountsAndDrainsInPointOrder) {
  Random rnd(20261127);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t max_bins = 1 + static_cast<uint32_t>(rnd.Uniform(8));
    const int64_t round = rnd.OneIn(3) ? 1 : 60;
    const size_t spool = 1 + rnd.Uniform(12);
    StreamingHistogramBuilder builder(max_bins, round, spool);
    ReferenceHistogram want(max_bins, round);
    std::map<int64_t, uint64_t> spooled;
    int64_t point = rnd.Range(-100000, 100000);
    for (int i = 0; i < 300; ++i) {
      point = NextPoint(&rnd, point);
      const uint64_t n = 1 + rnd.Uniform(4);
      const int64_t rounded = want.Round(point);
      if (!spooled.contains(rounded) && spooled.size() == spool) {
        for (const auto& [p, c] : spooled) want.AddRounded(p, c);
        spooled.clear();
      }
      spooled[rounded] += n;
      if (rnd.OneIn(2)) {
        builder.Update(point, n);
      } else {
        for (uint64_t k = 0; k < n; ++k) builder.Update(point);
      }
    }
    for (const auto& [p, c] : spooled) want.AddRounded(p, c);
    ASSERT_EQ(builder.Build().bins(), want.bins()) << "trial " << trial;
    ASSERT_EQ(builder.Build().bins(), want.bins()) << "a second Build adds nothing";
  }
}

TEST(StreamingHistogramBuilder, ManyMinutesInKeyOrderKeepTheCount) {
  // A day of readings from 1000 sensors, stored sensor by sensor: every
  // sensor walks the day's minutes again.
  StreamingHistogramBuilder builder;
  for (int sensor = 0; sensor < 1000; ++sensor) {
    for (int64_t second = 86400; second > 0; second -= 10) builder.Update(second + 604800);
  }
  const StreamingHistogram& h = builder.Build();
  EXPECT_EQ(h.TotalCount(), 1000u * 8640u);
  EXPECT_LE(h.bins().size(), StreamingHistogram::kDefaultMaxBins);
  EXPECT_NEAR(h.Sum(604800 + 43200), 1000.0 * 4320, 1000.0 * 4320 * 0.02);
}

}  // namespace
}  // namespace cassette
