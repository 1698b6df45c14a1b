#include "engine/mutation/clustering_bound.h"

#include <gtest/gtest.h>

#include <vector>

namespace cassette {
namespace {

// Every string over {0, 1, 2, 3, 0xff} of length <= 3: a witness for any
// overlap of ranges whose prefixes come from {0, 1, 2, 0xff} with length
// <= 2 (the lower end of a non-empty intersection is such a string or its
// successor).
std::vector<std::string> Universe() {
  const char alphabet[] = {0, 1, 2, 3, static_cast<char>(0xff)};
  std::vector<std::string> out = {""};
  for (size_t len = 1; len <= 3; ++len) {
    std::vector<std::string> next;
    for (const std::string& s : out) {
      if (s.size() != len - 1) continue;
      for (char c : alphabet) next.push_back(s + c);
    }
    out.insert(out.end(), next.begin(), next.end());
  }
  return out;
}

std::vector<Bound> Bounds() {
  const char alphabet[] = {0, 1, 2, static_cast<char>(0xff)};
  std::vector<std::string> prefixes = {""};
  for (char a : alphabet) {
    prefixes.push_back(std::string(1, a));
    for (char b : alphabet) prefixes.push_back(std::string{a, b});
  }
  std::vector<Bound> out;
  for (const std::string& p : prefixes) {
    out.push_back({p, true});
    if (!p.empty()) out.push_back({p, false});
  }
  return out;
}

TEST(ClusteringRangeOverlaps, MatchesBruteForceOverByteStrings) {
  const std::vector<std::string> universe = Universe();
  const std::vector<Bound> bounds = Bounds();
  std::vector<ClusteringRange> ranges;
  for (const Bound& s : bounds) {
    for (const Bound& e : bounds) ranges.push_back({s, e});
  }
  // Sample pairs deterministically (all pairs would be ~2.5M).
  size_t checked = 0, overlapping = 0;
  for (size_t i = 0; i < ranges.size(); i += 7) {
    for (size_t j = i % 5; j < ranges.size(); j += 11) {
      const ClusteringRange& a = ranges[i];
      const ClusteringRange& b = ranges[j];
      bool want = false;
      for (const std::string& s : universe) {
        if (a.Contains(s) && b.Contains(s)) {
          want = true;
          break;
        }
      }
      ASSERT_EQ(a.Overlaps(b), want) << i << " " << j;
      ASSERT_EQ(b.Overlaps(a), want);
      ++checked;
      overlapping += want ? 1 : 0;
    }
  }
  EXPECT_GT(checked, 10000u);
  EXPECT_GT(overlapping, 1000u);
  EXPECT_LT(overlapping, checked);
}

TEST(ClusteringRangeOverlaps, Examples) {
  const ClusteringRange all = ClusteringRange::All();
  const ClusteringRange a{{"\x01", true}, {"\x02", false}};
  const ClusteringRange b{{"\x02", true}, {"", true}};
  const ClusteringRange c{{"\x01\x05", true}, {"\x01\x05", true}};
  EXPECT_TRUE(all.Overlaps(a));
  EXPECT_FALSE(a.Overlaps(b));  // touching ends, one exclusive
  EXPECT_TRUE(a.Overlaps(c));
  EXPECT_FALSE(b.Overlaps(c));
  const ClusteringRange after_c{{"\x01\x05", false}, {"", true}};
  EXPECT_FALSE(c.Overlaps(after_c));
}

}  // namespace
}  // namespace cassette
