// Database::ApplyInserts writes an InsertBatch exactly as ApplyBatch writes
// the Mutations it stands for (include/cassette/insert_batch.h). Checked
// the strongest way there is: the same batches through both, into two
// databases on the same manual clock, leave byte-identical files (commit
// log, then SSTables), and the same rows, write times and TTLs; a batch
// the shortcut does not cover, or gets wrong, goes the Mutations' way and
// fails with their message, writing nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cassette/insert_batch.h"
#include "tests/db/db_test_util.h"
#include "tests/support/file_contents.h"

namespace cassette::testing {
namespace {

const std::vector<std::string> kColumns = {"site", "day", "at", "reading", "note", "level"};

Status CreateSchema(Database& db) {
  CASSETTE_RETURN_IF_ERROR(db.CreateKeyspace({.name = "ks"}));
  TableSchema schema("ks", "t");
  schema.AddPartitionKey("site", DataType::Text())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("at", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddRegular("reading", DataType::Double())
      .AddRegular("level", DataType::Int())
      .AddRegular("note", DataType::Text())
      .AddStatic("owner", DataType::Text());
  return db.CreateTable(schema);
}

// Every file under `dir` by path, with its bytes.
void Snapshot(FileSystem& fs, const std::string& dir, std::map<std::string, std::string>* files) {
  auto children = fs.GetChildren(dir);
  ASSERT_TRUE(children.ok()) << dir << ": " << children.status().ToString();
  for (const std::string& child : *children) {
    const std::string path = dir + "/" + child;
    auto contents = ReadFileToString(fs, path);
    if (contents.ok()) {
      (*files)[path] = std::move(contents).value();
    } else {
      Snapshot(fs, path, files);
    }
  }
}

std::map<std::string, std::string> Snapshot(TestDb& t) {
  std::map<std::string, std::string> files;
  Snapshot(*t.fs, t.path, &files);
  return files;
}

// The same rows as Mutations, built by hand as a user of ApplyBatch would.
std::vector<Mutation> AsMutations(const InsertBatch& batch) {
  std::vector<Mutation> mutations;
  for (size_t r = 0; r < batch.rows(); ++r) {
    const std::span<const Value> row = batch.row(r);
    Mutation& m = mutations.emplace_back("ks", "t", std::vector<Value>{row[0], row[1]});
    if (batch.timestamp()) m.UsingTimestamp(*batch.timestamp());
    if (batch.ttl()) m.UsingTtl(*batch.ttl());
    RowBuilder b = m.Insert({row[2]});
    for (size_t c = 3; c < kColumns.size(); ++c) b.Set(kColumns[c], row[c]);
  }
  return mutations;
}

class InsertBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (TestDb* t : {&inserts_, &mutations_}) {
      ASSERT_TRUE(t->Open().ok());
      ASSERT_TRUE(CreateSchema(*t->db).ok());
    }
  }

  // Applies `batch` to one database and its Mutations to the other; both
  // answer the same.
  Status ApplyBoth(const InsertBatch& batch) {
    const Status via_inserts = inserts_.db->ApplyInserts(batch);
    const Status via_mutations = mutations_.db->ApplyBatch(AsMutations(batch));
    EXPECT_EQ(via_inserts.ToString(), via_mutations.ToString());
    return via_inserts;
  }

  void AdvanceBoth(int64_t seconds) {
    inserts_.Advance(seconds);
    mutations_.Advance(seconds);
  }

  void ExpectSameState() {
    EXPECT_EQ(Snapshot(inserts_), Snapshot(mutations_));
    for (const char* site : {"north", "south", "east"}) {
      for (int32_t day : {19723, 19724}) {
        ReadQuery query;
        query.keyspace = "ks";
        query.table = "t";
        query.partition_keys = {{Value::Text(site), Value::Date(day)}};
        query.with_cell_metadata = true;
        auto a = ReadEachCollected(*inserts_.db, query);
        auto b = ReadEachCollected(*mutations_.db, query);
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_EQ(Render(*a), Render(*b));
        ASSERT_EQ(a->rows.size(), b->rows.size());
        for (size_t i = 0; i < a->rows.size(); ++i) {
          EXPECT_EQ(a->rows[i].writetimes, b->rows[i].writetimes);
          EXPECT_EQ(a->rows[i].ttls, b->rows[i].ttls);
        }
      }
    }
  }

  TestDb inserts_;
  TestDb mutations_;
};

void FillRow(std::span<Value> row, std::mt19937_64& rng, int64_t at_millis) {
  static const char* kSites[] = {"north", "south", "east"};
  row[0] = Value::Text(kSites[rng() % 3]);
  row[1] = Value::Date(19723 + static_cast<int32_t>(rng() % 2));
  row[2] = Value::Timestamp(at_millis);
  row[3] = Value::Double(std::sin(static_cast<double>(at_millis)) * 100);
  // Values of changing sizes, so a reused row's storage grows and shrinks.
  row[4] = Value::Text(std::string(rng() % 40, static_cast<char>('a' + rng() % 26)));
  row[5] = Value::Int(static_cast<int32_t>(rng() % 1000) - 500);
}

TEST_F(InsertBatchTest, WritesWhatTheMutationsWrite) {
  std::mt19937_64 rng(7);
  InsertBatch batch("ks", "t", kColumns);
  int64_t at = 1'704'067'200'000;
  for (int round = 0; round < 40; ++round) {
    batch.Clear();
    const int rows = 1 + static_cast<int>(rng() % 60);
    for (int r = 0; r < rows; ++r) FillRow(batch.AddRow(), rng, at += 250);
    ASSERT_TRUE(ApplyBoth(batch).ok());
    AdvanceBoth(1);
  }
  // The commit log first: every record the same bytes.
  ExpectSameState();
  ASSERT_TRUE(inserts_.db->Flush().ok());
  ASSERT_TRUE(mutations_.db->Flush().ok());
  ExpectSameState();
}

TEST_F(InsertBatchTest, TimestampTtlAndTheTablesDefaultTtl) {
  std::mt19937_64 rng(11);
  InsertBatch batch("ks", "t", kColumns);
  batch.UsingTimestamp(1'704'067'200'123'456).UsingTtl(3600);
  for (int r = 0; r < 5; ++r) FillRow(batch.AddRow(), rng, 1'704'067'200'000 + r);
  ASSERT_TRUE(ApplyBoth(batch).ok());

  InsertBatch defaults("ks", "t", kColumns);
  for (TestDb* t : {&inserts_, &mutations_}) {
    TableOptions options = t->db->GetTable("ks", "t")->options();
    options.default_time_to_live = 600;
    ASSERT_TRUE(t->db->AlterTableOptions("ks", "t", options).ok());
  }
  for (int r = 0; r < 5; ++r) FillRow(defaults.AddRow(), rng, 1'704'067'300'000 + r);
  ASSERT_TRUE(ApplyBoth(defaults).ok());
  ExpectSameState();

  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.partition_keys = {{batch.row(0)[0], batch.row(0)[1]}};
  query.columns = {"at", "reading"};
  query.with_cell_metadata = true;
  auto result = ReadEachCollected(*inserts_.db, query);
  ASSERT_TRUE(result.ok());
  bool saw_using = false;
  ASSERT_FALSE(result->rows.empty());
  for (const ResultRow& row : result->rows) {
    if (row.writetimes[1] == 1'704'067'200'123'456) {
      saw_using = true;
      EXPECT_EQ(row.ttls[1], 3600);
    } else {
      EXPECT_EQ(row.ttls[1], 600);  // the table's default
    }
  }
  EXPECT_TRUE(saw_using);
}

TEST_F(InsertBatchTest, NullsAndReusedRowsWriteTombstonesNotOldValues) {
  std::mt19937_64 rng(3);
  InsertBatch batch("ks", "t", kColumns);
  FillRow(batch.AddRow(), rng, 1'704'067'200'000);
  ASSERT_TRUE(ApplyBoth(batch).ok());
  // The same row again with only its key assigned: the cleared row's
  // values do not come back; the INSERT of nulls deletes the cells.
  const std::vector<Value> key(batch.row(0).begin(), batch.row(0).begin() + 3);
  batch.Clear();
  std::span<Value> row = batch.AddRow();
  for (size_t i = 0; i < key.size(); ++i) {
    EXPECT_TRUE(row[i].is_null());
    row[i] = key[i];
  }
  for (size_t i = key.size(); i < row.size(); ++i) EXPECT_TRUE(row[i].is_null());
  AdvanceBoth(1);
  ASSERT_TRUE(ApplyBoth(batch).ok());
  ExpectSameState();

  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.partition_keys = {{key[0], key[1]}};
  query.columns = {"at", "reading", "note", "level"};
  auto result = inserts_.db->Read(query);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->rows.size(), 1u);  // the row marker keeps it
  EXPECT_TRUE(result->rows[0].values[1].is_null());
  EXPECT_TRUE(result->rows[0].values[2].is_null());
  EXPECT_TRUE(result->rows[0].values[3].is_null());
}

TEST_F(InsertBatchTest, StaticAndKeyOnlyBatchesTakeTheGeneralPath) {
  InsertBatch with_static("ks", "t", {"site", "day", "at", "owner"});
  std::span<Value> row = with_static.AddRow();
  row[0] = Value::Text("north");
  row[1] = Value::Date(19723);
  row[2] = Value::Timestamp(1'704'067'200'000);
  row[3] = Value::Text("ops");
  ASSERT_TRUE(inserts_.db->ApplyInserts(with_static).ok());

  InsertBatch key_only("ks", "t", {"at", "day", "site"});  // any order
  row = key_only.AddRow();
  row[0] = Value::Timestamp(1'704'067'201'000);
  row[1] = Value::Date(19723);
  row[2] = Value::Text("north");
  ASSERT_TRUE(inserts_.db->ApplyInserts(key_only).ok());

  ReadQuery query;
  query.keyspace = "ks";
  query.table = "t";
  query.partition_keys = {{Value::Text("north"), Value::Date(19723)}};
  query.columns = {"at", "owner"};
  auto result = inserts_.db->Read(query);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Render(*result),
            "2024-01-01 00:00:01.000000+0000,ops;2024-01-01 00:00:00.000000+0000,ops");
}

// Each bad batch fails as ApplyBatch of its Mutations fails, with the same
// message, and writes nothing: its good rows neither.
TEST_F(InsertBatchTest, BadBatchesFailWholeWithTheMutationsMessage) {
  struct Case {
    std::vector<std::string> columns;
    std::vector<Value> values;  // one row after a good one
    std::string message;
  };
  const Value site = Value::Text("north");
  const Value day = Value::Date(19723);
  const Value at = Value::Timestamp(1'704'067'200'000);
  const std::vector<Case> cases = {
      {{"site", "day", "at", "nope"},
       {site, day, at, Value::Int(1)},
       "Undefined column name nope in table ks.t"},
      {{"site", "at", "reading"},
       {site, at, Value::Double(1)},
       "Some partition key parts are missing: day"},
      {{"site", "day", "reading"},
       {site, day, Value::Double(1)},
       "Some clustering keys are missing: at"},
      {{"site", "day", "at", "reading"},
       {site, day, at, Value::Text("warm")},
       "Invalid value for column reading: expected double, got text"},
      {{"site", "day", "at"}, {Value(), day, at}, "Invalid null value for partition key part site"},
      {{"site", "day", "at"},
       {site, day, Value::Int(5)},
       "Invalid value for clustering key part at: expected timestamp, got int"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    InsertBatch batch("ks", "t", c.columns);
    std::span<Value> good = batch.AddRow();
    for (size_t i = 0; i < c.columns.size(); ++i) {
      good[i] = c.columns[i] == "site"  ? site
                : c.columns[i] == "day" ? day
                : c.columns[i] == "at"  ? Value::Timestamp(1'704'067'100'000)
                                        : Value();
    }
    std::span<Value> bad = batch.AddRow();
    std::copy(c.values.begin(), c.values.end(), bad.begin());
    const Status s = inserts_.db->ApplyInserts(batch);
    EXPECT_EQ(s.code(), Status::Code::kInvalidRequest);
    EXPECT_EQ(s.message(), c.message);
  }
  InsertBatch too_long("ks", "t", kColumns);
  too_long.UsingTtl(630720001);
  std::mt19937_64 rng(1);
  FillRow(too_long.AddRow(), rng, 1'704'067'200'000);
  EXPECT_EQ(inserts_.db->ApplyInserts(too_long).message(),
            "ttl is too large. requested (630720001) maximum (630720000)");
  EXPECT_EQ(inserts_.db->ApplyInserts(InsertBatch("ks", "missing", kColumns)).code(),
            Status::Code::kOk);  // nothing to write: nothing looked up
  InsertBatch unknown_table("ks", "missing", kColumns);
  FillRow(unknown_table.AddRow(), rng, 1'704'067'200'000);
  EXPECT_EQ(inserts_.db->ApplyInserts(unknown_table).message(), "table missing does not exist");

  // Nothing of any of them was written.
  ASSERT_TRUE(inserts_.db->Flush().ok());
  auto stats = inserts_.db->GetTableStats("ks", "t");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->sstable_count, 0);
}

}  // namespace
}  // namespace cassette::testing
