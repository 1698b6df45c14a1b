// Durability: acknowledged writes survive a close without flush and a crash
// (commit-log replay), and a torn commit-log tail never prevents opening.
#include <gtest/gtest.h>

#include "engine/commitlog/commit_log_format.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

Mutation Row(int32_t pk, int32_t ck, int32_t v) {
  Mutation m("ks", "t", {Value::Int(pk)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(v));
  return m;
}

std::string ReadAll(Database& db, int32_t pk) {
  auto result = db.Read(ReadPartition(pk, {"ck", "v"}));
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? Render(*result) : "error";
}

Status CreateSchema(Database& db) {
  CASSETTE_RETURN_IF_ERROR(db.CreateKeyspace({.name = "ks"}));
  return db.CreateTable(SimpleTable());
}

// The only commit-log segment of a database opened once.
std::string OnlySegment(FileSystem& fs) {
  auto children = fs.GetChildren("/db/commitlog");
  EXPECT_TRUE(children.ok());
  std::vector<std::string> segments;
  for (const std::string& name : *children) {
    if (name.rfind("CommitLog-", 0) == 0) segments.push_back(name);
  }
  EXPECT_EQ(segments.size(), 1u);
  return segments.empty() ? "" : "/db/commitlog/" + segments[0];
}

TEST(RecoveryTest, CloseWithoutFlushKeepsEveryWrite) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 50; ++i) ASSERT_OK(t.db->Apply(Row(i % 5, i, i)));
  ASSERT_OK(t.Reopen());
  for (int pk = 0; pk < 5; ++pk) {
    std::string expected;
    for (int i = pk; i < 50; i += 5) {
      expected += (expected.empty() ? "" : ";") + std::to_string(i) + "," + std::to_string(i);
    }
    EXPECT_EQ(ReadAll(*t.db, pk), expected);
  }
  // Replay flushed the data, so a second reopen reads it from SSTables.
  ASSERT_OK(t.Reopen());
  EXPECT_EQ(ReadAll(*t.db, 0).substr(0, 3), "0,0");
}

TEST(RecoveryTest, BatchModeLosesNothingAcknowledgedInACrash) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 20; ++i) {
    ASSERT_OK(t.db->Apply(Row(1, i, i)));
    if (i == 10) ASSERT_OK(t.db->Flush());
  }
  t.fs = t.fs->CrashClone(0, 7);
  t.db.reset();
  ASSERT_OK(t.Open(options));
  auto result = t.db->Read(ReadPartition(1, {"ck"}));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->rows.size(), 20u);
}

TEST(RecoveryTest, SchemaChangesAreDurableWithoutAnyWrite) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  t.fs = t.fs->CrashClone(0, 1);
  t.db.reset();
  ASSERT_OK(t.Open());
  EXPECT_TRUE(t.db->GetTable("ks", "t").ok());
}

// Periodic mode acknowledges a write before its record is fsynced. A flush
// of one table must not make that table's half of a multi-table batch
// durable while the record holding both halves can still be lost: after a
// power loss, recovery is a prefix of the writes, never half a batch.
TEST(RecoveryTest, PowerLossAfterOneTablesFlushNeverTearsABatch) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kPeriodic;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->CreateTable(SimpleTable("ks", "u")));
  Mutation to_u("ks", "u", {Value::Int(1)});
  to_u.Insert({Value::Int(1)}).Set("v", Value::Int(11));
  ASSERT_OK(t.db->ApplyBatch({Row(1, 1, 10), to_u}));
  ASSERT_OK(t.db->FlushTable("ks", "t"));
  ASSERT_OK(t.CrashAndReopen(/*keep_unsynced_pct=*/0));
  EXPECT_EQ(ReadAll(*t.db, 1), "1,10");
  ReadQuery from_u = ReadPartition(1, {"ck", "v"});
  from_u.table = "u";
  auto u = t.db->Read(from_u);
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(Render(*u), "1,11");
}

TEST(RecoveryTest, TruncatedTailRecordAtEveryOffsetStillOpens) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->Apply(Row(1, 1, 10)));
  ASSERT_OK(t.db->Apply(Row(1, 2, 20)));
  const std::string segment = OnlySegment(*t.fs);
  const uint64_t before_tail = *t.fs->GetFileSize(segment);
  ASSERT_OK(t.db->Apply(Row(1, 3, 30)));
  const uint64_t end = *t.fs->GetFileSize(segment);
  ASSERT_GT(end, before_tail);
  auto frozen = t.fs->CrashClone(0, 1);  // everything was synced (batch mode)
  t.db.reset();

  std::string contents;
  {
    auto file = frozen->NewSequentialFile(segment);
    ASSERT_TRUE(file.ok());
    std::string chunk;
    do {
      ASSERT_OK((*file)->Read(1 << 16, &chunk));
      contents += chunk;
    } while (!chunk.empty());
  }
  ASSERT_EQ(contents.size(), end);
  for (uint64_t cut = before_tail; cut <= end; ++cut) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    TestDb copy;
    copy.fs = frozen->CrashClone(0, 1);
    {
      auto file = copy.fs->NewWritableFile(segment);
      ASSERT_TRUE(file.ok());
      ASSERT_OK((*file)->Append(std::string_view(contents).substr(0, cut)));
      ASSERT_OK((*file)->Sync());
      ASSERT_OK((*file)->Close());
    }
    ASSERT_OK(copy.Open(options));
    // The third record is whole once the cut is past it, inside or after
    // the sync marker that follows it (the marker only tells a torn write
    // from corruption; an intact record is replayed either way).
    const bool third_whole = cut >= end - kCommitLogMarkerSize;
    EXPECT_EQ(ReadAll(*copy.db, 1), third_whole ? "1,10;2,20;3,30" : "1,10;2,20");
  }
}

}  // namespace
}  // namespace cassette::testing
