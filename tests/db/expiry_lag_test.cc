// How long expired data waits on disk, as the engine reports it: the live
// SSTables' data past TTL + gc_grace by how long (TableStats), and what a
// compaction took off disk by how long it had waited (CompactionRecord),
// whether dropped whole or purged from a rewrite.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

constexpr int64_t kHour = 3600;

uint64_t Total(const std::map<int64_t, uint64_t>& bytes_by_lag) {
  uint64_t total = 0;
  for (const auto& [lag, bytes] : bytes_by_lag) total += bytes;
  return total;
}

class ExpiryLagTest : public ::testing::Test {
 protected:
  void Open(const std::map<std::string, std::string>& compaction) {
    ASSERT_OK(t_.Open(t_.MakeOptions()));
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(
        SeriesTable(compaction, /*ttl=*/0, /*gc_grace=*/static_cast<int32_t>(kHour))));
  }
  // `rows` readings of sensor `sensor` at the clock, with `ttl` (0: none).
  void Write(int sensor, int rows, int32_t ttl) {
    for (int i = 0; i < rows; ++i) {
      Mutation m("ks", "ts", {Value::Int(sensor)});
      m.Insert({Value::Timestamp(t_.clock->WallMicros() / 1000 + i)}).Set("v", Value::Int(i));
      if (ttl > 0) m.UsingTtl(ttl);
      ASSERT_OK(t_.db->Apply(m));
    }
  }
  TableStats Stats() { return StatsOf(*t_.db, "ks", "ts"); }
  TestDb t_;
};

TEST_F(ExpiryLagTest, AnExpiredFileDroppedWholeLeavesWithHowLongItWaited) {
  Open(HourlyTwcs());
  Write(1, 100, static_cast<int32_t>(kHour));
  ASSERT_OK(t_.db->Flush());
  const int64_t file_bytes = Stats().bytes_on_disk;
  ASSERT_GT(file_bytes, 0);
  // Within TTL + gc_grace nothing is purgeable yet.
  t_.Advance(2 * kHour - 120);
  EXPECT_TRUE(Stats().purgeable_bytes_by_lag.empty());
  // Three hours past TTL + gc_grace, before any compaction check: all of
  // the file waits, for three hours (drop times are rounded up to a minute).
  t_.Advance(120 + 3 * kHour);
  const TableStats waiting = Stats();
  ASSERT_EQ(waiting.sstable_count, 1);
  EXPECT_NEAR(static_cast<double>(Total(waiting.purgeable_bytes_by_lag)),
              static_cast<double>(file_bytes), 2.0);
  for (const auto& [lag, bytes] : waiting.purgeable_bytes_by_lag) {
    EXPECT_GE(lag, 3 * kHour - 60);
    EXPECT_LE(lag, 3 * kHour);
  }
  // The drop takes it off disk and says how long it waited.
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  const TableStats after = Stats();
  EXPECT_EQ(after.sstable_count, 0);
  EXPECT_TRUE(after.purgeable_bytes_by_lag.empty());
  ASSERT_EQ(after.recent_compactions.size(), 1u);
  const CompactionRecord& drop = after.recent_compactions[0];
  EXPECT_EQ(drop.expired.size(), 1u);
  EXPECT_EQ(drop.purged_bytes_by_lag, waiting.purgeable_bytes_by_lag);
}

TEST_F(ExpiryLagTest, ARewriteCountsOnlyWhatItPurged) {
  Open({{"class", "SizeTieredCompactionStrategy"}});
  // One file of rows that expire and rows that never do, half and half.
  Write(1, 200, static_cast<int32_t>(kHour));
  Write(2, 200, 0);
  ASSERT_OK(t_.db->Flush());
  const int64_t file_bytes = Stats().bytes_on_disk;
  t_.Advance(2 * kHour + 30 * 60);  // half an hour past TTL + gc_grace
  const TableStats waiting = Stats();
  const double waiting_bytes = static_cast<double>(Total(waiting.purgeable_bytes_by_lag));
  // The expiring rows have a marker and a cell with drop times, the others
  // one cell: four points in six are past.
  EXPECT_NEAR(waiting_bytes, static_cast<double>(file_bytes) * 4 / 6,
              static_cast<double>(file_bytes) * 0.01);
  ASSERT_OK(t_.db->CompactMajor("ks", "ts"));
  const TableStats after = Stats();
  ASSERT_EQ(after.sstable_count, 1);
  EXPECT_TRUE(after.purgeable_bytes_by_lag.empty()) << "the rewrite purged everything it could";
  ASSERT_FALSE(after.recent_compactions.empty());
  const CompactionRecord& rewrite = after.recent_compactions.back();
  EXPECT_EQ(rewrite.purged_bytes_by_lag, waiting.purgeable_bytes_by_lag);
  for (const auto& [lag, bytes] : rewrite.purged_bytes_by_lag) {
    EXPECT_GE(lag, 30 * 60 - 60);
    EXPECT_LE(lag, 30 * 60);
  }
}

TEST_F(ExpiryLagTest, ExpiredRowsAnOlderFileStillNeedsAreNotCountedAsPurged) {
  // Files under min_sstable_size share a bucket: 1 byte keeps them apart.
  Open({{"class", "SizeTieredCompactionStrategy"},
        {"min_threshold", "2"},
        {"min_sstable_size", "1"}});
  // An older small file without TTL holds the partition the expiring rows
  // are in: their tombstones must stay while it may hold older data.
  Write(1, 5, 0);
  ASSERT_OK(t_.db->Flush());
  t_.Advance(60);
  // Two files of a size, one of expiring rows: the bucket STCS compacts.
  Write(1, 3000, static_cast<int32_t>(kHour));
  ASSERT_OK(t_.db->Flush());
  Write(3, 3000, 0);
  ASSERT_OK(t_.db->Flush());
  t_.Advance(3 * kHour);
  ASSERT_EQ(Stats().sstable_count, 3);
  const uint64_t waiting = Total(Stats().purgeable_bytes_by_lag);
  ASSERT_GT(waiting, 0u);
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  const TableStats after = Stats();
  ASSERT_EQ(after.sstable_count, 2) << "the two large files were compacted, the small one not";
  ASSERT_FALSE(after.recent_compactions.empty());
  // The expired rows went through the compaction as tombstones: still on
  // disk, still waiting, not counted as purged.
  EXPECT_TRUE(after.recent_compactions.back().purged_bytes_by_lag.empty());
  EXPECT_GT(Total(after.purgeable_bytes_by_lag), 0u);
}

}  // namespace
}  // namespace cassette::testing
