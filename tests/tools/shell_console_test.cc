// The shell's cqlsh console commands driven in-process: HELP, CAPTURE,
// SHOW VERSION / HOST, CLEAR, -e without its last ';', TRACING's timing,
// Ctrl-C's flag stopping a statement, and tab completion's candidates.
// Messages are cqlsh's (pylib/cqlshlib/cqlshmain.py: do_help, do_capture,
// do_show, print_result's paging loop).
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tools/shell.h"
#include "tools/shell_completion.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE readings (sensor int, c int, \"Value\" text, PRIMARY KEY (sensor, c));\n";

class ShellConsoleTest : public ::testing::Test {
 protected:
  Shell& Open(ShellIo io = {}) {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    settings.format = OutputFormat::kTable;
    io.out = &out_;
    io.err = &err_;
    auto shell = Shell::Open(settings, NewMemFileSystem(), io);
    EXPECT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    return *shell_;
  }

  void InsertRows(int count) {
    std::string batch = "BEGIN BATCH\n";
    for (int i = 0; i < count; ++i) {
      batch += "INSERT INTO readings (sensor, c, \"Value\") VALUES (1, " + std::to_string(i) +
               ", 'x');\n";
    }
    shell_->RunScript(batch + "APPLY BATCH;", "<batch>");
    out_.str("");
  }

  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

TEST_F(ShellConsoleTest, HelpListsTopicsAndExplainsOne) {
  Shell& shell = Open();
  shell.RunScript("HELP", "<stdin>");
  const std::string out = out_.str();
  // cmd.Cmd.print_topics: header, rule, names in columns.
  EXPECT_EQ(out.rfind("\nDocumented shell commands:\n==========================\nCAPTURE  ", 0), 0u)
      << out;
  EXPECT_NE(out.find("\nCQL help topics:\n================\nAGGREGATES "), std::string::npos)
      << out;
  for (const char* topic : {"CLEAR", "SHOW", "PAGING", "TRACING", "CREATE_TABLE", "SELECT"}) {
    EXPECT_NE(out.find(topic), std::string::npos) << topic;
  }
  out_.str("");
  shell.RunScript("help select;\nHELP CAPTURE", "<stdin>");
  EXPECT_EQ(out_.str().rfind("SELECT [JSON | DISTINCT] <selectors> | * FROM [<ks>.]<table>\n", 0),
            0u)
      << out_.str();
  EXPECT_NE(out_.str().find("CAPTURE '<file>';  CAPTURE OFF;  CAPTURE;\n"), std::string::npos);
  shell.RunScript("HELP NOPE", "<stdin>");
  EXPECT_EQ(err_.str(), "<stdin>:1:*** No help on NOPE\n");
}

TEST_F(ShellConsoleTest, CaptureAppendsResultsToTheFileInstead) {
  TempDir dir;
  const std::string file = dir.Join("out.txt");
  Shell& shell = Open();
  shell.RunScript(kSchema, "<schema>");
  InsertRows(2);
  shell.RunScript("CAPTURE\nCAPTURE '" + file + "'\nCAPTURE\nSELECT c FROM readings;\nCAPTURE '" +
                      file + "'\nCAPTURE OFF\nCAPTURE OFF\nSELECT count(*) FROM readings;",
                  "<stdin>");
  EXPECT_EQ(out_.str(),
            "Currently not capturing query output.\n"
            "Now capturing query output to '" +
                file +
                "'.\n"
                "Currently capturing query output to '" +
                file +
                "'.\n"
                "\n count\n-------\n     2\n\n(1 rows)\n");
  EXPECT_EQ(err_.str(), "<stdin>:5:Already capturing output to " + file +
                            ". Use CAPTURE OFF to disable.\n"
                            "<stdin>:7:Not currently capturing output.\n");
  std::ifstream captured(file);
  std::stringstream text;
  text << captured.rdbuf();
  EXPECT_EQ(text.str(), "\n c\n---\n 0\n 1\n\n(2 rows)\n");
  err_.str("");
  shell.RunScript("CAPTURE '" + dir.Join("no/such/dir/f") + "'", "<stdin>");
  EXPECT_EQ(err_.str().rfind("<stdin>:1:Could not open '" + dir.Join("no/such/dir/f") +
                                 "' for append: No such file or directory",
                             0),
            0u)
      << err_.str();
}

TEST_F(ShellConsoleTest, ShowVersionHostAndTheBanner) {
  Shell& shell = Open();
  shell.RunScript("SHOW VERSION\nshow host;\nSHOW SESSION", "<stdin>");
  EXPECT_EQ(out_.str(), "[cassette " + CassetteVersion() +
                            " | CQL spec 3.4.7 | embedded]\n"
                            "Connected to the database in /data (manual clock, now "
                            "2024-01-15T00:00:00Z).\n");
  EXPECT_EQ(err_.str(), "<stdin>:3:Improper SHOW command. Usage: SHOW VERSION; or SHOW HOST;\n");
  // /data did not exist before the shell opened it.
  EXPECT_TRUE(shell.created_data_directory());
  EXPECT_EQ(shell.Banner(),
            "Connected to the database in /data (manual clock, now 2024-01-15T00:00:00Z).\n"
            "[cassette " +
                CassetteVersion() +
                " | CQL spec 3.4.7 | embedded]\nUse HELP for help.\n"
                "Warning: /data did not exist: a new, empty database was created there (check "
                "--data).\n");
}

TEST_F(ShellConsoleTest, ClearWritesTheTerminalsEraseSequenceOnlyOnATerminal) {
  Shell& shell = Open(ShellIo{.tty = true});
  shell.FeedLine("CLEAR");
  shell.FeedLine("cls;");
  EXPECT_EQ(out_.str(), "\x1b[H\x1b[2J\x1b[H\x1b[2J");
  out_.str("");
  Shell& script = Open();
  script.RunScript("CLEAR", "<stdin>");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(script.ExitCode(), 0);
}

// cqlsh -e "SELECT ..." works without the final ';' (cqlsh appends it).
TEST_F(ShellConsoleTest, CommandLineStatementsMayLackTheLastSemicolon) {
  Shell& shell = Open();
  shell.RunCommandLine(std::string(kSchema) + "SELECT count(*) FROM readings -- no ;");
  EXPECT_EQ(out_.str(), "\n count\n-------\n     0\n\n(1 rows)\n");
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
  out_.str("");
  shell.RunCommandLine("SELECT 'unterminated FROM readings");
  EXPECT_NE(err_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 1);
}

// cqlsh's trace ends with the request's elapsed microseconds; every traced
// statement gets it.
TEST_F(ShellConsoleTest, TracingShowsTheStatementsTime) {
  Shell& shell = Open();
  shell.RunScript(std::string(kSchema) +
                      "TRACING ON\nINSERT INTO readings (sensor, c) VALUES "
                      "(1, 1);\nSELECT c FROM readings;",
                  "<stdin>");
  const std::string out = out_.str();
  size_t at = out.find("Request complete: ");
  ASSERT_NE(at, std::string::npos) << out;
  at = out.find("Request complete: ", at + 1);
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_LT(out.find("Tracing session: read statistics"), at) << out;
  EXPECT_EQ(out.substr(out.size() - 15), " microseconds\n\n") << out;
}

// Ctrl-C sets the flag: a paged SELECT stops after the page it is on, the
// statements after it on the line are dropped, and the shell goes on.
TEST_F(ShellConsoleTest, InterruptStopsTheStatementBetweenPagesAndDropsTheRest) {
  std::atomic<bool> interrupted{false};
  int pages_asked = 0;
  Shell& shell = Open(ShellIo{.tty = true, .interrupted = &interrupted, .more = [&] {
                                ++pages_asked;
                                interrupted.store(true);  // Ctrl-C at ---MORE---
                                return false;
                              }});
  for (const char* line : {"CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                           "'replication_factor': 1};",
                           "USE ks;",
                           "CREATE TABLE readings (sensor int, c int, PRIMARY KEY "
                           "(sensor, c));"}) {
    shell.FeedLine(line);
  }
  std::string batch = "BEGIN BATCH ";
  for (int i = 0; i < 5; ++i) {
    batch += "INSERT INTO readings (sensor, c) VALUES (1, " + std::to_string(i) + ");";
  }
  shell.FeedLine(batch + " APPLY BATCH;");
  shell.FeedLine("PAGING 2");
  out_.str("");
  shell.FeedLine("SELECT c FROM readings; INSERT INTO readings (sensor, c) VALUES (2, 0);");
  EXPECT_EQ(pages_asked, 1);
  EXPECT_EQ(out_.str(), "\n c\n---\n 0\n 1\n\n\n") << out_.str();
  EXPECT_EQ(shell.ExitCode(), 0);
  interrupted.store(false);
  out_.str("");
  shell.FeedLine("PAGING OFF");
  shell.FeedLine("SELECT count(*) FROM readings WHERE sensor = 2;");
  EXPECT_NE(out_.str().find("\n     0\n"), std::string::npos) << out_.str();
  EXPECT_EQ(shell.Prompt(), "cassette:ks> ");
  // A line being typed is dropped with Ctrl-C.
  shell.FeedLine("SELECT c");
  EXPECT_EQ(shell.Prompt(), "   ... ");
  shell.CancelInput();
  EXPECT_EQ(shell.Prompt(), "cassette:ks> ");
}

// The CQL layer's cancellation point: an aggregate over many rows stops
// once the flag is set (CqlQueryOptions::cancel).
TEST_F(ShellConsoleTest, CancelledAggregateFailsWithStatementCancelled) {
  Shell& shell = Open();
  shell.RunScript(kSchema, "<schema>");
  InsertRows(3);
  std::atomic<bool> cancel{true};
  CqlQueryOptions options;
  options.cancel = &cancel;
  Result<CqlResult> counted =
      shell.session()->Execute("SELECT count(*) FROM readings", {}, options);
  ASSERT_FALSE(counted.ok());
  EXPECT_EQ(counted.status().message(), "Statement cancelled");
  Result<CqlResult> listed = shell.session()->Execute("SELECT * FROM readings", {}, options);
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().message(), "Statement cancelled");
  cancel.store(false);
  counted = shell.session()->Execute("SELECT count(*) FROM readings", {}, options);
  ASSERT_TRUE(counted.ok()) << counted.status().ToString();
  EXPECT_EQ(counted->rows[0][0].ToString(), "3");
}

// STATS: `cassette stats`' report from the open database, whose
// compaction history is this process's.
TEST_F(ShellConsoleTest, StatsShowsTheOpenDatabasesCompactionHistory) {
  Shell& shell = Open();
  shell.RunScript(kSchema, "<schema>");
  InsertRows(2);
  shell.RunScript(
      "FLUSH ks.readings;\nINSERT INTO readings (sensor, c) VALUES (2, 0);\n"
      "FLUSH;\nCOMPACT MAJOR ks.readings;\nSTATS readings",
      "<stdin>");
  const std::string out = out_.str();
  EXPECT_EQ(out.rfind("Keyspace : ks\n\t\tTable: readings\n\t\tSSTable count: 1\n", 0), 0u) << out;
  EXPECT_NE(out.find("\t\tSSTables:\n\t\t\t3: level 0, "), std::string::npos) << out;
  EXPECT_NE(out.find("Compaction history (last 7 days, at most 100; nodetool compactionhistory):\n"
                     "\t\t\t2024-01-15T00:00:00Z: major; [1, 2] -> [3]; bytes in "),
            std::string::npos)
      << out;
  EXPECT_EQ(err_.str(), "");
  shell.RunScript("STATS ks.nosuch", "<stdin>");
  EXPECT_NE(err_.str().find("nosuch"), std::string::npos) << err_.str();
}

TEST_F(ShellConsoleTest, CompletionOffersKeywordsKeyspacesTablesAndColumns) {
  Shell& shell = Open();
  shell.RunScript(kSchema, "<schema>");
  const Database& db = *shell.database();
  using Words = std::vector<std::string>;
  EXPECT_EQ(CompletionCandidates(db, "", "", "SEL"), Words({"SELECT"}));
  EXPECT_EQ(CompletionCandidates(db, "", "", "sel"), Words({"select"}));
  EXPECT_EQ(CompletionCandidates(db, "", "", "CL"), Words({"CLEAR", "CLOCK", "CLS", "CLUSTERING"}));
  EXPECT_EQ(CompletionCandidates(db, "", "USE ", ""), Words({"ks"}));
  EXPECT_EQ(CompletionCandidates(db, "", "SELECT * FROM ", "k"), Words({"ks."}));
  EXPECT_EQ(CompletionCandidates(db, "ks", "SELECT * FROM ", "re"), Words({"readings"}));
  EXPECT_EQ(CompletionCandidates(db, "", "SELECT * FROM ks.", "r"), Words({"readings"}));
  EXPECT_EQ(CompletionCandidates(db, "", "INSERT INTO ks.readings (", "s"), Words({"sensor"}));
  // A name that is not lower case comes back quoted.
  EXPECT_EQ(CompletionCandidates(db, "ks", "UPDATE readings SET ", "\"V"), Words({"\"Value\""}));
  EXPECT_EQ(CompletionCandidates(db, "ks", "SELECT * FROM readings WHERE ", "c"),
            Words({"c", "capture", "cast", "clear", "clock", "cls", "clustering", "compact",
                   "compaction", "consistency", "contains", "copy", "counter", "create"}));
  // Through the shell: the unfinished statement's earlier lines count.
  shell.FeedLine("SELECT * FROM");
  EXPECT_EQ(shell.Complete(" ", "read"), Words({"readings"}));
}

}  // namespace
}  // namespace cassette::tools
