// Fault injection at every I/O call: a scenario of ingest, multi-table
// batches, flushes, a compaction, commit-log segment rolls and schema
// changes runs once per (operation kind, N), with the Nth call of that kind
// failing (a write may also be cut in half). Whatever fails, the engine
// returns an error and never crashes; after a power loss right then, the
// directory opens, holds every write that was acknowledged (batch mode),
// and every batch is whole or absent.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/db/db_test_util.h"
#include "tests/support/capturing_logger.h"
#include "tests/support/fault_injection_file_system.h"

namespace cassette::testing {
namespace {

// What the scenario was told: writes acknowledged, and writes that failed
// (in flight: may be there or not, but never half of a batch).
struct Outcome {
  std::set<int> acknowledged;  // ck of rows in ks.t (batches also write ks.u)
  std::set<int> failed;
  int errors = 0;
};

Mutation Row(const std::string& table, int ck) {
  Mutation m("ks", table, {Value::Int(ck % 7)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(ck * 3));
  return m;
}

// The scenario; every call may fail. The database is dropped without Close
// at the end, as a power loss would leave it.
// The log settings of every run (and of the reopen after it).
void SetLogOptions(CommitLogCompression compression, Options* options) {
  options->commitlog_sync = CommitLogSync::kBatch;
  options->commitlog_segment_size = 65536;
  options->max_mutation_size = 32768;
  options->commitlog_compression = compression;
}

// Text that compresses only about in half (letters from an LCG), so the
// blobs below roll segments in a compressed log too.
std::string Letters(size_t n, uint32_t seed) {
  std::string out(n, 'a');
  for (char& c : out) {
    seed = seed * 1664525u + 1013904223u;
    c = static_cast<char>('a' + (seed >> 24) % 26);
  }
  return out;
}

Outcome RunScenario(std::shared_ptr<FileSystem> fs, std::shared_ptr<ManualClock> clock,
                    CommitLogCompression compression) {
  Outcome out;
  Options options;
  options.file_system = fs;
  options.clock = clock;
  options.scheduler = std::make_shared<ManualScheduler>();
  // The sweep fails the engine's own files; the messages still go out (to
  // memory), and a LOG that fails is tested in tests/db/logger_test.cc.
  options.logger = std::make_shared<CapturingLogger>();
  SetLogOptions(compression, &options);
  auto note = [&](const Status& s) {
    if (!s.ok()) ++out.errors;
    return s.ok();
  };
  auto opened = Database::Open(options, "/db");
  if (!note(opened.status())) return out;
  std::unique_ptr<Database> db = std::move(opened).value();
  if (!note(db->CreateKeyspace({.name = "ks"}))) return out;
  if (!note(db->CreateTable(SimpleTable("ks", "t")))) return out;
  if (!note(db->CreateTable(SimpleTable("ks", "u")))) return out;
  int ck = 0;
  auto write = [&](int rows, bool batch) {
    for (int i = 0; i < rows; ++i, ++ck) {
      Status s = batch ? db->ApplyBatch({Row("t", ck), Row("u", ck)}) : db->Apply(Row("t", ck));
      (note(s) ? out.acknowledged : out.failed).insert(ck);
    }
  };
  write(40, false);
  write(20, true);
  note(db->FlushTable("ks", "t"));
  write(20, true);
  note(db->Flush());
  write(30, false);
  note(db->Flush());
  note(db->Compact("ks", "t"));
  note(db->AddColumns("ks", "t", {ColumnDefinition{.name = "extra", .type = DataType::Text()}}));
  // Enough bytes to roll the 64 KiB segment a few times.
  for (int i = 0; i < 6; ++i) {
    Mutation big("ks", "u", {Value::Int(1000 + i)});
    big.Insert({Value::Int(0)})
        .Set("tags", Value::Set(DataType::Text(), {Value::Text(Letters(20000, i))}));
    note(db->Apply(big));
  }
  write(20, true);
  note(db->Flush());
  note(db->CompactMajor("ks", "t"));
  write(10, true);
  return out;  // no Close: the power goes
}

// ck values present in `table` (partitions 0..6).
std::set<int> Present(Database& db, const std::string& table) {
  std::set<int> cks;
  for (int pk = 0; pk < 7; ++pk) {
    ReadQuery q = ReadPartition(pk, {"ck", "v"});
    q.table = table;
    auto rows = db.Read(q);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    if (!rows.ok()) continue;
    for (const ResultRow& row : rows->rows) {
      const int c = static_cast<int>(row.values[0].AsInt64());
      EXPECT_EQ(row.values[1].AsInt64(), c * 3);
      cks.insert(c);
    }
  }
  return cks;
}

struct SweepTotals {
  int runs = 0;
  int faults = 0;
  int errors_returned = 0;
};

// Runs the scenario with the Nth `op` failing for N = 1, 2, ... until a run
// no longer reaches an Nth call; checks each crash image.
void Sweep(FaultOp op, bool short_write, CommitLogCompression compression, SweepTotals* totals) {
  for (int n = 1;; ++n) {
    auto mem = NewMemFileSystem();
    auto faulty = std::make_shared<FaultInjectionFileSystem>(mem);
    FaultRule rule;
    rule.op = op;
    rule.when = FaultRule::When::kNth;
    rule.nth = n;
    rule.short_write = short_write;
    faulty->AddRule(rule);
    auto clock = std::make_shared<ManualClock>(kStartMicros);
    Outcome outcome = RunScenario(faulty, clock, compression);
    if (faulty->injected() == 0) return;  // past the last call of this kind
    ++totals->runs;
    totals->faults += faulty->injected();
    totals->errors_returned += outcome.errors;
    SCOPED_TRACE(std::string(FaultOpName(op)) + (short_write ? " (short)" : "") + " #" +
                 std::to_string(n));

    TestDb t;
    t.fs = mem->CrashClone(0, static_cast<uint64_t>(n));
    Options options = t.MakeOptions();
    SetLogOptions(compression, &options);
    Status opened = t.Open(options);
    if (outcome.acknowledged.empty() && !t.fs->FileExists("/db/MANIFEST")) continue;
    ASSERT_TRUE(opened.ok()) << opened.ToString();
    if (!t.db->GetTable("ks", "t").ok()) {
      // The fault came before the schema was durable: nothing was written.
      ASSERT_TRUE(outcome.acknowledged.empty());
      continue;
    }
    const std::set<int> in_t = Present(*t.db, "t");
    for (int ck : outcome.acknowledged) ASSERT_TRUE(in_t.count(ck)) << "lost ck " << ck;
    for (int ck : in_t) {
      ASSERT_TRUE(outcome.acknowledged.count(ck) || outcome.failed.count(ck)) << ck;
    }
    // Batches (ck 40..59, 60..79, 110..129, 130..139) are whole.
    if (t.db->GetTable("ks", "u").ok()) {
      const std::set<int> in_u = Present(*t.db, "u");
      for (int ck : in_u) {
        if (ck < 1000) {
          ASSERT_TRUE(in_t.count(ck)) << "torn batch " << ck;
        }
      }
      for (int ck : in_t) {
        const bool batched = (ck >= 40 && ck < 80) || ck >= 110;
        if (batched) {
          ASSERT_TRUE(in_u.count(ck)) << "torn batch " << ck;
        }
      }
    }
  }
}

TEST(FaultSweepTest, EveryIoCallFailingOnceLeavesARecoverableDatabase) {
  SweepTotals totals;
  for (FaultOp op : {FaultOp::kOpen, FaultOp::kWrite, FaultOp::kFlush, FaultOp::kSync,
                     FaultOp::kRead, FaultOp::kRename, FaultOp::kDelete, FaultOp::kSyncDir,
                     FaultOp::kMkdir, FaultOp::kTruncate}) {
    Sweep(op, false, CommitLogCompression::kNone, &totals);
    if (::testing::Test::HasFatalFailure()) return;
  }
  Sweep(FaultOp::kWrite, true, CommitLogCompression::kNone, &totals);
  std::printf("fault points injected: %d runs, %d faults, %d errors returned\n", totals.runs,
              totals.faults, totals.errors_returned);
  EXPECT_GT(totals.runs, 100);
}

// The same with a compressed commit log (format 3), for the calls its
// writer makes: block writes and their cut-backs, markers, seals.
TEST(FaultSweepTest, CompressedLogEveryWriteAndSyncFailingOnce) {
  SweepTotals totals;
  for (FaultOp op : {FaultOp::kWrite, FaultOp::kFlush, FaultOp::kSync, FaultOp::kTruncate}) {
    Sweep(op, false, CommitLogCompression::kZstd, &totals);
    if (::testing::Test::HasFatalFailure()) return;
  }
  Sweep(FaultOp::kWrite, true, CommitLogCompression::kZstd, &totals);
  std::printf("fault points injected (compressed log): %d runs, %d faults, %d errors returned\n",
              totals.runs, totals.faults, totals.errors_returned);
  EXPECT_GT(totals.runs, 100);
}

}  // namespace
}  // namespace cassette::testing
