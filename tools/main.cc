// cassette: the command line. `cassette shell` runs CQL and the shell's
// directives on an embedded data directory; `cassette stats` prints table
// statistics. Exit codes: 0 success, 1 a failed statement or command,
// 2 a usage error.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tools/advise_command.h"
#include "tools/command_line.h"
#include "tools/commitlog_command.h"
#include "tools/line_editor.h"
#include "tools/shell.h"
#include "tools/simulate_command.h"
#include "tools/sstable_command.h"
#include "tools/stats_command.h"

namespace {

using cassette::tools::LineEditor;
using cassette::tools::Shell;
using cassette::tools::ShellIo;
using cassette::tools::ShellSettings;

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

int UsageError(const std::string& message) {
  std::cerr << "cassette: " << message << "\n\n" << cassette::tools::UsageText();
  return kExitUsage;
}

int RunShell(const ShellSettings& settings) {
  // Statements typed at a terminal get line editing and the terminal layout;
  // -e, -f and piped input are scripts.
  const bool interactive = !settings.execute && !settings.file && isatty(STDIN_FILENO) != 0;
  std::ifstream script;
  if (settings.file) {
    script.open(*settings.file, std::ios::binary);
    if (!script) {
      std::cerr << "cassette shell: cannot open " << *settings.file << "\n";
      return kExitFailure;
    }
  }
  ShellIo io{.out = &std::cout, .err = &std::cerr, .tty = interactive};
  auto shell = Shell::Open(settings, cassette::NewPosixFileSystem(), io);
  if (!shell.ok()) {
    std::cerr << "cassette shell: cannot open " << settings.data_dir << ": "
              << shell.status().ToString() << "\n";
    return kExitFailure;
  }
  if (settings.execute) {
    (*shell)->RunScript(*settings.execute, "<stdin>");
  } else if (settings.file) {
    (*shell)->RunStream(script, *settings.file);
  } else if (interactive) {
    LineEditor editor(LineEditor::DefaultHistoryFile());
    while (!(*shell)->stopped()) {
      std::optional<std::string> line = editor.ReadLine((*shell)->Prompt());
      if (!line) {
        std::cout << "\n";
        break;
      }
      (*shell)->FeedLine(*line);
    }
    (*shell)->FinishInput();
  } else {
    (*shell)->RunInput(std::cin);
  }
  cassette::Status closed = (*shell)->Close();
  if (!closed.ok()) {
    std::cerr << "cassette shell: closing " << settings.data_dir << ": " << closed.ToString()
              << "\n";
    return kExitFailure;
  }
  return (*shell)->ExitCode();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return UsageError("missing subcommand");
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << cassette::tools::UsageText();
    return 0;
  }
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << cassette::tools::UsageText();
      return 0;
    }
  }
  if (command == "shell") {
    auto settings = cassette::tools::ParseShellArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return RunShell(*settings);
  }
  if (command == "stats") {
    auto settings = cassette::tools::ParseStatsArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return cassette::tools::RunStatsCommand(*settings, cassette::NewPosixFileSystem(), std::cout,
                                            std::cerr);
  }
  if (command == "commitlog") {
    auto settings = cassette::tools::ParseCommitLogArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return cassette::tools::RunCommitLogCommand(*settings, cassette::NewPosixFileSystem(),
                                                std::cout, std::cerr);
  }
  if (command == "simulate") {
    auto settings = cassette::tools::ParseSimulateArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return cassette::tools::RunSimulateCommand(*settings, std::cout, std::cerr);
  }
  if (command == "advise") {
    auto settings = cassette::tools::ParseAdviseArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return cassette::tools::RunAdviseCommand(*settings, cassette::NewPosixFileSystem(), std::cout,
                                             std::cerr);
  }
  if (command == "sstable") {
    auto settings = cassette::tools::ParseSSTableArguments(args);
    if (!settings.ok()) return UsageError(settings.status().message());
    return cassette::tools::RunSSTableCommand(*settings, cassette::NewPosixFileSystem(), std::cout,
                                              std::cerr);
  }
  return UsageError("unknown subcommand '" + command + "'");
}
