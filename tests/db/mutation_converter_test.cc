// ConvertMutation's checks of a mutation's shape against the table.
#include "engine/db/mutation_converter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  schema.set_id(42);
  return schema;
}

// Only a partition key and regular columns: every row is the empty clustering.
TableSchema KeyValueTable() {
  TableSchema schema("ks", "kv");
  schema.AddPartitionKey("k", DataType::Text()).AddRegular("v", DataType::Blob());
  schema.set_id(44);
  return schema;
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

}  // namespace
}  // namespace cassette
