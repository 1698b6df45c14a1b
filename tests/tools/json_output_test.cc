// The shell's --format json lines (README.md, "The cassette shell", and docs/TOOLS.md).
#include "tools/json_output.h"

#include <gtest/gtest.h>

namespace cassette::tools {
namespace {

TEST(JsonOutputTest, RowsInColumnOrderWithSelectJsonValues) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.columns = {{"sensor", DataType::Text()},
                    {"ts", DataType::Timestamp()},
                    {"v", DataType::Float()},
                    {"b", DataType::Blob()},
                    {"ttl(v)", DataType::Int()}};
  result.rows = {{Value::Text("s\"1"), Value::Timestamp(1705313700000), Value::Float(21.3f),
                  Value::Blob("\x01\x02"), Value::Null(DataType::Int())}};
  EXPECT_EQ(JsonRowsLine(result),
            "[{\"sensor\":\"s\\\"1\",\"ts\":\"2024-01-15 10:15:00.000Z\",\"v\":21.3,"
            "\"b\":\"0x0102\",\"ttl(v)\":null}]");
}

TEST(JsonOutputTest, NoRowsIsAnEmptyArray) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.columns = {{"k", DataType::Int()}};
  EXPECT_EQ(JsonRowsLine(result), "[]");
}

TEST(JsonOutputTest, SeveralRows) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.columns = {{"k", DataType::Int()}, {"tags", DataType::Set(DataType::Text())}};
  result.rows = {{Value::Int(1), Value::Set(DataType::Text(), {Value::Text("a")})},
                 {Value::Int(2), Value::Null(DataType::Set(DataType::Text()))}};
  EXPECT_EQ(JsonRowsLine(result), "[{\"k\":1,\"tags\":[\"a\"]},{\"k\":2,\"tags\":null}]");
}

TEST(JsonOutputTest, ErrorLineCarriesCassandrasClass) {
  EXPECT_EQ(JsonErrorLine(Status::InvalidRequest("Undefined column name d in table ks.t")),
            "{\"error\":\"InvalidRequest\",\"message\":\"Undefined column name d in table ks.t\"}");
  EXPECT_EQ(JsonErrorLine(Status::SyntaxError("line 1:0 no viable alternative at input 'x'")),
            "{\"error\":\"SyntaxException\",\"message\":\"line 1:0 no viable alternative at "
            "input 'x'\"}");
  EXPECT_EQ(JsonErrorLine(Status::ConfigurationError("bad")),
            "{\"error\":\"ConfigurationException\",\"message\":\"bad\"}");
  EXPECT_EQ(
      JsonErrorLine(Status::AlreadyExists("Cannot add existing keyspace \"ks\"")),
      "{\"error\":\"AlreadyExists\",\"message\":\"Cannot add existing keyspace \\\"ks\\\"\"}");
}

TEST(JsonOutputTest, TraceLineStartsWithTheDesignKeys) {
  ReadStats stats;
  stats.partitions_read = 2;
  stats.sstables_read = 3;
  stats.live_rows = 4;
  stats.tombstone_cells = 5;
  stats.sstables_skipped = 6;
  stats.memtables_read = 1;
  stats.blocks_read = 7;
  EXPECT_EQ(JsonTraceLine(stats),
            "{\"trace\":{\"partitions_read\":2,\"sstables_read\":3,\"live_rows\":4,"
            "\"tombstone_cells\":5,\"sstables_skipped\":6,\"memtables_read\":1,"
            "\"blocks_read\":7}}");
}

}  // namespace
}  // namespace cassette::tools
