// The crash test's checker, checked: it must see a lost acknowledged
// write, a torn batch and a half-counted counter batch, and must accept an
// in-flight write found whole or missing whole. The states are made by
// hand (a write skipped, half a batch applied) on a real directory, as the
// kill test leaves them.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/crash/crash_state.h"
#include "tests/crash/kill_checker.h"
#include "tests/crash/side_file.h"
#include "tests/support/temp_dir.h"

namespace cassette::crash {
namespace {

using testing::ModelWrite;

DataWrite Insert(int table, int32_t pk, int32_t ck, int64_t index) {
  DataWrite d;
  d.table = table;
  d.write.kind = ModelWrite::kInsert;
  d.write.pk = pk;
  d.write.ck = ck;
  d.write.value = static_cast<int32_t>(index);
  d.write.timestamp = OpMicros(index);
  d.write.now_sec = OpMicros(index) / 1'000'000;
  return d;
}

Op WriteOp(int64_t index, std::vector<DataWrite> writes) {
  Op op;
  op.index = index;
  op.kind = writes.size() == 1 ? OpKind::kWrite : OpKind::kLoggedBatch;
  op.writes = std::move(writes);
  return op;
}

Op CounterBatch(int64_t index) {
  Op op;
  op.index = index;
  op.kind = OpKind::kCounterBatch;
  op.counters = {{0, 1, 5}, {1, 2, -7}};
  return op;
}

// A database and side file in a temp directory, written by hand: what the
// worker would have done, with chosen parts left out.
class CrashCheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Database::Open(CrashOptions(CommitLogSync::kBatch, clock_), db_dir_);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    db_ = std::move(opened).value();
    session_ = std::make_unique<CqlSession>(db_.get());
    for (const std::string& statement : SchemaStatements()) {
      ASSERT_TRUE(session_->Execute(statement).ok()) << statement;
    }
    Log("S");
  }

  void Log(const std::string& line) {
    auto side = SideFile::Open(side_path_);
    ASSERT_TRUE(side.ok());
    ASSERT_TRUE(side->Append(line).ok());
  }
  // Runs op on the database (when `execute`) and logs it as the worker
  // does: intent, then (when `acknowledge`) the ack.
  void Run(const Op& op, bool execute, bool acknowledge) {
    ASSERT_TRUE(clock_->Set(op.now_micros()).ok());
    Log("I " + EncodeOp(op));
    if (execute) {
      bool applied = false;
      ASSERT_TRUE(ExecuteOp(*session_, op, &applied).ok()) << DescribeOp(op);
    }
    if (acknowledge) Log("A " + std::to_string(op.index) + " 1");
  }
  void RunStatement(const std::string& statement) {
    ASSERT_TRUE(session_->Execute(statement).ok()) << statement;
  }
  CheckReport Check() {
    EXPECT_TRUE(db_->Close().ok());
    session_.reset();
    db_.reset();
    auto report = CheckAfterKill(db_dir_, side_path_, CommitLogSync::kBatch, Shape());
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    return report.ok() ? *report : CheckReport();
  }

  TempDir temp_;
  std::string db_dir_ = temp_.Join("db");
  std::string side_path_ = temp_.Join("side");
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>(OpMicros(0));
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

TEST_F(CrashCheckerTest, AcceptsEveryAcknowledgedWrite) {
  Run(WriteOp(0, {Insert(0, 1, 1, 0)}), true, true);
  Run(WriteOp(1, {Insert(1, 2, 3, 1), Insert(3, 2, 3, 1)}), true, true);
  Run(CounterBatch(2), true, true);
  const CheckReport report = Check();
  EXPECT_TRUE(report.consistent) << report.detail;
  EXPECT_EQ(report.acknowledged_writes, 3);
  EXPECT_FALSE(report.in_flight);
}

TEST_F(CrashCheckerTest, SeesALostAcknowledgedWrite) {
  Run(WriteOp(0, {Insert(0, 1, 1, 0)}), true, true);
  Run(WriteOp(1, {Insert(0, 1, 2, 1)}), false, true);  // acknowledged, never written
  const CheckReport report = Check();
  EXPECT_FALSE(report.consistent);
  EXPECT_EQ(report.differing_partitions, 1);
  EXPECT_EQ(report.torn_batches, 0);
  EXPECT_NE(report.detail.find("t_stcs pk=1 matches no allowed state"), std::string::npos)
      << report.detail;
}

TEST_F(CrashCheckerTest, AcceptsAnInFlightBatchWholeOrMissing) {
  Run(WriteOp(0, {Insert(0, 1, 1, 0)}), true, true);
  Run(WriteOp(1, {Insert(1, 2, 3, 1), Insert(2, 2, 3, 1)}), true, false);
  CheckReport report = Check();
  EXPECT_TRUE(report.consistent) << report.detail;
  EXPECT_TRUE(report.in_flight);
  EXPECT_TRUE(report.in_flight_applied);
  // The checker settled it: the next check has nothing in flight.
  auto log = ReadSideLog(side_path_);
  ASSERT_TRUE(log.ok());
  EXPECT_FALSE(log->in_flight.has_value());
  EXPECT_EQ(log->done.size(), 2u);
}

TEST_F(CrashCheckerTest, SeesATornBatch) {
  Run(WriteOp(0, {Insert(0, 1, 1, 0)}), true, true);
  const Op batch = WriteOp(1, {Insert(1, 2, 3, 1), Insert(2, 4, 0, 1)});
  Run(batch, false, false);
  // Only the t_lcs half reaches the database.
  RunStatement("INSERT INTO ks.t_lcs (pk, ck, v) VALUES (2, 3, 1) USING TIMESTAMP " +
               std::to_string(OpMicros(1)));
  const CheckReport report = Check();
  EXPECT_FALSE(report.consistent);
  EXPECT_EQ(report.torn_batches, 1) << report.detail;
}

TEST_F(CrashCheckerTest, SeesHalfACounterBatch) {
  const Op batch = CounterBatch(0);
  Run(batch, false, false);
  RunStatement("UPDATE ks.counters SET c = c + 5 WHERE pk = 0 AND ck = 1");
  const CheckReport report = Check();
  EXPECT_FALSE(report.consistent);
  EXPECT_GT(report.differing_partitions, 0) << report.detail;
}

TEST_F(CrashCheckerTest, SeesAWrongLwtAnswer) {
  Run(WriteOp(0, {Insert(0, 1, 1, 0)}), true, true);
  Op lwt;
  lwt.index = 1;
  lwt.kind = OpKind::kLwtInsert;
  lwt.table = 0;
  lwt.writes = {Insert(0, 1, 2, 1)};
  Run(lwt, true, false);  // the row (1, 2) is new: it applies
  Log("A 1 0");           // ... but the answer logged says it did not
  const CheckReport report = Check();
  EXPECT_FALSE(report.consistent);
  EXPECT_EQ(report.wrong_lwt_answers, 1) << report.detail;
}

// The model gives an LWT write the timestamp OpMicros(index): the clock's,
// as the database assigns it. Were it otherwise, every later comparison
// with a late timestamp would be judged wrong.
TEST(CrashWorkloadTest, LwtWritesTakeTheOperationsTimestamp) {
  Options options = CrashOptions(CommitLogSync::kBatch, std::make_shared<ManualClock>(OpMicros(7)));
  options.file_system = NewMemFileSystem();
  options.scheduler = std::make_shared<ManualScheduler>();
  auto db = Database::Open(options, "/db");
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  CqlSession session(db->get());
  for (const std::string& statement : SchemaStatements()) {
    ASSERT_TRUE(session.Execute(statement).ok()) << statement;
  }
  ASSERT_TRUE(
      session.Execute("INSERT INTO ks.t_lcs (pk, ck, v) VALUES (1, 1, 7) IF NOT EXISTS").ok());
  auto written = session.Execute("SELECT writetime(v) FROM ks.t_lcs WHERE pk = 1 AND ck = 1");
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->rows.size(), 1u);
  EXPECT_EQ(written->rows[0][0].AsInt64(), OpMicros(7));
}

TEST(CrashWorkloadTest, OperationsSurviveTheSideFile) {
  const Shape shape;
  for (int64_t index = 0; index < 300; ++index) {
    const Op op = GenerateOp(99, index, shape, 5);
    auto decoded = DecodeOp(EncodeOp(op));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(EncodeOp(*decoded), EncodeOp(op));
    EXPECT_EQ(DescribeOp(*decoded), DescribeOp(op));
  }
}

}  // namespace
}  // namespace cassette::crash
