// cassette: the command line. `cassette shell` runs CQL and the shell's
// directives on an embedded data directory; `cassette stats` prints table
// statistics. Exit codes: 0 success, 1 a failed statement or command,
// 2 a usage error.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "tools/advise_command.h"
#include "tools/command_line.h"
#include "tools/commitlog_command.h"
#include "tools/shell.h"
#include "tools/shell_command.h"
#include "tools/simulate_command.h"
#include "tools/sstable_command.h"
#include "tools/stats_command.h"

namespace {

constexpr int kExitUsage = 2;

int UsageError(const std::string& message) {
  std::cerr << "cassette: " << message << "\n\n" << cassette::tools::UsageText();
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return UsageError("missing subcommand");
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--version" ||
      (command == "shell" && std::find(args.begin(), args.end(), "--version") != args.end())) {
    std::cout << "cassette " << cassette::tools::CassetteVersion() << "\n";
    return 0;
  }
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
    return cassette::tools::RunShellCommand(*settings);
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
