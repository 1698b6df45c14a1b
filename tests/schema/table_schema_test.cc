#include "cassette/schema.h"

#include <gtest/gtest.h>

#include "engine/schema/table_options_validation.h"
#include "engine/schema/table_schema_internals.h"

namespace cassette {
namespace {

TableSchema Sensor() {
  TableSchema t("ks", "readings");
  t.AddPartitionKey("sensor", DataType::Text())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("ts", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddClustering("seq", DataType::Int())
      .AddStatic("unit", DataType::Text())
      .AddRegular("value", DataType::Double());
  return t;
}

TEST(TableSchema, BuildersAssignIdsInCallOrder) {
  TableSchema t = Sensor();
  ASSERT_EQ(t.columns().size(), 6u);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(t.columns()[i].id, i);
  EXPECT_EQ(t.next_column_id(), 6u);
  EXPECT_EQ(t.partition_key(), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(t.clustering(), (std::vector<size_t>{2, 3}));
  EXPECT_EQ(t.columns()[2].order, ClusteringOrder::kDesc);
  EXPECT_EQ(t.columns()[3].order, ClusteringOrder::kAsc);
  EXPECT_TRUE(t.has_statics());
  EXPECT_EQ(t.Find("value")->id, 5u);
  EXPECT_EQ(t.Find("nope"), nullptr);
  EXPECT_EQ(t.FindById(4)->name, "unit");
  EXPECT_EQ(t.FindById(9), nullptr);
  EXPECT_TRUE(t.Validate().ok()) << t.Validate().message();
  EXPECT_EQ(t.id(), 0u);
  TableSchemaInternals::SetId(t, 42);
  EXPECT_EQ(t.id(), 42u);
}

TEST(TableSchema, AddAndDropColumnsNeverReuseIds) {
  TableSchema t = Sensor();
  ASSERT_TRUE(t.DropColumn("value", 1000).ok());
  EXPECT_EQ(t.Find("value"), nullptr);
  EXPECT_EQ(t.dropped_columns().at(5), 1000);
  ColumnDefinition c;
  c.name = "value";
  c.type = DataType::Float();
  ASSERT_TRUE(t.AddColumn(c).ok());
  EXPECT_EQ(t.Find("value")->id, 6u);
  EXPECT_EQ(t.next_column_id(), 7u);
  EXPECT_EQ(t.clustering(), (std::vector<size_t>{2, 3}));

  Status s = t.DropColumn("ts", 1);
  EXPECT_EQ(s.message(), "Cannot drop PRIMARY KEY column ts");
  s = t.DropColumn("missing", 1);
  EXPECT_EQ(s.message(), "Column missing was not found in table ks.readings");
  s = t.AddColumn(c);
  EXPECT_EQ(s.message(), "Column with name 'value' already exists");
  ColumnDefinition k;
  k.name = "k2";
  k.kind = ColumnKind::kClustering;
  EXPECT_TRUE(t.AddColumn(k).IsInvalidRequest());
}

TEST(TableSchema, AddColumnRules) {
  TableSchema simple("ks", "t");
  simple.AddPartitionKey("k", DataType::Int()).AddRegular("v", DataType::Int());
  ColumnDefinition s;
  s.name = "s";
  s.kind = ColumnKind::kStatic;
  s.type = DataType::Int();
  EXPECT_EQ(simple.AddColumn(s).message(),
            "Static columns are only useful (and thus allowed) if the table has at least one "
            "clustering column");
  ColumnDefinition counter;
  counter.name = "c";
  counter.type = DataType::Counter();
  EXPECT_EQ(simple.AddColumn(counter).ToString(),
            "ConfigurationException: Cannot have a counter column (\"c\") in a non counter table");
  TableSchema counters("ks", "c");
  counters.AddPartitionKey("k", DataType::Int()).AddRegular("n", DataType::Counter());
  ColumnDefinition plain;
  plain.name = "v";
  plain.type = DataType::Int();
  EXPECT_EQ(counters.AddColumn(plain).ToString(),
            "ConfigurationException: Cannot have a non counter column (\"v\") in a counter table");
  EXPECT_TRUE(counters.AddColumn(counter).ok());
}

TEST(TableSchema, NameRules) {
  EXPECT_TRUE(IsValidTableOrKeyspaceName("a"));
  EXPECT_TRUE(IsValidTableOrKeyspaceName("Sensor_Data_2024"));
  EXPECT_TRUE(IsValidTableOrKeyspaceName(std::string(48, 'x')));
  EXPECT_FALSE(IsValidTableOrKeyspaceName(std::string(49, 'x')));
  EXPECT_FALSE(IsValidTableOrKeyspaceName(""));
  EXPECT_FALSE(IsValidTableOrKeyspaceName("a-b"));
  EXPECT_FALSE(IsValidTableOrKeyspaceName("a b"));
  EXPECT_FALSE(IsValidTableOrKeyspaceName("\xc3\xa4"));
}

TEST(TableSchema, RestoreChecksConsistency) {
  TableSchema t = Sensor();
  auto ok = TableSchemaInternals::Restore("ks", "t", 7, t.columns(), t.options(), {{9, 5}}, 10);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->id(), 7u);
  EXPECT_EQ(ok->clustering(), t.clustering());
  EXPECT_TRUE(TableSchemaInternals::Restore("ks", "t", 7, t.columns(), t.options(), {}, 5)
                  .status()
                  .IsCorruption());
  std::vector<ColumnDefinition> dup = t.columns();
  dup[1].id = 0;
  EXPECT_TRUE(TableSchemaInternals::Restore("ks", "t", 7, dup, t.options(), {}, 10)
                  .status()
                  .IsCorruption());
  EXPECT_TRUE(TableSchemaInternals::Restore("ks", "t", 7, t.columns(), t.options(), {{1, 5}}, 10)
                  .status()
                  .IsCorruption());
}

struct ValidationCase {
  const char* name;
  TableSchema table;
  Status::Code code;
  std::string message;
};

TableSchema Base() {
  TableSchema t("ks", "t");
  t.AddPartitionKey("k", DataType::Int())
      .AddClustering("c", DataType::Int())
      .AddRegular("v", DataType::Text());
  return t;
}

TableSchema WithOptions(void (*edit)(TableOptions*)) {
  TableSchema t = Base();
  edit(&t.mutable_options());
  return t;
}

TEST(TableSchemaValidate, CassandraMessages) {
  using C = Status::Code;
  std::vector<ValidationCase> cases;
  {
    TableSchema t("ks", "t");
    t.AddRegular("v", DataType::Int());
    cases.push_back({"no key", t, C::kInvalidRequest,
                     "No PRIMARY KEY specifed for table 'ks.t' (exactly one required)"});
  }
  {
    TableSchema t = Base();
    t.AddRegular("v", DataType::Int());
    cases.push_back(
        {"dup", t, C::kInvalidRequest, "Duplicate column 'v' declaration for table 'ks.t'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int()).AddStatic("s", DataType::Int());
    cases.push_back({"static", t, C::kInvalidRequest,
                     "Static columns are only useful (and thus allowed) if the table has at least "
                     "one clustering column"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::List(DataType::Int()));
    cases.push_back({"non-frozen pk", t, C::kInvalidRequest,
                     "Invalid non-frozen collection type list<int> for PRIMARY KEY column 'k'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int()).AddClustering("c", DataType::Set(DataType::Int()));
    cases.push_back({"non-frozen ck", t, C::kInvalidRequest,
                     "Invalid non-frozen collection type set<int> for PRIMARY KEY column 'c'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Counter());
    cases.push_back({"counter pk", t, C::kInvalidRequest,
                     "counter type is not supported for PRIMARY KEY column 'k'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int()).AddClustering("d", DataType::Duration());
    cases.push_back({"duration ck", t, C::kInvalidRequest,
                     "duration type is not supported for PRIMARY KEY column 'd'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::List(DataType::Duration(), true));
    cases.push_back({"duration inside frozen pk", t, C::kInvalidRequest,
                     "duration type is not supported for PRIMARY KEY column 'k'"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int())
        .AddRegular("n", DataType::Counter())
        .AddRegular("v", DataType::Int());
    cases.push_back({"mixed counters", t, C::kInvalidRequest,
                     "Cannot mix counter and non counter columns in the same table"});
  }
  {
    TableSchema t("ks", "t");
    t.AddPartitionKey("k", DataType::Int()).AddRegular("n", DataType::Counter());
    t.mutable_options().default_time_to_live = 10;
    cases.push_back({"counter ttl", t, C::kInvalidRequest,
                     "Cannot set default_time_to_live on a table with counters"});
  }
  {
    TableSchema t("ks", "bad-name");
    t.AddPartitionKey("k", DataType::Int());
    cases.push_back({"table name", t, C::kInvalidRequest,
                     "Table name must not be empty, more than 48 characters long, or contain "
                     "non-alphanumeric-underscore characters (got 'bad-name')"});
  }
  {
    TableSchema t(std::string(49, 'k'), "t");
    t.AddPartitionKey("k", DataType::Int());
    cases.push_back({"keyspace name", t, C::kInvalidRequest,
                     "Keyspace name must not be empty, more than 48 characters long, or contain "
                     "non-alphanumeric-underscore characters (got '" +
                         std::string(49, 'k') + "')"});
  }
  cases.push_back(
      {"ttl negative", WithOptions([](TableOptions* o) { o->default_time_to_live = -1; }),
       C::kConfigurationError, "default_time_to_live must be greater than or equal to 0 (got -1)"});
  cases.push_back({"ttl too big",
                   WithOptions([](TableOptions* o) { o->default_time_to_live = 630720001; }),
                   C::kConfigurationError,
                   "default_time_to_live must be less than or equal to 630720000 (got 630720001)"});
  cases.push_back({"gc", WithOptions([](TableOptions* o) { o->gc_grace_seconds = -1; }),
                   C::kConfigurationError,
                   "gc_grace_seconds must be greater than or equal to 0 (got -1)"});
  cases.push_back({"bloom zero",
                   WithOptions([](TableOptions* o) { o->bloom_filter_fp_chance = 0; }),
                   C::kConfigurationError,
                   "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to "
                   "1.0 (got 0.0)"});
  cases.push_back({"bloom big",
                   WithOptions([](TableOptions* o) { o->bloom_filter_fp_chance = 1.1; }),
                   C::kConfigurationError,
                   "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to "
                   "1.0 (got 1.1)"});
  cases.push_back({"bloom tiny",
                   WithOptions([](TableOptions* o) { o->bloom_filter_fp_chance = 0.0000001; }),
                   C::kConfigurationError,
                   "bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to "
                   "1.0 (got 1.0E-7)"});
  cases.push_back({"compaction", WithOptions([](TableOptions* o) {
                     o->compaction = {{"min_threshold", "4"}};
                   }),
                   C::kConfigurationError,
                   "Missing sub-option 'class' for the 'compaction' option."});
  cases.push_back(
      {"lz4", WithOptions([](TableOptions* o) {
         o->compression = {{"class", "LZ4Compressor"}};
       }),
       C::kConfigurationError,
       "Compression class LZ4Compressor is not supported: cassette supports ZstdCompressor only"});
  cases.push_back(
      {"snappy fq", WithOptions([](TableOptions* o) {
         o->compression = {{"class", "org.apache.cassandra.io.compress.SnappyCompressor"}};
       }),
       C::kConfigurationError,
       "Compression class org.apache.cassandra.io.compress.SnappyCompressor is not "
       "supported: cassette supports ZstdCompressor only"});
  cases.push_back({"deflate", WithOptions([](TableOptions* o) {
                     o->compression = {{"class", "DeflateCompressor"}};
                   }),
                   C::kConfigurationError,
                   "Compression class DeflateCompressor is not supported: cassette supports "
                   "ZstdCompressor only"});
  cases.push_back({"unknown class", WithOptions([](TableOptions* o) {
                     o->compression = {{"class", "Foo"}};
                   }),
                   C::kConfigurationError,
                   "Could not create Compression for type org.apache.cassandra.io.compress.Foo"});
  cases.push_back(
      {"chunk", WithOptions([](TableOptions* o) { o->compression["chunk_length_in_kb"] = "31"; }),
       C::kConfigurationError, "chunk_length_in_kb must be a power of 2"});
  cases.push_back({"chunk neg", WithOptions([](TableOptions* o) {
                     o->compression["chunk_length_in_kb"] = "-1";
                   }),
                   C::kConfigurationError, "Invalid negative or null chunk_length_in_kb"});
  cases.push_back({"level",
                   WithOptions([](TableOptions* o) { o->compression["compression_level"] = "30"; }),
                   C::kConfigurationError,
                   "ZstdCompressor.create() threw an error: java.lang.IllegalArgumentException "
                   "compression_level=30 is invalid"});
  cases.push_back({"no class", WithOptions([](TableOptions* o) {
                     o->compression = {{"chunk_length_in_kb", "32"}};
                   }),
                   C::kConfigurationError,
                   "Missing sub-option 'class' for the 'compression' option."});
  cases.push_back(
      {"empty class", WithOptions([](TableOptions* o) {
         o->compression = {{"class", ""}};
       }),
       C::kConfigurationError,
       "The 'class' option must not be empty. To disable compression use 'enabled' : false"});
  cases.push_back({"disabled plus", WithOptions([](TableOptions* o) {
                     o->compression = {{"enabled", "false"}, {"class", "ZstdCompressor"}};
                   }),
                   C::kConfigurationError,
                   "If the 'enabled' option is set to false no other options must be specified"});
  cases.push_back({"unknown option",
                   WithOptions([](TableOptions* o) { o->compression["foo"] = "1"; }),
                   C::kConfigurationError, "Unknown compression options: ([foo])"});
  cases.push_back(
      {"ratio", WithOptions([](TableOptions* o) { o->compression["min_compress_ratio"] = "0.5"; }),
       C::kConfigurationError, "min_compress_ratio can either be 0 or greater than or equal to 1"});
  for (const ValidationCase& c : cases) {
    Status s = c.table.Validate();
    EXPECT_EQ(s.code(), c.code) << c.name;
    EXPECT_EQ(s.message(), c.message) << c.name;
  }
}

TEST(TableSchemaValidate, AcceptedOptions) {
  void (*edits[])(TableOptions*) = {
      [](TableOptions*) {},
      [](TableOptions* o) { o->compression = {}; },
      [](TableOptions* o) {
        o->compression = {{"enabled", "false"}};
      },
      [](TableOptions* o) {
        o->compression = {{"class", "zstd"}, {"compression_level", "-5"}};
      },
      [](TableOptions* o) {
        o->compression = {{"class", "org.apache.cassandra.io.compress.ZstdCompressor"},
                          {"chunk_length_in_kb", "64"},
                          {"min_compress_ratio", "1.5"}};
      },
      [](TableOptions* o) {
        o->compression = {{"class", "none"}};
      },
      [](TableOptions* o) { o->compression["compression_level"] = "22"; },
      [](TableOptions* o) { o->bloom_filter_fp_chance = 1.0; },
      [](TableOptions* o) { o->default_time_to_live = 630720000; },
      [](TableOptions* o) { o->gc_grace_seconds = 0; },
      [](TableOptions* o) {
        o->compaction = {{"class", "TimeWindowCompactionStrategy"}, {"anything", "goes"}};
      },
  };
  for (auto edit : edits) {
    TableSchema t = WithOptions(edit);
    EXPECT_TRUE(t.Validate().ok()) << t.Validate().message();
  }
  // Counter tables with statics and frozen collection keys are fine.
  TableSchema c("ks", "c");
  c.AddPartitionKey("k", DataType::List(DataType::Int(), true))
      .AddClustering("t", DataType::Tuple({DataType::Int(), DataType::Text()}))
      .AddStatic("s", DataType::Counter())
      .AddRegular("n", DataType::Counter());
  EXPECT_TRUE(c.Validate().ok()) << c.Validate().message();
}

}  // namespace
}  // namespace cassette
