#include "engine/read/live_view.h"

#include <gtest/gtest.h>

#include "tests/read/read_test_util.h"

namespace cassette {
namespace {

using read_test::RowMaker;

constexpr int64_t kNow = 1000;

struct Outcome {
  bool live;
  int64_t tombstones;
  Row row;
};

Outcome View(Row row, DeletionTime covering = DeletionTime::Live(), int64_t gc_before = 0) {
  const Row input = row;
  const bool own = IsOwnLiveView(covering, kNow, input);
  RowLiveness l = ApplyLiveView(covering, kNow, gc_before, &row);
  // The read uses a row it calls its own live view as is: every case here
  // checks that ApplyLiveView would indeed have left it alone.
  if (own) {
    EXPECT_EQ(row, input);
    EXPECT_EQ(l.tombstones, 0);
    EXPECT_EQ(l.live, !input.IsEmpty());
  }
  return {l.live, l.tombstones, std::move(row)};
}

TEST(LiveViewTest, OwnLiveViewOnlyWithoutAnythingDeadOrDeleted) {
  const DeletionTime live = DeletionTime::Live();
  EXPECT_TRUE(IsOwnLiveView(live, kNow, RowMaker("a").Marker(1).Set(3, Cell::Live(1, "x"))));
  EXPECT_TRUE(IsOwnLiveView(live, kNow, RowMaker("a").Set(3, Cell::Live(1, "x"))));
  EXPECT_TRUE(IsOwnLiveView(live, kNow, RowMaker("a").Element(5, Cell::Live(1, "x", "p"))));
  EXPECT_TRUE(
      IsOwnLiveView(live, kNow, RowMaker("a").Set(3, Cell::Expiring(1, 10, kNow - 9, "x"))));
  EXPECT_FALSE(
      IsOwnLiveView(live, kNow, RowMaker("a").Set(3, Cell::Expiring(1, 10, kNow - 10, "x"))));
  EXPECT_FALSE(IsOwnLiveView(live, kNow, RowMaker("a").Marker(1).Set(3, Cell::Tombstone(2, 9))));
  EXPECT_FALSE(IsOwnLiveView(live, kNow, RowMaker("a").ExpiringMarker(1, 10, kNow)));
  EXPECT_FALSE(IsOwnLiveView(live, kNow, RowMaker("a").Marker(3).Delete(1, 9)));
  EXPECT_FALSE(IsOwnLiveView(live, kNow, RowMaker("a").CollectionDeletion(5, 1, 9)));
  EXPECT_FALSE(IsOwnLiveView(DeletionTime{0, 9}, kNow, RowMaker("a").Marker(1)));
  for (Row row : {Row(RowMaker("a").Marker(1).Set(3, Cell::Live(1, "x"))),
                  Row(RowMaker("a").Set(3, Cell::Expiring(1, 10, kNow - 9, "x"))),
                  Row(RowMaker("a").Element(5, Cell::Live(1, "x", "p")))}) {
    View(std::move(row));
  }
}

TEST(LiveViewTest, LiveCellsKeepTheRow) {
  Outcome o = View(RowMaker("a").Set(3, Cell::Live(1, "x")).Set(4, Cell::Tombstone(2, 900)));
  EXPECT_TRUE(o.live);
  EXPECT_EQ(o.tombstones, 1);
  ASSERT_EQ(o.row.columns.size(), 1u);
  EXPECT_EQ(o.row.columns[0].column_id, 3u);
}

TEST(LiveViewTest, UpdateOnlyRowVanishesWithItsCells) {
  Outcome o = View(RowMaker("a").Set(3, Cell::Tombstone(2, 900)));
  EXPECT_FALSE(o.live);
  EXPECT_EQ(o.tombstones, 1);  // the dead cell only, not the row too
  EXPECT_TRUE(o.row.columns.empty());
}

TEST(LiveViewTest, InsertedRowSurvivesWithNullColumns) {
  Outcome o = View(RowMaker("a").Marker(1).Set(3, Cell::Tombstone(2, 900)));
  EXPECT_TRUE(o.live);
  EXPECT_EQ(o.tombstones, 1);
  EXPECT_TRUE(o.row.columns.empty());
  EXPECT_FALSE(o.row.marker.IsEmpty());
}

TEST(LiveViewTest, ExpiryIsAtTheFirstSecondPastTheDeadline) {
  Outcome alive = View(RowMaker("a").Set(3, Cell::Expiring(1, 10, kNow - 9, "x")));  // ldt now+1
  EXPECT_TRUE(alive.live);
  EXPECT_EQ(alive.tombstones, 0);
  Outcome expired = View(RowMaker("a").Set(3, Cell::Expiring(1, 10, kNow - 10, "x")));  // ldt now
  EXPECT_FALSE(expired.live);
  EXPECT_EQ(expired.tombstones, 1);
}

TEST(LiveViewTest, MarkerAloneAndExpiredMarker) {
  EXPECT_TRUE(View(RowMaker("a").Marker(1)).live);
  Outcome expired = View(RowMaker("a").ExpiringMarker(1, 10, kNow));
  EXPECT_FALSE(expired.live);
  EXPECT_EQ(expired.tombstones, 1);
  // With a dead cell the row is not counted a second time.
  Outcome both = View(RowMaker("a").ExpiringMarker(1, 10, kNow).Set(3, Cell::Tombstone(2, 900)));
  EXPECT_EQ(both.tombstones, 1);
  // An expiring marker still alive keeps the row.
  EXPECT_TRUE(View(RowMaker("a").ExpiringMarker(1, 10, kNow + 1)).live);
}

TEST(LiveViewTest, RowDeletionCountsOnceAndShadowsOlderData) {
  Outcome deleted = View(RowMaker("a").Delete(10, 900).Set(3, Cell::Live(5, "old")).Marker(5));
  EXPECT_FALSE(deleted.live);
  EXPECT_EQ(deleted.tombstones, 1);
  // Newer data written after the deletion is visible again, alone.
  Outcome rewritten = View(
      RowMaker("a").Delete(10, 900).Set(3, Cell::Live(5, "old")).Set(4, Cell::Live(11, "new")));
  EXPECT_TRUE(rewritten.live);
  EXPECT_EQ(rewritten.tombstones, 0);
  ASSERT_EQ(rewritten.row.columns.size(), 1u);
  EXPECT_EQ(rewritten.row.columns[0].cells[0].value, "new");
  // Ties go to the deletion.
  EXPECT_FALSE(View(RowMaker("a").Delete(10, 900).Set(3, Cell::Live(10, "tie"))).live);
}

TEST(LiveViewTest, ShadowedTombstonesAreNotScanned) {
  // A covering range tombstone (ts 10) hides an older cell tombstone.
  Outcome o = View(RowMaker("a").Set(3, Cell::Tombstone(5, 900)), DeletionTime{10, 950});
  EXPECT_FALSE(o.live);
  EXPECT_EQ(o.tombstones, 0);
  // A newer tombstone is scanned.
  EXPECT_EQ(View(RowMaker("a").Set(3, Cell::Tombstone(15, 900)), DeletionTime{10, 950}).tombstones,
            1);
}

TEST(LiveViewTest, PurgeableDeletionsAreNotCounted) {
  EXPECT_EQ(View(RowMaker("a").Set(3, Cell::Tombstone(5, 50)), {}, /*gc_before=*/60).tombstones, 0);
  EXPECT_EQ(View(RowMaker("a").Set(3, Cell::Tombstone(5, 70)), {}, 60).tombstones, 1);
  EXPECT_EQ(View(RowMaker("a").Delete(5, 50), {}, 60).tombstones, 0);
  // An expired cell is dated at its write second (expiry - ttl) for purging.
  Row expired = RowMaker("a").Set(3, Cell::Expiring(1, 100, 900, "x"));  // written 900, ldt 1000
  EXPECT_EQ(View(expired, {}, 950).tombstones, 0);
  EXPECT_EQ(View(expired, {}, 850).tombstones, 1);
  // An expired marker is dated at its expiry.
  EXPECT_EQ(View(RowMaker("a").ExpiringMarker(1, 100, 990), {}, 995).tombstones, 0);
  EXPECT_EQ(View(RowMaker("a").ExpiringMarker(1, 100, 990), {}, 985).tombstones, 1);
}

TEST(LiveViewTest, CollectionDeletionShadowsOlderElements) {
  Outcome o = View(RowMaker("a")
                       .CollectionDeletion(5, 10, 900)
                       .Element(5, Cell::Live(9, "old", "p1"))
                       .Element(5, Cell::Live(11, "new", "p2"))
                       .Element(5, Cell::Tombstone(12, 900, "p3")));
  EXPECT_TRUE(o.live);
  EXPECT_EQ(o.tombstones, 1);
  ASSERT_EQ(o.row.columns.size(), 1u);
  ASSERT_EQ(o.row.columns[0].cells.size(), 1u);
  EXPECT_EQ(o.row.columns[0].cells[0].path, "p2");
  EXPECT_TRUE(o.row.columns[0].complex_deletion.IsLive());
  // A collection deletion alone is a deletion the read scanned.
  Outcome cleared = View(RowMaker("a").CollectionDeletion(5, 10, 900));
  EXPECT_FALSE(cleared.live);
  EXPECT_EQ(cleared.tombstones, 1);
}

}  // namespace
}  // namespace cassette
