// ClusteringRange over comparable-encoded bytes: bounds as prefixes, their
// inclusiveness, emptiness and intersection with [min, max].
#include "engine/mutation/clustering_bound.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Ck;

ClusteringRange R(std::string s, bool si, std::string e, bool ei) {
  return ClusteringRange{Bound{std::move(s), si}, Bound{std::move(e), ei}};
}

TEST(ClusteringRangeTest, UnboundedContainsEverything) {
  ClusteringRange all = ClusteringRange::All();
  EXPECT_TRUE(all.Contains(""));
  EXPECT_TRUE(all.Contains(Ck(INT32_MIN)));
  EXPECT_TRUE(all.Contains("\xff\xff\xff"));
  EXPECT_FALSE(all.IsEmpty());
  EXPECT_TRUE(all.Intersects(Ck(0), Ck(0)));
  // Inclusiveness of an absent bound does not matter.
  EXPECT_TRUE(R("", false, "", false).Contains(Ck(3)));
}

TEST(ClusteringRangeTest, AfterStart) {
  ClusteringRange incl = R(Ck(2), true, "", true);
  ClusteringRange excl = R(Ck(2), false, "", true);
  EXPECT_FALSE(incl.AfterStart(Ck(1)));
  EXPECT_TRUE(incl.AfterStart(Ck(2)));
  EXPECT_TRUE(incl.AfterStart(Ck(3)));
  EXPECT_FALSE(excl.AfterStart(Ck(1)));
  EXPECT_FALSE(excl.AfterStart(Ck(2)));
  EXPECT_TRUE(excl.AfterStart(Ck(3)));
  // A prefix bound covers every clustering that starts with it.
  EXPECT_TRUE(incl.AfterStart(Ck(2) + Ck(INT32_MIN)));
  EXPECT_FALSE(excl.AfterStart(Ck(2) + Ck(INT32_MAX)));
  EXPECT_TRUE(excl.AfterStart(Ck(3) + Ck(INT32_MIN)));
  EXPECT_FALSE(excl.AfterStart(Ck(1) + Ck(INT32_MAX)));
  // Unsigned bytes: 0x80 is after 0x7f.
  EXPECT_TRUE(R("\x7f", false, "", true).AfterStart("\x80"));
}

TEST(ClusteringRangeTest, BeforeEnd) {
  ClusteringRange incl = R("", true, Ck(2), true);
  ClusteringRange excl = R("", true, Ck(2), false);
  EXPECT_TRUE(incl.BeforeEnd(Ck(1)));
  EXPECT_TRUE(incl.BeforeEnd(Ck(2)));
  EXPECT_FALSE(incl.BeforeEnd(Ck(3)));
  EXPECT_TRUE(excl.BeforeEnd(Ck(1)));
  EXPECT_FALSE(excl.BeforeEnd(Ck(2)));
  EXPECT_FALSE(excl.BeforeEnd(Ck(3)));
  EXPECT_TRUE(incl.BeforeEnd(Ck(2) + Ck(INT32_MAX)));
  EXPECT_FALSE(excl.BeforeEnd(Ck(2) + Ck(INT32_MIN)));
  EXPECT_TRUE(excl.BeforeEnd(Ck(1) + Ck(INT32_MAX)));
}

TEST(ClusteringRangeTest, ContainsWithBothBounds) {
  // (c1, c2) > (1, 5) AND c1 <= 2 : start is a full clustering, end a prefix.
  ClusteringRange r = R(Ck(1) + Ck(5), false, Ck(2), true);
  EXPECT_FALSE(r.Contains(Ck(1) + Ck(4)));
  EXPECT_FALSE(r.Contains(Ck(1) + Ck(5)));
  EXPECT_TRUE(r.Contains(Ck(1) + Ck(6)));
  EXPECT_TRUE(r.Contains(Ck(2) + Ck(INT32_MAX)));
  EXPECT_FALSE(r.Contains(Ck(3) + Ck(INT32_MIN)));
}

struct EmptyCase {
  const char* name;
  ClusteringRange range;
  bool empty;
};

TEST(ClusteringRangeTest, IsEmpty) {
  const EmptyCase cases[] = {
      {"all", R("", true, "", true), false},
      {"[ab, ab]", R("ab", true, "ab", true), false},
      {"(ab, ab]", R("ab", false, "ab", true), true},
      {"[ab, ab)", R("ab", true, "ab", false), true},
      {"(ab, ab)", R("ab", false, "ab", false), true},
      {"[a, ab] : ab.. starts with a", R("a", true, "ab", true), false},
      {"[a, ab) : a itself", R("a", true, "ab", false), false},
      {"(a, ab] : ab.. is inside the a-block", R("a", false, "ab", true), true},
      {"(a, ab)", R("a", false, "ab", false), true},
      {"[ab, a] : ab.. starts with a", R("ab", true, "a", true), false},
      {"[ab, a)", R("ab", true, "a", false), true},
      {"(ab, a] : ac.. remains", R("ab", false, "a", true), false},
      {"(a\xff, a] : nothing after a\xff in the a-block", R("a\xff", false, "a", true), true},
      {"(ab, a)", R("ab", false, "a", false), true},
      {"[a, b)", R("a", true, "b", false), false},
      {"(a, b) : nothing between the a-block and b", R("a", false, "b", false), true},
      {"(ab, b) : ac..", R("ab", false, "b", false), false},
      {"(a, b]", R("a", false, "b", true), false},
      {"[b, a]", R("b", true, "a", true), true},
      {"(\xff, ] : nothing after the 0xff block", R("\xff", false, "", true), true},
      {"[\xff, ]", R("\xff", true, "", true), false},
      {"[, \xff\xff]", R("", true, "\xff\xff", true), false},
      {"[1, 2) ints", R(Ck(1), true, Ck(2), false), false},
      {"(4, 2) ints", R(Ck(4), false, Ck(2), false), true},
      {"[3, 3] ints", R(Ck(3), true, Ck(3), true), false},
  };
  for (const EmptyCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.range.IsEmpty(), tc.empty);
  }
}

TEST(ClusteringRangeTest, Intersects) {
  ClusteringRange r = R(Ck(2), true, Ck(4), false);
  EXPECT_TRUE(r.Intersects(Ck(0), Ck(2)));
  EXPECT_FALSE(r.Intersects(Ck(0), Ck(1)));
  EXPECT_TRUE(r.Intersects(Ck(3), Ck(3)));
  EXPECT_TRUE(r.Intersects(Ck(0), Ck(9)));
  EXPECT_FALSE(r.Intersects(Ck(4), Ck(9)));
  EXPECT_TRUE(r.Intersects(Ck(3), Ck(9)));
  // A prefix end bound covers clusterings that start with it.
  ClusteringRange p = R("", true, Ck(4), true);
  EXPECT_TRUE(p.Intersects(Ck(4) + Ck(7), Ck(9)));
  EXPECT_FALSE(p.Intersects(Ck(5), Ck(9)));
  EXPECT_FALSE(R("ab", false, "ab", true).Intersects("a", "b"));
  EXPECT_FALSE(r.Intersects(Ck(3), Ck(2)));  // min > max
}

// Brute force over every string of up to 3 bytes from a small alphabet that
// includes the bytes next to the extremes. Every bound of up to 2 bytes has
// its witness (the bound, its prefix successor, or the probe) in that set,
// so the comparison is exact both ways.
TEST(ClusteringRangeTest, AgreesWithBruteForce) {
  const std::string alphabet("\x00\x01\x02\xfe\xff", 5);
  std::vector<std::string> strings = {""};
  for (size_t len = 1; len <= 3; ++len) {
    std::vector<std::string> next;
    for (const std::string& s : strings) {
      if (s.size() != len - 1) continue;
      for (char c : alphabet) next.push_back(s + c);
    }
    strings.insert(strings.end(), next.begin(), next.end());
  }
  // Bounds avoid byte 0x02 so that their successors stay in the set.
  std::vector<std::string> bounds;
  for (const std::string& s : strings) {
    if (s.size() <= 2 && s.find('\x02') == std::string::npos) bounds.push_back(s);
  }
  const std::vector<std::string> probes = {"", std::string("\x01", 1), std::string("\x01\xff", 2),
                                           "\xfe", std::string("\x00\x02\x01", 3)};
  for (const std::string& s : bounds) {
    for (const std::string& e : bounds) {
      for (int flags = 0; flags < 4; ++flags) {
        ClusteringRange r = R(s, flags & 1, e, flags & 2);
        bool any = false;
        for (const std::string& c : strings) {
          if (r.Contains(c)) {
            any = true;
            break;
          }
        }
        ASSERT_EQ(r.IsEmpty(), !any) << "start=" << ::testing::PrintToString(s)
                                     << " end=" << ::testing::PrintToString(e) << " f=" << flags;
        for (const std::string& lo : probes) {
          for (const std::string& hi : probes) {
            if (lo > hi) continue;
            bool brute = false;
            for (const std::string& c : strings) {
              if (c >= lo && c <= hi && r.Contains(c)) {
                brute = true;
                break;
              }
            }
            ASSERT_EQ(r.Intersects(lo, hi), brute)
                << "start=" << ::testing::PrintToString(s) << " end=" << ::testing::PrintToString(e)
                << " f=" << flags << " min=" << ::testing::PrintToString(lo)
                << " max=" << ::testing::PrintToString(hi);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace cassette
