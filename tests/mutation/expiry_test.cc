// The expiry and purge rules of engine/mutation/expiry.h and the TTL limit
// of engine/schema/ttl_limit.h, each at its edges (docs/SEMANTICS.md
// §1-§3). That reads and compaction apply them alike is
// tests/db/expiry_agreement_test.cc.
#include "engine/mutation/expiry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "engine/mutation/cell.h"
#include "engine/mutation/liveness_info.h"
#include "engine/mutation/row.h"
#include "engine/schema/ttl_limit.h"

namespace cassette {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(ExpiryTimeTest, IsNowPlusTtl) {
  EXPECT_EQ(ExpiryTime(1000, 1), 1001);
  EXPECT_EQ(ExpiryTime(1000, kMaxTtlSeconds), 1000 + int64_t{kMaxTtlSeconds});
  EXPECT_EQ(ExpiryTime(-1000, 10), -990);
  EXPECT_EQ(ExpiryTime(kMin, 1), kMin + 1);
}

TEST(ExpiryTimeTest, TtlZeroNeverExpires) {
  EXPECT_EQ(ExpiryTime(1000, 0), kNoDeletionTime);
  EXPECT_EQ(ExpiryTime(kMax, 0), kNoDeletionTime);
  EXPECT_EQ(ExpiryTime(kMin, 0), kNoDeletionTime);
  // Refused before by CheckTtl; were one to come through, it writes no expiry.
  EXPECT_EQ(ExpiryTime(1000, -1), kNoDeletionTime);
}

TEST(ExpiryTimeTest, SaturatesBelowTheNoDeletionSentinel) {
  // now near INT64_MAX with the largest TTL: the sum overflows int64.
  EXPECT_EQ(ExpiryTime(kMax - 10, kMaxTtlSeconds), kMaxExpiryTime);
  EXPECT_EQ(ExpiryTime(kMax, 1), kMaxExpiryTime);
  // The sum fits but would be the sentinel: an expiring value never reads
  // as one that never expires.
  EXPECT_EQ(ExpiryTime(kMax - 1, 1), kMaxExpiryTime);
  EXPECT_EQ(ExpiryTime(kMax - 2, 1), kMaxExpiryTime);
  EXPECT_EQ(ExpiryTime(kMax - 3, 1), kMax - 2);
  EXPECT_EQ(kMaxExpiryTime, kNoDeletionTime - 1);
}

TEST(ExpiryTimeTest, ACellWrittenAtTheOverflowEdgeStillExpires) {
  const Cell cell = Cell::Expiring(1, kMaxTtlSeconds, kMax - 10, "v");
  EXPECT_TRUE(cell.IsExpiring());
  EXPECT_FALSE(cell.IsTombstone());
  EXPECT_EQ(cell.local_deletion_time, kMaxExpiryTime);
  EXPECT_TRUE(cell.IsLive(kMaxExpiryTime - 1));
  EXPECT_FALSE(cell.IsLive(kMaxExpiryTime));
  EXPECT_FALSE(cell.IsLive(kMax));
}

TEST(IsExpiredAtTest, FromTheExpirySecondOn) {
  EXPECT_FALSE(IsExpiredAt(110, 109));
  EXPECT_TRUE(IsExpiredAt(110, 110));
  EXPECT_TRUE(IsExpiredAt(110, 111));
  EXPECT_FALSE(IsExpiredAt(kMax, kMax - 1));
  EXPECT_TRUE(IsExpiredAt(kMin, kMin));
  EXPECT_FALSE(IsExpiredAt(kMin + 1, kMin));
}

TEST(IsExpiredAtTest, CellAndMarkerAgreeAtTheBoundary) {
  const Cell cell = Cell::Expiring(1, 10, 100, "v");
  const LivenessInfo marker{1, 10, ExpiryTime(100, 10)};
  for (int64_t now : {int64_t{100}, int64_t{109}, int64_t{110}, int64_t{111}}) {
    EXPECT_EQ(cell.IsLive(now), !IsExpiredAt(110, now)) << now;
    EXPECT_EQ(marker.IsLive(now), cell.IsLive(now)) << now;
  }
  // Data without a TTL never expires, whatever the second.
  EXPECT_TRUE(Cell::Live(1, "v").IsLive(kMax));
  EXPECT_TRUE((LivenessInfo{1, 0, kNoDeletionTime}).IsLive(kMax));
}

TEST(DeletionTimeOfExpiredTest, IsTheWriteSecond) {
  const Cell cell = Cell::Expiring(1, 10, 100, "v");
  EXPECT_EQ(DeletionTimeOfExpired(cell.local_deletion_time, cell.ttl), 100);
  EXPECT_EQ(DeletionTimeOfExpired(kMaxTtlSeconds, kMaxTtlSeconds), 0);
}

TEST(DeletionTimeOfExpiredTest, SaturatesAtTheEndsOfInt64) {
  // A damaged file may pair an expiry near INT64_MIN with a TTL.
  EXPECT_EQ(DeletionTimeOfExpired(kMin + 5, 100), kMin);
  EXPECT_EQ(DeletionTimeOfExpired(kMin, 1), kMin);
  EXPECT_EQ(DeletionTimeOfExpired(kMin + 100, 100), kMin);
  EXPECT_EQ(DeletionTimeOfExpired(kMax, -1), kMax);
  // At the write-side overflow edge the expiry was capped: the deletion
  // time is ttl before the cap, not the (unrepresentable) write second.
  EXPECT_EQ(DeletionTimeOfExpired(ExpiryTime(kMax - 10, kMaxTtlSeconds), kMaxTtlSeconds),
            kMaxExpiryTime - kMaxTtlSeconds);
}

TEST(GcBeforeTest, IsNowMinusGcGrace) {
  EXPECT_EQ(GcBefore(2000, 864000), 2000 - 864000);
  EXPECT_EQ(GcBefore(2000, 0), 2000);
  EXPECT_EQ(GcBefore(kMax, 0), kMax);
  EXPECT_EQ(GcBefore(kMin, 0), kMin);
}

TEST(GcBeforeTest, SaturatesAtPurgeNothing) {
  EXPECT_EQ(GcBefore(kMin, 1), kPurgeNothing);
  EXPECT_EQ(GcBefore(kMin + 5, std::numeric_limits<int32_t>::max()), kPurgeNothing);
  EXPECT_EQ(GcBefore(kMax, -1), kMax);
}

TEST(CanPurgeTest, StrictlyBeforeGcBefore) {
  EXPECT_FALSE(CanPurge(1000, 1000));  // exactly at gc_before: kept
  EXPECT_TRUE(CanPurge(999, 1000));    // one below: purgeable
  EXPECT_FALSE(CanPurge(1001, 1000));
}

TEST(CanPurgeTest, GcGraceZeroPurgesASecondLater) {
  // docs/SEMANTICS.md §3: with gc_grace 0, a deletion of second S is
  // purgeable by a compaction at S+1, not at S.
  EXPECT_FALSE(CanPurge(500, GcBefore(500, 0)));
  EXPECT_TRUE(CanPurge(500, GcBefore(501, 0)));
  // And with gc_grace g, from S + g + 1 on.
  EXPECT_FALSE(CanPurge(500, GcBefore(510, 10)));
  EXPECT_TRUE(CanPurge(500, GcBefore(511, 10)));
}

TEST(CanPurgeTest, NeverPurgesLiveDataOrUnderPurgeNothing) {
  EXPECT_FALSE(CanPurge(kNoDeletionTime, kMax));
  EXPECT_FALSE(CanPurge(kNoDeletionTime, GcBefore(kMax, 0)));
  EXPECT_FALSE(CanPurge(kMin, kPurgeNothing));
  EXPECT_FALSE(CanPurge(0, kPurgeNothing));
  EXPECT_TRUE(CanPurge(kMin, kMin + 1));
  EXPECT_TRUE(CanPurge(kMax - 1, kMax));
}

TEST(CanPurgeTest, ExpiredCellPurgesByItsWriteSecond) {
  // Written at 100 with TTL 10: expires at 110, a tombstone of second 100.
  const Cell cell = Cell::Expiring(1, 10, 100, "v");
  const int64_t ldt = DeletionTimeOfExpired(cell.local_deletion_time, cell.ttl);
  EXPECT_FALSE(CanPurge(ldt, GcBefore(105, 5)));
  EXPECT_TRUE(CanPurge(ldt, GcBefore(106, 5)));
}

// The messages of Cassandra's cql3/Attributes.java (getTimeToLive), as
// cql3/validation/operations/TTLTest.java expects them.
TEST(TtlLimitTest, RangeIsZeroToTwentyYears) {
  EXPECT_EQ(kMaxTtlSeconds, 20 * 365 * 24 * 60 * 60);
  EXPECT_TRUE(TtlInRange(0));
  EXPECT_TRUE(TtlInRange(kMaxTtlSeconds));
  EXPECT_FALSE(TtlInRange(-1));
  EXPECT_FALSE(TtlInRange(int64_t{kMaxTtlSeconds} + 1));
  EXPECT_FALSE(TtlInRange(kMin));
  EXPECT_FALSE(TtlInRange(kMax));
  EXPECT_TRUE(CheckTtl(0).ok());
  EXPECT_TRUE(CheckTtl(kMaxTtlSeconds).ok());
}

TEST(TtlLimitTest, CassandraMessages) {
  Status negative = CheckTtl(-1);
  EXPECT_TRUE(negative.IsInvalidRequest());
  EXPECT_EQ(negative.message(), "A TTL must be greater or equal to 0, but was -1");
  Status large = CheckTtl(630720001);
  EXPECT_TRUE(large.IsInvalidRequest());
  EXPECT_EQ(large.message(), "ttl is too large. requested (630720001) maximum (630720000)");
  EXPECT_EQ(CheckTtl(kMin).message(),
            "A TTL must be greater or equal to 0, but was -9223372036854775808");
}

TEST(HoldsOnlyLiveDataTest, AtTheExpiryBoundary) {
  Row row;
  row.marker = LivenessInfo{1, 10, ExpiryTime(100, 10)};
  EXPECT_TRUE(row.HoldsOnlyLiveData(109));
  EXPECT_FALSE(row.HoldsOnlyLiveData(110));
  Row cells;
  ColumnData column;
  column.column_id = 1;
  column.cells.push_back(Cell::Expiring(1, 10, 100, "v"));
  cells.columns.push_back(column);
  EXPECT_TRUE(cells.HoldsOnlyLiveData(109));
  EXPECT_FALSE(cells.HoldsOnlyLiveData(110));
  EXPECT_TRUE(Row{}.HoldsOnlyLiveData(kMax));
}

}  // namespace
}  // namespace cassette
