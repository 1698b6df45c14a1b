// The `cassette` command line: subcommands and their flags, parsed into
// plain settings. Parsing never exits or prints; a usage error comes back
// as InvalidArgument and main prints it with the usage text (exit code 2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/options.h"
#include "cassette/status.h"

namespace cassette::tools {

enum class OutputFormat : uint8_t { kTable, kJson };

struct ShellSettings {
  std::string data_dir = "./data";
  // Start of a manual clock (microseconds); nullopt: the system clock.
  std::optional<int64_t> manual_clock_micros;
  OutputFormat format = OutputFormat::kTable;
  CommitLogSync commitlog_sync = CommitLogSync::kPeriodic;
  CommitFailurePolicy commit_failure_policy = CommitFailurePolicy::kStop;
  DiskFailurePolicy disk_failure_policy = DiskFailurePolicy::kStop;
  std::optional<std::string> execute;  // -e
  std::optional<std::string> file;     // -f
  bool fail_fast = false;
};

struct StatsSettings {
  std::string data_dir = "./data";
  // --clock manual:<ISO-8601>: statistics (TTL expiry, gc_grace, what is
  // droppable) as of that instant, for data written on a manual clock.
  std::optional<int64_t> manual_clock_micros;
  OutputFormat format = OutputFormat::kTable;
  std::string table;  // "ks.table", "ks" or empty for every table
};

// `args` are the subcommand's arguments (after "shell" / "stats").
Result<ShellSettings> ParseShellArguments(const std::vector<std::string>& args);
Result<StatsSettings> ParseStatsArguments(const std::vector<std::string>& args);

// The text `cassette --help` prints.
std::string UsageText();

}  // namespace cassette::tools
