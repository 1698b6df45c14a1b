// Database::SchemaVersion(): a new, greater value after every schema
// change that succeeded, the same value after data changes and failed
// schema changes, and never the same value in two databases.
#include <gtest/gtest.h>

#include <functional>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

class SchemaVersionTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(t_.Open()); }
  Database& db() { return *t_.db; }

  // Runs `change` and expects the version to move forward (or not).
  void ExpectBump(const char* what, const std::function<Status()>& change, bool bumps = true) {
    const uint64_t before = db().SchemaVersion();
    Status s = change();
    const uint64_t after = db().SchemaVersion();
    if (bumps) {
      EXPECT_TRUE(s.ok()) << what << ": " << s.ToString();
      EXPECT_GT(after, before) << what;
    } else {
      EXPECT_EQ(after, before) << what << ": " << s.ToString();
    }
  }
  TestDb t_;
};

TEST_F(SchemaVersionTest, EverySchemaChangeBumpsIt) {
  ExpectBump("CREATE KEYSPACE", [&] { return db().CreateKeyspace({.name = "ks"}); });
  ExpectBump("ALTER KEYSPACE",
             [&] { return db().AlterKeyspace({.name = "ks", .durable_writes = false}); });
  ExpectBump("CREATE TABLE", [&] { return db().CreateTable(SimpleTable()); });
  TableOptions options;
  options.default_time_to_live = 60;
  ExpectBump("ALTER TABLE WITH", [&] { return db().AlterTableOptions("ks", "t", options); });
  ColumnDefinition added;
  added.name = "w";
  added.type = DataType::Text();
  ExpectBump("ALTER TABLE ADD", [&] { return db().AddColumns("ks", "t", {added}); });
  ExpectBump("ALTER TABLE DROP",
             [&] { return db().DropColumns("ks", "t", {"w"}, t_.clock->WallMicros()); });
  ExpectBump("ALTER TABLE RENAME", [&] { return db().RenameColumns("ks", "t", {{"ck", "ck2"}}); });
  ExpectBump("DROP TABLE", [&] { return db().DropTable("ks", "t"); });
  ExpectBump("CREATE TABLE again", [&] { return db().CreateTable(SimpleTable()); });
  ExpectBump("DROP KEYSPACE", [&] { return db().DropKeyspace("ks"); });
}

TEST_F(SchemaVersionTest, DataChangesAndFailedSchemaChangesLeaveItAlone) {
  ASSERT_OK(db().CreateKeyspace({.name = "ks"}));
  ASSERT_OK(db().CreateTable(SimpleTable()));
  ExpectBump(
      "write",
      [&] {
        Mutation m("ks", "t", {Value::Int(1)});
        m.Insert({Value::Int(1)}).Set("v", Value::Int(1));
        return db().Apply(m);
      },
      /*bumps=*/false);
  ExpectBump(
      "flush", [&] { return db().Flush(); }, false);
  ExpectBump(
      "compact", [&] { return db().CompactMajor("ks", "t"); }, false);
  ExpectBump(
      "TRUNCATE", [&] { return db().Truncate("ks", "t"); }, false);
  ExpectBump(
      "existing keyspace", [&] { return db().CreateKeyspace({.name = "ks"}); }, false);
  ExpectBump(
      "IF NOT EXISTS", [&] { return db().CreateKeyspace({.name = "ks"}, true); }, false);
  ExpectBump(
      "existing table", [&] { return db().CreateTable(SimpleTable()); }, false);
  ExpectBump(
      "missing table", [&] { return db().DropTable("ks", "nope"); }, false);
  ExpectBump(
      "IF EXISTS", [&] { return db().DropTable("ks", "nope", true); }, false);
  ExpectBump(
      "bad column", [&] { return db().DropColumns("ks", "t", {"nope"}, 1); }, false);
  ExpectBump(
      "bad rename",
      [&] {
        return db().RenameColumns("ks", "t", {{"v", "x"}});
      },
      false);
  ExpectBump(
      "missing keyspace", [&] { return db().DropKeyspace("nope"); }, false);
}

TEST_F(SchemaVersionTest, NoTwoDatabasesShareAValue) {
  ASSERT_OK(db().CreateKeyspace({.name = "ks"}));
  TestDb other;
  ASSERT_OK(other.Open());
  EXPECT_NE(other.db->SchemaVersion(), db().SchemaVersion());
  const uint64_t mine = db().SchemaVersion();
  ASSERT_OK(other.db->CreateKeyspace({.name = "ks"}));
  EXPECT_NE(other.db->SchemaVersion(), mine);
  EXPECT_EQ(db().SchemaVersion(), mine);
  // A database opened again (the same schema) shows a new value too.
  ASSERT_OK(t_.Reopen());
  EXPECT_NE(db().SchemaVersion(), mine);
  EXPECT_NE(db().SchemaVersion(), other.db->SchemaVersion());
}

}  // namespace
}  // namespace cassette::testing
