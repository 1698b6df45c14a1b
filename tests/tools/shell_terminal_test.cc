// `cassette shell` at a terminal, typed at through a pseudo-terminal as a
// person would: the banner, Ctrl-C (\x03) dropping the line being typed or
// stopping a running statement without leaving the shell (cqlsh's
// cmdloop on KeyboardInterrupt), ---MORE--- between pages, Tab completion,
// and the history file written after every line.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tests/support/temp_dir.h"
#include "tools/shell_command.h"

namespace cassette::tools {
namespace {

class ShellTerminalTest : public ::testing::Test {
 protected:
  // Starts `cassette shell --data <dir>/data --clock manual:...` in a child
  // whose standard input and output are a pseudo-terminal.
  void Start() {
    pid_ = ::forkpty(&terminal_, nullptr, nullptr, nullptr);
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      ::setenv("HOME", dir_.path().c_str(), 1);
      ::setenv("TERM", "xterm", 1);
      ::setenv("LANG", "C.UTF-8", 1);
      ShellSettings settings;
      settings.data_dir = dir_.Join("data");
      settings.manual_clock_micros = 1705276800000000;  // 2024-01-15T00:00:00Z
      ::_exit(RunShellCommand(settings));
    }
    seen_ = ReadUntil("cassette> ");
  }

  void TearDown() override {
    // What the terminal showed from the start, to tell a lost key from a
    // wrong answer.
    if (HasFailure()) std::cerr << "The terminal showed:\n" << transcript_ << "\n";
    if (pid_ > 0) {
      if (!exited_) ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (terminal_ >= 0) ::close(terminal_);
  }

  // What the terminal shows from now until `marker` appears (or what it
  // showed by the deadline, which fails the expectation that follows).
  std::string ReadUntil(const std::string& marker) {
    std::string seen;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (seen.find(marker) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd wait{terminal_, POLLIN, 0};
      if (::poll(&wait, 1, 100) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(terminal_, buffer, sizeof(buffer));
      if (n <= 0) break;
      seen.append(buffer, static_cast<size_t>(n));
      transcript_.append(buffer, static_cast<size_t>(n));
    }
    return seen;
  }

  void Type(const std::string& keys) {
    ASSERT_EQ(::write(terminal_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

  // Types `line` and Enter; what the terminal shows until the next prompt.
  std::string Enter(const std::string& line, const std::string& prompt = "cassette:ks> ") {
    Type(line + "\r");
    return ReadUntil(prompt);
  }

  void Schema() {
    Enter(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1};",
        "cassette> ");
    Enter("USE ks;");
    Enter("CREATE TABLE readings (sensor int, c int, PRIMARY KEY (sensor, c));");
    std::string batch = "BEGIN BATCH ";
    for (int i = 0; i < 12; ++i) {
      batch += "INSERT INTO readings (sensor, c) VALUES (1, " + std::to_string(i) + ");";
    }
    Enter(batch + " APPLY BATCH;");
  }

  // Types EXIT and waits (30 s at most) for the shell to end: its exit
  // status, or -1 when it did not end (TearDown then kills it) or ended on
  // a signal.
  int Exit() {
    Type("EXIT\r");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      const pid_t ended = ::waitpid(pid_, &status, WNOHANG);
      if (ended == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      if (ended < 0) return -1;
      // Meanwhile drain what the shell prints, so that it never blocks on a
      // full terminal.
      pollfd wait{terminal_, POLLIN, 0};
      if (::poll(&wait, 1, 100) > 0) {
        char buffer[4096];
        if (::read(terminal_, buffer, sizeof(buffer)) < 0) ::poll(nullptr, 0, 10);
      }
    }
    return -1;
  }

  TempDir dir_;
  pid_t pid_ = -1;
  int terminal_ = -1;
  bool exited_ = false;
  std::string seen_;
  std::string transcript_;
};

TEST_F(ShellTerminalTest, BannerNamesTheDirectoryAndClockAndWarnsOfANewOne) {
  Start();
  EXPECT_NE(seen_.find("Connected to the database in " + dir_.Join("data") +
                       " (manual clock, now 2024-01-15T00:00:00Z)."),
            std::string::npos)
      << seen_;
  EXPECT_NE(seen_.find("Use HELP for help."), std::string::npos) << seen_;
  EXPECT_NE(seen_.find("did not exist: a new, empty database was created there"), std::string::npos)
      << seen_;
  EXPECT_EQ(Exit(), 0);
}

// Ctrl-C drops the statement being typed, across its lines, and the shell
// goes on; history is on disk before the shell exits.
TEST_F(ShellTerminalTest, CtrlCDropsTheLineBeingTypedAndHistoryIsSavedAsYouGo) {
  Start();
  Type("CREATE KEYSPACE ks WITH replication =\r");
  EXPECT_NE(ReadUntil("   ... ").find("   ... "), std::string::npos);
  Type("{'class': 'SimpleStrategy'");
  // As a person would, press Ctrl-C once the line editor has shown the keys
  // (it then reads keys one at a time, Ctrl-C included).
  EXPECT_NE(ReadUntil("SimpleStrategy'").find("SimpleStrategy'"), std::string::npos);
  Type("\x03");
  // The fresh prompt shows the interrupt was handled: keys typed before
  // that could be read into the line the interrupt drops.
  EXPECT_NE(ReadUntil("cassette> ").find("cassette> "), std::string::npos);
  // Had the statement survived, this would have ended it.
  Type("       , 'replication_factor': 1};\rUSE ks;\r");
  std::string shown = ReadUntil("Keyspace 'ks' do");
  EXPECT_NE(shown.find("Keyspace 'ks' do"), std::string::npos) << shown;
  Type("SHOW VERSION\r");
  shown = ReadUntil("embedded]");
  EXPECT_NE(shown.find("[cassette "), std::string::npos) << shown;
  std::ifstream history(dir_.Join(".cassette_history"));
  std::stringstream text;
  text << history.rdbuf();
  EXPECT_NE(text.str().find("SHOW\\040VERSION"), std::string::npos) << text.str();
  EXPECT_EQ(Exit(), 1);  // the failed statements count, as in a script
}

// On a terminal a paged SELECT waits at ---MORE---: Enter shows the next
// page, Ctrl-C stops the listing and the shell goes on.
TEST_F(ShellTerminalTest, PagingPausesAtMoreAndCtrlCStopsTheListing) {
  Start();
  Schema();
  Enter("PAGING 5");
  Type("SELECT c FROM readings;\r");
  std::string shown = ReadUntil("---MORE---");
  EXPECT_NE(shown.find(" 4\r\n"), std::string::npos) << shown;
  EXPECT_EQ(shown.find(" 5\r\n"), std::string::npos) << shown;
  Type("\r");
  shown = ReadUntil("---MORE---");
  EXPECT_NE(shown.find(" 9\r\n"), std::string::npos) << shown;
  Type("\x03");
  shown = ReadUntil("cassette:ks> ");
  EXPECT_EQ(shown.find("rows)"), std::string::npos) << shown;
  EXPECT_EQ(shown.find(" 10\r\n"), std::string::npos) << shown;
  shown = Enter("SELECT count(*) FROM readings;");
  EXPECT_NE(shown.find("    12\r\n"), std::string::npos) << shown;
  EXPECT_EQ(Exit(), 0);
}

// Ctrl-C while a statement runs never ends the shell: whether it lands
// during the statement or just after, the next statement runs.
TEST_F(ShellTerminalTest, CtrlCDuringAStatementKeepsTheShell) {
  Start();
  Schema();
  Type("SELECT count(*) FROM readings;\r\x03");
  Type("SHOW HOST\r");
  const std::string shown = ReadUntil("Connected to the database in ");
  EXPECT_NE(shown.find("Connected to the database in "), std::string::npos) << shown;
  EXPECT_EQ(Exit(), 0);
}

TEST_F(ShellTerminalTest, TabCompletesKeywordsTablesAndColumns) {
  Start();
  Schema();
  Type("sel\t");
  EXPECT_NE(ReadUntil("ect ").find("ect "), std::string::npos);
  Type("sen\t");
  // No table named yet: "sen" is no keyword, nothing completes.
  Type("sor FROM ks.re\t");
  EXPECT_NE(ReadUntil("adings ").find("adings "), std::string::npos);
  const std::string shown = Enter("WHERE sensor = 1 AND c = 3;");
  EXPECT_NE(shown.find("\r\n      1\r\n"), std::string::npos) << shown;
  EXPECT_EQ(Exit(), 0);
}

}  // namespace
}  // namespace cassette::tools
