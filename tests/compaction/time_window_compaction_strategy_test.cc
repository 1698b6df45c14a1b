#include "engine/compaction/time_window_compaction_strategy.h"

#include <gtest/gtest.h>

#include "tests/compaction/synthetic_table.h"

namespace cassette {
namespace {

using namespace testing_compaction;  // NOLINT: test builders

using Options = std::map<std::string, std::string>;

// 2024-01-15T00:00:00Z, a day boundary.
constexpr int64_t kT0 = 1705276800;

std::unique_ptr<TimeWindowCompactionStrategy> Twcs(const Options& options = {}) {
  Options with_class = options;
  with_class["class"] = "TimeWindowCompactionStrategy";
  auto r = NewTimeWindowCompactionStrategy(with_class);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return nullptr;
  return std::unique_ptr<TimeWindowCompactionStrategy>(
      static_cast<TimeWindowCompactionStrategy*>(std::move(r).value().release()));
}

std::unique_ptr<TimeWindowCompactionStrategy> Hourly(Options options = {}) {
  options["compaction_window_unit"] = "HOURS";
  options["compaction_window_size"] = "1";
  return Twcs(options);
}

std::string Error(const Options& options) {
  auto r = NewTimeWindowCompactionStrategy(options);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kConfigurationError);
  return r.ok() ? "" : r.status().message();
}

TEST(TimeWindowOptionsTest, DefaultsAreCassandrasPlusSplitting) {
  auto twcs = Twcs();
  ASSERT_NE(twcs, nullptr);
  EXPECT_EQ(twcs->name(), "TimeWindowCompactionStrategy");
  const TimeWindowOptions& o = twcs->window_options();
  EXPECT_EQ(o.window_unit, TimeWindowUnit::kDays);
  EXPECT_EQ(o.window_size, 1);
  EXPECT_EQ(o.timestamp_resolution, TimestampResolution::kMicroseconds);
  EXPECT_EQ(o.expired_sstable_check_frequency_seconds, 600);
  EXPECT_FALSE(o.unsafe_aggressive_sstable_expiration);
  EXPECT_TRUE(o.split_output_by_window);
  EXPECT_EQ(twcs->window_micros(), kDayS * kMicros);
  EXPECT_EQ(twcs->timer_period_seconds(), 600);
  EXPECT_FALSE(twcs->common_options().tombstone_options_given);
  EXPECT_EQ(twcs->common_options().min_threshold, 4);
  EXPECT_EQ(twcs->size_tiered_options().min_sstable_size, 50u << 20);
}

TEST(TimeWindowOptionsTest, BadValuesGetCassandrasMessages) {
  EXPECT_EQ(Error({{"compaction_window_unit", "WEEKS"}}),
            "WEEKS is not valid for compaction_window_unit");
  EXPECT_EQ(Error({{"compaction_window_unit", "SECONDS"}}),
            "SECONDS is not valid for compaction_window_unit");
  EXPECT_EQ(Error({{"compaction_window_unit", "hours"}}),
            "hours is not valid for compaction_window_unit");  // valueOf is case-sensitive
  EXPECT_EQ(Error({{"compaction_window_size", "0"}}),
            "0 must be greater than 1 for compaction_window_size");
  EXPECT_EQ(Error({{"compaction_window_size", "-3"}}),
            "-3 must be greater than 1 for compaction_window_size");
  EXPECT_EQ(Error({{"compaction_window_size", "one"}}),
            "one is not a parsable int (base10) for compaction_window_size");
  EXPECT_EQ(Error({{"timestamp_resolution", "MINUTES"}}),
            "MINUTES is not valid for timestamp_resolution");
  EXPECT_EQ(Error({{"timestamp_resolution", "micros"}}),
            "micros is not valid for timestamp_resolution");
  EXPECT_EQ(Error({{"expired_sstable_check_frequency_seconds", "-1"}}),
            "expired_sstable_check_frequency_seconds must not be negative, but was -1");
  EXPECT_EQ(Error({{"expired_sstable_check_frequency_seconds", "1m"}}),
            "1m is not a parsable int (base10) for expired_sstable_check_frequency_seconds");
  EXPECT_EQ(Error({{"unsafe_aggressive_sstable_expiration", "yes"}}),
            "unsafe_aggressive_sstable_expiration is not 'true' or 'false' (yes)");
  EXPECT_EQ(Error({{"split_output_by_window", "maybe"}}),
            "split_output_by_window should either be 'true' or 'false', not maybe");
  EXPECT_EQ(Error({{"bucket_high", "0.1"}}),
            "bucket_high value (0.1) is less than or equal to the bucket_low value (0.5)");
  EXPECT_EQ(Error({{"class", "TimeWindowCompactionStrategy"},
                   {"sstable_size_in_mb", "1"},
                   {"fanout_size", "2"}}),
            "Properties specified [fanout_size, sstable_size_in_mb] are not understood by "
            "TimeWindowCompactionStrategy");
}

TEST(TimeWindowOptionsTest, EveryOptionIsAccepted) {
  auto twcs = Twcs({{"compaction_window_unit", "MINUTES"},
                    {"compaction_window_size", "30"},
                    {"timestamp_resolution", "MILLISECONDS"},
                    {"expired_sstable_check_frequency_seconds", "0"},
                    {"unsafe_aggressive_sstable_expiration", "TRUE"},
                    {"split_output_by_window", "false"},
                    {"min_threshold", "2"},
                    {"max_threshold", "6"},
                    {"bucket_low", "0.4"},
                    {"bucket_high", "2"},
                    {"min_sstable_size", "0"},
                    {"tombstone_threshold", "0.5"},
                    {"enabled", "true"},
                    {"log_all", "false"},
                    {"only_purge_repaired_tombstones", "false"},
                    {"provide_overlapping_tombstones", "NONE"}});
  ASSERT_NE(twcs, nullptr);
  EXPECT_EQ(twcs->window_micros(), 30 * kMinuteS * kMicros);
  EXPECT_TRUE(twcs->window_options().unsafe_aggressive_sstable_expiration);
  EXPECT_FALSE(twcs->window_options().split_output_by_window);
  EXPECT_EQ(twcs->common_options().max_threshold, 6);
  EXPECT_DOUBLE_EQ(twcs->size_tiered_options().bucket_high, 2);
  EXPECT_TRUE(twcs->common_options().tombstone_options_given);
  // A frequency of 0 checks on every call, and still needs a timer.
  EXPECT_EQ(twcs->timer_period_seconds(), 1);
}

TEST(TimeWindowOptionsTest, WindowOfATimestamp) {
  auto hourly = Hourly();
  const int64_t ts = (kT0 + 5 * kHourS + 59 * kMinuteS) * kMicros + 999999;
  EXPECT_EQ(hourly->WindowStartMicros(ts), (kT0 + 5 * kHourS) * kMicros);
  EXPECT_EQ(hourly->WindowStartMicros((kT0 + 6 * kHourS) * kMicros), (kT0 + 6 * kHourS) * kMicros);
  EXPECT_EQ(hourly->window_micros(), kHourS * kMicros);

  // Windows are epoch-aligned multiples of their size.
  auto six_hours = Twcs({{"compaction_window_unit", "HOURS"}, {"compaction_window_size", "6"}});
  EXPECT_EQ(six_hours->WindowStartMicros((kT0 + 11 * kHourS) * kMicros),
            (kT0 + 6 * kHourS) * kMicros);
  auto two_days = Twcs({{"compaction_window_size", "2"}});
  // kT0 is day 19737 since the epoch, an odd day: its 2-day window began the day before.
  EXPECT_EQ(two_days->WindowStartMicros(kT0 * kMicros), (kT0 - kDayS) * kMicros);

  // Other timestamp units.
  auto millis = Hourly({{"timestamp_resolution", "MILLISECONDS"}});
  EXPECT_EQ(millis->WindowStartMicros((kT0 + 90 * kMinuteS) * 1000), (kT0 + kHourS) * kMicros);
  auto seconds = Hourly({{"timestamp_resolution", "SECONDS"}});
  EXPECT_EQ(seconds->WindowStartMicros(kT0 + 90 * kMinuteS), (kT0 + kHourS) * kMicros);
  auto nanos = Hourly({{"timestamp_resolution", "NANOSECONDS"}});
  EXPECT_EQ(nanos->WindowStartMicros((kT0 + 90 * kMinuteS) * 1000000000), (kT0 + kHourS) * kMicros);

  EXPECT_EQ(FormatWindowStart(kT0 + 5 * kHourS + 30 * kMinuteS), "2024-01-15T05:30Z");
  EXPECT_EQ(FormatWindowStart(0), "1970-01-01T00:00Z");
}

TEST(TimeWindowCompactionStrategyTest, OutputsAreSplitAtWindowBoundariesByDefault) {
  auto hourly = Hourly();
  EXPECT_EQ(hourly->FlushOutputShape().split_window_micros, kHourS * kMicros);
  EXPECT_EQ(hourly->FlushOutputShape().max_output_bytes, 0u);
  SyntheticTable t;
  for (uint64_t g = 1; g <= 4; ++g) t.AddWrite(g, kMiB, kT0 + static_cast<int64_t>(g), 0);
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 10));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->split_window_micros, kHourS * kMicros);
  EXPECT_EQ(hourly->MajorTask(t.Snapshot(kT0 + 10)).split_window_micros, kHourS * kMicros);

  // Cassandra's behaviour: one output per task.
  auto cassandra = Hourly({{"split_output_by_window", "false"}});
  EXPECT_EQ(cassandra->FlushOutputShape().split_window_micros, 0);
  task = cassandra->NextBackgroundTask(t.Snapshot(kT0 + 10));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->split_window_micros, 0);
  EXPECT_EQ(cassandra->MajorTask(t.Snapshot(kT0 + 10)).split_window_micros, 0);

  // The split width is in the table's timestamp unit.
  EXPECT_EQ(
      Hourly({{"timestamp_resolution", "MILLISECONDS"}})->FlushOutputShape().split_window_micros,
      kHourS * 1000);
}

TEST(TimeWindowCompactionStrategyTest, NewestWindowIsSizeTiered) {
  auto hourly = Hourly();
  SyntheticTable t;
  // An older window with a single SSTable: nothing to do there.
  t.AddWrite(1, 30 * kMiB, kT0 - kHourS, 0);
  // Newest window: 3 flushes is below min_threshold.
  for (uint64_t g = 2; g <= 4; ++g) t.AddWrite(g, kMiB, kT0 + 60 * static_cast<int64_t>(g), 0);
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 600)).has_value());
  EXPECT_EQ(hourly->highest_window_seen_seconds(), kT0);
  t.AddWrite(5, kMiB, kT0 + 300, 0);
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 600));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{2, 3, 4, 5}));
  EXPECT_EQ(task->reason, "newest window 2024-01-15T00:00Z: size-tiered bucket of 4 sstables");
}

TEST(TimeWindowCompactionStrategyTest, NewestWindowWithoutASimilarSizedBucketWaits) {
  auto hourly = Hourly({{"min_sstable_size", "0"}});
  SyntheticTable t;
  uint64_t gen = 1;
  for (uint64_t size : {1, 10, 100, 1000}) t.AddWrite(gen++, size * kMiB, kT0 + 60, 0);
  // Four files in the newest window but no size tier of four: STCS says
  // no, and older windows have nothing to merge either.
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 600)).has_value());
}

TEST(TimeWindowCompactionStrategyTest, OlderWindowsBecomeOneSSTableNewestFirst) {
  auto hourly = Hourly();
  SyntheticTable t;
  t.AddWrite(1, 3 * kMiB, kT0 - 2 * kHourS, 0);
  t.AddWrite(2, 2 * kMiB, kT0 - 2 * kHourS + 10, 0);
  t.AddWrite(3, 5 * kMiB, kT0 - kHourS, 0);
  t.AddWrite(4, 1 * kMiB, kT0 - kHourS + 10, 0);
  t.AddWrite(5, 1 * kMiB, kT0 + 10, 0);  // newest window, alone
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 20));
  ASSERT_TRUE(task.has_value());
  // The newest past window first, its files smallest first.
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{4, 3}));
  EXPECT_EQ(task->reason, "window 2024-01-14T23:00Z: 2 sstables into one");
  t.Remove(3);
  t.Remove(4);
  t.AddWrite(6, 6 * kMiB, kT0 - kHourS + 10, 0);  // the output
  task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 20));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{2, 1}));
}

TEST(TimeWindowCompactionStrategyTest, OldWindowTrimmedToMaxThresholdSmallestFirst) {
  auto hourly = Hourly({{"max_threshold", "4"}});
  SyntheticTable t;
  uint64_t gen = 1;
  for (uint64_t mib : {9, 3, 7, 1, 5, 2}) t.AddWrite(gen++, mib * kMiB, kT0 - kHourS, 0);
  t.AddWrite(gen++, kMiB, kT0, 0);
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 1));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{4, 6, 2, 5}));  // 1, 2, 3, 5 MiB
}

TEST(TimeWindowCompactionStrategyTest, HighestWindowSeenIsRemembered) {
  auto hourly = Hourly();
  SyntheticTable t;
  t.AddWrite(9, kMiB, kT0 + kHourS, 0);
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + kHourS)).has_value());
  EXPECT_EQ(hourly->highest_window_seen_seconds(), kT0 + kHourS);
  // The newest file is gone (say, deleted by a truncate of that window):
  // the window at kT0 is still an old one, so two files are enough.
  t.Remove(9);
  t.AddWrite(1, kMiB, kT0, 0);
  t.AddWrite(2, 5 * kMiB, kT0 + 1, 0);
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + kHourS));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{1, 2}));
  // A fresh strategy treats kT0 as the newest window and waits for 4.
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kHourS)).has_value());
}

TEST(TimeWindowCompactionStrategyTest, FullyExpiredSSTablesAreDroppedWhole) {
  auto hourly = Hourly();
  SyntheticTable t;
  t.AddWrite(1, kMiB, kT0, 6 * kHourS);
  t.AddWrite(2, kMiB, kT0 + kHourS, 6 * kHourS);
  t.AddWrite(3, kMiB, kT0 + 2 * kHourS, 6 * kHourS);
  // Before the first expiry (+ gc_grace 0): nothing.
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 6 * kHourS)).has_value());
  auto fresh = Hourly();
  std::optional<CompactionTask> task = fresh->NextBackgroundTask(t.Snapshot(kT0 + 7 * kHourS + 1));
  ASSERT_TRUE(task.has_value());
  EXPECT_TRUE(task->inputs.empty());
  EXPECT_EQ(task->expired, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(task->reason, "dropping 2 fully expired sstables");
  // gc_grace delays it.
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + 7 * kHourS + 1, kDayS)).has_value());
}

TEST(TimeWindowCompactionStrategyTest, ExpiredDropRidesAlongWithAWindowCompaction) {
  auto hourly = Hourly();
  SyntheticTable t;
  t.AddWrite(1, kMiB, kT0, kHourS);  // expired by kT0 + 2h
  t.AddWrite(2, kMiB, kT0 + 2 * kHourS, 0);
  t.AddWrite(3, kMiB, kT0 + 2 * kHourS + 1, 0);
  t.AddWrite(4, kMiB, kT0 + 3 * kHourS, 0);
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 3 * kHourS));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->inputs, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(task->expired, std::vector<uint64_t>{1});
  EXPECT_EQ(task->reason,
            "window 2024-01-15T02:00Z: 2 sstables into one; dropping 1 fully expired sstable");
}

TEST(TimeWindowCompactionStrategyTest, OverlappingOlderSSTableBlocksTheDrop) {
  SyntheticTable t;
  // An old SSTable without TTL whose keys overlap the expired one.
  t.Add({.generation = 1,
         .size = kMiB,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kNeverExpires,
         .first_token = 0,
         .last_token = 100});
  // TTL data written later on overlapping keys, long expired.
  t.Add({.generation = 2,
         .size = kMiB,
         .min_ts = kT0 * kMicros,
         .max_ts = kT0 * kMicros,
         .max_ldt = kT0 + kHourS,
         .first_token = 50,
         .last_token = 150});
  const CompactionSnapshot snapshot = t.Snapshot(kT0 + kDayS);
  EXPECT_FALSE(Hourly()->NextBackgroundTask(snapshot).has_value());

  // unsafe_aggressive_sstable_expiration removes the block.
  std::optional<CompactionTask> task =
      Hourly({{"unsafe_aggressive_sstable_expiration", "true"}})->NextBackgroundTask(snapshot);
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, std::vector<uint64_t>{2});
  EXPECT_TRUE(task->inputs.empty());
}

TEST(TimeWindowCompactionStrategyTest, BlockLiftsWhenTheOverlappingSSTableExpiresToo) {
  SyntheticTable t;
  t.Add({.generation = 1,
         .size = kMiB,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kT0 + 2 * kDayS,
         .first_token = 0,
         .last_token = 100});
  t.Add({.generation = 2,
         .size = kMiB,
         .min_ts = kT0 * kMicros,
         .max_ts = kT0 * kMicros,
         .max_ldt = kT0 + kHourS,
         .first_token = 50,
         .last_token = 150});
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS)).has_value());
  std::optional<CompactionTask> task =
      Hourly()->NextBackgroundTask(t.Snapshot(kT0 + 2 * kDayS + 1));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, (std::vector<uint64_t>{1, 2}));
}

TEST(TimeWindowCompactionStrategyTest, NonOverlappingOlderSSTableOutsideDoesNotBlock) {
  SyntheticTable t;
  t.Add({.generation = 1,
         .size = kMiB,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kNeverExpires,
         .first_token = 0,
         .last_token = 10,
         .compacting = true});
  t.Add({.generation = 2,
         .size = kMiB,
         .min_ts = kT0 * kMicros,
         .max_ts = kT0 * kMicros,
         .max_ldt = kT0 + kHourS,
         .first_token = 50,
         .last_token = 150});
  std::optional<CompactionTask> task = Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, std::vector<uint64_t>{2});
  // Overlapping, even while being compacted, it blocks.
  SyntheticTable u;
  u.Add({.generation = 1,
         .size = kMiB,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kNeverExpires,
         .first_token = 0,
         .last_token = 60,
         .compacting = true});
  u.Add({.generation = 2,
         .size = kMiB,
         .min_ts = kT0 * kMicros,
         .max_ts = kT0 * kMicros,
         .max_ldt = kT0 + kHourS,
         .first_token = 50,
         .last_token = 150});
  EXPECT_FALSE(Hourly()->NextBackgroundTask(u.Snapshot(kT0 + kDayS)).has_value());
}

// Cassandra's TWCS expiry check takes every non-compacting SSTable as its
// candidate set, so a live SSTable with older data blocks an expired one
// even when their keys do not overlap; a compaction of the expired file's
// window checks only overlapping SSTables outside it, and drops it.
TEST(TimeWindowCompactionStrategyTest, BackgroundCheckIsTableWideTaskCheckIsByOverlap) {
  SyntheticTable t;
  t.Add({.generation = 1,
         .size = kMiB,
         .min_ts = (kT0 - kDayS) * kMicros,
         .max_ts = (kT0 - kDayS) * kMicros,
         .max_ldt = kNeverExpires,
         .first_token = 0,
         .last_token = 10});
  t.Add({.generation = 2,
         .size = kMiB,
         .min_ts = kT0 * kMicros,
         .max_ts = kT0 * kMicros,
         .max_ldt = kT0 + kHourS,
         .first_token = 50,
         .last_token = 150});
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS)).has_value());
  t.Add({.generation = 3,
         .size = kMiB,
         .min_ts = kT0 * kMicros + 1,
         .max_ts = kT0 * kMicros + 2,
         .max_ldt = kNeverExpires,
         .first_token = 50,
         .last_token = 150});
  t.Add({.generation = 4,
         .size = kMiB,
         .min_ts = (kT0 + kDayS) * kMicros,
         .max_ts = (kT0 + kDayS) * kMicros,
         .max_ldt = kNeverExpires});
  std::optional<CompactionTask> task = Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS));
  ASSERT_TRUE(task.has_value());
  // Window kT0 holds 2 and 3; 2 is dropped, 3 rewritten alone.
  EXPECT_EQ(task->inputs, std::vector<uint64_t>{3});
  EXPECT_EQ(task->expired, std::vector<uint64_t>{2});
}

TEST(TimeWindowCompactionStrategyTest, MemtableWithOlderDataBlocksTheDrop) {
  SyntheticTable t;
  t.AddWrite(1, kMiB, kT0, kHourS);
  t.memtable_min_timestamp = kT0 * kMicros;  // a late write as old as the file's data
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS)).has_value());
  EXPECT_TRUE(Hourly({{"unsafe_aggressive_sstable_expiration", "true"}})
                  ->NextBackgroundTask(t.Snapshot(kT0 + kDayS))
                  .has_value());
  t.memtable_min_timestamp = (kT0 + kDayS) * kMicros;
  std::optional<CompactionTask> task = Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, std::vector<uint64_t>{1});
}

TEST(TimeWindowCompactionStrategyTest, ExpiredCheckRunsAtMostOncePerFrequency) {
  auto hourly = Hourly({{"expired_sstable_check_frequency_seconds", "600"}});
  SyntheticTable t;
  t.AddWrite(1, kMiB, kT0, 0);
  // First call always checks (nothing expired yet).
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 100)).has_value());
  t.AddWrite(2, kMiB, kT0 - kDayS, kHourS);  // an already expired file appears
  EXPECT_FALSE(
      hourly->NextBackgroundTask(t.Snapshot(kT0 + 700)).has_value());  // 600 s later: not more
  std::optional<CompactionTask> task = hourly->NextBackgroundTask(t.Snapshot(kT0 + 701));
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->expired, std::vector<uint64_t>{2});
  // Checked at kT0 + 701: the next check is due after kT0 + 1301.
  t.AddWrite(3, kMiB, kT0 - kDayS + 1, kHourS);
  t.Remove(2);
  EXPECT_FALSE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 1301)).has_value());
  EXPECT_TRUE(hourly->NextBackgroundTask(t.Snapshot(kT0 + 1302)).has_value());

  // With a frequency of 0 every call checks, unless no time passed at all
  // (Cassandra's comparison is strict).
  auto always = Hourly({{"expired_sstable_check_frequency_seconds", "0"}});
  EXPECT_TRUE(always->NextBackgroundTask(t.Snapshot(kT0 + 100)).has_value());
  EXPECT_FALSE(always->NextBackgroundTask(t.Snapshot(kT0 + 100)).has_value());
  EXPECT_TRUE(always->NextBackgroundTask(t.Snapshot(kT0 + 101)).has_value());
}

TEST(TimeWindowCompactionStrategyTest, TombstoneCompactionsOnlyWhenAskedFor) {
  SyntheticTable t;
  // One SSTable per window, full of droppable tombstones, disjoint keys.
  AddTombstones(&t.Add({.generation = 1,
                        .size = 8 * kMiB,
                        .min_ts = kT0 * kMicros,
                        .max_ts = kT0 * kMicros,
                        .first_token = 0,
                        .last_token = 10,
                        .created_micros = kT0 * kMicros}),
                900, kT0 + 60);
  AddTombstones(&t.Add({.generation = 2,
                        .size = 2 * kMiB,
                        .min_ts = (kT0 + kHourS) * kMicros,
                        .max_ts = (kT0 + kHourS) * kMicros,
                        .first_token = 20,
                        .last_token = 30,
                        .created_micros = kT0 * kMicros}),
                900, kT0 + 60);
  AddTombstones(&t.Add({.generation = 3,
                        .size = 1 * kMiB,
                        .min_ts = (kT0 + 2 * kHourS) * kMicros,
                        .max_ts = (kT0 + 2 * kHourS) * kMicros,
                        .first_token = 40,
                        .last_token = 50,
                        .created_micros = kT0 * kMicros}),
                100, kT0 + 60);
  const CompactionSnapshot snapshot = t.Snapshot(kT0 + 3 * kDayS);
  EXPECT_FALSE(Hourly()->NextBackgroundTask(snapshot).has_value());
  EXPECT_FALSE(Hourly({{"unchecked_tombstone_compaction", "false"}})
                   ->NextBackgroundTask(snapshot)
                   .has_value());
  for (const Options& enabling : {Options{{"tombstone_threshold", "0.2"}},
                                  Options{{"tombstone_compaction_interval", "86400"}},
                                  Options{{"unchecked_tombstone_compaction", "true"}}}) {
    std::optional<CompactionTask> task = Hourly(enabling)->NextBackgroundTask(snapshot);
    ASSERT_TRUE(task.has_value()) << enabling.begin()->first;
    // The smallest worth it (3's ratio, 0.1, is below the threshold).
    EXPECT_EQ(task->inputs, std::vector<uint64_t>{2});
    EXPECT_TRUE(task->tombstone_compaction);
    EXPECT_EQ(task->split_window_micros, kHourS * kMicros);
  }
  // The interval counts from each file's creation.
  EXPECT_FALSE(Hourly({{"tombstone_compaction_interval", "864000"}})
                   ->NextBackgroundTask(snapshot)
                   .has_value());
}

TEST(TimeWindowCompactionStrategyTest, MajorTaskTakesEverythingAndDropsExpired) {
  auto hourly = Hourly();
  SyntheticTable t;
  t.AddWrite(1, kMiB, kT0, kHourS);
  t.AddWrite(2, kMiB, kT0 + kDayS, 0);
  t.AddWrite(3, kMiB, kT0 + kDayS + kHourS, 0);
  t.AddWrite(4, kMiB, kT0 + kDayS + kHourS, 0);
  t.SetCompacting(4, true);
  CompactionTask task = hourly->MajorTask(t.Snapshot(kT0 + 2 * kDayS));
  EXPECT_EQ(task.inputs, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(task.expired, std::vector<uint64_t>{1});
  EXPECT_EQ(task.reason, "major compaction of 3 sstables; dropping 1 fully expired sstable");
}

TEST(TimeWindowCompactionStrategyTest, DisabledOrEmptyProposesNothing) {
  SyntheticTable t;
  EXPECT_FALSE(Hourly()->NextBackgroundTask(t.Snapshot(kT0)).has_value());
  for (uint64_t g = 1; g <= 4; ++g) t.AddWrite(g, kMiB, kT0, kHourS);
  EXPECT_FALSE(
      Hourly({{"enabled", "false"}})->NextBackgroundTask(t.Snapshot(kT0 + kDayS)).has_value());
  EXPECT_TRUE(Hourly()->NextBackgroundTask(t.Snapshot(kT0 + kDayS)).has_value());
}

// Two days of a time series through the strategy alone: a flush every 10
// minutes (6-hour TTL, hourly windows, gc_grace one hour), each task run
// at once by replacing its inputs with one SSTable per window. Expired
// data is never rewritten, past windows end as one SSTable each, and
// every SSTable leaves within TTL + window + gc_grace (+ the check period).
TEST(TimeWindowCompactionStrategyTest, SimulatedDaysOfTimeSeries) {
  auto twcs = Hourly();
  const int64_t ttl = 6 * kHourS, gc_grace = kHourS, step = 10 * kMinuteS;
  const int64_t check = twcs->window_options().expired_sstable_check_frequency_seconds;
  SyntheticTable t;
  std::map<uint64_t, FileSpec> live;  // what the table holds
  uint64_t next_generation = 1;
  uint64_t rewritten_expired = 0, dropped = 0;
  for (int64_t now = kT0 + step; now <= kT0 + 2 * kDayS; now += step) {
    FileSpec flush{.generation = next_generation++,
                   .size = kMiB,
                   .min_ts = (now - step) * kMicros,
                   .max_ts = now * kMicros - 1,
                   .max_ldt = now + ttl,
                   .created_micros = now * kMicros};
    t.Add(flush);
    live[flush.generation] = flush;
    while (true) {
      const CompactionSnapshot snapshot = t.Snapshot(now, gc_grace);
      std::optional<CompactionTask> task = twcs->NextBackgroundTask(snapshot);
      if (!task) break;
      ASSERT_EQ(task->split_window_micros, kHourS * kMicros);
      for (uint64_t g : task->expired) {
        ASSERT_LT(live.at(g).max_ldt, snapshot.gc_before);
        t.Remove(g);
        live.erase(g);
        ++dropped;
      }
      if (task->inputs.empty()) continue;
      FileSpec out{.generation = next_generation++,
                   .size = 0,
                   .min_ts = INT64_MAX,
                   .max_ts = INT64_MIN,
                   .max_ldt = INT64_MIN,
                   .created_micros = now * kMicros};
      const int64_t window = twcs->WindowStartMicros(live.at(task->inputs[0]).max_ts);
      for (uint64_t g : task->inputs) {
        const FileSpec& in = live.at(g);
        if (in.max_ldt < snapshot.gc_before) ++rewritten_expired;
        // Every input of a TWCS task lies in one window here.
        ASSERT_EQ(twcs->WindowStartMicros(in.max_ts), window);
        out.size += in.size;
        out.min_ts = std::min(out.min_ts, in.min_ts);
        out.max_ts = std::max(out.max_ts, in.max_ts);
        out.max_ldt = std::max(out.max_ldt, in.max_ldt);
        t.Remove(g);
        live.erase(g);
      }
      t.Add(out);
      live[out.generation] = out;
    }
    for (const auto& [g, f] : live) {
      ASSERT_LE(now, f.max_ldt + gc_grace + 2 * check)
          << "sstable " << g << " outstayed its expiry";
    }
  }
  EXPECT_EQ(rewritten_expired, 0u);
  EXPECT_GT(dropped, 0u);
  // Past windows still on disk hold one SSTable each; only the newest may
  // hold several.
  std::map<int64_t, int> per_window;
  int64_t newest = INT64_MIN;
  for (const auto& [g, f] : live) {
    const int64_t w = twcs->WindowStartMicros(f.max_ts);
    ++per_window[w];
    newest = std::max(newest, w);
  }
  for (const auto& [w, n] : per_window) {
    if (w != newest) {
      EXPECT_EQ(n, 1) << FormatWindowStart(w / kMicros);
    }
  }
  // 6 h of TTL + 1 h of gc_grace + the window being written.
  EXPECT_LE(per_window.size(), 9u);
}

}  // namespace
}  // namespace cassette
