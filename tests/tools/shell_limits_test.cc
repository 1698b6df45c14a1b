// The shell's bounded memory: a SELECT is printed a page at a time, as
// cqlsh's print_result does (cqlshlib/cqlshmain.py: print_all prints each
// page with its own column widths, the header once unless on a terminal,
// EXPAND rows numbered on across pages); its input is read a line at a time
// and a statement past native_transport_max_frame_size is refused without
// reading the rest; the manual clock stays where the engine can count it.
#include <gtest/gtest.h>

#include <sstream>
#include <streambuf>
#include <string>

#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));\n";

// An input that never ends and has no newline, as /dev/zero; counts what
// was read from it.
class EndlessZeros : public std::streambuf {
 public:
  EndlessZeros() { setg(block_, block_, block_ + sizeof(block_)); }
  uint64_t bytes_read() const { return refills_ * sizeof(block_); }

 protected:
  int_type underflow() override {
    ++refills_;
    setg(block_, block_, block_ + sizeof(block_));
    return traits_type::to_int_type(block_[0]);
  }

 private:
  char block_[4096] = {};
  uint64_t refills_ = 1;
};

class ShellLimitsTest : public ::testing::Test {
 protected:
  Shell& Open(OutputFormat format, bool tty = false) {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    settings.format = format;
    auto shell =
        Shell::Open(settings, NewMemFileSystem(), ShellIo{.out = &out_, .err = &err_, .tty = tty});
    EXPECT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    return *shell_;
  }

  // Rows whose widths differ by page: c = 1, 2, 300, 4, 5 with v of
  // growing length.
  static std::string Fill() {
    std::string script = kSchema;
    const char* values[] = {"a", "bb", "ccc", "dddd", "eeeee"};
    const int clustering[] = {1, 2, 300, 4, 5};
    for (int i = 0; i < 5; ++i) {
      script += "INSERT INTO t (k, c, v) VALUES (1, " + std::to_string(clustering[i]) + ", '" +
                values[i] + "');\n";
    }
    return script;
  }

  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

TEST_F(ShellLimitsTest, TablePagesHaveTheirOwnWidthsAndOneHeader) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript(Fill() + "PAGING 2;\nSELECT k, c, v FROM t WHERE k = 1;\n", "<stdin>");
  // Pages: (1, 2), (4, 5), (300): cassette's clustering order is numeric.
  EXPECT_EQ(out_.str(),
            "Page size: 2\n"
            "\n"
            " k | c | v\n"
            "---+---+----\n"
            " 1 | 1 |  a\n"
            " 1 | 2 | bb\n"
            " 1 | 4 |  dddd\n"
            " 1 | 5 | eeeee\n"
            " 1 | 300 | ccc\n"
            "\n"
            "(5 rows)\n");
  EXPECT_EQ(err_.str(), "");
}

TEST_F(ShellLimitsTest, OnePageTablePrintsAsBefore) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript(Fill() + "SELECT k, c, v FROM t WHERE k = 1;\n", "<stdin>");
  EXPECT_EQ(out_.str(),
            "\n"
            " k | c   | v\n"
            "---+-----+-------\n"
            " 1 |   1 |     a\n"
            " 1 |   2 |    bb\n"
            " 1 |   4 |  dddd\n"
            " 1 |   5 | eeeee\n"
            " 1 | 300 |   ccc\n"
            "\n"
            "(5 rows)\n");
}

TEST_F(ShellLimitsTest, OnATerminalEveryPageHasItsHeader) {
  Shell& shell = Open(OutputFormat::kTable, /*tty=*/true);
  shell.RunScript(Fill() + "PAGING 3;\nSELECT c FROM t WHERE k = 1;\n", "<stdin>");
  EXPECT_EQ(out_.str(),
            "Page size: 3\n"
            "\n"
            " c\n"
            "---\n"
            " 1\n"
            " 2\n"
            " 4\n"
            "\n"
            " c\n"
            "-----\n"
            "   5\n"
            " 300\n"
            "\n"
            "(5 rows)\n");
}

TEST_F(ShellLimitsTest, ExpandNumbersRowsAcrossPages) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript(Fill() + "PAGING 2;\nEXPAND ON;\nSELECT c FROM t WHERE k = 1 LIMIT 3;\n",
                  "<stdin>");
  EXPECT_EQ(out_.str(),
            "Page size: 2\n"
            "Now Expanded output is enabled\n"
            "\n"
            "@ Row 1\n"
            "---+---\n"
            " c | 1\n"
            "\n"
            "@ Row 2\n"
            "---+---\n"
            " c | 2\n"
            "\n"
            "@ Row 3\n"
            "---+---\n"
            " c | 4\n"
            "\n"
            "\n"
            "(3 rows)\n");
}

TEST_F(ShellLimitsTest, EmptyPagedResultPrintsItsHeader) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript(Fill() + "PAGING 2;\nSELECT c FROM t WHERE k = 7;\n", "<stdin>");
  EXPECT_EQ(out_.str(),
            "Page size: 2\n"
            "\n"
            " c\n"
            "---\n"
            "\n"
            "\n"
            "(0 rows)\n");
}

TEST_F(ShellLimitsTest, JsonLineIsTheSamePagedOrNot) {
  Shell& shell = Open(OutputFormat::kJson);
  shell.RunScript(Fill() +
                      "PAGING 2;\nSELECT c, v FROM t WHERE k = 1;\n"
                      "PAGING OFF;\nSELECT c, v FROM t WHERE k = 1;\n",
                  "<stdin>");
  const std::string line =
      "[{\"c\":1,\"v\":\"a\"},{\"c\":2,\"v\":\"bb\"},{\"c\":4,\"v\":\"dddd\"},"
      "{\"c\":5,\"v\":\"eeeee\"},{\"c\":300,\"v\":\"ccc\"}]\n";
  EXPECT_EQ(out_.str(), line + line);
}

TEST_F(ShellLimitsTest, EndlessInputIsRefusedAfterOneStatementsWorth) {
  Shell& shell = Open(OutputFormat::kTable);
  EndlessZeros zeros;
  std::istream endless(&zeros);
  shell.RunStream(endless, "/dev/zero");
  EXPECT_EQ(shell.failed_statements(), 1);
  EXPECT_EQ(err_.str(),
            "/dev/zero:1:Statement too large: more than 16777216 bytes without its end "
            "(native_transport_max_frame_size); the rest of /dev/zero is not read\n");
  // It read one statement's worth (and a block), not more.
  EXPECT_LE(zeros.bytes_read(), (16u << 20) + 8192);
  // The shell goes on.
  shell.RunScript(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};",
      "<stdin>");
  EXPECT_EQ(shell.failed_statements(), 1);
}

TEST_F(ShellLimitsTest, LongStatementAcrossLinesIsRefused) {
  Shell& shell = Open(OutputFormat::kJson);
  std::string script = "INSERT INTO ks.t (k, c, v) VALUES (1, 1, '";
  const std::string line(1 << 20, 'x');
  for (int i = 0; i < 17; ++i) script += line + "\n";
  script += "');\n";
  std::istringstream in(script);
  shell.RunStream(in, "big.cql");
  EXPECT_EQ(shell.failed_statements(), 1);
  EXPECT_NE(out_.str().find("Statement too large"), std::string::npos) << out_.str();
}

TEST_F(ShellLimitsTest, StatementOfManyLinesRuns) {
  // 100 000 lines in one statement: the shell splits statements again only
  // on lines that could end one (re-splitting on every line cost n^2).
  Shell& shell = Open(OutputFormat::kJson);
  std::string script = std::string(kSchema) + "INSERT INTO t (k, c, v) VALUES (1, 1, 'x";
  for (int i = 0; i < 100000; ++i) script += "\nline";
  script += "');\nSELECT count(*) FROM t;\n";
  std::istringstream in(script);
  shell.RunStream(in, "long.cql");
  EXPECT_EQ(shell.failed_statements(), 0) << out_.str();
  EXPECT_EQ(out_.str(), "[{\"count\":1}]\n");
  ASSERT_NE(shell.database(), nullptr);
}

TEST_F(ShellLimitsTest, StatementsFromAStreamRunAsFromText) {
  Shell& shell = Open(OutputFormat::kJson);
  std::istringstream in(Fill() + "SELECT c FROM t WHERE k = 1 AND c = 300;\nSELECT");
  shell.RunStream(in, "f.cql");
  EXPECT_EQ(out_.str(),
            "[{\"c\":300}]\n"
            "{\"error\":\"SyntaxException\",\"message\":\"Incomplete statement at end of "
            "file\"}\n");
}

TEST_F(ShellLimitsTest, ClockStaysWhereTheEngineCanCountIt) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript("CLOCK SET '2262-04-12';\nCLOCK ADVANCE 300000 DAYS;\n", "<stdin>");
  EXPECT_EQ(shell.failed_statements(), 2);
  EXPECT_EQ(err_.str(),
            "<stdin>:1:CLOCK SET 2262-04-12T00:00:00Z is outside the manual clock's range "
            "(1677-09-21T00:12:43.145Z to 2262-04-11T23:47:16.854Z)\n"
            "<stdin>:2:CLOCK ADVANCE to 2845-05-30T00:00:00Z is outside the manual clock's "
            "range (1677-09-21T00:12:43.145Z to 2262-04-11T23:47:16.854Z)\n");
}

}  // namespace
}  // namespace cassette::tools
