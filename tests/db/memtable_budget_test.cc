// Options::memtable_flush_threshold is a budget for a table's active and
// flushing memtables together: a flush is queued at half of it, and once
// the whole budget is in use a writer waits for the running flush, or runs
// the flush itself when nobody runs it (a ManualScheduler runs nothing
// until asked). Asserted on the engine's own accounting
// (TableStats::memtable_bytes, memtable_write_stalls), never on time.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/db/db_test_util.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/hooked_file_system.h"

namespace cassette::testing {
namespace {

constexpr uint64_t kBudget = 256 << 10;
// A write is admitted while the memtables are under the budget, so it may
// take them past it by what it adds itself, which the memtable's arena
// counts in whole 32 KiB blocks. One batch here is about 2.5 KiB.
constexpr int64_t kSlack = 64 << 10;
constexpr int kPartitions = 4;
constexpr int kRowsPerBatch = 8;
constexpr size_t kPayloadBytes = 256;

Status CreateSchema(Database& db) {
  CASSETTE_RETURN_IF_ERROR(db.CreateKeyspace({.name = "ks"}));
  TableSchema schema("ks", "t");
  schema.AddPartitionKey("pk", DataType::Int())
      .AddClustering("ck", DataType::Int())
      .AddRegular("payload", DataType::Text());
  return db.CreateTable(schema);
}

std::string Payload(int row) {
  std::string payload = std::to_string(row) + ":";
  payload.resize(kPayloadBytes, static_cast<char>('a' + row % 26));
  return payload;
}

// Rows first .. first + kRowsPerBatch - 1, spread over the partitions.
std::vector<Mutation> Batch(int first) {
  std::vector<Mutation> batch;
  for (int row = first; row < first + kRowsPerBatch; ++row) {
    Mutation& m = batch.emplace_back("ks", "t", std::vector<Value>{Value::Int(row % kPartitions)});
    m.Insert({Value::Int(row)}).Set("payload", Value::Text(Payload(row)));
  }
  return batch;
}

TableStats Stats(Database& db) { return StatsOf(db, "ks", "t"); }

// Every row 0 .. rows - 1 is there, once, with its payload; nothing else.
void ExpectRows(Database& db, int rows) {
  int found = 0;
  for (int pk = 0; pk < kPartitions; ++pk) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "t";
    query.partition_keys = {{Value::Int(pk)}};
    query.columns = {"ck", "payload"};
    auto result = db.Read(query);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    for (const ResultRow& row : result->rows) {
      const int ck = static_cast<int>(row.values[0].AsInt64());
      ASSERT_EQ(ck % kPartitions, pk);
      ASSERT_LT(ck, rows);
      ASSERT_EQ(row.values[1].AsString(), Payload(ck)) << "row " << ck;
      ++found;
    }
  }
  EXPECT_EQ(found, rows);
}

Options BudgetOptions(const TestDb& t) {
  Options options = t.MakeOptions();
  options.memtable_flush_threshold = kBudget;
  // Acknowledged means synced: a crash keeps every acknowledged row.
  options.commitlog_sync = CommitLogSync::kBatch;
  return options;
}

// Writes batches until the table's flush job is queued; returns the rows
// written.
int FillUntilFlushQueued(Database& db, ManualScheduler& scheduler) {
  int rows = 0;
  while (scheduler.pending() == 0 && rows < 100'000) {
    EXPECT_TRUE(db.ApplyBatch(Batch(rows)).ok());
    rows += kRowsPerBatch;
  }
  EXPECT_EQ(scheduler.pending(), 1u);
  return rows;
}

TEST(MemtableBudgetTest, FlushIsQueuedAtHalfTheBudget) {
  TestDb t;
  ASSERT_OK(t.Open(BudgetOptions(t)));
  ASSERT_OK(CreateSchema(*t.db));
  int rows = 0;
  int64_t before_last_write = 0;
  while (t.scheduler->pending() == 0) {
    ASSERT_LT(rows, 100'000) << "no flush was ever queued";
    before_last_write = Stats(*t.db).memtable_bytes;
    ASSERT_OK(t.db->ApplyBatch(Batch(rows)));
    rows += kRowsPerBatch;
  }
  EXPECT_LT(before_last_write, static_cast<int64_t>(kBudget / 2));
  TableStats queued = Stats(*t.db);
  EXPECT_GE(queued.memtable_bytes, static_cast<int64_t>(kBudget / 2));
  EXPECT_EQ(queued.sstable_count, 0);  // queued: nothing runs until asked
  EXPECT_EQ(queued.memtable_write_stalls, 0);

  t.scheduler->RunUntilIdle();
  TableStats flushed = Stats(*t.db);
  EXPECT_EQ(flushed.sstable_count, 1);
  EXPECT_LT(flushed.memtable_bytes, kSlack);  // a fresh memtable: its first arena block
  ExpectRows(*t.db, rows);
}

// Nothing runs in the background: a writer that finds the budget spent
// flushes the memtable itself (taking over the queued job), so memory stays
// bounded without anyone draining the scheduler and nothing deadlocks.
TEST(MemtableBudgetTest, ManualSchedulerFlushesAFullMemtableInline) {
  TestDb t;
  ASSERT_OK(t.Open(BudgetOptions(t)));
  ASSERT_OK(CreateSchema(*t.db));
  int rows = 0;
  int64_t max_bytes = 0;
  while (Stats(*t.db).sstable_count < 3) {
    ASSERT_LT(rows, 100'000) << "the memtable was never flushed";
    ASSERT_OK(t.db->ApplyBatch(Batch(rows)));
    rows += kRowsPerBatch;
    max_bytes = std::max(max_bytes, Stats(*t.db).memtable_bytes);
  }
  // Without a bound the memtable would hold all of it: three budgets' worth.
  EXPECT_LE(max_bytes, static_cast<int64_t>(kBudget) + kSlack);
  EXPECT_GE(max_bytes, static_cast<int64_t>(kBudget));
  EXPECT_EQ(Stats(*t.db).memtable_write_stalls, 3);
  ExpectRows(*t.db, rows);

  // The queued job the writer took over finds nothing left to take.
  t.scheduler->RunUntilIdle();
  ExpectRows(*t.db, rows);
  // The replay positions the inline flushes recorded lose nothing and
  // bring nothing back twice.
  ASSERT_OK(t.CrashAndReopen());
  ExpectRows(*t.db, rows);
  ASSERT_OK(t.Reopen());
  ExpectRows(*t.db, rows);
}

// Holds a flush inside its SSTable's fsync until released.
class FlushLatch {
 public:
  void Hook(std::string_view op, const std::string& path) {
    if (op != "sync" || !path.ends_with(".sst")) return;
    std::unique_lock lock(mu_);
    entered_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
  }
  void WaitEntered() {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [this] { return entered_; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool entered_ = false;
  bool released_ = false;
};

TEST(MemtableBudgetTest, WriterWaitsForTheRunningFlush) {
  TestDb t;
  auto hooked = std::make_shared<HookedFileSystem>(t.fs);
  FlushLatch latch;
  hooked->set_hook(
      [&latch](std::string_view op, const std::string& path) { latch.Hook(op, path); });
  Options options = BudgetOptions(t);
  options.file_system = hooked;
  auto opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_OK(CreateSchema(*db));
  int rows = FillUntilFlushQueued(*db, *t.scheduler);

  // The flush switches the memtable out and stops in the SSTable's fsync.
  std::thread flusher([&] { t.scheduler->RunOne(); });
  latch.WaitEntered();
  EXPECT_GE(Stats(*db).memtable_bytes, static_cast<int64_t>(kBudget / 2));

  // Enough for the active memtable to need the flushing one's half too.
  const int writer_first_row = rows;
  const int writer_rows = 2 * rows;
  std::atomic<bool> writer_done{false};
  Status writer_status;
  int64_t writer_max_bytes = 0;
  std::thread writer([&] {
    for (int row = writer_first_row; row < writer_first_row + writer_rows; row += kRowsPerBatch) {
      writer_status = db->ApplyBatch(Batch(row));
      if (!writer_status.ok()) break;
      writer_max_bytes = std::max(writer_max_bytes, Stats(*db).memtable_bytes);
    }
    writer_done = true;
  });
  // The writer either stalls on the held flush or (wrongly) finishes.
  while (Stats(*db).memtable_write_stalls == 0 && !writer_done) std::this_thread::yield();
  EXPECT_EQ(Stats(*db).memtable_write_stalls, 1);
  EXPECT_FALSE(writer_done) << "the writer went past the budget while the flush was held";

  latch.Release();
  flusher.join();
  writer.join();
  ASSERT_OK(writer_status);
  rows += writer_rows;
  EXPECT_LE(writer_max_bytes, static_cast<int64_t>(kBudget) + kSlack);
  EXPECT_GE(Stats(*db).sstable_count, 1);
  ExpectRows(*db, rows);
  t.scheduler->RunUntilIdle();
  ExpectRows(*db, rows);
}

// A flush that cannot be written fails the write that needed it, instead
// of hanging it or letting the memtable grow; once the disk works again
// the next write flushes and goes through.
TEST(MemtableBudgetTest, FailedFlushFailsTheWriteThatNeededIt) {
  TestDb t;
  auto faulty = std::make_shared<FaultInjectionFileSystem>(t.fs);
  Options options = BudgetOptions(t);
  options.file_system = faulty;
  auto opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_OK(CreateSchema(*db));
  auto rule = ParseFaultRule("op=open path=*.sst");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);

  int rows = 0;
  Status failed;
  while (failed.ok()) {
    ASSERT_LT(rows, 100'000) << "no write ever needed a flush";
    failed = db->ApplyBatch(Batch(rows));
    if (failed.ok()) rows += kRowsPerBatch;
  }
  EXPECT_EQ(failed.code(), Status::Code::kWriteFailure) << failed.ToString();
  EXPECT_GT(faulty->injected(), 0);
  TableStats stats = Stats(*db);
  EXPECT_LE(stats.memtable_bytes, static_cast<int64_t>(kBudget) + kSlack);
  EXPECT_EQ(stats.sstable_count, 0);
  ExpectRows(*db, rows);  // the failed batch was not applied

  faulty->ClearRules();
  ASSERT_OK(db->ApplyBatch(Batch(rows)));
  rows += kRowsPerBatch;
  EXPECT_EQ(Stats(*db).sstable_count, 1);
  ExpectRows(*db, rows);
}

}  // namespace
}  // namespace cassette::testing
