// Compaction through the Database: strategies chosen by the table option,
// TWCS windows and whole-SSTable expiry over simulated days, the overlap
// check that blocks an expired file, free-space postponement, crash safety
// of the input/output swap, and files kept while a reader holds them.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/hooked_file_system.h"

namespace cassette::testing {
namespace {

constexpr int64_t kHour = 3600;

class CompactionTest : public ::testing::Test {
 protected:
  void Open(Options options) { ASSERT_OK(t_.Open(options)); }
  void OpenDefault() {
    Options options = t_.MakeOptions();
    Open(options);
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
  }
  // One reading per sensor at the current clock.
  void WriteReadings(int sensors, int value) {
    const int64_t now = t_.clock->WallMicros();
    for (int s = 0; s < sensors; ++s) {
      Mutation m("ks", "ts", {Value::Int(s)});
      m.Insert({Value::Timestamp(now / 1000)}).Set("v", Value::Int(value));
      ASSERT_OK(t_.db->Apply(m));
    }
  }
  int64_t CountRows(int sensors) { return SeriesRows(*t_.db, sensors); }
  TableStats Stats() { return StatsOf(*t_.db, "ks", "ts"); }
  TestDb t_;
};

TEST_F(CompactionTest, BadCompactionOptionsAreRefusedWithCassandrasMessages) {
  OpenDefault();
  Status s = t_.db->CreateTable(SeriesTable({{"class", "DateTieredCompactionStrategy"}}, 0, 0));
  EXPECT_EQ(s.code(), Status::Code::kConfigurationError);
  EXPECT_EQ(s.message(),
            "Unable to find compaction strategy class "
            "'org.apache.cassandra.db.compaction.DateTieredCompactionStrategy'");
  s = t_.db->CreateTable(SeriesTable(
      {{"class", "TimeWindowCompactionStrategy"}, {"compaction_window_unit", "WEEKS"}}, 0, 0));
  EXPECT_EQ(s.code(), Status::Code::kConfigurationError) << s.ToString();
  // Nothing was created by the failed statements.
  EXPECT_TRUE(t_.db->ListTables("ks")->empty());
  // The fully qualified class name is accepted too.
  ASSERT_OK(t_.db->CreateTable(SeriesTable(
      {{"class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"}}, 0, 0)));
}

TEST_F(CompactionTest, TwcsGuardrailsWarnOnCreateAndAlter) {
  OpenDefault();
  std::vector<std::string> warnings;
  // No default TTL on a TWCS table: the windows never expire by themselves.
  ASSERT_OK(t_.db->CreateTable(SeriesTable(HourlyTwcs(), 0, 0), false, &warnings));
  EXPECT_FALSE(warnings.empty());
  // A 30-day TTL over hourly windows: 720 windows.
  warnings.clear();
  TableOptions options = t_.db->GetTable("ks", "ts")->options();
  options.default_time_to_live = 30 * 86400;
  ASSERT_OK(t_.db->AlterTableOptions("ks", "ts", options, &warnings));
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("720"), std::string::npos) << warnings[0];
  // Six hours of TTL over hourly windows is what TWCS wants: no warning.
  warnings.clear();
  options.default_time_to_live = 6 * 3600;
  ASSERT_OK(t_.db->AlterTableOptions("ks", "ts", options, &warnings));
  EXPECT_TRUE(warnings.empty()) << warnings[0];
}

// The acceptance scenario: hourly windows, a 6-hour TTL, 48
// simulated hours of writes with a flush every 10 minutes.
TEST_F(CompactionTest, TwcsKeepsOneSSTablePerWindowAndDropsExpiredWindowsWhole) {
  OpenDefault();
  constexpr int kSensors = 20;
  constexpr int32_t kTtl = 6 * kHour;
  constexpr int32_t kGcGrace = kHour;
  ASSERT_OK(t_.db->CreateTable(SeriesTable(HourlyTwcs(), kTtl, kGcGrace)));
  std::set<uint64_t> ever_rewritten;  // inputs of rewriting compactions
  std::set<uint64_t> ever_dropped;    // dropped whole
  for (int minute = 0; minute < 48 * 60; ++minute) {
    WriteReadings(kSensors, minute);
    if (minute % 10 == 9) {
      ASSERT_OK(t_.db->Flush());
      t_.scheduler->RunUntilIdle();  // the compactions the flush triggered
    }
    t_.Advance(60);
  }
  const TableStats stats = Stats();
  for (const CompactionRecord& record : stats.recent_compactions) {
    ever_rewritten.insert(record.inputs.begin(), record.inputs.end());
    ever_dropped.insert(record.expired.begin(), record.expired.end());
  }
  ASSERT_LT(stats.compactions_completed, 100) << "history truncated; widen the test";

  // Every window past TTL + gc_grace + one window is gone; the live ones
  // hold one SSTable each, except the newest, still being written.
  auto windows = t_.db->ExplainExpiry("ks", "ts");
  ASSERT_TRUE(windows.ok()) << windows.status().ToString();
  const int64_t now = t_.clock->WallMicros();
  // The clock stands at the start of a window no data reached yet: the
  // newest window with data is the one before.
  const int64_t newest_start = now - now % (kHour * 1'000'000) - kHour * 1'000'000;
  for (const CompactionWindow& window : *windows) {
    EXPECT_GE(window.start_micros, now - (kTtl + kGcGrace + 2 * kHour) * 1'000'000LL)
        << "an expired window is still on disk";
    if (window.start_micros < newest_start) {
      EXPECT_EQ(window.sstables.size(), 1u) << "window " << window.start_micros;
    }
  }
  EXPECT_LE(windows->size(), static_cast<size_t>((kTtl + kGcGrace) / kHour + 3));
  // Expired windows were dropped, never rewritten: a file dropped whole was
  // never the input of a rewriting compaction after it expired, and some
  // rewriting compactions (old windows to one) ran too.
  EXPECT_GT(stats.expired_sstables_dropped, 30);
  EXPECT_FALSE(ever_rewritten.empty());
  for (const CompactionRecord& record : stats.recent_compactions) {
    if (!record.inputs.empty()) {
      EXPECT_EQ(record.tombstones_purged, 0u) << "expired data was rewritten: " << record.reason;
    }
  }
  // Reads see exactly the readings of the last six hours (the one written
  // exactly six hours ago expired this second).
  EXPECT_EQ(CountRows(kSensors), static_cast<int64_t>(kSensors) * (kTtl / 60 - 1));
}

TEST_F(CompactionTest, OverlappingOlderSSTableBlocksTheDropUntilItExpiresToo) {
  for (bool aggressive : {false, true}) {
    SCOPED_TRACE(aggressive ? "unsafe_aggressive_sstable_expiration" : "default");
    t_ = TestDb();
    OpenDefault();
    auto compaction = HourlyTwcs();
    if (aggressive) compaction["unsafe_aggressive_sstable_expiration"] = "true";
    ASSERT_OK(t_.db->CreateTable(SeriesTable(compaction, 0, 0)));
    // An old file with data that lives for 5 hours...
    {
      Mutation m("ks", "ts", {Value::Int(1)});
      m.UsingTtl(5 * kHour);
      m.Insert({Value::Timestamp(t_.clock->WallMicros() / 1000)}).Set("v", Value::Int(1));
      ASSERT_OK(t_.db->Apply(m));
    }
    ASSERT_OK(t_.db->Flush());
    t_.Advance(kHour);
    // ...then a newer file, same partition, that expires after one hour.
    {
      Mutation m("ks", "ts", {Value::Int(1)});
      m.UsingTtl(kHour);
      m.Insert({Value::Timestamp(t_.clock->WallMicros() / 1000)}).Set("v", Value::Int(2));
      ASSERT_OK(t_.db->Apply(m));
    }
    ASSERT_OK(t_.db->Flush());
    t_.Advance(2 * kHour);
    ASSERT_OK(t_.db->Compact("ks", "ts"));
    auto windows = t_.db->ExplainExpiry("ks", "ts");
    ASSERT_TRUE(windows.ok());
    if (aggressive) {
      EXPECT_EQ(Stats().sstable_count, 1);
      EXPECT_EQ(Stats().expired_sstables_dropped, 1);
    } else {
      // The newer file expired, but the older one overlaps it with older
      // data it might shadow: kept, and the report says why.
      EXPECT_EQ(Stats().sstable_count, 2);
      bool blocked = false;
      for (const CompactionWindow& window : *windows) blocked |= !window.blocked_by.empty();
      EXPECT_TRUE(blocked);
    }
    EXPECT_EQ(CountRows(2), 1);  // the 5-hour reading lives on
    t_.Advance(3 * kHour);
    ASSERT_OK(t_.db->Compact("ks", "ts"));
    EXPECT_EQ(Stats().sstable_count, 0);
    EXPECT_EQ(CountRows(2), 0);
  }
}

TEST_F(CompactionTest, StcsCompactsFourSimilarFlushesIntoOne) {
  OpenDefault();
  ASSERT_OK(t_.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
  for (int flush = 0; flush < 4; ++flush) {
    WriteReadings(10, flush);
    ASSERT_OK(t_.db->Flush());
    t_.Advance(1);
  }
  EXPECT_EQ(Stats().sstable_count, 4);  // queued on the manual scheduler, not run yet
  t_.scheduler->RunUntilIdle();
  const TableStats stats = Stats();
  EXPECT_EQ(stats.sstable_count, 1);
  EXPECT_EQ(stats.compactions_completed, 1);
  ASSERT_EQ(stats.recent_compactions.size(), 1u);
  EXPECT_EQ(stats.recent_compactions[0].inputs.size(), 4u);
  EXPECT_EQ(stats.recent_compactions[0].rows_in, 40u);
  EXPECT_EQ(stats.recent_compactions[0].rows_out, 40u);
  EXPECT_GT(stats.bytes_compacted, 0);
  EXPECT_GT(stats.write_amplification, 0);
  EXPECT_EQ(CountRows(10), 40);
}

TEST_F(CompactionTest, MajorCompactionMergesEverythingAndPurgesOldTombstones) {
  OpenDefault();
  ASSERT_OK(t_.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 10)));
  WriteReadings(4, 1);
  ASSERT_OK(t_.db->Flush());
  t_.Advance(1);
  {
    Mutation m("ks", "ts", {Value::Int(0)});
    m.DeletePartition();
    ASSERT_OK(t_.db->Apply(m));
  }
  ASSERT_OK(t_.db->Flush());
  t_.Advance(60);  // past gc_grace
  ASSERT_OK(t_.db->CompactMajor("ks", "ts"));
  const TableStats stats = Stats();
  EXPECT_EQ(stats.sstable_count, 1);
  ASSERT_FALSE(stats.recent_compactions.empty());
  EXPECT_TRUE(stats.recent_compactions.back().major);
  EXPECT_EQ(stats.recent_compactions.back().partitions_out, 3u);
  EXPECT_GE(stats.tombstones_purged, 1);
  EXPECT_EQ(CountRows(4), 3);
}

TEST_F(CompactionTest, CompactionThatCannotFitIsPostponedNotStarted) {
  OpenDefault();
  ASSERT_OK(t_.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
  for (int flush = 0; flush < 4; ++flush) {
    WriteReadings(50, flush);
    ASSERT_OK(t_.db->Flush());
    t_.Advance(1);
  }
  t_.fs->SetFreeSpace(100);
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  TableStats stats = Stats();
  EXPECT_EQ(stats.sstable_count, 4);
  EXPECT_GE(stats.compactions_postponed_for_space, 1);
  EXPECT_EQ(stats.compactions_completed, 0);
  t_.fs->SetFreeSpace(1ull << 40);
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  stats = Stats();
  EXPECT_EQ(stats.sstable_count, 1);
  EXPECT_EQ(CountRows(50), 200);
}

TEST_F(CompactionTest, CrashAfterTheSwapKeepsOutputsAndBeforeItKeepsInputs) {
  OpenDefault();
  ASSERT_OK(t_.db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
  for (int flush = 0; flush < 4; ++flush) {
    WriteReadings(10, flush);
    ASSERT_OK(t_.db->Flush());
    t_.Advance(1);
  }
  // Crash with everything synced but before the background compaction ran:
  // the four inputs are live.
  ASSERT_OK(t_.CrashAndReopen());
  EXPECT_EQ(Stats().sstable_count, 4);
  EXPECT_EQ(CountRows(10), 40);
  // Compact, then crash dropping whatever was not synced: the manifest
  // names the output only, the inputs are gone, nothing is counted twice.
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  ASSERT_OK(t_.CrashAndReopen());
  EXPECT_EQ(Stats().sstable_count, 1);
  EXPECT_EQ(CountRows(10), 40);
  auto files = t_.fs->GetChildren("/db/ks");
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  auto sstables = t_.fs->GetChildren("/db/ks/" + (*files)[0]);
  ASSERT_TRUE(sstables.ok());
  // The table's files: its one SSTable, and its compaction history.
  EXPECT_EQ(std::erase(*sstables, std::string("HISTORY")), 1u);
  EXPECT_EQ(sstables->size(), 1u);
}

// The process dies at every file-system operation of a compaction in turn
// (every operation from the k-th on fails, then only synced bytes survive):
// each reopen finds the four inputs or the one output, never both, never
// neither, and every row exactly once.
TEST(CompactionCrashTest, CrashAtEveryStepLeavesInputsOrOutputs) {
  bool finished = false;
  int crash_points = 0;
  for (int k = 1; !finished; ++k) {
    ++crash_points;
    SCOPED_TRACE("fault from operation " + std::to_string(k));
    ASSERT_LT(k, 500) << "the compaction never completed";
    auto mem = NewMemFileSystem();
    auto faulty = std::make_shared<FaultInjectionFileSystem>(mem);
    auto clock = std::make_shared<ManualClock>(kStartMicros);
    Options options;
    options.file_system = faulty;
    options.clock = clock;
    options.scheduler = std::make_shared<ManualScheduler>();
    options.auto_compaction = false;
    {
      auto db = Database::Open(options, "/db");
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      ASSERT_OK((*db)->CreateKeyspace({.name = "ks"}));
      ASSERT_OK((*db)->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
      for (int flush = 0; flush < 4; ++flush) {
        for (int s = 0; s < 10; ++s) {
          Mutation m("ks", "ts", {Value::Int(s)});
          m.Insert({Value::Timestamp(clock->WallMicros() / 1000)}).Set("v", Value::Int(flush));
          ASSERT_OK((*db)->Apply(m));
        }
        ASSERT_OK((*db)->Flush());
        ASSERT_TRUE(clock->Advance(1'000'000).ok());
      }
      FaultRule rule;
      rule.when = FaultRule::When::kFromNth;
      rule.nth = k;
      faulty->AddRule(rule);
      finished = (*db)->Compact("ks", "ts").ok() && faulty->injected() == 0;
      // The process dies here: nothing more reaches the disk.
    }
    auto survivor = mem->CrashClone(/*keep_unsynced_pct=*/0, /*seed=*/k);
    options.file_system = survivor;
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    auto stats = (*db)->GetTableStats("ks", "ts");
    ASSERT_TRUE(stats.ok());
    EXPECT_TRUE(stats->sstable_count == 4 || stats->sstable_count == 1) << stats->sstable_count;
    int64_t rows = 0;
    for (int s = 0; s < 10; ++s) {
      ReadQuery query;
      query.keyspace = "ks";
      query.table = "ts";
      query.partition_keys = {{Value::Int(s)}};
      auto result = (*db)->Read(query);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      rows += static_cast<int64_t>(result->rows.size());
    }
    EXPECT_EQ(rows, 40);
    // No file the manifest does not name survives the reopen.
    auto dirs = survivor->GetChildren("/db/ks");
    ASSERT_TRUE(dirs.ok());
    ASSERT_EQ(dirs->size(), 1u);
    auto files = survivor->GetChildren("/db/ks/" + (*dirs)[0]);
    ASSERT_TRUE(files.ok());
    // Besides the SSTables, at most the table's HISTORY (a crash before
    // its first record was synced leaves none).
    std::erase(*files, std::string("HISTORY"));
    EXPECT_EQ(static_cast<int64_t>(files->size()), stats->sstable_count);
  }
  // Reads, writes, syncs, the manifest rename: many distinct crash points.
  EXPECT_GT(crash_points, 10);
  std::printf("compaction crash points exercised: %d\n", crash_points);
}

// The resurrection test: the deleted data sits in an old SSTable that the
// compaction does not include, so the tombstone must survive even past
// gc_grace, or the data would come back.
TEST_F(CompactionTest, TombstoneIsKeptWhileOlderShadowedDataRemainsElsewhere) {
  OpenDefault();
  // min_sstable_size 1 byte: files are bucketed by size alone, however small.
  ASSERT_OK(t_.db->CreateTable(
      SeriesTable({{"class", "SizeTieredCompactionStrategy"}, {"min_sstable_size", "1"}}, 0, 0)));
  // A large old file: partition 0 and plenty of others.
  for (int minute = 0; minute < 60; ++minute) {
    WriteReadings(40, minute);
    t_.Advance(60);
  }
  ASSERT_OK(t_.db->Flush());
  t_.Advance(1);
  {
    Mutation m("ks", "ts", {Value::Int(0)});
    m.DeletePartition();
    ASSERT_OK(t_.db->Apply(m));
  }
  ASSERT_OK(t_.db->Flush());
  // Three more small files of other partitions: with the tombstone's file,
  // a size-tiered bucket of four that leaves the big file out.
  for (int flush = 0; flush < 3; ++flush) {
    t_.Advance(1);
    Mutation m("ks", "ts", {Value::Int(100 + flush)});
    m.Insert({Value::Timestamp(0)}).Set("v", Value::Int(flush));
    ASSERT_OK(t_.db->Apply(m));
    ASSERT_OK(t_.db->Flush());
  }
  t_.Advance(3600);  // far past gc_grace (0)
  ASSERT_OK(t_.db->Compact("ks", "ts"));
  const TableStats stats = Stats();
  ASSERT_EQ(stats.compactions_completed, 1);
  EXPECT_EQ(stats.recent_compactions[0].inputs.size(), 4u);
  EXPECT_EQ(stats.sstable_count, 2);
  EXPECT_EQ(stats.tombstones_purged, 0);
  // Partition 0 stays deleted; the others are intact.
  EXPECT_EQ(CountRows(1), 0);
  EXPECT_EQ(CountRows(40), 39 * 60);
  // Once the old file joins a compaction with the tombstone, both go.
  ASSERT_OK(t_.db->CompactMajor("ks", "ts"));
  EXPECT_EQ(Stats().tombstones_purged, 1);
  EXPECT_EQ(CountRows(1), 0);
  EXPECT_EQ(CountRows(40), 39 * 60);
}

// A database on a file system that holds the first compaction after its
// snapshot, before it merges (at its free-space check), until Release():
// a latch, not a sleep, so a test can act while a compaction is running.
class HeldCompactionDb {
 public:
  HeldCompactionDb() : hooked_(std::make_shared<HookedFileSystem>(t_.fs)) {
    hooked_->set_hook([this](std::string_view op, const std::string&) {
      if (op != "free_space") return;
      std::unique_lock lock(mu_);
      entered_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return released_; });
    });
    Options options = t_.MakeOptions();
    options.file_system = hooked_;
    auto opened = Database::Open(options, "/db");
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    if (opened.ok()) db_ = std::move(opened).value();
  }

  Database& db() { return *db_; }
  TestDb& test_db() { return t_; }
  // Returns once a compaction is held.
  void WaitUntilHeld() {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return entered_; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  TestDb t_;
  std::shared_ptr<HookedFileSystem> hooked_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool entered_ = false;
  bool released_ = false;
  std::unique_ptr<Database> db_;
};

// A compaction does not keep the memtables of its snapshot (a flushed one
// would stay in memory, outside the memtable budget, until the compaction
// ends): its purge checks look at the table when they run. Data a snapshot
// memtable held, flushed while the compaction runs, still keeps the
// tombstone that shadows it: the checks find it in the new SSTable.
TEST(CompactionPurgeTest, DataFlushedDuringTheCompactionStillKeepsItsTombstone) {
  HeldCompactionDb held;
  TestDb& t = held.test_db();
  Database* db = &held.db();
  ASSERT_OK(db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
  auto write = [&](int64_t ts, int v, std::optional<int64_t> timestamp) {
    Mutation m("ks", "ts", {Value::Int(0)});
    if (timestamp) m.UsingTimestamp(*timestamp);
    m.Insert({Value::Timestamp(ts)}).Set("v", Value::Int(v));
    return db->Apply(m);
  };
  auto rows = [&]() -> int64_t {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "ts";
    query.partition_keys = {{Value::Int(0)}};
    auto result = db->Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? static_cast<int64_t>(result->rows.size()) : -1;
  };
  ASSERT_OK(write(0, 1, std::nullopt));
  ASSERT_OK(db->Flush());
  ASSERT_TRUE(t.clock->Advance(1'000'000).ok());
  const int64_t deleted_at = t.clock->WallMicros();
  {
    Mutation m("ks", "ts", {Value::Int(0)});
    m.UsingTimestamp(deleted_at);
    m.DeletePartition();
    ASSERT_OK(db->Apply(m));
  }
  ASSERT_OK(db->Flush());
  // Older than the deletion, so shadowed by it; in the memtable for now.
  ASSERT_OK(write(1, 2, deleted_at - 1));
  ASSERT_EQ(rows(), 0);
  ASSERT_TRUE(t.clock->Advance(3600'000'000).ok());  // far past gc_grace (0)

  Status compacted;
  std::thread compaction([&] { compacted = db->CompactMajor("ks", "ts"); });
  held.WaitUntilHeld();
  ASSERT_OK(db->Flush());  // the memtable the compaction saw leaves memory
  held.Release();
  compaction.join();
  ASSERT_OK(compacted);
  auto stats = db->GetTableStats("ks", "ts");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->tombstones_purged, 0);
  EXPECT_EQ(rows(), 0);
  // Once the flushed row joins a compaction with the tombstone, both go.
  ASSERT_OK(db->CompactMajor("ks", "ts"));
  stats = db->GetTableStats("ks", "ts");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->tombstones_purged, 1);
  EXPECT_EQ(rows(), 0);
}

// Compact while a background compaction holds the table's SSTables waits
// for it (and for what its output makes possible) instead of returning
// because nothing is left to propose: afterwards nothing compacts the
// table and its SSTables are what the strategy leaves. The bench's settle
// and the shell's COMPACT rely on it.
TEST(CompactionWaitTest, CompactWaitsForTheBackgroundCompactionRunning) {
  HeldCompactionDb held;
  Database* db = &held.db();
  ASSERT_OK(db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(db->CreateTable(SeriesTable({{"class", "SizeTieredCompactionStrategy"}}, 0, 0)));
  for (int i = 0; i < 4; ++i) {  // min_threshold: one compaction of all four
    Mutation m("ks", "ts", {Value::Int(0)});
    m.Insert({Value::Timestamp(i)}).Set("v", Value::Int(i));
    ASSERT_OK(db->Apply(m));
    ASSERT_OK(db->Flush());
  }
  auto sstables = [&] {
    auto stats = db->GetTableStats("ks", "ts");
    EXPECT_TRUE(stats.ok());
    return stats.ok() ? stats->sstable_count : -1;
  };
  ASSERT_EQ(sstables(), 4);

  Status first;
  std::thread background([&] { first = db->Compact("ks", "ts"); });
  held.WaitUntilHeld();
  // The four are held: a second Compact has nothing to propose until the
  // first releases them.
  Status second;
  int64_t after_second = -1;
  std::mutex mu;
  std::condition_variable changed;
  bool second_started = false;
  std::thread foreground([&] {
    {
      std::lock_guard lock(mu);
      second_started = true;
      changed.notify_all();
    }
    second = db->Compact("ks", "ts");
    after_second = sstables();
  });
  {
    std::unique_lock lock(mu);
    changed.wait(lock, [&] { return second_started; });
  }
  held.Release();
  foreground.join();
  background.join();
  ASSERT_OK(first);
  ASSERT_OK(second);
  EXPECT_EQ(after_second, 1);
  ASSERT_OK(db->CompactMajor("ks", "ts"));
  EXPECT_EQ(sstables(), 1);
}

// Incremental release: a leveled compaction over non-overlapping files runs
// token range by token range, releasing each input once it is rewritten,
// so it needs free space for a step, not for the whole table; cut short,
// it leaves a consistent state (partially consumed inputs start after the
// last step), which reads, a reopen and the next compaction honour.
class IncrementalCompactionTest : public ::testing::Test {
 protected:
  static constexpr int kPartitions = 1500;
  static constexpr size_t kPayload = 4000;  // random letters: about 2.4 KB compressed

  void SetUp() override {
    mem_ = NewMemFileSystem();
    faulty_ = std::make_shared<FaultInjectionFileSystem>(mem_);
    ASSERT_NO_FATAL_FAILURE(Open());
    ASSERT_OK(db_->CreateKeyspace({.name = "ks"}));
    TableSchema schema("ks", "blobs");
    schema.AddPartitionKey("id", DataType::Int()).AddRegular("payload", DataType::Text());
    schema.mutable_options().compaction = {{"class", "LeveledCompactionStrategy"},
                                           {"sstable_size_in_mb", "1"}};
    ASSERT_OK(db_->CreateTable(schema));
    // Three flushes of about 1.2 MB, each over every partition range.
    uint64_t seed = 7;
    for (int flush = 0; flush < 3; ++flush) {
      for (int id = flush; id < kPartitions; id += 3) {
        std::string payload(kPayload, ' ');
        for (char& c : payload) {
          seed = seed * 6364136223846793005ull + 1442695040888963407ull;
          c = static_cast<char>('a' + (seed >> 59) % 26);
        }
        Mutation m("ks", "blobs", {Value::Int(id)});
        m.Insert({}).Set("payload", Value::Text(payload));
        ASSERT_OK(db_->Apply(m));
      }
      ASSERT_OK(db_->Flush());
    }
    // L0 -> one level of about three non-overlapping 1 MiB files.
    ASSERT_OK(db_->CompactMajor("ks", "blobs"));
    ASSERT_GE(Stats().sstable_count, 2);
  }
  void Open() {
    Options options;
    options.file_system = faulty_;
    options.clock = clock_;
    options.scheduler = std::make_shared<ManualScheduler>();
    options.auto_compaction = false;
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }
  TableStats Stats() { return StatsOf(*db_, "ks", "blobs"); }
  // Every partition is there, exactly once (a full scan counts duplicates).
  void ExpectEveryPartitionOnce() {
    ReadQuery scan;
    scan.keyspace = "ks";
    scan.table = "blobs";
    scan.columns = {"id"};
    auto result = db_->Read(scan);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ASSERT_EQ(result->rows.size(), static_cast<size_t>(kPartitions));
    std::set<int32_t> seen;
    for (const ResultRow& row : result->rows)
      seen.insert(static_cast<int32_t>(row.values[0].AsInt64()));
    EXPECT_EQ(seen.size(), static_cast<size_t>(kPartitions));
    for (int id : {0, 1, kPartitions / 2, kPartitions - 1}) {
      ReadQuery point = scan;
      point.partition_keys = {{Value::Int(id)}};
      auto one = db_->Read(point);
      ASSERT_TRUE(one.ok());
      EXPECT_EQ(one->rows.size(), 1u) << id;
    }
  }

  std::shared_ptr<MemFileSystem> mem_;
  std::shared_ptr<FaultInjectionFileSystem> faulty_;
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>(kStartMicros);
  std::unique_ptr<Database> db_;
};

TEST_F(IncrementalCompactionTest, NeedsFreeSpaceForAStepNotForTheTable) {
  const TableStats before = Stats();
  // Less free space than the table: a one-shot compaction would be
  // postponed; step by step it fits.
  mem_->SetFreeSpace(static_cast<uint64_t>(before.bytes_on_disk) * 3 / 4);
  ASSERT_OK(db_->CompactMajor("ks", "blobs"));
  const TableStats after = Stats();
  EXPECT_EQ(after.compactions_postponed_for_space, 0);
  EXPECT_EQ(after.compactions_completed, before.compactions_completed + 1);
  ExpectEveryPartitionOnce();
}

// single_sstable_uplevel: with L1 over its target and L2 empty, each L1
// file moves up without being rewritten, and the new levels survive a
// reopen.
TEST_F(IncrementalCompactionTest, SingleSSTableUplevelMovesFilesWithoutRewriting) {
  const TableStats before = Stats();
  ASSERT_EQ(before.sstables_per_level.size(), 2u);
  ASSERT_GE(before.sstables_per_level[1], 3);  // about 0.6 MB each
  TableOptions options = db_->GetTable("ks", "blobs")->options();
  options.compaction = {{"class", "LeveledCompactionStrategy"},
                        {"sstable_size_in_mb", "1"},
                        {"fanout_size", "2"},
                        {"single_sstable_uplevel", "true"}};
  ASSERT_OK(db_->AlterTableOptions("ks", "blobs", options));
  ASSERT_OK(db_->Compact("ks", "blobs"));
  const TableStats after = Stats();
  EXPECT_EQ(after.bytes_compacted, before.bytes_compacted);
  EXPECT_EQ(after.sstable_count, before.sstable_count);
  ASSERT_GE(after.sstables_per_level.size(), 3u);
  // Moved until L1 is within its 2 MiB target.
  EXPECT_LT(after.sstables_per_level[1], before.sstables_per_level[1]);
  EXPECT_EQ(after.sstables_per_level[1] + after.sstables_per_level[2],
            before.sstables_per_level[1]);
  ASSERT_GT(after.compactions_completed, before.compactions_completed);
  const CompactionRecord& moved = after.recent_compactions.back();
  EXPECT_EQ(moved.outputs, moved.inputs);
  EXPECT_EQ(moved.bytes_written, 0u);
  ExpectEveryPartitionOnce();

  db_.reset();
  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_EQ(Stats().sstables_per_level, after.sstables_per_level);
  ExpectEveryPartitionOnce();
}

// The lifetime counters `cassette stats` reports live in the manifest, so
// a reopen (or a read-only second view) sees them.
TEST_F(IncrementalCompactionTest, StatisticsSurviveAReopen) {
  const TableStats before = Stats();
  ASSERT_GT(before.bytes_written_by_users, 0);
  ASSERT_GT(before.bytes_compacted, 0);
  db_.reset();
  ASSERT_NO_FATAL_FAILURE(Open());
  const TableStats after = Stats();
  EXPECT_EQ(after.bytes_written_by_users, before.bytes_written_by_users);
  EXPECT_EQ(after.bytes_flushed, before.bytes_flushed);
  EXPECT_EQ(after.bytes_compacted, before.bytes_compacted);
  EXPECT_EQ(after.write_amplification, before.write_amplification);
  EXPECT_EQ(after.compactions_completed, before.compactions_completed);
}

TEST_F(IncrementalCompactionTest, CutShortItLeavesAConsistentPartialState) {
  const int64_t files_before = Stats().sstable_count;
  // The second output file of the next compaction cannot be created.
  FaultRule rule;
  rule.op = FaultOp::kOpen;
  rule.glob = "*.sst";
  rule.when = FaultRule::When::kFromNth;
  rule.nth = 2;
  faulty_->AddRule(rule);
  EXPECT_FALSE(db_->CompactMajor("ks", "blobs").ok());
  faulty_->ClearRules();
  // The first step is installed: its output is live, the input it consumed
  // is gone, and the input it reached into starts after it.
  ExpectEveryPartitionOnce();
  const TableStats partial = Stats();
  EXPECT_GE(partial.sstable_count, 2);
  // The bounds are in the manifest: a reopen reads the same.
  db_.reset();
  ASSERT_NO_FATAL_FAILURE(Open());
  ExpectEveryPartitionOnce();
  // And the next compaction completes the work.
  ASSERT_OK(db_->CompactMajor("ks", "blobs"));
  ExpectEveryPartitionOnce();
  EXPECT_LE(Stats().sstable_count, files_before + 1);
}

TEST_F(CompactionTest, LateWritesAreCounted) {
  OpenDefault();
  ASSERT_OK(t_.db->CreateTable(SeriesTable(HourlyTwcs(), 6 * kHour, 0)));
  WriteReadings(1, 1);
  t_.Advance(3 * kHour);
  WriteReadings(1, 2);
  EXPECT_EQ(Stats().late_writes, 0);
  // Two hours old: before the newest window.
  Mutation late("ks", "ts", {Value::Int(1)});
  late.UsingTimestamp(t_.clock->WallMicros() - 2 * kHour * 1'000'000);
  late.Insert({Value::Timestamp(0)}).Set("v", Value::Int(3));
  ASSERT_OK(t_.db->Apply(late));
  EXPECT_EQ(Stats().late_writes, 1);
}

}  // namespace
}  // namespace cassette::testing
