#include "engine/mutation/clustering_position.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

using P = ClusteringPosition;

TEST(ClusteringPositionTest, BoundsEncloseTheRowsOfTheirPrefix) {
  // before("ab") < "ab1" (a row) < after("ab") < before("ac")
  EXPECT_LT(ComparePositions("ab", P::kBefore, "ab1", P::kAt), 0);
  EXPECT_LT(ComparePositions("ab1", P::kAt, "ab", P::kAfter), 0);
  EXPECT_LT(ComparePositions("ab", P::kAfter, "ac", P::kBefore), 0);
  EXPECT_GT(ComparePositions("ab", P::kAfter, "ab", P::kBefore), 0);
  EXPECT_EQ(ComparePositions("ab", P::kAfter, "ab", P::kAfter), 0);
  // A longer prefix nests inside a shorter one.
  EXPECT_LT(ComparePositions("a", P::kBefore, "ab", P::kBefore), 0);
  EXPECT_GT(ComparePositions("a", P::kAfter, "ab", P::kAfter), 0);
  // Bytes compare unsigned.
  EXPECT_LT(ComparePositions("\x7f", P::kAfter, "\x80", P::kBefore), 0);
}

TEST(ClusteringPositionTest, EmptyPrefixesAreTheInfinities) {
  P start = P::StartOf(Bound{"", false});
  P end = P::EndOf(Bound{"", true});
  EXPECT_EQ(start, (P{"", P::kBefore}));
  EXPECT_EQ(end, (P{"", P::kAfter}));
  EXPECT_LT(CompareToRow(start, std::string("\x00", 1)), 0);
  EXPECT_GT(CompareToRow(end, "\xff\xff"), 0);
}

TEST(ClusteringPositionTest, InclusivenessPicksTheSide) {
  EXPECT_EQ(P::StartOf(Bound{"k", true}), (P{"k", P::kBefore}));
  EXPECT_EQ(P::StartOf(Bound{"k", false}), (P{"k", P::kAfter}));
  EXPECT_EQ(P::EndOf(Bound{"k", true}), (P{"k", P::kAfter}));
  EXPECT_EQ(P::EndOf(Bound{"k", false}), (P{"k", P::kBefore}));
  // c < k and c >= k meet at one position: a boundary, not a gap.
  EXPECT_EQ(ComparePositions(P::EndOf(Bound{"k", false}), P::StartOf(Bound{"k", true})), 0);
}

}  // namespace
}  // namespace cassette
