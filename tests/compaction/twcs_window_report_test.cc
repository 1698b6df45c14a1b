#include "engine/compaction/twcs_window_report.h"

#include <gtest/gtest.h>

#include "engine/compaction/time_window_compaction_strategy.h"
#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

constexpr int64_t kT0 = 1705276800;  // 2024-01-15T00:00:00Z

std::unique_ptr<TimeWindowCompactionStrategy> Hourly(Options options = {}) {
  options["class"] = "TimeWindowCompactionStrategy";
  options["compaction_window_unit"] = "HOURS";
  auto r = NewTimeWindowCompactionStrategy(options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::unique_ptr<TimeWindowCompactionStrategy>(
      static_cast<TimeWindowCompactionStrategy*>(std::move(r).value().release()));
}

TEST(TwcsWindowReportTest, WindowsOldestFirstWithTheirSSTablesAndExpiry) {
  SyntheticTable t;
  t.AddWrite(1, 100, kT0, 2 * kHourS);                  // expires kT0 + 2h
  t.AddWrite(2, 200, kT0 + 30 * kMinuteS, 2 * kHourS);  // expires kT0 + 2h30
  t.AddWrite(3, 300, kT0 + kHourS, 6 * kHourS);
  t.AddWrite(4, 400, kT0 + 2 * kHourS, 0);  // no TTL
  auto twcs = Hourly();
  const int64_t gc_grace = 600;
  const auto report = twcs->ReportWindows(t.Snapshot(kT0 + 3 * kHourS, gc_grace), gc_grace);
  ASSERT_EQ(report.size(), 3u);

  EXPECT_EQ(report[0].window_start_micros, kT0 * kMicros);
  EXPECT_EQ(report[0].window_end_micros, (kT0 + kHourS) * kMicros);
  EXPECT_EQ(report[0].generations, (std::vector<uint64_t>{1, 2}));
  // Past TTL + gc_grace, and nothing older elsewhere.
  EXPECT_EQ(report[0].droppable_generations, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(report[0].droppable_bytes, 300u);
  EXPECT_EQ(report[0].live_bytes, 0u);
  EXPECT_EQ(report[0].droppable_at_micros, (kT0 + 150 * kMinuteS + gc_grace + 1) * kMicros);
  EXPECT_TRUE(report[0].blocking_generations.empty());
  EXPECT_FALSE(report[0].blocked_by_memtable);

  EXPECT_EQ(report[1].window_start_micros, (kT0 + kHourS) * kMicros);
  EXPECT_EQ(report[1].generations, std::vector<uint64_t>{3});
  EXPECT_TRUE(report[1].droppable_generations.empty());
  EXPECT_EQ(report[1].live_bytes, 300u);
  EXPECT_EQ(report[1].droppable_at_micros, (kT0 + 7 * kHourS + gc_grace + 1) * kMicros);
  EXPECT_TRUE(report[1].blocking_generations.empty());  // 4's data is newer

  EXPECT_EQ(report[2].generations, std::vector<uint64_t>{4});
  EXPECT_EQ(report[2].live_bytes, 400u);
  EXPECT_FALSE(report[2].droppable_at_micros.has_value());  // never expires

  // The window is droppable at exactly droppable_at, not a second before.
  const int64_t at = *report[1].droppable_at_micros / kMicros;
  EXPECT_TRUE(
      twcs->ReportWindows(t.Snapshot(at - 1, gc_grace), gc_grace)[1].droppable_generations.empty());
  EXPECT_EQ(twcs->ReportWindows(t.Snapshot(at, gc_grace), gc_grace)[1].droppable_generations,
            std::vector<uint64_t>{3});
}

TEST(TwcsWindowReportTest, OlderDataElsewhereBlocksAndIsNamed) {
  SyntheticTable t;
  // Old data without TTL (say, written before the TTL was set).
  t.Add({.generation = 1,
         .size = 10,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kNeverExpires});
  // A late write: old timestamp, in a newer SSTable (Cassandra's flush).
  t.Add({.generation = 2,
         .size = 20,
         .min_ts = (kT0 - 1) * kMicros,
         .max_ts = (kT0 + 5 * kHourS) * kMicros,
         .max_ldt = kT0 + 5 * kHourS + kHourS});
  t.AddWrite(3, 30, kT0, kHourS);
  const auto report = Hourly()->ReportWindows(t.Snapshot(kT0 + 3 * kHourS), 0);
  ASSERT_EQ(report.size(), 3u);
  const TwcsWindowReport& w = report[1];
  ASSERT_EQ(w.generations, std::vector<uint64_t>{3});
  EXPECT_TRUE(w.droppable_generations.empty());
  EXPECT_EQ(w.live_bytes, 30u);
  EXPECT_EQ(w.droppable_at_micros, (kT0 + kHourS + 1) * kMicros);  // already past
  EXPECT_EQ(w.blocking_generations, (std::vector<uint64_t>{1, 2}));

  // Once 2 has expired too, only 1 blocks; 2 itself is blocked by 1.
  const auto later = Hourly()->ReportWindows(t.Snapshot(kT0 + 7 * kHourS), 0);
  EXPECT_EQ(later[1].blocking_generations, std::vector<uint64_t>{1});
  EXPECT_EQ(later[2].generations, std::vector<uint64_t>{2});
  EXPECT_EQ(later[2].blocking_generations, std::vector<uint64_t>{1});

  // unsafe_aggressive_sstable_expiration: nothing blocks.
  const auto unsafe = Hourly({{"unsafe_aggressive_sstable_expiration", "true"}})
                          ->ReportWindows(t.Snapshot(kT0 + 3 * kHourS), 0);
  EXPECT_EQ(unsafe[1].droppable_generations, std::vector<uint64_t>{3});
  EXPECT_EQ(unsafe[1].droppable_bytes, 30u);
  EXPECT_TRUE(unsafe[1].blocking_generations.empty());
}

TEST(TwcsWindowReportTest, FutureBlockersOutliveTheWindow) {
  SyntheticTable t;
  t.AddWrite(1, 10, kT0, kHourS);
  // Overlapping older data expiring after window kT0 does: blocks it then.
  t.Add({.generation = 2,
         .size = 10,
         .min_ts = (kT0 - 10) * kMicros,
         .max_ts = (kT0 + kHourS) * kMicros,
         .max_ldt = kT0 + 10 * kHourS});
  // Older data expiring before it: gone by then, no block.
  t.Add({.generation = 3,
         .size = 10,
         .min_ts = (kT0 - 20) * kMicros,
         .max_ts = (kT0 + 2 * kHourS) * kMicros,
         .max_ldt = kT0 + kHourS / 2});
  const auto report = Hourly()->ReportWindows(t.Snapshot(kT0 + 1), 0);
  ASSERT_EQ(report[0].generations, std::vector<uint64_t>{1});
  EXPECT_EQ(report[0].blocking_generations, std::vector<uint64_t>{2});
}

TEST(TwcsWindowReportTest, MemtableBlockIsFlagged) {
  SyntheticTable t;
  t.AddWrite(1, 10, kT0, kHourS);
  t.memtable_min_timestamp = kT0 * kMicros;
  auto report = Hourly()->ReportWindows(t.Snapshot(kT0 + 2 * kHourS), 0);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_TRUE(report[0].blocked_by_memtable);
  EXPECT_TRUE(report[0].droppable_generations.empty());
  t.memtable_min_timestamp = (kT0 + 1) * kMicros;
  report = Hourly()->ReportWindows(t.Snapshot(kT0 + 2 * kHourS), 0);
  EXPECT_FALSE(report[0].blocked_by_memtable);
  EXPECT_EQ(report[0].droppable_generations, std::vector<uint64_t>{1});
}

TEST(TwcsWindowReportTest, CompactingSSTablesAreReported) {
  SyntheticTable t;
  t.AddWrite(1, 10, kT0, kHourS);
  t.SetCompacting(1, true);
  const auto report = Hourly()->ReportWindows(t.Snapshot(kT0 + 2 * kHourS), 0);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].generations, std::vector<uint64_t>{1});
  EXPECT_EQ(report[0].droppable_bytes, 10u);
  EXPECT_TRUE(Hourly()->ReportWindows(SyntheticTable().Snapshot(kT0), 0).empty());
}

}  // namespace
}  // namespace cassette
