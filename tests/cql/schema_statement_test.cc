// Schema statements through CqlSession: CREATE/ALTER/DROP KEYSPACE and
// TABLE, TRUNCATE, USE and DESCRIBE, with Cassandra's error classes and
// messages, and DESCRIBE's text recreating the same schema.
#include "engine/cql/schema_statement.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"

namespace cassette::cql {
namespace {

class SchemaStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenDb();
    session_ = std::make_unique<CqlSession>(db_.get());
  }

  static std::unique_ptr<Database> OpenDb() {
    Options options;
    options.file_system = NewMemFileSystem();
    options.clock = std::make_shared<ManualClock>(1'704'067'200'000'000);
    options.scheduler = std::make_shared<ManualScheduler>();
    auto db = Database::Open(options, "/db");
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return std::move(db).value();
  }

  CqlResult Run(const std::string& cql) {
    auto result = session_->Execute(cql);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    return result.ok() ? std::move(result).value() : CqlResult{};
  }

  Status Fail(const std::string& cql) {
    auto result = session_->Execute(cql);
    EXPECT_FALSE(result.ok()) << cql;
    return result.ok() ? Status::OK() : result.status();
  }

  void ExpectError(const std::string& cql, Status::Code code, const std::string& message) {
    Status status = Fail(cql);
    EXPECT_EQ(status.code(), code) << cql << "\n" << status.ToString();
    EXPECT_EQ(status.message(), message) << cql;
  }

  // The rows of partition `k` (an int key) of ks.<table>, read through the
  // db API so these tests do not depend on SELECT.
  std::vector<std::vector<std::string>> ReadPartition(const std::string& table, int32_t k,
                                                      std::vector<std::string> columns) {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = table;
    query.partition_keys = {{Value::Int(k)}};
    query.columns = std::move(columns);
    auto result = db_->Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    std::vector<std::vector<std::string>> rows;
    if (!result.ok()) return rows;
    for (const ResultRow& row : result->rows) {
      std::vector<std::string> values;
      for (const Value& value : row.values) values.push_back(value.ToString());
      rows.push_back(std::move(values));
    }
    return rows;
  }

  void CreateKs() {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("USE ks");
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
};

constexpr auto kInvalid = Status::Code::kInvalidRequest;
constexpr auto kSyntax = Status::Code::kSyntaxError;
constexpr auto kConfig = Status::Code::kConfigurationError;

// ------------------------------------------------------------ keyspaces

TEST_F(SchemaStatementTest, CreateKeyspaceRecordsReplication) {
  CqlResult result = Run(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3} "
      "AND durable_writes = false");
  EXPECT_EQ(result.kind, CqlResult::Kind::kSchemaChange);
  auto keyspace = db_->GetKeyspace("ks");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(keyspace->replication.at("class"), "SimpleStrategy");
  EXPECT_EQ(keyspace->replication.at("replication_factor"), "3");
  EXPECT_FALSE(keyspace->durable_writes);

  Run("CREATE KEYSPACE nts WITH replication = {'class': "
      "'org.apache.cassandra.locator.NetworkTopologyStrategy', 'replication_factor': 2}");
  keyspace = db_->GetKeyspace("nts");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(keyspace->replication.at("class"), "NetworkTopologyStrategy");
  EXPECT_EQ(keyspace->replication.at("datacenter1"), "2");
}

TEST_F(SchemaStatementTest, CreateKeyspaceIfNotExists) {
  CreateKs();
  EXPECT_EQ(Run("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
                "'replication_factor': 1}")
                .kind,
            CqlResult::Kind::kVoid);
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
      Status::Code::kAlreadyExists, "Cannot add existing keyspace \"ks\"");
}

TEST_F(SchemaStatementTest, CreateKeyspaceErrors) {
  ExpectError("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}", kConfig,
              "SimpleStrategy requires a replication_factor strategy option.");
  ExpectError("CREATE KEYSPACE ks WITH replication = {'replication_factor': 1}", kConfig,
              "Missing replication strategy class");
  ExpectError("CREATE KEYSPACE ks WITH durable_writes = true", kInvalid,
              "Missing mandatory option 'replication'");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1, "
      "'dc1': 2}",
      kConfig, "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace ks");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'FooStrategy'}", kConfig,
      "Unable to find replication strategy class 'org.apache.cassandra.locator.FooStrategy'");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': -1}",
      kConfig, "Replication factor must be non-negative, found -1");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "'x'}",
      kConfig, "For input string: \"x\"");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "
      "AND foo = 1",
      kSyntax, "Unknown property 'foo'");
  ExpectError(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "
      "AND durable_writes = maybe",
      kSyntax,
      "Invalid boolean value maybe for 'durable_writes'. Positive values can be '1', 'true' or "
      "'yes'. Negative values can be '0', 'false' or 'no'.");
  ExpectError("CREATE KEYSPACE ks WITH replication = 'SimpleStrategy'", kSyntax,
              "Invalid value for property 'replication'. It should be a map.");
  EXPECT_TRUE(db_->ListKeyspaces().empty());
}

TEST_F(SchemaStatementTest, AlterKeyspace) {
  CreateKs();
  EXPECT_EQ(Run("ALTER KEYSPACE ks WITH durable_writes = false").kind,
            CqlResult::Kind::kSchemaChange);
  auto keyspace = db_->GetKeyspace("ks");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_FALSE(keyspace->durable_writes);
  EXPECT_EQ(keyspace->replication.at("replication_factor"), "1");  // kept
  Run("ALTER KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}");
  keyspace = db_->GetKeyspace("ks");
  EXPECT_EQ(keyspace->replication.at("dc1"), "3");
  ExpectError("ALTER KEYSPACE nope WITH durable_writes = false", kInvalid,
              "Keyspace 'nope' doesn't exist");
}

TEST_F(SchemaStatementTest, DropKeyspace) {
  CreateKs();
  Run("CREATE TABLE t (k int PRIMARY KEY, v int)");
  EXPECT_EQ(Run("DROP KEYSPACE ks").kind, CqlResult::Kind::kSchemaChange);
  EXPECT_TRUE(db_->ListKeyspaces().empty());
  EXPECT_EQ(Run("DROP KEYSPACE IF EXISTS ks").kind, CqlResult::Kind::kVoid);
  ExpectError("DROP KEYSPACE ks", kInvalid, "Keyspace 'ks' doesn't exist");
}

TEST_F(SchemaStatementTest, Use) {
  ExpectError("USE nope", kInvalid, "Keyspace 'nope' does not exist");
  CreateKs();
  EXPECT_EQ(session_->keyspace(), "ks");
  EXPECT_EQ(Run("USE ks").kind, CqlResult::Kind::kSetKeyspace);
}

// --------------------------------------------------------------- tables

TEST_F(SchemaStatementTest, CreateTableEveryPrimaryKeyForm) {
  CreateKs();
  Run("CREATE TABLE single (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE single2 (k int, v text, PRIMARY KEY (k))");
  Run("CREATE TABLE composite (a int, b text, c timestamp, d int, v double, s int static, "
      "PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)");
  Run("CREATE TABLE ks.clustered (k int, c int, v int, PRIMARY KEY (k, c))");
  auto table = db_->GetTable("ks", "composite");
  ASSERT_TRUE(table.ok());
  ASSERT_EQ(table->partition_key().size(), 2u);
  EXPECT_EQ(table->columns()[table->partition_key()[1]].name, "b");
  ASSERT_EQ(table->clustering().size(), 2u);
  EXPECT_EQ(table->columns()[table->clustering()[0]].order, ClusteringOrder::kDesc);
  EXPECT_EQ(table->columns()[table->clustering()[1]].order, ClusteringOrder::kAsc);
  EXPECT_EQ(table->Find("s")->kind, ColumnKind::kStatic);
  EXPECT_EQ(table->Find("v")->type.ToString(), "double");
  EXPECT_EQ(Run("CREATE TABLE IF NOT EXISTS single (k int PRIMARY KEY)").kind,
            CqlResult::Kind::kVoid);
}

TEST_F(SchemaStatementTest, CreateTableWithOptions) {
  CreateKs();
  Run("CREATE TABLE t (k int, c timestamp, v int, PRIMARY KEY (k, c)) "
      "WITH default_time_to_live = 3600 AND gc_grace_seconds = 60 "
      "AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': "
      "'HOURS', 'compaction_window_size': 1} "
      "AND compression = {'class': 'ZstdCompressor', 'compression_level': 5, "
      "'chunk_length_in_kb': 32} AND bloom_filter_fp_chance = 0.1 AND comment = 'it''s mine' "
      "AND caching = {'keys': 'NONE'} AND speculative_retry = '95p' AND cdc = true "
      "AND crc_check_chance = 0.5 AND read_repair = 'none' AND memtable_flush_period_in_ms = 10");
  auto table = db_->GetTable("ks", "t");
  ASSERT_TRUE(table.ok());
  const TableOptions& options = table->options();
  EXPECT_EQ(options.default_time_to_live, 3600);
  EXPECT_EQ(options.gc_grace_seconds, 60);
  EXPECT_EQ(options.compaction.at("class"), "TimeWindowCompactionStrategy");
  EXPECT_EQ(options.compression.at("compression_level"), "5");
  EXPECT_EQ(options.compression.at("chunk_length_in_kb"), "32");
  EXPECT_DOUBLE_EQ(options.bloom_filter_fp_chance, 0.1);
  EXPECT_EQ(options.comment, "it's mine");
  EXPECT_EQ(options.other.at("caching"), "{'keys': 'NONE', 'rows_per_partition': 'NONE'}");
  EXPECT_EQ(options.other.at("speculative_retry"), "'95p'");
  EXPECT_EQ(options.other.at("cdc"), "true");
  EXPECT_EQ(options.other.at("crc_check_chance"), "0.5");
  EXPECT_EQ(options.other.at("read_repair"), "'NONE'");
  EXPECT_EQ(options.other.at("memtable_flush_period_in_ms"), "10");
}

TEST_F(SchemaStatementTest, CompressionForms) {
  CreateKs();
  Run("CREATE TABLE off (k int PRIMARY KEY) WITH compression = {'enabled': 'false'}");
  EXPECT_EQ(db_->GetTable("ks", "off")->options().compression,
            (std::map<std::string, std::string>{{"enabled", "false"}}));
  Run("CREATE TABLE empty (k int PRIMARY KEY) WITH compression = {}");
  EXPECT_EQ(db_->GetTable("ks", "empty")->options().compression.at("enabled"), "false");
  Run("CREATE TABLE legacy (k int PRIMARY KEY) WITH compression = {'sstable_compression': "
      "'ZstdCompressor', 'chunk_length_kb': 64}");
  auto legacy = db_->GetTable("ks", "legacy")->options().compression;
  EXPECT_EQ(legacy.at("class"), "ZstdCompressor");
  EXPECT_EQ(legacy.at("chunk_length_in_kb"), "64");
  ExpectError("CREATE TABLE lz4 (k int PRIMARY KEY) WITH compression = {'class': 'LZ4Compressor'}",
              kConfig,
              "Compression class LZ4Compressor is not supported: cassette compresses with "
              "ZstdCompressor only (or use {'enabled': 'false'} for no compression)");
  ExpectError(
      "CREATE TABLE x (k int PRIMARY KEY) WITH compression = {'class': "
      "'org.apache.cassandra.io.compress.SnappyCompressor'}",
      kConfig,
      "Compression class org.apache.cassandra.io.compress.SnappyCompressor is not supported: "
      "cassette compresses with ZstdCompressor only (or use {'enabled': 'false'} for no "
      "compression)");
  ExpectError(
      "CREATE TABLE x (k int PRIMARY KEY) WITH compression = {'class': 'ZstdCompressor', "
      "'sstable_compression': 'ZstdCompressor'}",
      kConfig,
      "The 'sstable_compression' option must not be used if the compression algorithm is already "
      "specified by the 'class' option");
  ExpectError(
      "CREATE TABLE x (k int PRIMARY KEY) WITH compression = {'class': 'ZstdCompressor', "
      "'chunk_length_in_kb': 3}",
      kConfig, "chunk_length_in_kb must be a power of 2");
}

TEST_F(SchemaStatementTest, CreateTableErrors) {
  ExpectError("CREATE TABLE t (k int PRIMARY KEY)", kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("CREATE TABLE nope.t (k int PRIMARY KEY)", kInvalid, "Keyspace 'nope' doesn't exist");
  CreateKs();
  Run("CREATE TABLE t (k int PRIMARY KEY)");
  ExpectError("CREATE TABLE t (k int PRIMARY KEY)", Status::Code::kAlreadyExists,
              "Cannot add already existing table \"t\" to keyspace \"ks\"");
  ExpectError("CREATE TABLE a (k int, v int)", kInvalid,
              "No PRIMARY KEY specifed for table 'a' (exactly one required)");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY, k text)", kInvalid,
              "Duplicate column 'k' declaration for table 'a'");
  ExpectError("CREATE TABLE a (k int, PRIMARY KEY (k, c))", kInvalid,
              "Unknown column 'c' referenced in PRIMARY KEY for table 'a'");
  ExpectError("CREATE TABLE a (k int, PRIMARY KEY (k, k))", kInvalid,
              "Duplicate column 'k' in PRIMARY KEY clause for table 'a'");
  ExpectError("CREATE TABLE a (k int, c int static, PRIMARY KEY (k, c))", kInvalid,
              "Static column 'c' cannot be part of the PRIMARY KEY");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY, s int static)", kInvalid,
              "Static columns are only useful (and thus allowed) if the table has at least one "
              "clustering column");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY, v int) WITH COMPACT STORAGE", kInvalid,
              "COMPACT STORAGE tables are not allowed starting with version 4.0");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH foo = 1", kSyntax, "Unknown property 'foo'");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH comment = 'a' AND comment = 'b'", kSyntax,
              "Multiple definition for property 'comment'");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH default_time_to_live = 'x'", kSyntax,
              "Invalid integer value x for 'default_time_to_live'");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH bloom_filter_fp_chance = 'x'", kSyntax,
              "Invalid double value x for 'bloom_filter_fp_chance'");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH compaction = 'x'", kSyntax,
              "Invalid value for property 'compaction'. It should be a map.");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH comment = {'a': 'b'}", kSyntax,
              "Invalid value for property 'comment'. It should be a string");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH default_time_to_live = -1", kConfig,
              "default_time_to_live must be greater than or equal to 0 (got -1)");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH compaction = {'class': 'Foo'}", kConfig,
              "Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.Foo'");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH crc_check_chance = 2", kConfig,
              "crc_check_chance must be larger than or equal to 0 and smaller than or equal to "
              "1.0 (got 2.0)");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH min_index_interval = 0", kConfig,
              "min_index_interval must be greater than or equal to 1 (got 0)");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH memtable = 'fast'", kConfig,
              "Memtable configuration \"fast\" not found.");
  ExpectError("CREATE TABLE a (k int PRIMARY KEY) WITH caching = {'rows': 'ALL'}", kConfig,
              "Invalid caching sub-options [rows]: only 'keys' and 'rows_per_partition' are "
              "allowed");
  EXPECT_EQ(db_->ListTables("ks")->size(), 1u);
}

TEST_F(SchemaStatementTest, ClusteringOrderErrors) {
  CreateKs();
  const std::string columns =
      "CREATE TABLE a (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2)) ";
  ExpectError(columns + "WITH CLUSTERING ORDER BY (c2 DESC)", kInvalid,
              "Missing CLUSTERING ORDER for column c1");
  ExpectError(columns + "WITH CLUSTERING ORDER BY (c2 DESC, c1 ASC)", kInvalid,
              "The order of columns in the CLUSTERING ORDER directive must match that of the "
              "clustering columns (c1 must appear before c2)");
  ExpectError(columns + "WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC, v ASC)", kInvalid,
              "Only clustering key columns can be defined in CLUSTERING ORDER directive: [v] are "
              "not clustering columns");
  // A prefix is enough; the rest defaults to ASC.
  Run(columns + "WITH CLUSTERING ORDER BY (c1 DESC)");
  auto table = db_->GetTable("ks", "a");
  EXPECT_EQ(table->columns()[table->clustering()[1]].order, ClusteringOrder::kAsc);
}

TEST_F(SchemaStatementTest, TwcsGuardrailWarningsAreReturned) {
  CreateKs();
  CqlResult result = Run(
      "CREATE TABLE t (k int, c timestamp, v int, PRIMARY KEY (k, c)) WITH compaction = {'class': "
      "'TimeWindowCompactionStrategy', 'compaction_window_unit': 'MINUTES', "
      "'compaction_window_size': 1} AND default_time_to_live = 31536000");
  EXPECT_FALSE(result.warnings.empty());
}

TEST_F(SchemaStatementTest, AlterTableAddDropWith) {
  CreateKs();
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 10)");
  EXPECT_EQ(Run("ALTER TABLE t ADD w text").kind, CqlResult::Kind::kSchemaChange);
  Run("ALTER TABLE t ADD (x int, s int static)");
  auto table = db_->GetTable("ks", "t");
  ASSERT_NE(table->Find("x"), nullptr);
  EXPECT_EQ(table->Find("s")->kind, ColumnKind::kStatic);
  ExpectError("ALTER TABLE t ADD w int", kInvalid, "Column with name 'w' already exists");
  Run("ALTER TABLE t DROP v");
  Run("ALTER TABLE t DROP (x, w)");
  table = db_->GetTable("ks", "t");
  EXPECT_EQ(table->Find("v"), nullptr);
  EXPECT_EQ(table->Find("w"), nullptr);
  ExpectError("ALTER TABLE t DROP c", kInvalid, "Cannot drop PRIMARY KEY column c");
  ExpectError("ALTER TABLE t DROP nope", kInvalid, "Column nope was not found in table ks.t");
  // Re-adding a dropped column does not bring its old cells back.
  Run("ALTER TABLE t ADD v int");
  auto rows = ReadPartition("t", 1, {"c", "v"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "1");
  EXPECT_EQ(rows[0][1], "null");

  Run("ALTER TABLE t WITH default_time_to_live = 100 AND comment = 'c'");
  table = db_->GetTable("ks", "t");
  EXPECT_EQ(table->options().default_time_to_live, 100);
  EXPECT_EQ(table->options().comment, "c");
  ExpectError("ALTER TABLE t WITH gc_grace_seconds = -5", kConfig,
              "gc_grace_seconds must be greater than or equal to 0 (got -5)");
  ExpectError("ALTER TABLE t WITH bar = 1", kSyntax, "Unknown property 'bar'");
  ExpectError("ALTER TABLE nope ADD a int", kInvalid, "Table 'ks.nope' doesn't exist");
  ExpectError("ALTER TABLE no.t ADD a int", kInvalid, "Keyspace 'no' doesn't exist");
  ExpectError("ALTER TABLE t ALTER v TYPE bigint", kInvalid,
              "Altering column types is no longer supported");
}

TEST_F(SchemaStatementTest, AlterTableRenameOnlyKeyColumns) {
  CreateKs();
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO t (k, c, v) VALUES (1, 2, 3)");
  Run("ALTER TABLE t RENAME c TO c2 AND k TO k2");
  auto rows = ReadPartition("t", 1, {"k2", "c2", "v"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"1", "2", "3"}));
  ExpectError("ALTER TABLE t RENAME v TO w", kInvalid, "Cannot rename non PRIMARY KEY column v");
  ExpectError("ALTER TABLE t RENAME c2 TO v", kInvalid,
              "Cannot rename column c2 to v in table 'ks.t'; another column with that name "
              "already exists");
}

TEST_F(SchemaStatementTest, DropTable) {
  CreateKs();
  Run("CREATE TABLE t (k int PRIMARY KEY)");
  EXPECT_EQ(Run("DROP TABLE t").kind, CqlResult::Kind::kSchemaChange);
  EXPECT_EQ(Run("DROP TABLE IF EXISTS t").kind, CqlResult::Kind::kVoid);
  EXPECT_EQ(Run("DROP TABLE IF EXISTS nope.t").kind, CqlResult::Kind::kVoid);
  ExpectError("DROP TABLE t", kInvalid, "Table 'ks.t' doesn't exist");
  ExpectError("DROP TABLE nope.t", kInvalid, "Keyspace 'nope' doesn't exist");
}

TEST_F(SchemaStatementTest, Truncate) {
  CreateKs();
  Run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO t (k, c, v) VALUES (1, 1, 1)");
  ASSERT_TRUE(db_->Flush().ok());
  Run("INSERT INTO t (k, c, v) VALUES (1, 2, 2)");
  EXPECT_EQ(Run("TRUNCATE t").kind, CqlResult::Kind::kSchemaChange);
  EXPECT_TRUE(ReadPartition("t", 1, {"c"}).empty());
  Run("INSERT INTO t (k, c, v) VALUES (1, 3, 3)");
  EXPECT_EQ(ReadPartition("t", 1, {"c"}).size(), 1u);
  Run("TRUNCATE TABLE ks.t");
  EXPECT_TRUE(ReadPartition("t", 1, {"c"}).empty());
  ExpectError("TRUNCATE nope", kInvalid, "table nope does not exist");
}

// ------------------------------------------------------------- DESCRIBE

constexpr char kTableCql[] =
    "CREATE TABLE ks.readings (\n"
    "    sensor text,\n"
    "    day date,\n"
    "    ts timestamp,\n"
    "    location text static,\n"
    "    \"Value\" double,\n"
    "    tags set<text>,\n"
    "    PRIMARY KEY ((sensor, day), ts)\n"
    ") WITH CLUSTERING ORDER BY (ts DESC)\n"
    "    AND additional_write_policy = '99p'\n"
    "    AND allow_auto_snapshot = true\n"
    "    AND bloom_filter_fp_chance = 0.01\n"
    "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
    "    AND cdc = false\n"
    "    AND comment = 'sensor data'\n"
    "    AND compaction = {'class': "
    "'org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy', "
    "'compaction_window_size': '1', 'compaction_window_unit': 'DAYS', 'max_threshold': '32', "
    "'min_threshold': '4'}\n"
    "    AND compression = {'chunk_length_in_kb': '16', 'class': "
    "'org.apache.cassandra.io.compress.ZstdCompressor'}\n"
    "    AND memtable = 'default'\n"
    "    AND crc_check_chance = 1.0\n"
    "    AND default_time_to_live = 604800\n"
    "    AND extensions = {}\n"
    "    AND gc_grace_seconds = 864000\n"
    "    AND incremental_backups = true\n"
    "    AND max_index_interval = 2048\n"
    "    AND memtable_flush_period_in_ms = 0\n"
    "    AND min_index_interval = 128\n"
    "    AND read_repair = 'BLOCKING'\n"
    "    AND speculative_retry = '99p';";

TEST_F(SchemaStatementTest, DescribeTableText) {
  CreateKs();
  Run("CREATE TABLE readings (sensor text, day date, ts timestamp, \"Value\" double, "
      "tags set<text>, location text static, PRIMARY KEY ((sensor, day), ts)) "
      "WITH CLUSTERING ORDER BY (ts DESC) AND default_time_to_live = 604800 "
      "AND comment = 'sensor data' AND compression = {'class': 'ZstdCompressor'} "
      "AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': "
      "'DAYS', 'compaction_window_size': 1}");
  CqlResult result = Run("DESCRIBE TABLE readings");
  EXPECT_EQ(result.kind, CqlResult::Kind::kRows);
  EXPECT_EQ(result.describe_text, std::string(kTableCql) + "\n");
  ASSERT_EQ(result.rows.size(), 1u);
  ASSERT_EQ(result.columns.size(), 4u);
  EXPECT_EQ(result.columns[3].name, "create_statement");
  EXPECT_EQ(result.rows[0][0].AsString(), "ks");
  EXPECT_EQ(result.rows[0][1].AsString(), "table");
  EXPECT_EQ(result.rows[0][2].AsString(), "readings");
  EXPECT_EQ(result.rows[0][3].AsString(), kTableCql);
  // DESC ks.readings and DESCRIBE readings say the same.
  EXPECT_EQ(Run("DESC ks.readings").describe_text, result.describe_text);
  EXPECT_EQ(Run("DESCRIBE readings").describe_text, result.describe_text);
}

TEST_F(SchemaStatementTest, DescribeSinglePartitionKeyAndDisabledCompression) {
  CreateKs();
  Run("CREATE TABLE kv (k int PRIMARY KEY, v text) WITH compression = {'enabled': false}");
  const std::string text = Run("DESCRIBE TABLE kv").describe_text;
  const std::string head = "CREATE TABLE ks.kv (\n    k int PRIMARY KEY,\n    v text\n) WITH add";
  EXPECT_EQ(text.substr(0, head.size()), head);
  EXPECT_NE(text.find("    AND compression = {'enabled': 'false'}\n"), std::string::npos);
}

TEST_F(SchemaStatementTest, DescribeKeyspacesTablesAndErrors) {
  Run("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  CreateKs();
  Run("CREATE TABLE t2 (k int PRIMARY KEY)");
  Run("CREATE TABLE t1 (k int PRIMARY KEY)");
  CqlResult keyspaces = Run("DESCRIBE KEYSPACES");
  EXPECT_EQ(keyspaces.describe_text, "b  ks\n");
  ASSERT_EQ(keyspaces.columns.size(), 3u);
  ASSERT_EQ(keyspaces.rows.size(), 2u);
  EXPECT_EQ(keyspaces.rows[1][2].AsString(), "ks");
  CqlResult tables = Run("DESCRIBE TABLES");
  EXPECT_EQ(tables.describe_text, "t1  t2\n");
  ASSERT_EQ(tables.rows.size(), 2u);
  EXPECT_EQ(tables.rows[0][1].AsString(), "table");

  CqlResult keyspace = Run("DESCRIBE KEYSPACE ks");
  ASSERT_EQ(keyspace.rows.size(), 3u);
  EXPECT_EQ(keyspace.rows[0][3].AsString(),
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': '1'}  AND durable_writes = true;");
  EXPECT_EQ(Run("DESCRIBE KEYSPACE").describe_text, keyspace.describe_text);
  EXPECT_EQ(Run("DESCRIBE ks").describe_text, keyspace.describe_text);

  ExpectError("DESCRIBE KEYSPACE nope", kInvalid, "'nope' not found in keyspaces");
  ExpectError("DESCRIBE TABLE nope", kInvalid, "'nope' not found in keyspace 'ks'");
  CqlSession fresh(db_.get());
  auto status = fresh.Execute("DESCRIBE KEYSPACE");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.status().message(), "No keyspace specified and no current keyspace");
  auto all_tables = fresh.Execute("DESCRIBE TABLES");
  ASSERT_TRUE(all_tables.ok());
  EXPECT_EQ(all_tables->describe_text,
            "Keyspace b\n----------\n\n\nKeyspace ks\n-----------\nt1  t2\n");
}

// Re-running DESCRIBE SCHEMA's text on a fresh database recreates the same
// schema: the same DESCRIBE SCHEMA text.
TEST_F(SchemaStatementTest, DescribeSchemaRoundTrips) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3} "
      "AND durable_writes = false");
  Run("USE ks");
  Run("CREATE TABLE events (\"Tenant\" text, bucket int, at timeuuid, kind text, "
      "payload map<text, frozen<list<int>>>, note text static, PRIMARY KEY ((\"Tenant\", bucket), "
      "at, kind)) WITH CLUSTERING ORDER BY (at DESC, kind ASC) AND gc_grace_seconds = 3600 "
      "AND compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 64} "
      "AND compression = {'class': 'ZstdCompressor', 'compression_level': 7} "
      "AND caching = {'keys': 'NONE', 'rows_per_partition': 10} AND cdc = true "
      "AND speculative_retry = 'ALWAYS' AND comment = 'quote '' here'");
  Run("CREATE TABLE counters (k text PRIMARY KEY, hits counter) WITH compression = "
      "{'enabled': 'false'} AND bloom_filter_fp_chance = 0.001");
  Run("CREATE TABLE \"select\" (k int, c int, PRIMARY KEY (k, c))");
  const CqlResult schema = Run("DESCRIBE SCHEMA");
  ASSERT_EQ(schema.rows.size(), 4u);

  std::unique_ptr<Database> other = OpenDb();
  CqlSession replay(other.get());
  std::string rest;
  for (const std::string& statement : SplitCqlStatements(schema.describe_text, &rest)) {
    auto result = replay.Execute(statement);
    ASSERT_TRUE(result.ok()) << statement << "\n" << result.status().ToString();
  }
  EXPECT_TRUE(rest.find_first_not_of(" \n") == std::string::npos) << rest;
  auto again = replay.Execute("DESCRIBE SCHEMA");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->describe_text, schema.describe_text);
}

// The example scripts' schemas, as written.
TEST_F(SchemaStatementTest, ExampleSchemas) {
  Run("CREATE KEYSPACE IF NOT EXISTS iot WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Run("USE iot");
  Run("CREATE TABLE sensor_readings_daily (sensor_id uuid, reading_date date, reading_time "
      "timestamp, value double, PRIMARY KEY ((sensor_id, reading_date), reading_time)) "
      "WITH CLUSTERING ORDER BY (reading_time DESC) AND default_time_to_live = 604800 "
      "AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': "
      "'DAYS', 'compaction_window_size': 1}");
  Run("CREATE TABLE market_ticks (symbol text, trading_date date, seq_number bigint, price "
      "decimal, PRIMARY KEY ((symbol, trading_date), seq_number)) WITH CLUSTERING ORDER BY "
      "(seq_number ASC) AND compression = {'class': 'ZstdCompressor'}");
  EXPECT_EQ(db_->ListTables("iot")->size(), 2u);
}

}  // namespace
}  // namespace cassette::cql
