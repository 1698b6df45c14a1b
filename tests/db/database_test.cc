// The public Database API: schema operations, writes, reads, flush and
// reopen, and the errors bad input gets.
#include "cassette/db.h"

#include <gtest/gtest.h>

#include "tests/db/db_test_util.h"
#include "tests/support/file_contents.h"

namespace cassette::testing {
namespace {

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(t_.Open());
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(SimpleTable()));
  }
  Database& db() { return *t_.db; }
  std::string Read(int32_t pk, std::vector<std::string> columns = {"ck", "v"}) {
    auto result = db().Read(ReadPartition(pk, std::move(columns)));
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? Render(*result) : "error";
  }
  TestDb t_;
};

TEST_F(DatabaseTest, InsertThenRead) {
  Mutation m("ks", "t", {Value::Int(1)});
  m.Insert({Value::Int(2)}).Set("v", Value::Int(20));
  m.Insert({Value::Int(1)}).Set("v", Value::Int(10));
  ASSERT_OK(db().Apply(m));
  EXPECT_EQ(Read(1), "1,10;2,20");
  EXPECT_EQ(Read(2), "");
}

TEST_F(DatabaseTest, SchemaErrorsCarryCassandraMessages) {
  Status s = db().CreateKeyspace({.name = "ks"});
  EXPECT_EQ(s.code(), Status::Code::kAlreadyExists);
  EXPECT_EQ(s.message(), "Cannot add existing keyspace \"ks\"");
  s = db().CreateTable(SimpleTable());
  EXPECT_EQ(s.code(), Status::Code::kAlreadyExists);
  ASSERT_OK(db().CreateTable(SimpleTable(), /*if_not_exists=*/true));
  EXPECT_TRUE(db().CreateTable(SimpleTable("nope", "t")).IsInvalidRequest());
  EXPECT_TRUE(db().DropTable("ks", "missing").IsInvalidRequest());
  ASSERT_OK(db().DropTable("ks", "missing", /*if_exists=*/true));
}

TEST_F(DatabaseTest, NamesThatWouldEscapeTheDataDirectoryAreRefused) {
  for (const std::string& name :
       std::vector<std::string>{"../evil", "a/b", "", ".", "x y", std::string(49, 'a')}) {
    EXPECT_FALSE(db().CreateKeyspace({.name = name}).ok()) << name;
    EXPECT_FALSE(db().CreateTable(SimpleTable("ks", name)).ok()) << name;
  }
  ASSERT_OK(db().CreateKeyspace({.name = std::string(48, 'a')}));
}

TEST_F(DatabaseTest, BadWritesChangeNothing) {
  Mutation good("ks", "t", {Value::Int(1)});
  good.Insert({Value::Int(1)}).Set("v", Value::Int(1));
  Mutation bad_column("ks", "t", {Value::Int(1)});
  bad_column.Insert({Value::Int(2)}).Set("nope", Value::Int(1));
  Status s = db().ApplyBatch({good, bad_column});
  EXPECT_TRUE(s.IsInvalidRequest());
  EXPECT_EQ(s.message(), "Undefined column name nope in table ks.t");
  EXPECT_EQ(Read(1), "");  // the good half was not applied either

  Mutation wrong_type("ks", "t", {Value::Int(1)});
  wrong_type.Insert({Value::Int(1)}).Set("v", Value::Text("x"));
  EXPECT_TRUE(db().Apply(wrong_type).IsInvalidRequest());

  Mutation missing_clustering("ks", "t", {Value::Int(1)});
  missing_clustering.Update({}).Set("v", Value::Int(1));
  s = db().Apply(missing_clustering);
  EXPECT_EQ(s.message(), "Some clustering keys are missing: ck");

  Mutation missing_key("ks", "t", {});
  missing_key.Insert({Value::Int(1)});
  s = db().Apply(missing_key);
  EXPECT_EQ(s.message(), "Some partition key parts are missing: pk");

  Mutation null_key("ks", "t", {Value::Null(DataType::Int())});
  null_key.Insert({Value::Int(1)});
  EXPECT_TRUE(db().Apply(null_key).IsInvalidRequest());

  Mutation negative_ttl("ks", "t", {Value::Int(1)});
  negative_ttl.UsingTtl(-1).Insert({Value::Int(1)});
  s = db().Apply(negative_ttl);
  EXPECT_EQ(s.message(), "A TTL must be greater or equal to 0, but was -1");
  Mutation huge_ttl("ks", "t", {Value::Int(1)});
  huge_ttl.UsingTtl(630720001).Insert({Value::Int(1)});
  s = db().Apply(huge_ttl);
  EXPECT_EQ(s.message(), "ttl is too large. requested (630720001) maximum (630720000)");

  Mutation unknown_table("ks", "nope", {Value::Int(1)});
  EXPECT_TRUE(db().Apply(unknown_table).IsInvalidRequest());
  EXPECT_EQ(Read(1), "");
}

TEST_F(DatabaseTest, OversizedMutationIsRefused) {
  Options options = t_.MakeOptions();
  options.commitlog_segment_size = 1 << 20;
  options.max_mutation_size = 1 << 16;
  ASSERT_OK(t_.db->Close());
  ASSERT_OK(t_.Open(options));
  TableSchema blobs("ks", "blobs");
  blobs.AddPartitionKey("pk", DataType::Int()).AddRegular("b", DataType::Blob());
  ASSERT_OK(db().CreateTable(blobs));
  Mutation m("ks", "blobs", {Value::Int(1)});
  m.Insert({}).Set("b", Value::Blob(std::string(100000, 'x')));
  Status s = db().Apply(m);
  EXPECT_TRUE(s.IsInvalidRequest()) << s.ToString();
  EXPECT_NE(s.message().find("too large"), std::string::npos);
}

TEST_F(DatabaseTest, SchemaAndDataSurviveReopen) {
  Mutation m("ks", "t", {Value::Int(7)});
  m.Insert({Value::Int(1)}).Set("v", Value::Int(70));
  ASSERT_OK(db().Apply(m));
  ASSERT_OK(db().FlushTable("ks", "t"));
  Mutation later("ks", "t", {Value::Int(7)});
  later.Insert({Value::Int(2)}).Set("v", Value::Int(71));
  ASSERT_OK(db().Apply(later));
  ASSERT_OK(t_.Reopen());
  auto schema = db().GetTable("ks", "t");
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->columns().size(), 5u);
  EXPECT_EQ(Read(7), "1,70;2,71");
}

TEST_F(DatabaseTest, SecondOpenOfTheSameDirectoryIsBusy) {
  auto second = Database::Open(t_.MakeOptions(), t_.path);
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(second.status().IsBusy()) << second.status().ToString();
}

// A failed open must leave the directory as it found it: the losing
// opener's Close() writes no manifest over the holder's.
TEST_F(DatabaseTest, AFailedOpenLeavesTheManifestUntouched) {
  ASSERT_OK(db().Flush());
  auto before = ReadFileToString(*t_.fs, t_.path + "/MANIFEST");
  ASSERT_TRUE(before.ok());
  {
    auto second = Database::Open(t_.MakeOptions(), t_.path);
    ASSERT_FALSE(second.ok());
  }
  auto after = ReadFileToString(*t_.fs, t_.path + "/MANIFEST");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(*after, *before);
}

TEST_F(DatabaseTest, DropTableRemovesItsData) {
  Mutation m("ks", "t", {Value::Int(1)});
  m.Insert({Value::Int(1)}).Set("v", Value::Int(1));
  ASSERT_OK(db().Apply(m));
  ASSERT_OK(db().Flush());
  ASSERT_OK(db().DropTable("ks", "t"));
  ASSERT_OK(db().CreateTable(SimpleTable()));
  EXPECT_EQ(Read(1), "");
  ASSERT_OK(t_.Reopen());
  EXPECT_EQ(Read(1), "");
}

TEST_F(DatabaseTest, TtlExpiresOnTheManualClock) {
  Mutation m("ks", "t", {Value::Int(1)});
  m.UsingTtl(10).Insert({Value::Int(1)}).Set("v", Value::Int(1));
  ASSERT_OK(db().Apply(m));
  t_.Advance(9);
  EXPECT_EQ(Read(1), "1,1");
  ASSERT_OK(db().Flush());
  t_.Advance(1);
  EXPECT_EQ(Read(1), "");
}

TEST_F(DatabaseTest, StrictlyIncreasingTimestampsUnderAStoppedClock) {
  // The clock does not move: the second write must still win.
  for (int i = 0; i < 3; ++i) {
    Mutation m("ks", "t", {Value::Int(1)});
    m.Update({Value::Int(1)}).Set("v", Value::Int(i));
    ASSERT_OK(db().Apply(m));
  }
  EXPECT_EQ(Read(1), "1,2");
}

TEST_F(DatabaseTest, ReadQueryErrors) {
  ReadQuery q = ReadPartition(1, {"nope"});
  auto r = db().Read(q);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "Undefined column name nope in table ks.t");
  q = ReadPartition(1);
  q.limit = -1;
  EXPECT_EQ(db().Read(q).status().message(), "LIMIT must be strictly positive");
}

}  // namespace
}  // namespace cassette::testing
