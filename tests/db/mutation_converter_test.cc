// ConvertPlainMutation against ConvertMutation: random mutations, plain
// and almost plain (a static column, a collection, a counter, a null, a
// mistyped or missing value, a column set twice, a missing clustering
// value, a bad TTL, deletions, several rows). Whenever the plain
// conversion says yes, the full one must accept the mutation and build
// exactly the update holding the plain row; it must say yes to the plain
// writes of a time-series table (W1's); everything else goes the full way.
#include "engine/db/mutation_converter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/schema/table_schema_internals.h"
#include "engine/util/murmur3.h"

namespace cassette {
namespace {

TableSchema TestTable() {
  TableSchema schema("ks", "t");
  schema.AddPartitionKey("id", DataType::Uuid())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("at", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddClustering("seq", DataType::Int())
      .AddRegular("temperature", DataType::Double())
      .AddRegular("tag", DataType::Text())
      .AddRegular("flag", DataType::Boolean())
      .AddRegular("blob", DataType::Blob())
      .AddRegular("frozen", DataType::List(DataType::Int(), /*frozen=*/true))
      .AddRegular("tags", DataType::Set(DataType::Text()))
      .AddStatic("note", DataType::Text());
  TableSchemaInternals::SetId(schema, 42);
  return schema;
}

TableSchema CounterTable() {
  TableSchema schema("ks", "c");
  schema.AddPartitionKey("id", DataType::Int()).AddRegular("n", DataType::Counter());
  TableSchemaInternals::SetId(schema, 43);
  return schema;
}

// Only a partition key and regular columns: every row is the empty clustering.
TableSchema KeyValueTable() {
  TableSchema schema("ks", "kv");
  schema.AddPartitionKey("k", DataType::Text()).AddRegular("v", DataType::Blob());
  TableSchemaInternals::SetId(schema, 44);
  return schema;
}

class MutationGenerator {
 public:
  explicit MutationGenerator(uint64_t seed) : rng_(seed) {}

  bool OneIn(int n) { return rng_() % static_cast<uint64_t>(n) == 0; }
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }

  Mutation ForTestTable() {
    std::vector<Value> key = {Value::Uuid(Uuid()), Value::Date(19000 + Pick(3))};
    if (OneIn(20)) key.pop_back();
    if (OneIn(20)) key[0] = Value::Int(1);
    if (OneIn(30)) key[1] = Value::Null();
    Mutation m("ks", "t", std::move(key));
    if (OneIn(4)) m.UsingTtl(OneIn(8) ? -1 : (OneIn(8) ? 700000000 : Pick(100)));
    if (OneIn(20)) m.DeletePartition();
    if (OneIn(20)) m.DeleteRange({{Value::Timestamp(5)}, true}, {{Value::Timestamp(9)}, false});
    const int rows = OneIn(10) ? 0 : (OneIn(8) ? 2 : 1);
    for (int r = 0; r < rows; ++r) AddRow(&m);
    return m;
  }

  Mutation ForCounterTable() {
    Mutation m("ks", "c", {Value::Int(Pick(3))});
    RowBuilder row = OneIn(2) ? m.Update({}) : m.Insert({});
    if (OneIn(2)) {
      row.SetCounter("n", Pick(10));
    } else {
      row.Set("n", Value::Counter(Pick(10)));
    }
    return m;
  }

  Mutation ForKeyValueTable() {
    Mutation m("ks", "kv", {Value::Text(OneIn(10) ? "" : "key")});
    RowBuilder row =
        OneIn(2) ? m.Insert(OneIn(10) ? std::vector<Value>{Value::Int(1)} : std::vector<Value>{})
                 : m.Update({});
    if (!OneIn(5)) row.Set("v", Value::Blob(OneIn(3) ? "" : "bytes"));
    return m;
  }

 private:
  UuidBytes Uuid() {
    UuidBytes u{};
    u[0] = static_cast<uint8_t>(Pick(3));
    return u;
  }

  void AddRow(Mutation* m) {
    std::vector<Value> clustering = {Value::Timestamp(1700000000000 + Pick(3)),
                                     Value::Int(Pick(2))};
    if (OneIn(15)) clustering.pop_back();
    if (OneIn(30)) clustering.clear();
    if (OneIn(30)) clustering[0] = Value::Bigint(1);
    if (OneIn(15)) {
      m->DeleteRow(std::move(clustering));
      return;
    }
    RowBuilder row = OneIn(2) ? m->Insert(std::move(clustering)) : m->Update(std::move(clustering));
    const int columns = Pick(5);
    for (int c = 0; c < columns; ++c) {
      switch (Pick(14)) {
        case 0:
        case 1:
          row.Set("temperature", Value::Double(20.5 + Pick(3)));
          break;
        case 2:
        case 3:
          row.Set("tag", Value::Text(OneIn(4) ? "" : "zone-00000000042"));
          break;
        case 4:
          row.Set("flag", OneIn(6) ? Value::FromBytes(DataType::Boolean(), "\x02")
                                   : Value::Boolean(OneIn(2)));
          break;
        case 5:
          row.Set("blob", Value::Blob(std::string(Pick(3) * 40, 'b')));
          break;
        case 6:
          row.Set("frozen", Value::List(DataType::Int(), {Value::Int(1), Value::Int(2)}));
          break;
        case 7:
          row.Set("tags", Value::Set(DataType::Text(), {Value::Text("a")}));
          break;
        case 8:
          row.Set("note", Value::Text("static"));
          break;
        case 9:
          row.SetNull("temperature");
          break;
        case 10:
          row.Set("temperature", Value::Null());
          break;
        case 11:
          row.Set("temperature", Value::Float(1.5f));  // mistyped
          break;
        case 12:
          row.Set("missing", Value::Int(1));
          break;
        default:
          row.Set("at", Value::Timestamp(1));  // a key column
          break;
      }
    }
  }

  std::mt19937_64 rng_;
};

struct Outcomes {
  int plain = 0;
  int full = 0;
  int rejected = 0;
};

void Check(const TableSchema& schema, const Mutation& mutation, int64_t timestamp,
           Outcomes* outcomes) {
  const ConversionContext context{schema.id(), timestamp, 1700000000};
  PartitionUpdate update;
  const Status full = ConvertMutation(schema, mutation, context, &update);
  PlainMutation plain;
  if (!ConvertPlainMutation(schema, mutation, context, &plain)) {
    ++(full.ok() ? outcomes->full : outcomes->rejected);
    return;
  }
  ++outcomes->plain;
  ASSERT_TRUE(full.ok()) << "the plain conversion accepted what the full one rejects: "
                         << full.ToString();
  const PlainRowWrite write = plain.write();
  PartitionUpdate want;
  want.table_id = schema.id();
  want.key = DecoratedKey::FromKey(std::string(write.key));
  want.rows.push_back(write.row.ToRow(write.clustering));
  ASSERT_EQ(update, want);
  EXPECT_EQ(write.token, Murmur3Token(write.key));
  EXPECT_EQ(write.token, update.key.token);
}

TEST(MutationConverterTest, PlainConversionAgreesWithTheFullOne) {
  const TableSchema tables[] = {TestTable(), CounterTable(), KeyValueTable()};
  MutationGenerator gen(20261122);
  Outcomes outcomes[3];
  for (int i = 0; i < 20000; ++i) {
    const int t = i % 3 == 0 ? 0 : (i % 3 == 1 ? (gen.OneIn(3) ? 1 : 0) : (gen.OneIn(3) ? 2 : 0));
    const Mutation m =
        t == 0 ? gen.ForTestTable() : (t == 1 ? gen.ForCounterTable() : gen.ForKeyValueTable());
    SCOPED_TRACE("mutation " + std::to_string(i));
    Check(tables[t], m, gen.OneIn(10) ? -5 : 1700000000000000 + gen.Pick(3), &outcomes[t]);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Each kind of outcome happened, so the comparison above was not vacuous.
  EXPECT_GT(outcomes[0].plain, 1000);
  EXPECT_GT(outcomes[0].full, 100);
  EXPECT_GT(outcomes[0].rejected, 100);
  EXPECT_EQ(outcomes[1].plain, 0) << "counters are never plain";
  EXPECT_GT(outcomes[2].plain, 100);
}

TEST(MutationConverterTest, TooManyClusteringValuesIsAnError) {
  const TableSchema kv = KeyValueTable();  // no clustering column: this once read out of bounds
  Mutation m("ks", "kv", {Value::Text("key")});
  m.Insert({Value::Int(1)}).Set("v", Value::Blob("x"));
  PartitionUpdate update;
  Status s = ConvertMutation(kv, m, {kv.id(), 1, 1}, &update);
  EXPECT_TRUE(s.IsInvalidRequest());
  EXPECT_EQ(s.message(), "Too many clustering values: the table has 0 clustering columns");

  const TableSchema t = TestTable();
  Mutation three("ks", "t", {Value::Uuid(UuidBytes{}), Value::Date(1)});
  three.Update({Value::Timestamp(1), Value::Int(1), Value::Int(1)}).Set("tag", Value::Text("x"));
  PartitionUpdate other;
  s = ConvertMutation(t, three, {t.id(), 1, 1}, &other);
  EXPECT_TRUE(s.IsInvalidRequest());
  EXPECT_EQ(s.message(), "Too many clustering values: the table has 2 clustering columns");
}

TEST(MutationConverterTest, TimeSeriesInsertsArePlain) {
  const TableSchema schema = TestTable();
  Mutation m("ks", "t", {Value::Uuid(UuidBytes{1, 2, 3}), Value::Date(19723)});
  m.Insert({Value::Timestamp(1704067200000), Value::Int(0)})
      .Set("tag", Value::Text("zone-00000000001"))  // out of id order: sorted
      .Set("temperature", Value::Double(21.5));
  PlainMutation plain;
  ASSERT_TRUE(ConvertPlainMutation(schema, m, {schema.id(), 1704067200000000, 1704067200}, &plain));
  EXPECT_TRUE(plain.has_marker);
  EXPECT_EQ(plain.ttl, 0);
  ASSERT_EQ(plain.columns.size(), 2u);
  EXPECT_EQ(plain.columns[0].id, schema.Find("temperature")->id);
  EXPECT_EQ(plain.columns[1].id, schema.Find("tag")->id);
  EXPECT_EQ(plain.columns[1].value, "zone-00000000001");

  m.UsingTtl(60);
  ASSERT_TRUE(ConvertPlainMutation(schema, m, {schema.id(), 1704067200000000, 1704067200}, &plain));
  EXPECT_EQ(plain.ttl, 60);
  EXPECT_EQ(plain.expiry, 1704067260);
}

}  // namespace
}  // namespace cassette
