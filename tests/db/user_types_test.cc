// User types at the Database level: CREATE / ALTER / DROP TYPE through the
// API, non-frozen user type columns stored one cell per field, and both
// surviving a reopen (the keyspace record carries the types; the table
// record each column's copy of its type).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cassette/db.h"

namespace cassette {
namespace {

class UserTypesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = NewMemFileSystem();
    Open();
    ASSERT_TRUE(db_->CreateKeyspace({.name = "ks"}).ok());
  }

  void Open() {
    db_.reset();
    Options options;
    options.file_system = fs_;
    options.clock = std::make_shared<ManualClock>(1'704'067'200'000'000);
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }

  static DataType Address() {
    return DataType::UserType("ks", "address", {"street", "zip"},
                              {DataType::Text(), DataType::Int()});
  }

  std::string ReadColumn(const std::string& column, int32_t k) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "t";
    query.partition_keys = {{Value::Int(k)}};
    query.columns = {column};
    auto result = db_->Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok() || result->rows.empty()) return "<none>";
    return result->rows[0].values[0].ToString();
  }

  std::shared_ptr<MemFileSystem> fs_;
  std::unique_ptr<Database> db_;
};

TEST_F(UserTypesTest, TypesAndFieldCellsSurviveReopen) {
  ASSERT_TRUE(db_->CreateUserType(Address()).ok());
  TableSchema table("ks", "t");
  table.AddPartitionKey("k", DataType::Int()).AddRegular("home", Address());
  ASSERT_TRUE(db_->CreateTable(table).ok());

  // Explicit timestamps: the manual clock stands still across the reopen.
  Mutation m("ks", "t", {Value::Int(1)});
  m.UsingTimestamp(10).Update({}).MapPut("home", Value::Smallint(1), Value::Int(75001));
  ASSERT_TRUE(db_->Apply(m).ok());
  EXPECT_EQ(ReadColumn("home", 1), "{street: null, zip: 75001}");
  ASSERT_TRUE(db_->Flush().ok());
  Mutation street("ks", "t", {Value::Int(1)});
  street.UsingTimestamp(20).Update({}).MapPut("home", Value::Smallint(0), Value::Text("Main"));
  ASSERT_TRUE(db_->Apply(street).ok());

  Open();
  Result<KeyspaceSchema> keyspace = db_->GetKeyspace("ks");
  ASSERT_TRUE(keyspace.ok());
  ASSERT_EQ(keyspace->user_types.size(), 1u);
  EXPECT_EQ(keyspace->user_types[0], Address());
  Result<TableSchema> schema = db_->GetTable("ks", "t");
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->Find("home")->type, Address());
  // One field from the SSTable, the other from the replayed commit log.
  EXPECT_EQ(ReadColumn("home", 1), "{street: 'Main', zip: 75001}");

  // A field deleted alone leaves the other.
  Mutation del("ks", "t", {Value::Int(1)});
  del.UsingTimestamp(30).Update({}).MapPut("home", Value::Smallint(0),
                                           Value::Null(DataType::Text()));
  ASSERT_TRUE(db_->Apply(del).ok());
  EXPECT_EQ(ReadColumn("home", 1), "{street: null, zip: 75001}");
}

TEST_F(UserTypesTest, AlterRewritesEveryUseAndSurvivesReopen) {
  ASSERT_TRUE(db_->CreateUserType(Address()).ok());
  DataType person =
      DataType::UserType("ks", "person", {"name", "home"}, {DataType::Text(), Address().Frozen()});
  ASSERT_TRUE(db_->CreateUserType(person).ok());
  TableSchema table("ks", "t");
  table.AddPartitionKey("k", DataType::Int()).AddRegular("who", person.Frozen());
  ASSERT_TRUE(db_->CreateTable(table).ok());

  DataType renamed = DataType::UserType("ks", "address", {"road", "zip", "city"},
                                        {DataType::Text(), DataType::Int(), DataType::Text()});
  ASSERT_TRUE(db_->AlterUserType(renamed).ok());
  Open();
  Result<TableSchema> schema = db_->GetTable("ks", "t");
  ASSERT_TRUE(schema.ok());
  const DataType& who = schema->Find("who")->type;
  ASSERT_TRUE(who.IsUserType());
  EXPECT_TRUE(who.frozen());
  EXPECT_EQ(who.params()[1].field_names(), (std::vector<std::string>{"road", "zip", "city"}));
  Result<KeyspaceSchema> keyspace = db_->GetKeyspace("ks");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(keyspace->FindUserType("person")->params()[1].field_names().size(), 3u);

  // A field's type cannot change (stored values would change meaning).
  DataType retyped = DataType::UserType("ks", "address", {"road", "zip", "city"},
                                        {DataType::Text(), DataType::Text(), DataType::Text()});
  EXPECT_EQ(db_->AlterUserType(retyped).message(), "Altering field types is no longer supported");

  // In use: refused with Cassandra 5.0's messages (DropTypeStatement).
  EXPECT_EQ(db_->DropUserType("ks", "address").message(),
            "Cannot drop user type 'ks.address' as it is still used by user types person");
  EXPECT_EQ(db_->DropUserType("ks", "person").message(),
            "Cannot drop user type 'ks.person' as it is still used by tables t");
  ASSERT_TRUE(db_->DropTable("ks", "t").ok());
  ASSERT_TRUE(db_->DropUserType("ks", "person").ok());
  ASSERT_TRUE(db_->DropUserType("ks", "address").ok());
  EXPECT_EQ(db_->DropUserType("ks", "address").message(), "Type 'ks.address' doesn't exist");
  EXPECT_TRUE(db_->DropUserType("ks", "address", /*if_exists=*/true).ok());
  Open();
  EXPECT_TRUE(db_->GetKeyspace("ks")->user_types.empty());
}

TEST_F(UserTypesTest, AlterKeyspaceKeepsTheTypes) {
  ASSERT_TRUE(db_->CreateUserType(Address()).ok());
  ASSERT_TRUE(db_->AlterKeyspace({.name = "ks", .durable_writes = false}).ok());
  EXPECT_EQ(db_->GetKeyspace("ks")->user_types.size(), 1u);
  EXPECT_EQ(db_->CreateUserType(Address()).message(),
            "A user type with name 'address' already exists");
  EXPECT_TRUE(db_->CreateUserType(Address(), /*if_not_exists=*/true).ok());
}

}  // namespace
}  // namespace cassette
