// Cell kinds, TTL liveness at the expiry boundary, and DeletionTime rules.
#include "engine/mutation/cell.h"

#include <gtest/gtest.h>

#include "engine/mutation/deletion_time.h"
#include "engine/mutation/liveness_info.h"

namespace cassette {
namespace {

TEST(CellTest, KindsFromFactories) {
  Cell live = Cell::Live(10, "v");
  EXPECT_FALSE(live.IsTombstone());
  EXPECT_FALSE(live.IsExpiring());
  EXPECT_EQ(live.local_deletion_time, kNoDeletionTime);

  Cell exp = Cell::Expiring(10, 60, 1000, "v");
  EXPECT_TRUE(exp.IsExpiring());
  EXPECT_FALSE(exp.IsTombstone());
  EXPECT_EQ(exp.local_deletion_time, 1060);

  Cell tomb = Cell::Tombstone(10, 1000);
  EXPECT_TRUE(tomb.IsTombstone());
  EXPECT_FALSE(tomb.IsExpiring());
  EXPECT_TRUE(tomb.value.empty());
  EXPECT_EQ(tomb.local_deletion_time, 1000);
}

TEST(CellTest, ExpiringCellIsLiveUntilTheSecondBeforeItsExpiry) {
  // Written at second 100 with TTL 10: ldt = 110.
  Cell c = Cell::Expiring(1, 10, 100, "v");
  EXPECT_TRUE(c.IsLive(100));
  EXPECT_TRUE(c.IsLive(109));   // ldt - 1
  EXPECT_FALSE(c.IsLive(110));  // ldt: expired
  EXPECT_FALSE(c.IsLive(111));
}

TEST(CellTest, LiveCellNeverExpiresAndTombstoneIsNeverLive) {
  EXPECT_TRUE(Cell::Live(1, "v").IsLive(INT64_MAX - 1));
  Cell t = Cell::Tombstone(1, 100);
  EXPECT_FALSE(t.IsLive(0));
  EXPECT_FALSE(t.IsLive(99));
  EXPECT_FALSE(t.IsLive(100));
}

TEST(LivenessInfoTest, ExpiringMarkerBoundary) {
  LivenessInfo m{5, 10, 110};
  EXPECT_TRUE(m.IsExpiring());
  EXPECT_TRUE(m.IsLive(109));
  EXPECT_FALSE(m.IsLive(110));
  LivenessInfo forever{5, 0, kNoDeletionTime};
  EXPECT_TRUE(forever.IsLive(INT64_MAX - 1));
  LivenessInfo none;
  EXPECT_TRUE(none.IsEmpty());
  EXPECT_FALSE(none.IsLive(0));
}

TEST(DeletionTimeTest, DeletesAtOrBeforeItsTimestamp) {
  DeletionTime d{100, 50};
  EXPECT_TRUE(d.Deletes(99));
  EXPECT_TRUE(d.Deletes(100));  // tie: the deletion wins
  EXPECT_FALSE(d.Deletes(101));
  EXPECT_TRUE(d.Deletes(INT64_MIN + 1));
  EXPECT_FALSE(DeletionTime::Live().Deletes(INT64_MIN + 1));
}

TEST(DeletionTimeTest, SupersedesByTimestampThenLocalDeletionTime) {
  EXPECT_TRUE((DeletionTime{2, 1}).Supersedes(DeletionTime{1, 9}));
  EXPECT_FALSE((DeletionTime{1, 9}).Supersedes(DeletionTime{2, 1}));
  EXPECT_TRUE((DeletionTime{2, 9}).Supersedes(DeletionTime{2, 1}));
  EXPECT_FALSE((DeletionTime{2, 1}).Supersedes(DeletionTime{2, 1}));
  EXPECT_TRUE((DeletionTime{INT64_MIN + 1, 0}).Supersedes(DeletionTime::Live()));
}

}  // namespace
}  // namespace cassette
