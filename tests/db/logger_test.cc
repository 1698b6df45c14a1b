// The info log (Options::logger, the default LOG file) and what the
// database does when a background flush or compaction fails: logged,
// counted in TableStats::background_errors, retried with a doubling delay
// on the database's clock, and, for a flush under disk_failure_policy stop,
// surfaced to writes as WriteFailure until a flush succeeds
// (docs/RELIABILITY.md, "Background failures"). Everything runs on a
// manual clock and a manual scheduler: no sleeps, no real time.
//
// Modelled on Cassandra 5.0's disk_failure_policy (conf/cassandra.yaml,
// DefaultFSErrorHandler: stop refuses requests once a write to the disk
// fails) and LevelDB's info log (LOG, LOG.old at open).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/db.h"
#include "cassette/logger.h"
#include "engine/env/file_logger.h"
#include "tests/db/db_test_util.h"
#include "tests/support/capturing_logger.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/log_files.h"

namespace cassette::testing {
namespace {

constexpr int64_t kHour = 3600;

Mutation Reading(int32_t sensor, int64_t millis, int32_t v) {
  Mutation m("ks", "ts", {Value::Int(sensor)});
  m.Insert({Value::Timestamp(millis)}).Set("v", Value::Int(v));
  return m;
}

TableStats Stats(Database& db) { return StatsOf(db, "ks", "ts"); }

// Opens /db with `options` and creates ks.ts (STCS); null (with the
// failure reported) when either step fails.
std::unique_ptr<Database> OpenWithSeriesTable(const Options& options) {
  auto opened = Database::Open(options, "/db");
  EXPECT_TRUE(opened.ok()) << opened.status().ToString();
  if (!opened.ok()) return nullptr;
  std::unique_ptr<Database> db = std::move(opened).value();
  Status s = db->CreateKeyspace({.name = "ks"});
  if (s.ok()) s = db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}));
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() ? std::move(db) : nullptr;
}

// Writes readings until the memtable queues a background flush (the manual
// scheduler holds it); returns how many it wrote, or -1 if a write failed.
int WriteUntilFlushQueued(Database& db, ManualScheduler& scheduler) {
  int written = 0;
  while (scheduler.pending() == 0) {
    Status s = db.Apply(Reading(written % 50, written, 1));
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return -1;
    ++written;
  }
  return written;
}

TEST(LoggerTest, DefaultLogRecordsOpenFlushAndCloseAndRotatesAtOpen) {
  TestDb t;
  Options options = t.MakeOptions();
  options.log_file_keep = 2;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(t.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}})));
  ASSERT_OK(t.db->Apply(Reading(1, 1000, 1)));
  ASSERT_OK(t.db->Flush());
  const std::vector<std::string> first = LogLines(ReadLogText(*t.fs, "/db/LOG"));
  ASSERT_GE(first.size(), 2u);
  EXPECT_EQ(first[0].rfind("2024-01-01T00:00:00.000000Z INFO opened /db: 0 tables, 0 SSTables; "
                           "commit log: 0 segments recovered",
                           0),
            0u)
      << first[0];
  EXPECT_NE(first[1].find(" INFO flushed ks.ts: 1 partitions, "), std::string::npos) << first[1];
  EXPECT_NE(first[1].find("-> SSTables [1], "), std::string::npos) << first[1];

  // Each open rotates the previous run's LOG; two old files are kept.
  for (int run = 1; run <= 3; ++run) {
    t.Advance(kHour);
    ASSERT_OK(t.db->Apply(Reading(1, 1000 + run, 1)));  // left in the commit log
    ASSERT_OK(t.Reopen());
  }
  EXPECT_EQ(LogFileNames(*t.fs, "/db"), (std::vector<std::string>{"LOG", "LOG.1", "LOG.2"}));
  // Each reopen replayed the one write left in the commit log and flushed
  // it (logged first): four SSTables now. Each file holds its own run.
  const std::string log = ReadLogText(*t.fs, "/db/LOG");
  EXPECT_EQ(log.rfind("2024-01-01T03:00:00.000000Z INFO flushed ks.ts: 1 partitions", 0), 0u)
      << log;
  EXPECT_NE(log.find("\n2024-01-01T03:00:00.000000Z INFO opened /db: 1 tables, 4 SSTables; "
                     "commit log: 1 segments recovered, 1 records replayed, 0 torn bytes "
                     "dropped; in "),
            std::string::npos)
      << log;
  EXPECT_NE(ReadLogText(*t.fs, "/db/LOG.1").find("\n2024-01-01T02:00:00.000000Z INFO opened /db: "),
            std::string::npos);
  EXPECT_NE(ReadLogText(*t.fs, "/db/LOG.2").find("\n2024-01-01T01:00:00.000000Z INFO opened /db: "),
            std::string::npos);
  // The engine knows its LOG: not an unknown file.
  EXPECT_TRUE(t.db->GetRecoveryReport().unknown_files.empty());
  ASSERT_OK(t.db->Close());
  EXPECT_NE(ReadLogText(*t.fs, "/db/LOG").find(" INFO closing /db\n"), std::string::npos);
}

TEST(LoggerTest, NoLogFileWhenTurnedOffOrReadOnlyOrReplaced) {
  TestDb t;
  Options options = t.MakeOptions();
  options.log_file_enabled = false;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->Close());
  EXPECT_TRUE(LogFileNames(*t.fs, "/db").empty());
  options.read_only = true;
  options.log_file_enabled = true;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->Close());
  EXPECT_TRUE(LogFileNames(*t.fs, "/db").empty());
  auto logger = std::make_shared<CapturingLogger>();
  options.read_only = false;
  options.logger = logger;
  ASSERT_OK(t.Open(options));
  EXPECT_TRUE(LogFileNames(*t.fs, "/db").empty());
  EXPECT_EQ(logger->Count("INFO opened /db"), 1);
}

TEST(LoggerTest, CustomLoggerReceivesFlushAndCompactionLines) {
  TestDb t;
  auto logger = std::make_shared<CapturingLogger>();
  Options options = t.MakeOptions();
  options.logger = logger;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(t.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}})));
  for (int flush = 0; flush < 4; ++flush) {
    for (int s = 0; s < 10; ++s) ASSERT_OK(t.db->Apply(Reading(s, flush, flush)));
    ASSERT_OK(t.db->Flush());
  }
  t.scheduler->RunUntilIdle();
  EXPECT_EQ(logger->Count("INFO flushed ks.ts: 10 partitions"), 4) << logger->All();
  EXPECT_EQ(logger->Count("INFO compacted ks.ts (SizeTieredCompactionStrategy"), 1)
      << logger->All();
  EXPECT_EQ(logger->Count("): [1,2,3,4] -> [5], "), 1) << logger->All();
  EXPECT_EQ(logger->Count(" 40 rows in, 40 out, 0 tombstones purged"), 1) << logger->All();
}

TEST(LoggerTest, WholeSSTableExpirationsAndGuardrailsAreLogged) {
  TestDb t;
  auto logger = std::make_shared<CapturingLogger>();
  Options options = t.MakeOptions();
  options.logger = logger;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(t.db->CreateKeyspace({.name = "ks"}));
  const std::map<std::string, std::string> hourly = HourlyTwcs();
  std::vector<std::string> warnings;
  ASSERT_OK(t.db->CreateTable(SeriesTable(hourly, static_cast<int32_t>(kHour)), false, &warnings));
  for (const std::string& warning : warnings) {
    EXPECT_EQ(logger->Count("WARN CREATE TABLE ks.ts: " + warning), 1) << logger->All();
  }
  const int64_t now_millis = t.clock->WallMicros() / 1000;
  ASSERT_OK(t.db->Apply(Reading(1, now_millis, 1)));
  ASSERT_OK(t.db->Flush());
  t.Advance(3 * kHour);
  ASSERT_OK(t.db->Apply(Reading(1, now_millis + 3 * kHour * 1000, 2)));
  ASSERT_OK(t.db->Flush());
  t.scheduler->RunUntilIdle();
  EXPECT_EQ(Stats(*t.db).expired_sstables_dropped, 1);
  EXPECT_EQ(logger->Count("whole SSTables expired and dropped: [1], "), 1) << logger->All();
}

// A background flush that fails three times, then succeeds once the
// fault clears: each failure is logged and counted, the retries come
// after 1 s, 2 s and 4 s of the manual clock, writes get WriteFailure
// meanwhile (disk_failure_policy stop) and reads go on.
TEST(BackgroundFailureTest, FlushFailingThreeTimesIsRetriedWithBackoffAndRefusesWrites) {
  TestDb t;
  auto faults = std::make_shared<FaultInjectionFileSystem>(t.fs);
  auto logger = std::make_shared<CapturingLogger>();
  Options options = t.MakeOptions();
  options.logger = logger;
  options.memtable_flush_threshold = 64 << 10;  // a flush is queued at 32 KiB
  options.file_system = faults;
  std::unique_ptr<Database> db = OpenWithSeriesTable(options);
  ASSERT_NE(db, nullptr);

  faults->AddRule({FaultOp::kOpen, "*.sst", FaultRule::When::kEvery});
  const int written = WriteUntilFlushQueued(*db, *t.scheduler);
  ASSERT_GE(written, 0);
  t.scheduler->RunUntilIdle();  // the background flush fails
  EXPECT_EQ(Stats(*db).background_errors, 1);
  EXPECT_EQ(logger->Count("ERROR background flush of ks.ts failed (1 in a row): IOError: "
                          "injected fault: open "),
            1)
      << logger->All();
  EXPECT_EQ(logger->Count("; next try in 1000.0 ms"), 1) << logger->All();

  // Refused, with the cause; reads answer from the memtable.
  Status refused = db->Apply(Reading(0, 1, 2));
  EXPECT_TRUE(refused.code() == Status::Code::kWriteFailure) << refused.ToString();
  EXPECT_NE(refused.message().find("writes to ks.ts are refused while its memtable cannot be "
                                   "flushed (disk_failure_policy stop; 1 failures in a row"),
            std::string::npos)
      << refused.ToString();
  EXPECT_NE(refused.message().find("injected fault"), std::string::npos);
  EXPECT_EQ(SeriesRows(*db, 50), written);

  // Not due before its time; then one retry per due time, each delay twice
  // the one before.
  const int64_t delays_ms[] = {1000, 2000, 4000};
  for (int failures = 1; failures <= 3; ++failures) {
    const int64_t delay = delays_ms[failures - 1];
    ASSERT_OK(t.clock->Advance((delay - 1) * 1000));
    EXPECT_TRUE(db->Apply(Reading(0, 1, 2)).code() == Status::Code::kWriteFailure);
    EXPECT_EQ(t.scheduler->pending(), 0u) << "retried before its delay";
    ASSERT_OK(t.clock->Advance(1000));
    if (failures == 3) faults->ClearRules();  // the cause clears
    // The write finds the retry due and starts it; it is still refused.
    EXPECT_TRUE(db->Apply(Reading(0, 1, 2)).code() == Status::Code::kWriteFailure);
    EXPECT_EQ(t.scheduler->pending(), 1u);
    t.scheduler->RunUntilIdle();
    if (failures < 3) {
      EXPECT_EQ(Stats(*db).background_errors, failures + 1);
      EXPECT_EQ(logger->Count("(" + std::to_string(failures + 1) + " in a row)"), 1)
          << logger->All();
      EXPECT_EQ(logger->Count("; next try in " + std::to_string(2 * delay) + ".0 ms"), 1)
          << logger->All();
    }
  }
  EXPECT_EQ(logger->Count("retrying the flush of ks.ts"), 3);
  EXPECT_EQ(logger->Count("INFO flush of ks.ts succeeded after 3 failures in a row"), 1)
      << logger->All();
  const TableStats stats = Stats(*db);
  EXPECT_EQ(stats.background_errors, 3);
  EXPECT_EQ(stats.sstable_count, 1);
  ASSERT_OK(db->Apply(Reading(0, 1, 2)));  // accepted again
  EXPECT_EQ(SeriesRows(*db, 50), written + 1);
}

TEST(BackgroundFailureTest, TheDelayIsCappedAndAnExplicitFlushClearsTheFailure) {
  TestDb t;
  auto faults = std::make_shared<FaultInjectionFileSystem>(t.fs);
  auto logger = std::make_shared<CapturingLogger>();
  Options options = t.MakeOptions();
  options.logger = logger;
  options.file_system = faults;
  options.memtable_flush_threshold = 64 << 10;
  options.background_retry_initial_ms = 500;
  options.background_retry_max_ms = 1500;
  std::unique_ptr<Database> db = OpenWithSeriesTable(options);
  ASSERT_NE(db, nullptr);
  faults->AddRule({FaultOp::kOpen, "*.sst", FaultRule::When::kEvery});
  const int written = WriteUntilFlushQueued(*db, *t.scheduler);
  ASSERT_GE(written, 0);
  t.scheduler->RunUntilIdle();
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(t.clock->Advance(1'500'000));
    EXPECT_TRUE(db->Apply(Reading(0, 1, 2)).code() == Status::Code::kWriteFailure);
    t.scheduler->RunUntilIdle();
  }
  // 500, 1000, then 1500 (not 2000, 4000).
  EXPECT_EQ(logger->Count("next try in 500.0 ms"), 1) << logger->All();
  EXPECT_EQ(logger->Count("next try in 1000.0 ms"), 1) << logger->All();
  EXPECT_EQ(logger->Count("next try in 1500.0 ms"), 3) << logger->All();
  EXPECT_EQ(Stats(*db).background_errors, 5);
  // A caller's flush failing meanwhile returns its error and is not
  // counted as background work.
  EXPECT_FALSE(db->Flush().ok());
  EXPECT_EQ(Stats(*db).background_errors, 5);
  faults->ClearRules();
  ASSERT_OK(db->Flush());
  ASSERT_OK(db->Apply(Reading(0, 1, 2)));
  EXPECT_EQ(logger->Count("INFO flush of ks.ts succeeded after 6 failures in a row"), 1)
      << logger->All();
}

TEST(BackgroundFailureTest, UnderIgnoreAFailingFlushDoesNotRefuseWrites) {
  TestDb t;
  auto faults = std::make_shared<FaultInjectionFileSystem>(t.fs);
  Options options = t.MakeOptions();
  options.logger = std::make_shared<CapturingLogger>();
  options.file_system = faults;
  options.memtable_flush_threshold = 64 << 10;
  options.disk_failure_policy = DiskFailurePolicy::kIgnore;
  std::unique_ptr<Database> db = OpenWithSeriesTable(options);
  ASSERT_NE(db, nullptr);
  faults->AddRule({FaultOp::kOpen, "*.sst", FaultRule::When::kEvery});
  const int written = WriteUntilFlushQueued(*db, *t.scheduler);
  ASSERT_GE(written, 0);
  t.scheduler->RunUntilIdle();
  EXPECT_EQ(Stats(*db).background_errors, 1);
  ASSERT_OK(db->Apply(Reading(0, 1, 2)));  // accepted: the commit log holds it
}

// A background compaction that fails is logged, counted and retried after
// its delay; writes go on meanwhile (its inputs stay live and whole).
TEST(BackgroundFailureTest, CompactionFailureIsRetriedWithoutRefusingWrites) {
  TestDb t;
  auto faults = std::make_shared<FaultInjectionFileSystem>(t.fs);
  auto logger = std::make_shared<CapturingLogger>();
  Options options = t.MakeOptions();
  options.logger = logger;
  options.file_system = faults;
  std::unique_ptr<Database> db = OpenWithSeriesTable(options);
  ASSERT_NE(db, nullptr);
  for (int flush = 0; flush < 4; ++flush) {
    for (int s = 0; s < 10; ++s) ASSERT_OK(db->Apply(Reading(s, flush, flush)));
    ASSERT_OK(db->Flush());
  }
  ASSERT_EQ(t.scheduler->pending(), 1u);  // the compaction the fourth flush queued
  faults->AddRule({FaultOp::kOpen, "*.sst", FaultRule::When::kEvery});
  t.scheduler->RunUntilIdle();
  EXPECT_EQ(Stats(*db).background_errors, 1);
  EXPECT_EQ(Stats(*db).sstable_count, 4);
  EXPECT_EQ(logger->Count("ERROR background compaction of ks.ts failed (1 in a row)"), 1)
      << logger->All();
  ASSERT_OK(db->Apply(Reading(0, 100, 1)));  // writes go on
  EXPECT_EQ(t.scheduler->pending(), 0u);

  ASSERT_OK(t.clock->Advance(1'000'000));
  ASSERT_OK(db->Apply(Reading(0, 101, 1)));  // finds the retry due
  ASSERT_EQ(t.scheduler->pending(), 1u);
  t.scheduler->RunUntilIdle();
  EXPECT_EQ(Stats(*db).background_errors, 2);
  EXPECT_EQ(logger->Count("next try in 2000.0 ms"), 1) << logger->All();

  faults->ClearRules();
  ASSERT_OK(t.clock->Advance(2'000'000));
  ASSERT_OK(db->Apply(Reading(0, 102, 1)));
  t.scheduler->RunUntilIdle();
  const TableStats stats = Stats(*db);
  EXPECT_EQ(stats.background_errors, 2);
  EXPECT_EQ(stats.sstable_count, 1);
  EXPECT_EQ(logger->Count("INFO compaction of ks.ts succeeded after 2 failures in a row"), 1)
      << logger->All();
  EXPECT_EQ(SeriesRows(*db, 10), 43);
}

}  // namespace
}  // namespace cassette::testing
