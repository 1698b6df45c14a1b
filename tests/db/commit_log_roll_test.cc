// Once every table has flushed, the active commit-log segment holds nothing
// that is not in an SSTable: the database rolls the log and deletes the old
// segment, so after Flush() the log is one header-only segment. Writes that
// race the flush keep their segment, and a crash anywhere loses nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tests/db/db_test_util.h"
#include "tests/support/fault_injection_file_system.h"

namespace cassette::testing {
namespace {

constexpr uint64_t kSegmentHeaderSize = 20;  // engine/commitlog/FORMAT.md
constexpr uint64_t kMarkerSize = 32;

Mutation Row(int32_t pk, int32_t ck, int32_t v, const std::string& table = "t") {
  Mutation m("ks", table, {Value::Int(pk)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(v));
  return m;
}

Status CreateSchema(Database& db) {
  CASSETTE_RETURN_IF_ERROR(db.CreateKeyspace({.name = "ks"}));
  CASSETTE_RETURN_IF_ERROR(db.CreateTable(SimpleTable()));
  return db.CreateTable(SimpleTable("ks", "u"));
}

// name -> size of every commit-log segment.
std::map<std::string, uint64_t> Segments(FileSystem& fs) {
  std::map<std::string, uint64_t> out;
  auto children = fs.GetChildren("/db/commitlog");
  EXPECT_TRUE(children.ok()) << children.status().ToString();
  if (!children.ok()) return out;
  for (const std::string& name : *children) {
    if (name.rfind("CommitLog-", 0) != 0) continue;
    auto size = fs.GetFileSize("/db/commitlog/" + name);
    EXPECT_TRUE(size.ok());
    out[name] = size.ok() ? *size : 0;
  }
  return out;
}

uint64_t TotalBytes(const std::map<std::string, uint64_t>& segments) {
  uint64_t total = 0;
  for (const auto& entry : segments) total += entry.second;
  return total;
}

// One segment without records: its header, and its seal if Close ran.
void ExpectOneEmptySegment(FileSystem& fs) {
  const auto segments = Segments(fs);
  ASSERT_EQ(segments.size(), 1u);
  const uint64_t total = TotalBytes(segments);
  EXPECT_TRUE(total == kSegmentHeaderSize || total == kSegmentHeaderSize + kMarkerSize) << total;
}

int64_t CountRows(Database& db, const std::string& table, int partitions) {
  int64_t rows = 0;
  for (int pk = 0; pk < partitions; ++pk) {
    ReadQuery query = ReadPartition(pk, {"ck", "v"});
    query.table = table;
    auto result = db.Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (result.ok()) rows += static_cast<int64_t>(result->rows.size());
  }
  return rows;
}

int64_t SSTableCount(Database& db, const std::string& table = "t") {
  auto stats = db.GetTableStats("ks", table);
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  return stats.ok() ? stats->sstable_count : -1;
}

// A database in batch sync mode (acknowledged = synced) on a
// fault-injecting view of an in-memory file system, with the test tables;
// CrashAndReopen keeps only what was synced and opens that.
struct FaultyDb {
  std::shared_ptr<MemFileSystem> mem = NewMemFileSystem();
  std::shared_ptr<FaultInjectionFileSystem> faulty =
      std::make_shared<FaultInjectionFileSystem>(mem);
  Options options;
  std::unique_ptr<Database> db;
  std::shared_ptr<MemFileSystem> survivor;  // set by CrashAndReopen

  static Result<FaultyDb> Open() {
    FaultyDb f;
    f.options = TestDb().MakeOptions();
    f.options.file_system = f.faulty;
    f.options.commitlog_sync = CommitLogSync::kBatch;
    CASSETTE_ASSIGN_OR_RETURN(f.db, Database::Open(f.options, "/db"));
    CASSETTE_RETURN_IF_ERROR(CreateSchema(*f.db));
    return f;
  }
  // The process dies: the disk keeps what was synced by now, and the old
  // instance is dropped without closing (it writes only to the old disk).
  Status CrashAndReopen(uint64_t seed) {
    survivor = mem->CrashClone(/*keep_unsynced_pct=*/0, seed);
    db.reset();
    Options reopen = options;
    reopen.file_system = survivor;
    CASSETTE_ASSIGN_OR_RETURN(db, Database::Open(reopen, "/db"));
    return Status::OK();
  }
};

TEST(CommitLogRollTest, FlushLeavesOneHeaderOnlySegment) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 100; ++i) ASSERT_OK(t.db->Apply(Row(i % 10, i, i)));
  ASSERT_GT(TotalBytes(Segments(*t.fs)), 100 * kSegmentHeaderSize);
  const std::string before = Segments(*t.fs).begin()->first;
  ASSERT_OK(t.db->Flush());
  ExpectOneEmptySegment(*t.fs);
  // A new segment, not the old one truncated: ids only grow.
  EXPECT_NE(Segments(*t.fs).begin()->first, before);
  // A second flush with nothing new does not churn segments.
  const std::string after = Segments(*t.fs).begin()->first;
  ASSERT_OK(t.db->Flush());
  EXPECT_EQ(Segments(*t.fs).begin()->first, after);
  EXPECT_EQ(CountRows(*t.db, "t", 10), 100);
}

TEST(CommitLogRollTest, FlushTableRollsOnlyOnceEveryTableIsFlushed) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 20; ++i) {
    ASSERT_OK(t.db->Apply(Row(i % 4, i, i)));
    ASSERT_OK(t.db->Apply(Row(i % 4, i, -i, "u")));
  }
  ASSERT_OK(t.db->FlushTable("ks", "t"));
  // u's records are only in the log.
  auto segments = Segments(*t.fs);
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_GT(TotalBytes(segments), kSegmentHeaderSize);
  ASSERT_OK(t.db->FlushTable("ks", "u"));
  ExpectOneEmptySegment(*t.fs);

  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(CountRows(*t.db, "t", 4), 20);
  EXPECT_EQ(CountRows(*t.db, "u", 4), 20);
  EXPECT_EQ(SSTableCount(*t.db, "t"), 1);
  EXPECT_EQ(SSTableCount(*t.db, "u"), 1);
}

TEST(CommitLogRollTest, BackgroundFlushRolls) {
  TestDb t;
  Options options = t.MakeOptions();
  options.memtable_flush_threshold = 4096;  // the smallest allowed
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  int rows = 0;
  while (t.scheduler->pending() == 0) {
    ASSERT_LT(rows, 10'000) << "no flush was ever scheduled";
    ASSERT_OK(t.db->Apply(Row(1, rows, rows)));
    ++rows;
  }
  ASSERT_GT(TotalBytes(Segments(*t.fs)), kSegmentHeaderSize);
  t.scheduler->RunUntilIdle();
  ExpectOneEmptySegment(*t.fs);
  EXPECT_EQ(SSTableCount(*t.db), 1);
  EXPECT_EQ(CountRows(*t.db, "t", 2), rows);
}

// A dropped table's records are dead too: Close rolls them away.
TEST(CommitLogRollTest, CloseRollsWhenNothingIsUnflushed) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 10; ++i) ASSERT_OK(t.db->Apply(Row(1, i, i, "u")));
  ASSERT_OK(t.db->DropTable("ks", "u", false));
  ASSERT_GT(TotalBytes(Segments(*t.fs)), kSegmentHeaderSize);
  ASSERT_OK(t.db->Close());
  ExpectOneEmptySegment(*t.fs);
}

TEST(CommitLogRollTest, ReopenAfterFlushReplaysNothingAndLosesNothing) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 50; ++i) ASSERT_OK(t.db->Apply(Row(i % 5, i, i)));
  ASSERT_OK(t.db->Flush());
  ASSERT_EQ(SSTableCount(*t.db), 1);
  ASSERT_OK(t.Reopen());
  // A replay would have flushed a second SSTable.
  EXPECT_EQ(SSTableCount(*t.db), 1);
  EXPECT_EQ(CountRows(*t.db, "t", 5), 50);
  ExpectOneEmptySegment(*t.fs);
  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(SSTableCount(*t.db), 1);
  EXPECT_EQ(CountRows(*t.db, "t", 5), 50);
  ExpectOneEmptySegment(*t.fs);
}

TEST(CommitLogRollTest, WritesAfterTheRollSurviveACrash) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 10; ++i) ASSERT_OK(t.db->Apply(Row(1, i, i)));
  ASSERT_OK(t.db->Flush());
  for (int i = 10; i < 20; ++i) ASSERT_OK(t.db->Apply(Row(1, i, i)));
  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(CountRows(*t.db, "t", 2), 20);
  // The flushed SSTable and the replayed one.
  EXPECT_EQ(SSTableCount(*t.db), 2);
}

// The roll seals the segment, then deleting it fails: the process dies
// between roll and delete, after more writes went to the new segment.
TEST(CommitLogRollTest, CrashBetweenRollAndDelete) {
  auto f = FaultyDb::Open();
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  for (int i = 0; i < 10; ++i) ASSERT_OK(f->db->Apply(Row(1, i, i)));
  auto rule = ParseFaultRule("op=delete path=/db/commitlog/*");
  ASSERT_TRUE(rule.ok());
  f->faulty->AddRule(*rule);
  EXPECT_FALSE(f->db->Flush().ok());
  ASSERT_GT(f->faulty->injected(), 0);
  EXPECT_EQ(Segments(*f->mem).size(), 2u);  // the sealed one and the new one
  for (int i = 10; i < 20; ++i) ASSERT_OK(f->db->Apply(Row(1, i, i)));
  f->faulty->ClearRules();
  // The process dies here: only synced bytes survive.
  ASSERT_OK(f->CrashAndReopen(/*seed=*/1));
  EXPECT_EQ(CountRows(*f->db, "t", 2), 20);
  // Rows 0-9 from the flush (not replayed again), 10-19 replayed.
  EXPECT_EQ(SSTableCount(*f->db), 2);
  ExpectOneEmptySegment(*f->survivor);
}

// The process dies at every file-system operation of a flush in turn (the
// SSTable, the manifest, the roll, the delete): every acknowledged row comes
// back, nothing is replayed on top of the flushed SSTable, and the reopened
// log is one empty segment.
TEST(CommitLogRollTest, CrashAtEveryStepOfAFlush) {
  bool finished = false;
  int crash_points = 0;
  for (int k = 1; !finished; ++k) {
    ++crash_points;
    SCOPED_TRACE("fault from operation " + std::to_string(k));
    ASSERT_LT(k, 300) << "the flush never completed";
    auto f = FaultyDb::Open();
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    for (int i = 0; i < 30; ++i) ASSERT_OK(f->db->Apply(Row(i % 3, i, i)));
    FaultRule rule;
    rule.when = FaultRule::When::kFromNth;
    rule.nth = k;
    f->faulty->AddRule(rule);
    finished = f->db->Flush().ok() && f->faulty->injected() == 0;
    // The process dies here: nothing more reaches the disk.
    ASSERT_OK(f->CrashAndReopen(/*seed=*/static_cast<uint64_t>(k)));
    EXPECT_EQ(CountRows(*f->db, "t", 3), 30);
    // From the flush or from the replay, never both.
    EXPECT_EQ(SSTableCount(*f->db), 1);
    ExpectOneEmptySegment(*f->survivor);
  }
  EXPECT_GT(crash_points, 8);
  std::printf("flush crash points exercised: %d\n", crash_points);
}

// Writers race explicit flushes: whether or not a roll happens, every
// acknowledged write survives a crash (batch mode: acknowledged = synced).
// The writers work in rounds with a barrier between them: inside a round
// the flushes race the writes (which wins is up to the machine), and
// between rounds, with no write in flight, a flush must leave the log as
// one header-only segment, every round.
TEST(CommitLogRollTest, WritesRacingFlushesAreKept) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  constexpr int kWriters = 2;
  constexpr int kRounds = 10;
  constexpr int kPerRound = 15;
  std::atomic<int> written{0};
  std::barrier round_start(kWriters + 1);
  std::barrier round_end(kWriters + 1);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int r = 0; r < kRounds; ++r) {
        round_start.arrive_and_wait();
        for (int i = r * kPerRound; i < (r + 1) * kPerRound; ++i) {
          Status s = t.db->Apply(Row(w, i, i, i % 2 ? "t" : "u"));
          EXPECT_TRUE(s.ok()) << s.ToString();
          written.fetch_add(1);
        }
        round_end.arrive_and_wait();
      }
    });
  }
  int racing_flushes = 0;
  for (int r = 0; r < kRounds; ++r) {
    round_start.arrive_and_wait();
    while (written.load() < (r + 1) * kWriters * kPerRound) {
      const Status s = t.db->Flush();
      EXPECT_TRUE(s.ok()) << s.ToString();
      ++racing_flushes;
    }
    round_end.arrive_and_wait();
    const Status s = t.db->Flush();
    EXPECT_TRUE(s.ok()) << s.ToString();  // no ASSERT: the writers must be joined
    ExpectOneEmptySegment(*t.fs);
  }
  for (auto& w : writers) w.join();
  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(CountRows(*t.db, "t", kWriters) + CountRows(*t.db, "u", kWriters),
            kWriters * kRounds * kPerRound);
  ASSERT_OK(t.db->Flush());
  ExpectOneEmptySegment(*t.fs);
  std::printf("flushes racing the writers: %d\n", racing_flushes);
}

}  // namespace
}  // namespace cassette::testing
