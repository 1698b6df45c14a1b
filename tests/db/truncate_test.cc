// TRUNCATE: every row of the table goes (memtable and SSTables), durably:
// neither a reopen nor a crash with commit-log replay brings it back, while
// writes made after the truncation survive both.
#include <gtest/gtest.h>

#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

Mutation Row(const std::string& table, int32_t pk, int32_t ck, int32_t v) {
  Mutation m("ks", table, {Value::Int(pk)});
  m.Insert({Value::Int(ck)}).Set("v", Value::Int(v));
  return m;
}

std::string ReadAll(Database& db, int32_t pk, const std::string& table = "t") {
  ReadQuery query = ReadPartition(pk, {"ck", "v"});
  query.table = table;
  auto result = db.Read(query);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? Render(*result) : "error";
}

Status CreateSchema(Database& db) {
  CASSETTE_RETURN_IF_ERROR(db.CreateKeyspace({.name = "ks"}));
  CASSETTE_RETURN_IF_ERROR(db.CreateTable(SimpleTable("ks", "t")));
  return db.CreateTable(SimpleTable("ks", "other"));
}

// The .sst files under the table's directory (ks/t-<id>).
std::vector<std::string> SSTableFiles(FileSystem& fs, const std::string& table) {
  std::vector<std::string> files;
  auto dirs = fs.GetChildren("/db/ks");
  if (!dirs.ok()) return files;
  for (const std::string& dir : *dirs) {
    if (dir.rfind(table + "-", 0) != 0) continue;
    auto children = fs.GetChildren("/db/ks/" + dir);
    if (!children.ok()) continue;
    for (const std::string& name : *children) {
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0) files.push_back(name);
    }
  }
  return files;
}

TEST(TruncateTest, RemovesMemtableAndSSTableRows) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  auto empty = t.db->GetTableStats("ks", "t");
  ASSERT_TRUE(empty.ok());
  ASSERT_OK(t.db->Apply(Row("t", 1, 1, 10)));
  ASSERT_OK(t.db->Flush());
  ASSERT_OK(t.db->Apply(Row("t", 1, 2, 20)));
  ASSERT_OK(t.db->Apply(Row("other", 1, 1, 99)));
  ASSERT_EQ(ReadAll(*t.db, 1), "1,10;2,20");

  ASSERT_OK(t.db->Truncate("ks", "t"));
  EXPECT_EQ(ReadAll(*t.db, 1), "");
  EXPECT_TRUE(SSTableFiles(*t.fs, "t").empty());
  auto stats = t.db->GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->sstable_count, 0);
  EXPECT_EQ(stats->memtable_bytes, empty->memtable_bytes);  // a fresh, empty memtable
  // Other tables keep their rows.
  EXPECT_EQ(ReadAll(*t.db, 1, "other"), "1,99");

  // The table stays usable.
  ASSERT_OK(t.db->Apply(Row("t", 1, 3, 30)));
  EXPECT_EQ(ReadAll(*t.db, 1), "3,30");
  ASSERT_OK(t.db->Flush());
  EXPECT_EQ(ReadAll(*t.db, 1), "3,30");
}

TEST(TruncateTest, ReplayAfterCloseDoesNotResurrectTruncatedRows) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int i = 0; i < 10; ++i) ASSERT_OK(t.db->Apply(Row("t", 1, i, i)));
  ASSERT_OK(t.db->Apply(Row("other", 1, 1, 99)));
  ASSERT_OK(t.db->Truncate("ks", "t"));
  ASSERT_OK(t.db->Apply(Row("t", 1, 100, 100)));
  // Closed without a flush: every record above is replayed or skipped.
  ASSERT_OK(t.Reopen());
  EXPECT_EQ(ReadAll(*t.db, 1), "100,100");
  EXPECT_EQ(ReadAll(*t.db, 1, "other"), "1,99");
  ASSERT_OK(t.Reopen());
  EXPECT_EQ(ReadAll(*t.db, 1), "100,100");
}

TEST(TruncateTest, CrashAfterTruncateKeepsItAndLaterSyncedWrites) {
  for (int keep_unsynced_pct : {0, 100}) {
    SCOPED_TRACE(keep_unsynced_pct);
    TestDb t;
    Options options = t.MakeOptions();
    options.commitlog_sync = CommitLogSync::kBatch;
    ASSERT_OK(t.Open(options));
    ASSERT_OK(CreateSchema(*t.db));
    ASSERT_OK(t.db->Apply(Row("t", 1, 1, 10)));
    ASSERT_OK(t.db->Flush());
    ASSERT_OK(t.db->Apply(Row("t", 1, 2, 20)));
    ASSERT_OK(t.db->Truncate("ks", "t"));
    ASSERT_OK(t.db->Apply(Row("t", 1, 3, 30)));
    ASSERT_OK(t.CrashAndReopen(keep_unsynced_pct));
    EXPECT_EQ(ReadAll(*t.db, 1), "3,30");
    EXPECT_EQ(SSTableFiles(*t.fs, "t").size(), 1u);  // the replayed write, flushed
  }
}

TEST(TruncateTest, CrashBeforeTruncateKeepsEveryRow) {
  TestDb t;
  Options options = t.MakeOptions();
  options.commitlog_sync = CommitLogSync::kBatch;
  ASSERT_OK(t.Open(options));
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->Apply(Row("t", 1, 1, 10)));
  ASSERT_OK(t.db->Flush());
  ASSERT_OK(t.db->Apply(Row("t", 1, 2, 20)));
  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(ReadAll(*t.db, 1), "1,10;2,20");
  ASSERT_OK(t.db->Truncate("ks", "t"));
  ASSERT_OK(t.CrashAndReopen());
  EXPECT_EQ(ReadAll(*t.db, 1), "");
}

TEST(TruncateTest, TruncatingTwiceAndAnEmptyTableIsFine) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->Truncate("ks", "t"));
  ASSERT_OK(t.db->Truncate("ks", "t"));
  ASSERT_OK(t.db->Apply(Row("t", 2, 1, 1)));
  ASSERT_OK(t.Reopen());
  EXPECT_EQ(ReadAll(*t.db, 2), "1,1");
}

TEST(TruncateTest, CompactionAfterTruncateSeesOnlyNewFiles) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  for (int round = 0; round < 4; ++round) {
    ASSERT_OK(t.db->Apply(Row("t", 1, round, round)));
    ASSERT_OK(t.db->Flush());
  }
  ASSERT_OK(t.db->Truncate("ks", "t"));
  for (int round = 0; round < 2; ++round) {
    ASSERT_OK(t.db->Apply(Row("t", 1, 10 + round, round)));
    ASSERT_OK(t.db->Flush());
  }
  ASSERT_OK(t.db->CompactMajor("ks", "t"));
  EXPECT_EQ(ReadAll(*t.db, 1), "10,0;11,1");
  ASSERT_OK(t.Reopen());
  EXPECT_EQ(ReadAll(*t.db, 1), "10,0;11,1");
}

TEST(TruncateTest, UnknownTableOrKeyspace) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  Status s = t.db->Truncate("ks", "missing");
  EXPECT_TRUE(s.IsInvalidRequest()) << s.ToString();
  EXPECT_EQ(s.message(), "table missing does not exist");
  s = t.db->Truncate("nope", "t");
  EXPECT_TRUE(s.IsInvalidRequest()) << s.ToString();
  EXPECT_EQ(s.message(), "keyspace nope does not exist");
}

TEST(TruncateTest, ReadOnlyDatabaseRefuses) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->Close());
  Options options = t.MakeOptions();
  options.read_only = true;
  ASSERT_OK(t.Open(options));
  EXPECT_EQ(t.db->Truncate("ks", "t").code(), Status::Code::kNotSupported);
}

// ALTER TABLE ADD / DROP and ALTER KEYSPACE (the schema calls the CQL
// layer needs beside TRUNCATE).
TEST(AlterSchemaTest, AddAndDropColumnsAreDurable) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  ASSERT_OK(t.db->Apply(Row("t", 1, 1, 10)));
  ColumnDefinition extra{.name = "extra", .type = DataType::Text()};
  ASSERT_OK(t.db->AddColumns("ks", "t", {extra}));
  Status s = t.db->AddColumns("ks", "t", {extra});
  EXPECT_EQ(s.message(), "Column with name 'extra' already exists");
  ASSERT_OK(t.db->DropColumns("ks", "t", {"v"}, t.db->NowMicros()));
  s = t.db->DropColumns("ks", "t", {"v"}, t.db->NowMicros());
  EXPECT_EQ(s.message(), "Column v was not found in table ks.t");
  s = t.db->DropColumns("ks", "t", {"ck"}, t.db->NowMicros());
  EXPECT_EQ(s.message(), "Cannot drop PRIMARY KEY column ck");
  ASSERT_OK(t.Reopen());
  auto schema = t.db->GetTable("ks", "t");
  ASSERT_TRUE(schema.ok());
  EXPECT_NE(schema->Find("extra"), nullptr);
  EXPECT_EQ(schema->Find("v"), nullptr);
}

TEST(AlterSchemaTest, FailedAddChangesNothing) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  ColumnDefinition a{.name = "a", .type = DataType::Text()};
  ColumnDefinition dup{.name = "v", .type = DataType::Text()};
  EXPECT_FALSE(t.db->AddColumns("ks", "t", {a, dup}).ok());
  auto schema = t.db->GetTable("ks", "t");
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->Find("a"), nullptr);
}

TEST(AlterSchemaTest, AlterKeyspaceReplacesReplication) {
  TestDb t;
  ASSERT_OK(t.Open());
  ASSERT_OK(CreateSchema(*t.db));
  KeyspaceSchema altered{.name = "ks",
                         .replication = {{"class", "NetworkTopologyStrategy"}, {"dc1", "3"}},
                         .durable_writes = false};
  ASSERT_OK(t.db->AlterKeyspace(altered));
  ASSERT_OK(t.Reopen());
  auto keyspace = t.db->GetKeyspace("ks");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(keyspace->replication.at("dc1"), "3");
  EXPECT_FALSE(keyspace->durable_writes);
  Status s = t.db->AlterKeyspace({.name = "missing"});
  EXPECT_EQ(s.message(), "Keyspace 'missing' doesn't exist");
}

}  // namespace
}  // namespace cassette::testing
