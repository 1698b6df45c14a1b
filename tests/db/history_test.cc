// The HISTORY file of a table (engine/db/FORMAT.md): compactions and
// memtable write stalls outlive the process that counted them, as
// Cassandra's system.compaction_history (read by nodetool
// compactionhistory, rows kept 7 days: SystemKeyspace.COMPACTION_HISTORY,
// "default_time_to_live = 604800") outlives a node's restart. Asserted on
// the engine's records and the manual clock, never on wall-clock time.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/db/history_file.h"
#include "engine/db/table_history.h"
#include "engine/util/coding.h"
#include "tests/db/db_test_util.h"
#include "tests/support/fault_injection_file_system.h"

namespace cassette::testing {
namespace {

constexpr char kTableDir[] = "/db/ks/t-1";
constexpr char kHistoryPath[] = "/db/ks/t-1/HISTORY";

std::string ReadAll(FileSystem& fs, const std::string& path) {
  auto file = fs.NewSequentialFile(path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return "";
  std::string bytes, chunk;
  do {
    EXPECT_TRUE((*file)->Read(1 << 20, &chunk).ok());
    bytes += chunk;
  } while (!chunk.empty());
  return bytes;
}

void WriteAll(FileSystem& fs, const std::string& path, const std::string& bytes) {
  auto file = fs.NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_OK((*file)->Append(bytes));
  ASSERT_OK((*file)->Sync());
  ASSERT_OK((*file)->Close());
}

CompactionRecord Record(uint64_t first_input, int64_t started_micros) {
  CompactionRecord record;
  record.strategy = "SizeTieredCompactionStrategy";
  record.reason = "4 similar-sized SSTables";
  record.inputs = {first_input, first_input + 1};
  record.outputs = {first_input + 2};
  record.bytes_read = 1000 + first_input;
  record.bytes_written = 900;
  record.rows_in = 40;
  record.rows_out = 38;
  record.tombstones_purged = 2;
  record.purged_bytes_by_lag = {{60, 100}};
  record.started_micros = started_micros;
  record.duration_micros = 1234;
  return record;
}

class HistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options = t_.MakeOptions();
    options.auto_compaction = false;
    ASSERT_OK(t_.Open(options));
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(SimpleTable()));
  }

  // Two flushes, then a major compaction of the two files.
  void FlushTwiceAndCompact(int first_pk) {
    for (int pk = first_pk; pk < first_pk + 2; ++pk) {
      Mutation m("ks", "t", {Value::Int(pk)});
      m.Insert({Value::Int(1)}).Set("v", Value::Int(pk));
      ASSERT_OK(t_.db->Apply(m));
      ASSERT_OK(t_.db->Flush());
    }
    ASSERT_OK(t_.db->CompactMajor("ks", "t"));
  }

  TableStats Stats() { return StatsOf(*t_.db, "ks", "t"); }

  TestDb t_;
};

TEST_F(HistoryTest, CompactionHistorySurvivesReopen) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  const std::vector<CompactionRecord> before = Stats().recent_compactions;
  ASSERT_EQ(before.size(), 1u);
  t_.Advance(60);
  ASSERT_OK(t_.Reopen());
  const TableStats after = Stats();
  ASSERT_EQ(after.recent_compactions.size(), 1u);
  const CompactionRecord& record = after.recent_compactions[0];
  EXPECT_TRUE(record.major);
  EXPECT_EQ(record.strategy, before[0].strategy);
  EXPECT_EQ(record.reason, before[0].reason);
  EXPECT_EQ(record.inputs, before[0].inputs);
  EXPECT_EQ(record.outputs, before[0].outputs);
  EXPECT_EQ(record.bytes_read, before[0].bytes_read);
  EXPECT_EQ(record.bytes_written, before[0].bytes_written);
  EXPECT_EQ(record.rows_in, 2u);
  EXPECT_EQ(record.rows_out, 2u);
  EXPECT_EQ(record.started_micros, kStartMicros);
  EXPECT_EQ(record.duration_micros, before[0].duration_micros);
  EXPECT_TRUE(after.history_warnings.empty());

  // A second process's compaction joins the first's.
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(10));
  ASSERT_OK(t_.Reopen());
  ASSERT_EQ(Stats().recent_compactions.size(), 2u);
  EXPECT_EQ(Stats().recent_compactions[1].started_micros, kStartMicros + 60'000'000);
}

TEST_F(HistoryTest, AReadOnlyOpenShowsTheHistoryAndWritesNothing) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_OK(t_.db->Close());
  const std::string bytes = ReadAll(*t_.fs, kHistoryPath);
  Options options = t_.MakeOptions();
  options.read_only = true;
  ASSERT_OK(t_.Open(options));
  EXPECT_EQ(Stats().recent_compactions.size(), 1u);
  ASSERT_OK(t_.db->Close());
  EXPECT_EQ(ReadAll(*t_.fs, kHistoryPath), bytes);
}

// The file holds at most 2 x 100 compaction records before it is rewritten
// with the newest 100, so it stays bounded however long the table lives.
TEST_F(HistoryTest, TheFileIsBoundedAndKeepsTheNewestRecords) {
  ASSERT_OK(t_.db->Close());
  TableHistory history(t_.fs.get(), t_.clock.get(), kTableDir, false);
  history.Load();
  const int total = 3 * static_cast<int>(TableHistory::kKeptCompactions);
  uint64_t largest = 0;
  for (int i = 0; i < total; ++i) {
    history.AppendCompaction(Record(static_cast<uint64_t>(i) * 10, kStartMicros + i));
    largest = std::max(largest, *t_.fs->GetFileSize(kHistoryPath));
  }
  EXPECT_TRUE(history.warnings().empty());
  const uint64_t one = EncodeCompactionHistoryRecord(Record(0, kStartMicros)).size();
  EXPECT_LE(largest, 8 + (2 * TableHistory::kKeptCompactions + 1) * (one + 4));
  TableHistory reread(t_.fs.get(), t_.clock.get(), kTableDir, false);
  const TableHistory::Loaded loaded = reread.Load();
  ASSERT_EQ(loaded.compactions.size(), TableHistory::kKeptCompactions);
  EXPECT_EQ(loaded.compactions.back().started_micros, kStartMicros + total - 1);
  EXPECT_EQ(loaded.compactions.front().started_micros,
            kStartMicros + total - static_cast<int64_t>(TableHistory::kKeptCompactions));
  EXPECT_FALSE(t_.fs->FileExists(std::string(kTableDir) + "/HISTORY.tmp"));
}

// Records older than 7 days (the database clock) are gone at the next open.
TEST_F(HistoryTest, RecordsOlderThanSevenDaysAreDropped) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  t_.Advance(6 * 86400);
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(10));
  t_.Advance(86400 + 1);  // the first is 7 days and 1 s old, the second 1 day
  ASSERT_OK(t_.Reopen());
  const TableStats stats = Stats();
  ASSERT_EQ(stats.recent_compactions.size(), 1u);
  EXPECT_EQ(stats.recent_compactions[0].started_micros, kStartMicros + 6 * 86400 * 1'000'000LL);
}

// A record cut short by a power loss (or holding garbage where its write
// stopped) is ignored, as the commit log ignores a torn tail; the next
// writable open rewrites the file without it.
TEST_F(HistoryTest, ATornLastRecordIsIgnored) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(10));
  ASSERT_OK(t_.db->Close());
  const std::string bytes = ReadAll(*t_.fs, kHistoryPath);
  ASSERT_NO_FATAL_FAILURE(WriteAll(*t_.fs, kHistoryPath, bytes.substr(0, bytes.size() - 5)));
  ASSERT_OK(t_.Open());
  TableStats stats = Stats();
  ASSERT_EQ(stats.recent_compactions.size(), 1u);
  EXPECT_TRUE(stats.history_warnings.empty());
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(20));
  ASSERT_OK(t_.Reopen());
  EXPECT_EQ(Stats().recent_compactions.size(), 2u);
  EXPECT_TRUE(Stats().history_warnings.empty());

  // Garbage in the last record's bytes: the same.
  ASSERT_OK(t_.db->Close());
  std::string garbled = ReadAll(*t_.fs, kHistoryPath);
  garbled[garbled.size() - 2] ^= 0x5a;
  ASSERT_NO_FATAL_FAILURE(WriteAll(*t_.fs, kHistoryPath, garbled));
  ASSERT_OK(t_.Open());
  EXPECT_EQ(Stats().recent_compactions.size(), 1u);
  EXPECT_TRUE(Stats().history_warnings.empty());
}

// Damage before the last record is reported with the file and the offset
// (in the table's statistics); the open succeeds, with the records before it.
TEST_F(HistoryTest, ADamagedMiddleRecordIsReportedWithFileAndOffset) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(10));
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(20));
  ASSERT_OK(t_.db->Close());
  std::string bytes = ReadAll(*t_.fs, kHistoryPath);
  const HistoryFileContents whole = DecodeHistoryFile(bytes, kHistoryPath);
  ASSERT_EQ(whole.compactions.size(), 3u);
  // The second record starts where the first (length:fixed32 checksum:fixed32 body) ends.
  const uint64_t offset = 8 + 8 + DecodeFixed32(bytes.data() + 8);
  bytes[offset + 12] ^= 0x01;
  ASSERT_NO_FATAL_FAILURE(WriteAll(*t_.fs, kHistoryPath, bytes));

  Options read_only = t_.MakeOptions();
  read_only.read_only = true;
  ASSERT_OK(t_.Open(read_only));
  TableStats stats = Stats();
  ASSERT_EQ(stats.recent_compactions.size(), 1u);
  ASSERT_EQ(stats.history_warnings.size(), 1u);
  EXPECT_EQ(stats.history_warnings[0],
            std::string(kHistoryPath) + ": checksum mismatch at offset " + std::to_string(offset));
  ASSERT_OK(t_.db->Close());

  // A writable open keeps what was good and carries on.
  ASSERT_OK(t_.Open(t_.MakeOptions()));
  EXPECT_EQ(Stats().history_warnings.size(), 1u);
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(30));
  ASSERT_OK(t_.Reopen());
  EXPECT_EQ(Stats().recent_compactions.size(), 2u);
  EXPECT_TRUE(Stats().history_warnings.empty());
}

TEST_F(HistoryTest, WriteStallTotalsSurviveReopen) {
  ASSERT_OK(t_.db->Close());
  Options options = t_.MakeOptions();
  options.memtable_flush_threshold = 256 << 10;
  ASSERT_OK(t_.Open(options));
  int row = 0;
  while (Stats().memtable_write_stalls < 2) {
    ASSERT_LT(row, 100'000) << "no write ever stalled";
    Mutation m("ks", "t", {Value::Int(row % 4)});
    m.Insert({Value::Int(row)})
        .Set("tags", Value::Set(DataType::Text(), {Value::Text(std::string(512, 'x'))}));
    ASSERT_OK(t_.db->Apply(m));
    ++row;
    t_.Advance(1);
  }
  const TableStats before = Stats();
  EXPECT_EQ(before.memtable_write_stalls_total, 2);
  EXPECT_GT(before.last_memtable_write_stall_micros, kStartMicros);
  ASSERT_OK(t_.Reopen());
  const TableStats after = Stats();
  EXPECT_EQ(after.memtable_write_stalls, 0);  // since this open
  EXPECT_EQ(after.memtable_write_stalls_total, 2);
  EXPECT_EQ(after.memtable_write_stall_micros_total, before.memtable_write_stall_micros_total);
  EXPECT_EQ(after.last_memtable_write_stall_micros, before.last_memtable_write_stall_micros);
}

// The history is statistics: a disk refusing its writes fails neither the
// compaction nor the data, is reported, and the next write that works
// rewrites the file whole (no record cut short in its middle).
TEST(HistoryFaultTest, AFailingHistoryWriteDoesNotFailTheCompaction) {
  auto mem = NewMemFileSystem();
  auto faulty = std::make_shared<FaultInjectionFileSystem>(mem);
  TestDb t;
  t.fs = mem;
  Options options = t.MakeOptions();
  options.file_system = faulty;
  options.auto_compaction = false;
  auto opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_OK(db->CreateKeyspace({.name = "ks"}));
  ASSERT_OK(db->CreateTable(SimpleTable()));
  auto write_and_flush = [&](int pk) {
    Mutation m("ks", "t", {Value::Int(pk)});
    m.Insert({Value::Int(1)}).Set("v", Value::Int(pk));
    ASSERT_OK(db->Apply(m));
    ASSERT_OK(db->Flush());
  };
  write_and_flush(1);
  write_and_flush(2);
  faulty->AddRule(*ParseFaultRule("op=write path=*/HISTORY* short"));
  ASSERT_OK(db->CompactMajor("ks", "t"));
  auto stats = db->GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->sstable_count, 1);
  EXPECT_EQ(stats->recent_compactions.size(), 1u);
  ASSERT_EQ(stats->history_warnings.size(), 1u);
  EXPECT_NE(stats->history_warnings[0].find("/db/ks/t-1/HISTORY: write failed"), std::string::npos)
      << stats->history_warnings[0];
  ReadQuery everything;
  everything.keyspace = "ks";
  everything.table = "t";
  auto rows = db->Read(everything);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->rows.size(), 2u);

  faulty->ClearRules();
  write_and_flush(3);
  ASSERT_OK(db->CompactMajor("ks", "t"));
  ASSERT_OK(db->Close());
  db.reset();
  opened = Database::Open(options, "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  stats = (*opened)->GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->recent_compactions.size(), 2u);
  EXPECT_TRUE(stats->history_warnings.empty());
}

TEST_F(HistoryTest, DropTableRemovesItsHistory) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_TRUE(t_.fs->FileExists(kHistoryPath));
  ASSERT_OK(t_.db->DropTable("ks", "t"));
  EXPECT_FALSE(t_.fs->FileExists(kHistoryPath));
  EXPECT_FALSE(t_.fs->FileExists(kTableDir));
}

// TRUNCATE keeps it: the compactions happened (Cassandra's TRUNCATE leaves
// system.compaction_history alone too).
TEST_F(HistoryTest, TruncateKeepsTheHistory) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_OK(t_.db->Truncate("ks", "t"));
  EXPECT_EQ(Stats().recent_compactions.size(), 1u);
  ASSERT_OK(t_.Reopen());
  EXPECT_EQ(Stats().recent_compactions.size(), 1u);
}

// Open knows the file: a live table's HISTORY is not an unknown file, a
// rewrite's leftover HISTORY.tmp is removed, and so is the HISTORY of a
// table whose drop a crash interrupted before its files were deleted.
TEST_F(HistoryTest, OpenAccountsForHistoryFiles) {
  ASSERT_NO_FATAL_FAILURE(FlushTwiceAndCompact(1));
  ASSERT_OK(t_.db->Close());
  ASSERT_NO_FATAL_FAILURE(WriteAll(*t_.fs, std::string(kTableDir) + "/HISTORY.tmp", "partial"));
  ASSERT_OK(t_.Open());
  const RecoveryReport report = t_.db->GetRecoveryReport();
  EXPECT_TRUE(report.unknown_files.empty());
  EXPECT_EQ(report.removed_files,
            std::vector<std::string>{std::string(kTableDir) + "/HISTORY.tmp"});
  EXPECT_EQ(Stats().recent_compactions.size(), 1u);

  // A dropped table's directory left behind (the crash came between the
  // manifest rewrite and the deletes).
  const std::string history = ReadAll(*t_.fs, kHistoryPath);
  ASSERT_OK(t_.db->DropTable("ks", "t"));
  ASSERT_OK(t_.db->Close());
  ASSERT_OK(t_.fs->CreateDirs(kTableDir));
  ASSERT_NO_FATAL_FAILURE(WriteAll(*t_.fs, kHistoryPath, history));
  ASSERT_OK(t_.Open());
  EXPECT_EQ(t_.db->GetRecoveryReport().removed_files, std::vector<std::string>{kHistoryPath});
  EXPECT_FALSE(t_.fs->FileExists(kTableDir));
}

}  // namespace
}  // namespace cassette::testing
