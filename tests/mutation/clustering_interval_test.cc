// ClusteringInterval must agree with ClusteringRange::Contains, including
// prefixes ending in 0xff bytes, and Overlaps must find every shared
// clustering.
#include "engine/mutation/clustering_interval.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cassette {
namespace {

// Byte strings of length 0..3 over a few interesting bytes.
std::vector<std::string> Universe() {
  const std::string bytes = std::string("\x00\x01\x7f\xfe\xff", 5);
  std::vector<std::string> out{""};
  for (size_t len = 1; len <= 3; ++len) {
    std::vector<std::string> next;
    for (const std::string& s : out) {
      if (s.size() != len - 1) continue;
      for (char b : bytes) next.push_back(s + b);
    }
    out.insert(out.end(), next.begin(), next.end());
  }
  return out;
}

std::vector<ClusteringRange> Ranges() {
  std::vector<std::string> prefixes = {"",
                                       std::string("\x01", 1),
                                       std::string("\x7f\xff", 2),
                                       std::string("\xff", 1),
                                       std::string("\xff\xff", 2),
                                       std::string("\x00\x01", 2),
                                       std::string("\xfe", 1)};
  std::vector<ClusteringRange> out;
  for (const std::string& s : prefixes) {
    for (const std::string& e : prefixes) {
      for (int incl = 0; incl < 4; ++incl) {
        out.push_back(ClusteringRange{Bound{s, (incl & 1) != 0}, Bound{e, (incl & 2) != 0}});
      }
    }
  }
  return out;
}

TEST(ClusteringIntervalTest, ContainsAgreesWithClusteringRange) {
  std::vector<std::string> universe = Universe();
  for (const ClusteringRange& r : Ranges()) {
    ClusteringInterval iv = ClusteringInterval::FromRange(r);
    for (const std::string& c : universe) {
      if (c.empty()) continue;  // not a clustering
      ASSERT_EQ(iv.Contains(c), r.Contains(c))
          << "start=" << testing::PrintToString(r.start.prefix) << " incl=" << r.start.inclusive
          << " end=" << testing::PrintToString(r.end.prefix) << " incl=" << r.end.inclusive
          << " c=" << testing::PrintToString(c);
    }
  }
}

TEST(ClusteringIntervalTest, OverlapsWheneverAClusteringIsInBoth) {
  std::vector<std::string> universe = Universe();
  std::vector<ClusteringRange> ranges = Ranges();
  for (const ClusteringRange& a : ranges) {
    ClusteringInterval ia = ClusteringInterval::FromRange(a);
    for (const ClusteringRange& b : ranges) {
      ClusteringInterval ib = ClusteringInterval::FromRange(b);
      bool shared = false;
      for (const std::string& c : universe)
        shared = shared || (!c.empty() && a.Contains(c) && b.Contains(c));
      if (shared) {
        ASSERT_TRUE(ia.Overlaps(ib));
      }
      EXPECT_EQ(ia.Overlaps(ib), ib.Overlaps(ia));
    }
  }
}

TEST(ClusteringIntervalTest, Cases) {
  const std::string a("\x01", 1), b("\x02", 1);
  // [a, b) and [b, ...) touch but do not overlap.
  EXPECT_FALSE(ClusteringInterval::FromRange({{a, true}, {b, false}})
                   .Overlaps(ClusteringInterval::FromRange({{b, true}, {"", true}})));
  // (a, b] and [b, b] share b.
  EXPECT_TRUE(ClusteringInterval::FromRange({{a, false}, {b, true}})
                  .Overlaps(ClusteringInterval::FromRange({{b, true}, {b, true}})));
  // An exclusive start at an all-0xff prefix selects nothing.
  EXPECT_TRUE(ClusteringInterval::FromRange({{std::string("\xff"), false}, {"", true}}).empty);
  // An inclusive end at an all-0xff prefix is unbounded.
  EXPECT_TRUE(
      ClusteringInterval::FromRange({{"", true}, {std::string("\xff"), true}}).unbounded_end);
  // Start after end.
  EXPECT_TRUE(ClusteringInterval::FromRange({{b, true}, {a, true}}).empty);
  EXPECT_FALSE(ClusteringInterval::FromRange(ClusteringRange::All()).empty);
}

}  // namespace
}  // namespace cassette
