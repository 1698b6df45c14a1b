// cqlsh's table layout, byte for byte (cqlshlib/cqlshmain.py).
#include "tools/table_output.h"

#include <gtest/gtest.h>

namespace cassette::tools {
namespace {

TextTable TwoRows() {
  TextTable table;
  table.names = {"k", "value"};
  table.rows = {{"1", "a"}, {"22", "hello"}};
  return table;
}

TEST(TableOutputTest, SelectNamesLeftValuesRightRowCount) {
  EXPECT_EQ(FormatSelectTable(TwoRows(), {}),
            "\n"
            " k  | value\n"
            "----+-------\n"
            "  1 |     a\n"
            " 22 | hello\n"
            "\n"
            "(2 rows)\n");
}

TEST(TableOutputTest, EmptySelectKeepsCqlshBlankLines) {
  TextTable table;
  table.names = {"k", "v"};
  // Outside a terminal cqlsh prints a blank line after the header and one
  // more before the count.
  EXPECT_EQ(FormatSelectTable(table, {}), "\n k | v\n---+---\n\n\n(0 rows)\n");
  EXPECT_EQ(FormatSelectTable(table, {.tty = true}), "\n k | v\n---+---\n\n(0 rows)\n");
}

TEST(TableOutputTest, TerminalLayoutOfRowsIsTheSame) {
  EXPECT_EQ(FormatSelectTable(TwoRows(), {.tty = true}), FormatSelectTable(TwoRows(), {}));
}

TEST(TableOutputTest, WideCharactersTakeTwoCells) {
  TextTable table;
  table.names = {"name"};
  table.rows = {{"日本"}, {"é"}};
  EXPECT_EQ(DisplayWidth("日本"), 4u);
  EXPECT_EQ(DisplayWidth("é"), 1u);
  EXPECT_EQ(FormatSelectTable(table, {}), "\n name\n------\n 日本\n    é\n\n(2 rows)\n");
}

TEST(TableOutputTest, ExpandPrintsOneBlockPerRow) {
  EXPECT_EQ(FormatSelectTable(TwoRows(), {.expand = true}),
            "\n"
            "@ Row 1\n"
            "-------+-------\n"
            " k     | 1\n"
            " value | a\n"
            "\n"
            "@ Row 2\n"
            "-------+-------\n"
            " k     | 22\n"
            " value | hello\n"
            "\n"
            "\n"
            "(2 rows)\n");
}

TEST(TableOutputTest, StatementRowsHaveNoCount) {
  TextTable table;
  table.names = {"[applied]"};
  table.rows = {{"False"}};
  EXPECT_EQ(FormatStatementRows(table, {}), "\n [applied]\n-----------\n     False\n");
}

TEST(TableOutputTest, CellsUseCqlshRendering) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.columns = {{"t", DataType::Timestamp()}, {"n", DataType::Int()}};
  result.rows = {{Value::Timestamp(1705277700000), Value::Null(DataType::Int())}};
  const TextTable table = ToTextTable(result);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.names, (std::vector<std::string>{"t", "n"}));
  EXPECT_EQ(table.rows[0][0], "2024-01-15 00:15:00.000000+0000");
  EXPECT_EQ(table.rows[0][1], "null");
}

TEST(TableOutputTest, WarningsAsCqlshPrintsThem) {
  EXPECT_EQ(FormatWarnings({}), "");
  EXPECT_EQ(FormatWarnings({"first", "second"}), "\nWarnings :\nfirst\n\nsecond\n\n");
}

TEST(TableOutputTest, ErrorsAsTheDriverReportsThem) {
  EXPECT_EQ(FormatCqlshError(Status::InvalidRequest("unconfigured table t")),
            "InvalidRequest: Error from server: code=2200 [Invalid query] "
            "message=\"unconfigured table t\"");
  EXPECT_EQ(FormatCqlshError(Status::SyntaxError("line 1:0 no viable alternative at input 'x'")),
            "SyntaxException: line 1:0 no viable alternative at input 'x'");
  EXPECT_EQ(FormatCqlshError(Status::ConfigurationError("Missing replication strategy class")),
            "ConfigurationException: Missing replication strategy class");
  EXPECT_EQ(FormatCqlshError(Status::AlreadyExists("Cannot add existing keyspace \"ks\"")),
            "AlreadyExists: Keyspace 'ks' already exists");
  EXPECT_EQ(FormatCqlshError(Status::AlreadyExists(
                "Cannot add already existing table \"t\" to keyspace \"ks\"")),
            "AlreadyExists: Table 'ks.t' already exists");
  EXPECT_EQ(FormatCqlshError(Status::ReadFailure("too many tombstones")),
            "ReadFailure: Error from server: code=1300 [Replica(s) failed to execute read] "
            "message=\"too many tombstones\"");
  EXPECT_EQ(FormatCqlshError(Status::WriteFailure("disk full")),
            "WriteFailure: Error from server: code=1500 [Replica(s) failed to execute write] "
            "message=\"disk full\"");
  EXPECT_EQ(FormatCqlshError(Status::Unavailable("Cannot achieve consistency level QUORUM")),
            "Unavailable: Error from server: code=1000 [Unavailable exception] "
            "message=\"Cannot achieve consistency level QUORUM\"");
}

TEST(TableOutputTest, ReadTraceTable) {
  ReadStats stats;
  stats.partitions_read = 1;
  stats.sstables_read = 2;
  stats.live_rows = 3;
  EXPECT_EQ(FormatReadTrace(stats, {}),
            "\nTracing session: read statistics\n\n"
            " partitions_read | sstables_read | sstables_skipped | memtables_read | live_rows | "
            "tombstone_cells | blocks_read\n"
            "-----------------+---------------+------------------+----------------+-----------+-"
            "----------------+-------------\n"
            "               1 |             2 |                0 |              0 |         3 | "
            "              0 |           0\n"
            "\n");
}

}  // namespace
}  // namespace cassette::tools
