// RangeTombstoneCoverage, the one answer reads and compaction share to
// "which range-tombstone deletion covers this row": a few cases by hand,
// then seeded random tombstone sets checked row by row, forward and
// reversed, clipped and not, against the definition (the strongest
// deletion among the tombstones whose range contains the row).
#include "engine/mutation/range_tombstone_coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace cassette {
namespace {

// Clusterings here are two fixed-width bytes, so every byte string of
// length 2 is a full clustering and bounds are prefixes of 0, 1 or 2 bytes
// (fixed width keeps the encoding prefix-free, as the engine's is).
RangeTombstone Rt(Bound start, Bound end, int64_t ts, int64_t ldt = 100) {
  return RangeTombstone{ClusteringRange{std::move(start), std::move(end)}, DeletionTime{ts, ldt}};
}
Bound Incl(std::string p) { return Bound{std::move(p), true}; }
Bound Excl(std::string p) { return Bound{std::move(p), false}; }

TEST(RangeTombstoneCoverageTest, StrongestCoveringDeletionRowByRow) {
  const RangeTombstoneCoverage coverage(
      {Rt(Incl("e"), Incl("h"), 30), Rt(Incl("b"), Incl("f"), 20), Rt(Incl("g"), Excl("i"), 10)},
      DeletionTime::Live());
  RangeTombstoneCoverage::Cursor cursor(coverage, /*reversed=*/false);
  EXPECT_TRUE(cursor.Covering("a0").IsLive());
  EXPECT_EQ(cursor.Covering("b0").marked_for_delete_at, 20);
  EXPECT_EQ(cursor.Covering("d9").marked_for_delete_at, 20);
  EXPECT_EQ(cursor.Covering("e0").marked_for_delete_at, 30);
  EXPECT_EQ(cursor.Covering("h9").marked_for_delete_at, 30);
  // [g, i) stops short of i.
  EXPECT_TRUE(cursor.Covering("i0").IsLive());
  EXPECT_TRUE(cursor.Covering("z0").IsLive());
  // Three segments: [b, e) 20, [e, h] 30, (h, i) 10.
  EXPECT_EQ(coverage.segments().size(), 3u);
}

TEST(RangeTombstoneCoverageTest, PrefixBoundsCoverEveryRowStartingWithThePrefix) {
  const RangeTombstoneCoverage coverage({Rt(Incl("b"), Incl("b"), 5)}, DeletionTime::Live());
  RangeTombstoneCoverage::Cursor cursor(coverage, /*reversed=*/false);
  EXPECT_TRUE(cursor.Covering("a9").IsLive());
  EXPECT_EQ(cursor.Covering("b0").marked_for_delete_at, 5);
  EXPECT_EQ(cursor.Covering("b7").marked_for_delete_at, 5);
  EXPECT_TRUE(cursor.Covering("c0").IsLive());
}

TEST(RangeTombstoneCoverageTest, EqualNeighboursLeaveNoSeamAndThePartitionDeletionFilters) {
  const RangeTombstoneCoverage coverage(
      {Rt(Incl("a"), Excl("c"), 7), Rt(Incl("c"), Incl("d"), 7), Rt(Incl("x"), Incl("y"), 3)},
      DeletionTime{5, 100});
  ASSERT_EQ(coverage.segments().size(), 1u);  // [a, d], and ts 3 is below the partition's 5
  EXPECT_EQ(coverage.segments()[0].deletion.marked_for_delete_at, 7);
}

// The definition the coverage must agree with.
DeletionTime Expected(const std::vector<RangeTombstone>& tombstones,
                      const DeletionTime& partition_deletion, const ClusteringRange* clip,
                      const std::string& row) {
  DeletionTime strongest = DeletionTime::Live();
  if (clip != nullptr && !clip->Contains(row)) return strongest;
  for (const RangeTombstone& rt : tombstones) {
    if (rt.deletion.IsLive() || partition_deletion.Supersedes(rt.deletion)) continue;
    if (rt.range.Contains(row) && rt.deletion.Supersedes(strongest)) strongest = rt.deletion;
  }
  return strongest;
}

TEST(RangeTombstoneCoverageTest, AgreesWithTheDefinitionOnRandomTombstones) {
  const std::string letters = "abcdef";
  std::vector<std::string> all_rows;
  for (char a : letters) {
    for (char b : letters) all_rows.push_back(std::string{a, b});
  }
  std::mt19937_64 random(20261128);
  auto pick = [&](size_t n) { return static_cast<size_t>(random() % n); };
  auto random_bound = [&]() {
    const size_t length = pick(3);  // 0: unbounded
    std::string prefix;
    for (size_t i = 0; i < length; ++i) prefix.push_back(letters[pick(letters.size())]);
    return Bound{prefix, pick(2) == 0};
  };
  auto random_deletion = [&]() {
    // Few distinct values, so ties of timestamp and of both fields occur.
    return DeletionTime{static_cast<int64_t>(1 + pick(6)), static_cast<int64_t>(100 + pick(3))};
  };
  for (int round = 0; round < 3000; ++round) {
    std::vector<RangeTombstone> tombstones(pick(7));
    for (RangeTombstone& rt : tombstones) {
      rt.range = ClusteringRange{random_bound(), random_bound()};
      rt.deletion = random_deletion();
    }
    const DeletionTime partition_deletion = pick(3) == 0 ? random_deletion() : DeletionTime::Live();
    ClusteringRange clip_range{random_bound(), random_bound()};
    const ClusteringRange* clip = pick(2) == 0 ? &clip_range : nullptr;
    std::vector<std::string> rows;
    for (const std::string& row : all_rows) {
      if (pick(3) != 0) rows.push_back(row);
    }
    const RangeTombstoneCoverage coverage(tombstones, partition_deletion, clip);
    for (bool reversed : {false, true}) {
      if (reversed) std::reverse(rows.begin(), rows.end());
      RangeTombstoneCoverage::Cursor cursor(coverage, reversed);
      for (const std::string& row : rows) {
        const DeletionTime expected = Expected(tombstones, partition_deletion, clip, row);
        const DeletionTime covering = cursor.Covering(row);
        ASSERT_EQ(covering, expected)
            << "round " << round << ", row " << row << (reversed ? " reversed" : " forward")
            << ": got ts " << covering.marked_for_delete_at << ", expected ts "
            << expected.marked_for_delete_at;
      }
    }
    // Segments are disjoint, in order, and neighbours that touch differ.
    const auto& segments = coverage.segments();
    for (size_t i = 0; i < segments.size(); ++i) {
      ASSERT_LT(ComparePositions(segments[i].start, segments[i].end), 0);
      if (i == 0) continue;
      const int order = ComparePositions(segments[i - 1].end, segments[i].start);
      ASSERT_LE(order, 0);
      if (order == 0) {
        ASSERT_FALSE(segments[i - 1].deletion == segments[i].deletion);
      }
    }
  }
}

}  // namespace
}  // namespace cassette
