// ConvertInsertBatch against ConvertPlainMutation of the Mutations the
// batch stands for (InsertBatchMutations): when the batch conversion says
// yes, every row's write is the one the row's Mutation converts to; it says
// yes to batches of plain rows in any column order, and no whenever a row
// is not plain or not valid, so that the general path decides.
#include "engine/db/insert_batch_converter.h"
#include "engine/schema/table_schema_internals.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace cassette {
namespace {

TableSchema TestTable() {
  TableSchema schema("ks", "t");
  schema.AddPartitionKey("id", DataType::Int())
      .AddPartitionKey("day", DataType::Date())
      .AddClustering("at", DataType::Timestamp(), ClusteringOrder::kDesc)
      .AddClustering("seq", DataType::Int())
      .AddRegular("temperature", DataType::Double())
      .AddRegular("tag", DataType::Text())
      .AddRegular("tags", DataType::Set(DataType::Text()))
      .AddStatic("note", DataType::Text());
  TableSchemaInternals::SetId(schema, 42);
  return schema;
}

constexpr ConversionContext kContext{42, 1'704'067'200'000'000, 1'704'067'200};

void ExpectSameAsMutations(const TableSchema& schema, const InsertBatch& batch,
                           const ConvertedInserts& converted) {
  const std::vector<Mutation> mutations =
      InsertBatchMutations(schema, batch, batch.timestamp().value_or(kContext.timestamp));
  ASSERT_EQ(converted.writes.size(), mutations.size());
  for (size_t r = 0; r < mutations.size(); ++r) {
    SCOPED_TRACE("row " + std::to_string(r));
    PlainMutation plain;
    ASSERT_TRUE(ConvertPlainMutation(schema, mutations[r], kContext, &plain));
    const PlainRowWrite& got = converted.writes[r];
    const PlainRowWrite want = plain.write();
    EXPECT_EQ(got.token, want.token);
    EXPECT_EQ(got.key, want.key);
    EXPECT_EQ(got.clustering, want.clustering);
    EXPECT_EQ(got.row.ToRow(got.clustering), want.row.ToRow(want.clustering));
  }
}

TEST(InsertBatchConverterTest, PlainBatchesInAnyColumnOrder) {
  const TableSchema schema = TestTable();
  std::mt19937_64 rng(5);
  const std::vector<std::vector<std::string>> orders = {
      {"id", "day", "at", "seq", "temperature", "tag"},
      {"tag", "seq", "temperature", "day", "at", "id"},
      {"at", "seq", "id", "day"},  // the primary key only: the marker
      {"id", "day", "at", "seq", "tag"},
  };
  for (const auto& columns : orders) {
    for (const std::optional<int32_t> ttl :
         {std::optional<int32_t>(), std::optional<int32_t>(60)}) {
      InsertBatch batch("ks", "t", columns);
      if (ttl) batch.UsingTtl(*ttl);
      for (int r = 0; r < 20; ++r) {
        std::span<Value> row = batch.AddRow();
        for (size_t c = 0; c < columns.size(); ++c) {
          const std::string& name = columns[c];
          row[c] = name == "id"            ? Value::Int(static_cast<int32_t>(rng() % 5))
                   : name == "day"         ? Value::Date(19723)
                   : name == "at"          ? Value::Timestamp(1'704'067'200'000 + r)
                   : name == "seq"         ? Value::Int(r % 3)
                   : name == "temperature" ? Value::Double(static_cast<double>(rng() % 100))
                                           : Value::Text(std::string(rng() % 20, 'x'));
        }
      }
      ConvertedInserts converted;
      ASSERT_TRUE(ConvertInsertBatch(schema, batch, kContext, &converted));
      ExpectSameAsMutations(schema, batch, converted);
    }
  }
}

TEST(InsertBatchConverterTest, EverythingElseGoesTheGeneralWay) {
  const TableSchema schema = TestTable();
  const std::vector<Value> key = {Value::Int(1), Value::Date(19723), Value::Timestamp(5),
                                  Value::Int(0)};
  struct Case {
    const char* what;
    std::vector<std::string> columns;
    std::vector<Value> values;
    std::optional<int32_t> ttl;
  };
  const std::vector<Case> cases = {
      {"a static column", {"id", "day", "at", "seq", "note"}, {}, {}},
      {"a collection", {"id", "day", "at", "seq", "tags"}, {}, {}},
      {"an unknown column", {"id", "day", "at", "seq", "nope"}, {}, {}},
      {"a column twice", {"id", "day", "at", "seq", "tag", "tag"}, {}, {}},
      {"a key column twice", {"id", "day", "at", "seq", "id"}, {}, {}},
      {"a missing key part", {"id", "at", "seq"}, {}, {}},
      {"a missing clustering", {"id", "day", "at"}, {}, {}},
      {"a null", {"id", "day", "at", "seq", "tag"}, {Value()}, {}},
      {"a mistyped value", {"id", "day", "at", "seq", "tag"}, {Value::Int(3)}, {}},
      {"a null key", {"id", "day", "at", "seq"}, {}, {}},
      {"a negative TTL", {"id", "day", "at", "seq"}, {}, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    InsertBatch batch("ks", "t", c.columns);
    if (c.ttl) batch.UsingTtl(*c.ttl);
    std::span<Value> row = batch.AddRow();
    for (size_t i = 0; i < row.size(); ++i) {
      const ColumnDefinition* column = schema.Find(c.columns[i]);
      if (column == nullptr || column->kind == ColumnKind::kStatic ||
          column->kind == ColumnKind::kRegular) {
        row[i] = c.values.empty() ? Value::Text("v") : c.values[0];
      } else {
        const size_t position = static_cast<size_t>(column - schema.columns().data());
        row[i] = key[position];
      }
      if (c.columns[i] == "tags") row[i] = Value::Set(DataType::Text(), {Value::Text("a")});
    }
    if (std::string(c.what) == "a null key") row[0] = Value();
    ConvertedInserts converted;
    EXPECT_FALSE(ConvertInsertBatch(schema, batch, kContext, &converted));
  }
}

}  // namespace
}  // namespace cassette
