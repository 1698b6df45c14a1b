// CQL through the shell: statements from -e text, json and table output,
// CQL errors, TTL expiry with the manual clock, paging, tracing.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));\n";

class CqlShellTest : public ::testing::Test {
 protected:
  Shell& Open(OutputFormat format) {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    settings.format = format;
    auto shell = Shell::Open(settings, NewMemFileSystem(),
                             ShellIo{.out = &out_, .err = &err_, .tty = false});
    EXPECT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    return *shell_;
  }

  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

TEST_F(CqlShellTest, SeveralStatementsOneJsonLinePerSelect) {
  Shell& shell = Open(OutputFormat::kJson);
  shell.RunScript(std::string(kSchema) +
                      "INSERT INTO t (k, c, v) VALUES (1, 1, 'a'); "
                      "INSERT INTO t (k, c, v) VALUES (1, 2, 'b');\n"
                      "SELECT c, v FROM t WHERE k = 1; SELECT v AS value FROM t WHERE k = 2;",
                  "<stdin>");
  EXPECT_EQ(out_.str(),
            "[{\"c\":1,\"v\":\"a\"},{\"c\":2,\"v\":\"b\"}]\n"
            "[]\n");
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(CqlShellTest, TableOutputAsCqlsh) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript(std::string(kSchema) +
                      "INSERT INTO t (k, c, v) VALUES (1, 1, 'a');\n"
                      "INSERT INTO t (k, c, v) VALUES (1, 20, 'hello');\n"
                      "SELECT * FROM t WHERE k = 1;\n"
                      "SELECT * FROM t WHERE k = 9;\n",
                  "<stdin>");
  EXPECT_EQ(out_.str(),
            "\n"
            " k | c  | v\n"
            "---+----+-------\n"
            " 1 |  1 |     a\n"
            " 1 | 20 | hello\n"
            "\n"
            "(2 rows)\n"
            "\n"
            " k | c | v\n"
            "---+---+---\n"
            "\n"
            "\n"
            "(0 rows)\n");
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(shell.Prompt(), "cassette:ks> ");
}

TEST_F(CqlShellTest, ErrorsGoOnAndFailTheExitCode) {
  Shell& shell = Open(OutputFormat::kTable);
  shell.RunScript("SELECT * FROM t;\nCLOCK ADVANCE 1 HOURS;", "<stdin>");
  EXPECT_EQ(err_.str(),
            "<stdin>:1:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"No "
            "keyspace has been specified. USE a keyspace, or explicitly specify "
            "keyspace.tablename\"\n");
  EXPECT_EQ(shell.database()->NowMicros(), kStart + 3600LL * 1000000);
  EXPECT_EQ(shell.ExitCode(), 1);
}

TEST_F(CqlShellTest, JsonErrorLines) {
  Shell& shell = Open(OutputFormat::kJson);
  shell.RunScript(std::string(kSchema) + "SELECT d FROM t WHERE k = 1;\nSELEC * FROM t;\n" +
                      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                      "'replication_factor': 1};",
                  "<stdin>");
  std::istringstream lines(out_.str());
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  ASSERT_EQ(got.size(), 3u) << out_.str();
  EXPECT_EQ(got[0],
            "{\"error\":\"InvalidRequest\",\"message\":\"Undefined column name d in table ks.t\"}");
  EXPECT_EQ(got[1].rfind("{\"error\":\"SyntaxException\",\"message\":", 0), 0u) << got[1];
  EXPECT_EQ(got[2],
            "{\"error\":\"AlreadyExists\",\"message\":\"Cannot add existing keyspace "
            "\\\"ks\\\"\"}");
  EXPECT_EQ(shell.failed_statements(), 3);
}

TEST_F(CqlShellTest, ClockAdvanceExpiresTtlRows) {
  Shell& shell = Open(OutputFormat::kJson);
  shell.RunScript(std::string(kSchema) +
                      "INSERT INTO t (k, c, v) VALUES (1, 1, 'a') USING TTL 60;\n"
                      "INSERT INTO t (k, c, v) VALUES (1, 2, 'b');\n"
                      "FLUSH ks.t;\n"
                      "SELECT c, TTL(v) FROM t WHERE k = 1;\n"
                      "CLOCK ADVANCE 1 MINUTES;\n"
                      "SELECT c FROM t WHERE k = 1;\n"
                      "COMPACT MAJOR ks.t;\n"
                      "SELECT c FROM t WHERE k = 1;\n",
                  "<stdin>");
  EXPECT_EQ(out_.str(),
            "[{\"c\":1,\"ttl(v)\":60},{\"c\":2,\"ttl(v)\":null}]\n"
            "[{\"c\":2}]\n"
            "[{\"c\":2}]\n");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(CqlShellTest, PagingFetchesEveryPage) {
  Shell& shell = Open(OutputFormat::kJson);
  std::string script = std::string(kSchema) + "PAGING 7;\n";
  for (int c = 0; c < 30; ++c) {
    script += "INSERT INTO t (k, c, v) VALUES (1, " + std::to_string(c) + ", 'x');\n";
  }
  script += "SELECT c FROM t WHERE k = 1;\nPAGING OFF;\nSELECT c FROM t WHERE k = 1;\n";
  shell.RunScript(script, "<stdin>");
  std::istringstream lines(out_.str());
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  ASSERT_EQ(got.size(), 2u) << out_.str();
  EXPECT_EQ(got[0], got[1]);
  EXPECT_EQ(std::count(got[0].begin(), got[0].end(), '{'), 30);
}

TEST_F(CqlShellTest, TracingAddsATraceLineAfterEachRead) {
  Shell& shell = Open(OutputFormat::kJson);
  shell.RunScript(std::string(kSchema) +
                      "INSERT INTO t (k, c, v) VALUES (1, 1, 'a');\n"
                      "FLUSH;\n"
                      "TRACING ON;\n"
                      "INSERT INTO t (k, c, v) VALUES (1, 2, 'b');\n"
                      "SELECT c FROM t WHERE k = 1;\n",
                  "<stdin>");
  std::istringstream lines(out_.str());
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  ASSERT_EQ(got.size(), 2u) << out_.str();
  EXPECT_EQ(got[0], "[{\"c\":1},{\"c\":2}]");
  EXPECT_EQ(got[1].rfind("{\"trace\":{\"partitions_read\":1,\"sstables_read\":1,\"live_rows\":2,"
                         "\"tombstone_cells\":0",
                         0),
            0u)
      << got[1];
}

}  // namespace
}  // namespace cassette::tools
