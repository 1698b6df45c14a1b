// The rows the compaction lab writes into the example schemas as they are:
// a tick table clustered by sequence number with its time as a regular
// column, an event table clustered by time, event id and item key, and a
// metrics table whose identifier is a host and a metric name.
#include "tools/lab_row_maker.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "engine/cql/time_functions.h"
#include "tools/lab_run.h"

namespace cassette::tools {
namespace {

// The schema of `create_cql` as the engine makes it.
Result<TableSchema> SchemaOf(const std::string& create_cql) {
  Options options;
  options.file_system = NewMemFileSystem();
  auto db = Database::Open(options, "/schema");
  if (!db.ok()) return db.status();
  CqlSession session(db->get());
  CASSETTE_RETURN_IF_ERROR(
      session
          .Execute("CREATE KEYSPACE lab WITH replication = {'class': 'SimpleStrategy', "
                   "'replication_factor': 1}")
          .status());
  CASSETTE_RETURN_IF_ERROR(session.Execute(create_cql).status());
  return (*db)->GetTable("lab", "t");
}

WorkloadSpec Spec(const std::string& identifier, const std::string& bucket, const std::string& time,
                  const std::string& sequence = "") {
  WorkloadSpec spec;
  spec.identifier_column = identifier;
  spec.bucket_column = bucket;
  spec.bucket_seconds = 86400;
  spec.time_column = time;
  spec.sequence_column = sequence;
  spec.payload_column = "payload";
  spec.identifiers = 4;
  return spec;
}

TEST(RowMakerTest, TicksClusterBySequenceWithTheTimeAsARegularColumn) {
  auto schema = SchemaOf(
      "CREATE TABLE lab.t (symbol text, trading_date date, seq_number bigint, tick_time "
      "timestamp, payload blob, PRIMARY KEY ((symbol, trading_date), seq_number)) WITH "
      "CLUSTERING ORDER BY (seq_number ASC)");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const WorkloadSpec spec = Spec("symbol", "trading_date", "tick_time", "seq_number");
  auto rows = RowMaker::Make(spec, *schema);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_TRUE(rows->slices_by_sequence());
  EXPECT_FALSE(rows->newest_first()) << "ascending: a newest-N read reverses";
  EXPECT_EQ(rows->InsertColumns(), (std::vector<std::string>{"symbol", "trading_date", "seq_number",
                                                             "tick_time", "payload"}));
  EXPECT_EQ(rows->Clustering(1000, 7), std::vector<Value>{Value::Bigint(7)});
  EXPECT_EQ(rows->SliceValue(1000, 7), Value::Bigint(7));
  Random random(1);
  std::vector<Value> row(5);
  rows->FillInsert(row, 2, 86400 * 3 + 5, 9, &random, 10);
  EXPECT_EQ(row[0], Value::Text("id-000002"));
  EXPECT_EQ(row[1], Value::Date(3));
  EXPECT_EQ(row[2], Value::Bigint(9));
  EXPECT_EQ(row[3], Value::Timestamp((86400 * 3 + 5) * 1000));
  EXPECT_EQ(rows->KeyBytes(), 32 + 8) << "the sequence number adds its 8 bytes";
}

TEST(RowMakerTest, EventsClusterByTimeEventIdAndItemKeyUniquePerWrite) {
  auto schema = SchemaOf(
      "CREATE TABLE lab.t (identifier text, time_bucket bigint, event_bucket int, event_time "
      "timestamp, event_id timeuuid, event_item_key text, payload blob, PRIMARY KEY "
      "((identifier, time_bucket, event_bucket), event_time, event_id, event_item_key)) WITH "
      "CLUSTERING ORDER BY (event_time DESC, event_id DESC, event_item_key ASC)");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  WorkloadSpec spec = Spec("identifier", "time_bucket", "event_time");
  spec.hash_column = "event_bucket";
  spec.hash_buckets = 4;
  auto rows = RowMaker::Make(spec, *schema);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_FALSE(rows->slices_by_sequence());
  EXPECT_TRUE(rows->newest_first());
  // Two writes in one second are two rows: the event id and item key
  // follow the sequence; the event id carries the event time.
  const std::vector<Value> a = rows->Clustering(1'700'000'000, 1);
  const std::vector<Value> b = rows->Clustering(1'700'000'000, 2);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], Value::Timestamp(1'700'000'000'000));
  EXPECT_NE(a, b);
  ASSERT_EQ(a[1].type().kind(), TypeKind::kTimeuuid);
  UuidBytes id{};
  std::copy(a[1].bytes().begin(), a[1].bytes().end(), id.begin());
  EXPECT_EQ(cql::TimeuuidMillis(id), 1'700'000'000'000);
  EXPECT_EQ(a[2], Value::Text("item-00000001"));
  EXPECT_EQ(rows->KeyBytes(), 32 + 4 + 16 + 8);
}

TEST(RowMakerTest, EveryPartitionKeyColumnBeyondBucketsIsPartOfTheIdentifier) {
  auto schema = SchemaOf(
      "CREATE TABLE lab.t (host_id uuid, metric_name text, hour timestamp, event_time "
      "timestamp, payload blob, PRIMARY KEY ((host_id, metric_name, hour), event_time))");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const WorkloadSpec spec = Spec("host_id", "hour", "event_time");
  auto rows = RowMaker::Make(spec, *schema);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  std::set<std::string> keys;
  for (int64_t id = 0; id < 4; ++id) {
    const std::vector<Value> key = rows->PartitionKey(id, 7200);
    ASSERT_EQ(key.size(), 3u);
    EXPECT_EQ(key[1], Value::Text("id-00000" + std::to_string(id)));
    EXPECT_EQ(key[2], Value::Timestamp(0));  // the bucket: the day of second 7200
    keys.insert(key[0].ToString() + key[1].ToString());
  }
  EXPECT_EQ(keys.size(), 4u);
}

TEST(RowMakerTest, KeysTheLabCannotFillAreRefusedSayingWhy) {
  auto refused = [](const std::string& cql, const WorkloadSpec& spec) {
    auto schema = SchemaOf(cql);
    EXPECT_TRUE(schema.ok()) << schema.status().ToString();
    auto rows = RowMaker::Make(spec, *schema);
    EXPECT_FALSE(rows.ok());
    return rows.ok() ? std::string() : rows.status().message();
  };
  // Range reads slice on the first clustering column.
  EXPECT_NE(refused("CREATE TABLE lab.t (id text, event_id timeuuid, ts timestamp, payload "
                    "blob, PRIMARY KEY (id, event_id, ts))",
                    Spec("id", "", "ts"))
                .find("the first clustering column must be table.time_column"),
            std::string::npos);
  EXPECT_NE(refused("CREATE TABLE lab.t (id text, ts timestamp, score double, payload blob, "
                    "PRIMARY KEY (id, ts, score))",
                    Spec("id", "", "ts"))
                .find("score: the lab fills clustering columns"),
            std::string::npos);
  EXPECT_NE(refused("CREATE TABLE lab.t (id text, ts timestamp, seq double, payload blob, "
                    "PRIMARY KEY (id, ts))",
                    Spec("id", "", "ts", "seq"))
                .find("table.sequence_column must be a int or bigint column"),
            std::string::npos);
  EXPECT_NE(refused("CREATE TABLE lab.t (id text, region double, ts timestamp, payload blob, "
                    "PRIMARY KEY ((id, region), ts))",
                    Spec("id", "", "ts"))
                .find("region: the lab fills identifier columns"),
            std::string::npos);
}

// A tick workload replayed into the tick schema as it is: two writes per
// symbol per second are two rows, and a newest read returns the highest
// sequence numbers first.
TEST(RowMakerTest, ATickRunWritesEveryTickAsARowOfItsOwn) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("cassette-row-maker-test-" + std::to_string(::getpid())))
                              .string();
  auto spec = ParseWorkload(R"toml(
[table]
cql = """CREATE TABLE lab.t (symbol text, trading_date date, seq_number bigint,
         tick_time timestamp, payload blob, PRIMARY KEY ((symbol, trading_date), seq_number))
         WITH CLUSTERING ORDER BY (seq_number ASC)"""
identifier_column = "symbol"
bucket_column = "trading_date"
bucket = "1d"
time_column = "tick_time"
sequence_column = "seq_number"
payload_column = "payload"
[writes]
identifiers = 3
interval_seconds = 0.5
row_bytes = 20
[deletes]
row_fraction = 0.01
range_fraction = 0.01
range = "10s"
[reads]
interval_seconds = 5
newest_fraction = 0.4
range_fraction = 0.3
point_fraction = 0.3
[run]
duration = "10m"
sample_every = "5m"
)toml",
                            "ticks.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  auto run = RunStrategy(*spec, "stcs", dir, {}, /*keep_files=*/true);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->writes + run->deletes, 3u * 2 * 600);
  EXPECT_GT(run->deletes, 0u);
  auto db = Database::Open(Options{}, dir + "/data");
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ReadQuery q;
  q.keyspace = "lab";
  q.table = "t";
  const int32_t day = static_cast<int32_t>(spec->start_seconds / 86400);
  for (int s = 0; s < 3; ++s) {
    q.partition_keys.push_back({Value::Text("id-00000" + std::to_string(s)), Value::Date(day)});
  }
  auto all = (*db)->Read(q);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  // Every write is a row (none collapsed into another of its second),
  // less what the deletes took.
  EXPECT_LT(all->rows.size(), run->writes);
  EXPECT_GT(all->rows.size(), run->writes * 3 / 4);
  q.partition_keys.resize(1);
  auto oldest_first = (*db)->Read(q);
  ASSERT_TRUE(oldest_first.ok()) << oldest_first.status().ToString();
  ASSERT_GT(oldest_first->rows.size(), 2u);
  q.reversed = true;
  q.limit = 2;
  auto newest = (*db)->Read(q);
  ASSERT_TRUE(newest.ok()) << newest.status().ToString();
  ASSERT_EQ(newest->rows.size(), 2u);
  EXPECT_EQ(newest->rows[0].values[2], oldest_first->rows.back().values[2]);
  EXPECT_GT(newest->rows[0].values[2].AsInt64(), newest->rows[1].values[2].AsInt64());
  ASSERT_TRUE((*db)->Close().ok());
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace cassette::tools
