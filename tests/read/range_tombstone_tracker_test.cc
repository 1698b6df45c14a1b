#include "engine/read/range_tombstone_tracker.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

constexpr int64_t kGcBefore = 0;  // nothing purgeable unless a test says so

RangeTombstone Rt(Bound start, Bound end, int64_t ts, int64_t ldt = 100) {
  return RangeTombstone{ClusteringRange{std::move(start), std::move(end)}, DeletionTime{ts, ldt}};
}
Bound Incl(std::string p) { return Bound{std::move(p), true}; }
Bound Excl(std::string p) { return Bound{std::move(p), false}; }

// Covering deletion timestamps of rows, in the given (iteration) order; 0 = none.
std::vector<int64_t> Cover(RangeTombstoneTracker* t, const std::vector<std::string>& rows) {
  std::vector<int64_t> out;
  for (const std::string& r : rows) {
    DeletionTime d = t->Covering(r);
    out.push_back(d.IsLive() ? 0 : d.marked_for_delete_at);
  }
  return out;
}

TEST(RangeTombstoneTrackerTest, InclusiveRangeCoversItsRowsWithTwoMarkers) {
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Incl("b"), Incl("d"), 5)},
                          ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(t.markers().size(), 2u);
  EXPECT_EQ(Cover(&t, {"a", "b", "c", "d", "e"}), (std::vector<int64_t>{0, 5, 5, 5, 0}));
}

TEST(RangeTombstoneTrackerTest, ExclusiveBoundsLeaveTheirRowsOut) {
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Excl("b"), Excl("d"), 5)},
                          ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(Cover(&t, {"a", "b", "c", "d", "e"}), (std::vector<int64_t>{0, 0, 5, 0, 0}));
}

TEST(RangeTombstoneTrackerTest, PrefixCoversEveryRowStartingWithIt) {
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Incl("b"), Incl("b"), 5)},
                          ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(Cover(&t, {"a1", "b1", "b2", "c1"}), (std::vector<int64_t>{0, 5, 5, 0}));
}

TEST(RangeTombstoneTrackerTest, MarkersCountedAsRowsPassThem) {
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Incl("b"), Incl("d"), 5)},
                          ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(t.MarkersBefore("a"), 0);
  EXPECT_EQ(t.MarkersBefore("b"), 1);  // the open bound
  EXPECT_EQ(t.MarkersBefore("c"), 0);
  EXPECT_EQ(t.MarkersBefore("e"), 1);  // the close bound
  EXPECT_EQ(t.RemainingMarkers(), 0);
}

TEST(RangeTombstoneTrackerTest, ReversedIterationMeetsMarkersFromTheEnd) {
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Incl("b"), Incl("d"), 5)},
                          ClusteringRange::All(), /*reversed=*/true, kGcBefore);
  EXPECT_EQ(t.MarkersBefore("e"), 0);
  EXPECT_EQ(t.Covering("e").IsLive(), true);
  EXPECT_EQ(t.MarkersBefore("d"), 1);
  EXPECT_EQ(t.Covering("d").marked_for_delete_at, 5);
  EXPECT_EQ(t.MarkersBefore("c"), 0);
  EXPECT_EQ(t.Covering("c").marked_for_delete_at, 5);
  EXPECT_EQ(t.MarkersBefore("a"), 1);
  EXPECT_TRUE(t.Covering("a").IsLive());
  EXPECT_EQ(t.RemainingMarkers(), 0);
}

TEST(RangeTombstoneTrackerTest, AdjacentRangesShareABoundary) {
  // c < c AND c >= c: different deletions -> open, boundary, close.
  RangeTombstoneTracker different(DeletionTime::Live(),
                                  {Rt(Incl("a"), Excl("c"), 5), Rt(Incl("c"), Incl("e"), 6)},
                                  ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(different.markers().size(), 3u);
  EXPECT_EQ(Cover(&different, {"a", "b", "c", "e", "f"}), (std::vector<int64_t>{5, 5, 6, 6, 0}));
  // The same deletion twice reads as one range.
  RangeTombstoneTracker same(DeletionTime::Live(),
                             {Rt(Incl("a"), Excl("c"), 5), Rt(Incl("c"), Incl("e"), 5)},
                             ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(same.markers().size(), 2u);
  EXPECT_EQ(same.segments().size(), 1u);
}

TEST(RangeTombstoneTrackerTest, OverlapsKeepTheStrongestDeletion) {
  // A weaker range inside a stronger one is invisible.
  RangeTombstoneTracker hidden(DeletionTime::Live(),
                               {Rt(Incl("a"), Incl("z"), 10), Rt(Incl("c"), Incl("d"), 5)},
                               ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(hidden.markers().size(), 2u);
  EXPECT_EQ(Cover(&hidden, {"b", "c", "y"}), (std::vector<int64_t>{10, 10, 10}));
  // A stronger range inside a weaker one splits it: open, 2 boundaries, close.
  RangeTombstoneTracker split(DeletionTime::Live(),
                              {Rt(Incl("a"), Incl("z"), 5), Rt(Incl("c"), Incl("d"), 10)},
                              ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(split.markers().size(), 4u);
  EXPECT_EQ(Cover(&split, {"b", "c", "d", "e"}), (std::vector<int64_t>{5, 10, 10, 5}));
  // Disjoint ranges: two markers each.
  RangeTombstoneTracker disjoint(DeletionTime::Live(),
                                 {Rt(Incl("a"), Incl("b"), 5), Rt(Incl("d"), Incl("e"), 5)},
                                 ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(disjoint.markers().size(), 4u);
  EXPECT_EQ(Cover(&disjoint, {"a", "c", "d"}), (std::vector<int64_t>{5, 0, 5}));
}

TEST(RangeTombstoneTrackerTest, ClippedToTheSlice) {
  ClusteringRange slice{Incl("c"), Incl("e")};
  RangeTombstoneTracker t(DeletionTime::Live(), {Rt(Incl("a"), Incl("z"), 5)}, slice, false,
                          kGcBefore);
  ASSERT_EQ(t.markers().size(), 2u);
  EXPECT_EQ(t.markers()[0], (ClusteringPosition{"c", ClusteringPosition::kBefore}));
  EXPECT_EQ(t.markers()[1], (ClusteringPosition{"e", ClusteringPosition::kAfter}));
  // A tombstone outside the slice is not read at all.
  RangeTombstoneTracker outside(DeletionTime::Live(), {Rt(Incl("f"), Incl("g"), 5)}, slice, false,
                                kGcBefore);
  EXPECT_TRUE(outside.markers().empty());
}

TEST(RangeTombstoneTrackerTest, PartitionDeletionSupersedesWeakerRanges) {
  RangeTombstoneTracker t(DeletionTime{10, 100},
                          {Rt(Incl("a"), Incl("b"), 5), Rt(Incl("d"), Incl("e"), 15)},
                          ClusteringRange::All(), false, kGcBefore);
  EXPECT_EQ(t.markers().size(), 2u);
  EXPECT_EQ(Cover(&t, {"a", "d"}), (std::vector<int64_t>{0, 15}));
}

TEST(RangeTombstoneTrackerTest, PurgeableRangesShadowButAreNotCounted) {
  // ldt 50 < gc_before 60: purgeable.
  RangeTombstoneTracker purged(DeletionTime::Live(), {Rt(Incl("b"), Incl("d"), 5, 50)},
                               ClusteringRange::All(), false, /*gc_before=*/60);
  EXPECT_TRUE(purged.markers().empty());
  EXPECT_EQ(Cover(&purged, {"c"}), (std::vector<int64_t>{5}));
  // Next to a live one: only the live one's bounds remain.
  RangeTombstoneTracker mixed(DeletionTime::Live(),
                              {Rt(Incl("a"), Excl("c"), 5, 50), Rt(Incl("c"), Incl("e"), 6, 70)},
                              ClusteringRange::All(), false, /*gc_before=*/60);
  EXPECT_EQ(mixed.markers().size(), 2u);
}

}  // namespace
}  // namespace cassette
