// The shell driven in-process on a MemFileSystem: directives, output,
// errors, exit codes. Data is written through the C++ API so these tests do
// not depend on the CQL executors; cql_shell_test.cc covers CQL.
#include "tools/shell.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z
constexpr int64_t kHour = 3600LL * 1000000;

class ShellTest : public ::testing::Test {
 protected:
  static ShellSettings Settings(OutputFormat format = OutputFormat::kJson) {
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kStart;
    settings.format = format;
    return settings;
  }

  Shell& Open(const ShellSettings& settings) {
    auto shell = Shell::Open(settings, fs_, ShellIo{.out = &out_, .err = &err_, .tty = false});
    EXPECT_TRUE(shell.ok()) << shell.status().ToString();
    shell_ = std::move(shell).value();
    return *shell_;
  }

  Database& db() { return *shell_->database(); }

  void CreateTable() {
    ASSERT_TRUE(db().CreateKeyspace({.name = "ks"}).ok());
    ASSERT_TRUE(db().CreateTable(TableSchema("ks", "t")
                                     .AddPartitionKey("k", DataType::Int())
                                     .AddRegular("v", DataType::Text()))
                    .ok());
  }

  void Insert(int32_t key, int32_t ttl_seconds = 0) {
    Mutation m("ks", "t", {Value::Int(key)});
    if (ttl_seconds > 0) m.UsingTtl(ttl_seconds);
    m.Insert({}).Set("v", Value::Text("v" + std::to_string(key)));
    ASSERT_TRUE(db().Apply(m).ok());
  }

  size_t LiveRows() {
    ReadQuery query;
    query.keyspace = "ks";
    query.table = "t";
    Result<ResultSet> rows = db().Read(query);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? rows->rows.size() : 0;
  }

  int64_t SSTables() {
    Result<TableStats> stats = db().GetTableStats("ks", "t");
    EXPECT_TRUE(stats.ok()) << stats.status().ToString();
    return stats.ok() ? stats->sstable_count : -1;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::ostringstream out_;
  std::ostringstream err_;
  std::unique_ptr<Shell> shell_;
};

// Opening prints what recovery found on standard error; damage the open
// refuses by default is replayed past with --commit-failure-policy ignore.
TEST_F(ShellTest, OpenReportsRecoveryAndTakesTheCommitFailurePolicy) {
  ShellSettings settings = Settings();
  settings.commitlog_sync = CommitLogSync::kBatch;
  Open(settings);
  CreateTable();
  for (int k = 0; k < 3; ++k) Insert(k);
  shell_.reset();  // closes: the log is sealed
  auto names = fs_->GetChildren("/data/commitlog");
  ASSERT_TRUE(names.ok() && names->size() == 1);
  const std::string segment = "/data/commitlog/" + names->front();
  auto bytes = fs_->NewRandomAccessFile(segment);
  ASSERT_TRUE(bytes.ok());
  std::string data;
  ASSERT_TRUE((*bytes)->Read(0, (*bytes)->Size(), &data).ok());
  data[30] ^= 0x10;  // inside the first record
  auto file = fs_->NewWritableFile(segment);
  ASSERT_TRUE(file.ok() && (*file)->Append(data).ok() && (*file)->Close().ok());
  auto notes = fs_->NewWritableFile("/data/notes.txt");
  ASSERT_TRUE(notes.ok() && (*notes)->Close().ok());

  auto refused = Shell::Open(settings, fs_, ShellIo{.out = &out_, .err = &err_, .tty = false});
  ASSERT_TRUE(refused.status().IsCorruption()) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("commit_failure_policy stop"), std::string::npos);

  settings.commit_failure_policy = CommitFailurePolicy::kIgnore;
  Open(settings);
  EXPECT_EQ(LiveRows(), 2u);
  const std::string err = err_.str();
  EXPECT_NE(err.find("cassette: warning: commit log segment " + segment +
                     ": record payload checksum mismatch at offset 20 skipped"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("cassette: warning: 1 commit-log records known lost"), std::string::npos)
      << err;
  EXPECT_NE(err.find("cassette: warning: /data/notes.txt is not a file this database accounts "
                     "for; left alone"),
            std::string::npos)
      << err;
}

TEST_F(ShellTest, ClockAdvanceExpiresTtlData) {
  Shell& shell = Open(Settings());
  CreateTable();
  Insert(1, /*ttl_seconds=*/3600);
  Insert(2);
  shell.RunScript("CLOCK ADVANCE 59 MINUTES;", "<stdin>");
  EXPECT_EQ(LiveRows(), 2u);
  shell.RunScript("clock advance 1 minute;", "<stdin>");
  EXPECT_EQ(LiveRows(), 1u);
  EXPECT_EQ(db().NowMicros(), kStart + kHour);
  shell.RunScript("CLOCK SET '2024-01-16T00:00:00Z';", "<stdin>");
  EXPECT_EQ(db().NowMicros(), kStart + 24 * kHour);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, ClockNeverGoesBackwards) {
  Shell& shell = Open(Settings());
  shell.RunScript("CLOCK ADVANCE 1 HOURS;\nCLOCK SET '2024-01-15T00:30:00Z';", "<stdin>");
  EXPECT_EQ(out_.str(),
            "{\"error\":\"InvalidRequest\",\"message\":\"CLOCK SET '2024-01-15T00:30:00Z' is "
            "before the clock (2024-01-15T01:00:00Z): the clock never goes backwards\"}\n");
  EXPECT_EQ(db().NowMicros(), kStart + kHour);
  EXPECT_EQ(shell.failed_statements(), 1);
  EXPECT_EQ(shell.ExitCode(), 1);
}

TEST_F(ShellTest, ClockNeedsAManualClock) {
  ShellSettings settings = Settings();
  settings.manual_clock_micros.reset();
  Shell& shell = Open(settings);
  shell.RunScript("CLOCK ADVANCE 1 HOURS;", "<stdin>");
  EXPECT_EQ(out_.str(),
            "{\"error\":\"InvalidRequest\",\"message\":\"CLOCK ADVANCE needs a manual clock: start "
            "the shell with --clock manual:<ISO-8601>\"}\n");
  EXPECT_EQ(shell.ExitCode(), 1);
}

TEST_F(ShellTest, ClockRejectsTextThatIsNotATime) {
  Shell& shell = Open(Settings());
  shell.RunScript("CLOCK SET 'noon';", "<stdin>");
  EXPECT_EQ(out_.str(),
            "{\"error\":\"InvalidRequest\",\"message\":\"'noon' is not an ISO-8601 time (e.g. "
            "2024-01-15T00:00:00Z)\"}\n");
}

TEST_F(ShellTest, FlushWritesSSTables) {
  Shell& shell = Open(Settings());
  CreateTable();
  Insert(1);
  EXPECT_EQ(SSTables(), 0);
  shell.RunScript("FLUSH ks.t;", "<stdin>");
  EXPECT_EQ(SSTables(), 1);
  Insert(2);
  shell.RunScript("flush;", "<stdin>");
  EXPECT_EQ(SSTables(), 2);
  EXPECT_EQ(LiveRows(), 2u);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, CompactMajorMergesTheTable) {
  Shell& shell = Open(Settings());
  CreateTable();
  for (int key = 0; key < 3; ++key) {
    Insert(key);
    shell.RunScript("FLUSH ks.t;", "<stdin>");
  }
  EXPECT_EQ(SSTables(), 3);
  // Three SSTables are below STCS's min_threshold: nothing to do.
  shell.RunScript("COMPACT ks.t; COMPACT;", "<stdin>");
  EXPECT_EQ(SSTables(), 3);
  shell.RunScript("COMPACT MAJOR ks.t;", "<stdin>");
  EXPECT_EQ(SSTables(), 1);
  EXPECT_EQ(LiveRows(), 3u);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, TableDirectivesNeedAKeyspaceAndAnExistingTable) {
  Shell& shell = Open(Settings());
  CreateTable();
  shell.RunScript("FLUSH t;\nCOMPACT ks.nosuch;", "<stdin>");
  const std::string out = out_.str();
  EXPECT_EQ(out.substr(0, out.find('\n') + 1),
            "{\"error\":\"InvalidRequest\",\"message\":\"No keyspace has been specified. USE a "
            "keyspace, or explicitly specify keyspace.tablename\"}\n");
  EXPECT_EQ(out.find("{\"error\":", out.find('\n') + 1), out.find('\n') + 1) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
  EXPECT_EQ(shell.failed_statements(), 2);
}

TEST_F(ShellTest, TableModeErrorsNameTheSourceLine) {
  Shell& shell = Open(Settings(OutputFormat::kTable));
  shell.RunScript("CLOCK ADVANCE 1 HOURS;\n\nCLOCK SET\n  '2000-01-01';\nFLUSH t;", "s.cql");
  EXPECT_EQ(err_.str(),
            "s.cql:4:CLOCK SET '2000-01-01' is before the clock (2024-01-15T01:00:00Z): the clock "
            "never goes backwards\n"
            "s.cql:5:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"No "
            "keyspace has been specified. USE a keyspace, or explicitly specify "
            "keyspace.tablename\"\n");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 1);
}

TEST_F(ShellTest, TerminalErrorsHaveNoLocation) {
  auto terminal = Shell::Open(Settings(OutputFormat::kTable), NewMemFileSystem(),
                              ShellIo{.out = &out_, .err = &err_, .tty = true});
  ASSERT_TRUE(terminal.ok());
  (*terminal)->FeedLine("CLOCK ADVANCE x HOURS;");
  EXPECT_EQ(err_.str(),
            "Improper CLOCK command. Usage: CLOCK SET '<ISO-8601>'; or CLOCK ADVANCE <n> "
            "SECONDS|MINUTES|HOURS|DAYS;\n");
}

TEST_F(ShellTest, FailFastStopsAtTheFirstFailure) {
  const std::string script =
      "CLOCK ADVANCE 1 HOURS;\nCLOCK SET '2000-01-01';\nCLOCK ADVANCE 1 HOURS;\nCLOCK SET 'x';\n";
  {
    Shell& shell = Open(Settings());
    shell.RunScript(script, "<stdin>");
    EXPECT_EQ(db().NowMicros(), kStart + 2 * kHour);
    EXPECT_EQ(shell.failed_statements(), 2);
  }
  ShellSettings settings = Settings();
  settings.data_dir = "/other";
  settings.fail_fast = true;
  out_.str("");
  Shell& shell = Open(settings);
  shell.RunScript(script, "<stdin>");
  EXPECT_TRUE(shell.stopped());
  EXPECT_EQ(db().NowMicros(), kStart + kHour);
  EXPECT_EQ(shell.failed_statements(), 1);
  EXPECT_EQ(shell.ExitCode(), 1);
  const std::string out = out_.str();
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
}

TEST_F(ShellTest, IncompleteStatementAtEndOfInput) {
  Shell& shell = Open(Settings(OutputFormat::kTable));
  shell.RunScript("CLOCK ADVANCE 1 HOURS;\nCLOCK ADVANCE 1 HOURS", "f.cql");
  EXPECT_EQ(err_.str(), "f.cql:2:Incomplete statement at end of file\n");
  EXPECT_EQ(db().NowMicros(), kStart + kHour);
  EXPECT_EQ(shell.ExitCode(), 1);
}

TEST_F(ShellTest, CqlshCommandsPrintWhatCqlshPrints) {
  Shell& shell = Open(Settings(OutputFormat::kTable));
  shell.RunScript(
      "TRACING ON;\nTRACING ON;\nTRACING\nTRACING OFF;\nTRACING OFF;\n"
      "PAGING;\nPAGING 50;\nPAGING OFF;\nPAGING ON;\n"
      "EXPAND ON;\nEXPAND OFF;\n"
      "CONSISTENCY;\nCONSISTENCY local_quorum;\nCONSISTENCY\n"
      "SERIAL CONSISTENCY;\nSERIAL CONSISTENCY LOCAL_SERIAL;\n",
      "<stdin>");
  EXPECT_EQ(out_.str(),
            "Now Tracing is enabled\n"
            "Tracing is currently enabled. Use TRACING OFF to disable\n"
            "Disabled Tracing.\n"
            "Query paging is currently enabled. Use PAGING OFF to disable\n"
            "Page size: 100\n"
            "Page size: 50\n"
            "Disabled Query paging.\n"
            "Now Query paging is enabled\n"
            "Page size: 100\n"
            "Now Expanded output is enabled\n"
            "Disabled Expanded output.\n"
            "Current consistency level is ONE.\n"
            "Consistency level set to LOCAL_QUORUM.\n"
            "Current consistency level is LOCAL_QUORUM.\n"
            "Current serial consistency level is SERIAL.\n"
            "Serial consistency level set to LOCAL_SERIAL.\n");
  EXPECT_EQ(err_.str(),
            "Tracing is already enabled. Use TRACING OFF to disable.\n"
            "Tracing is not enabled.\n");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, JsonModePrintsNothingForDirectives) {
  Shell& shell = Open(Settings());
  shell.RunScript("TRACING ON; PAGING 10; EXPAND ON; CONSISTENCY ALL; CLOCK; FLUSH;", "<stdin>");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, ClockShowsTheTimeInTableMode) {
  Shell& shell = Open(Settings(OutputFormat::kTable));
  shell.RunScript("CLOCK ADVANCE 90 SECONDS; CLOCK;", "<stdin>");
  EXPECT_EQ(out_.str(), "Clock: 2024-01-15T00:01:30Z (manual)\n");
}

TEST_F(ShellTest, SourceRunsAFileAndLocatesItsErrors) {
  TempDir dir;
  const std::string path = dir.Join("more.cql");
  std::ofstream(path) << "-- advance a day\nCLOCK ADVANCE 1 DAYS;\nCLOCK SET '2000-01-01';\n";
  Shell& shell = Open(Settings(OutputFormat::kTable));
  shell.RunScript("SOURCE '" + path + "';\nCLOCK ADVANCE 1 HOURS;", "main.cql");
  EXPECT_EQ(db().NowMicros(), kStart + 25 * kHour);
  EXPECT_EQ(err_.str(), path +
                            ":3:CLOCK SET '2000-01-01' is before the clock (2024-01-16T00:00:00Z): "
                            "the clock never goes backwards\n");
  shell.RunScript("SOURCE '" + dir.Join("missing.cql") + "';", "main.cql");
  EXPECT_NE(err_.str().find("main.cql:1:Could not open '" + dir.Join("missing.cql") +
                            "': No such file or directory\n"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(shell.failed_statements(), 2);
}

TEST_F(ShellTest, StatementsSpanLinesAndComments) {
  Shell& shell = Open(Settings());
  shell.RunScript(
      "-- a comment line\n"
      "CLOCK -- the clock\n"
      "  ADVANCE /* how far */ 1\n"
      "HOURS; CLOCK\n"
      "ADVANCE\n"
      "1 HOURS; /* done */\n",
      "<stdin>");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(db().NowMicros(), kStart + 2 * kHour);
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, ExitStopsReading) {
  Shell& shell = Open(Settings());
  shell.RunScript("EXIT;\nCLOCK ADVANCE 1 HOURS;", "<stdin>");
  EXPECT_TRUE(shell.stopped());
  EXPECT_EQ(db().NowMicros(), kStart);
  EXPECT_EQ(shell.ExitCode(), 0);
}

TEST_F(ShellTest, PromptShowsAnUnfinishedStatement) {
  Shell& shell = Open(Settings());
  EXPECT_EQ(shell.Prompt(), "cassette> ");
  shell.FeedLine("CLOCK ADVANCE");
  EXPECT_EQ(shell.Prompt(), "   ... ");
  shell.FeedLine("  2 HOURS;");
  EXPECT_EQ(shell.Prompt(), "cassette> ");
  EXPECT_EQ(db().NowMicros(), kStart + 2 * kHour);
  shell.FeedLine("CLOCK ADVANCE");
  shell.FinishInput();
  EXPECT_EQ(out_.str(),
            "{\"error\":\"SyntaxException\",\"message\":\"Incomplete statement at end of "
            "file\"}\n");
}

TEST_F(ShellTest, ReopensItsDataDirectory) {
  {
    Shell& shell = Open(Settings());
    CreateTable();
    Insert(7);
    ASSERT_TRUE(shell.Close().ok());
  }
  Open(Settings());
  EXPECT_EQ(LiveRows(), 1u);
}

}  // namespace
}  // namespace cassette::tools
