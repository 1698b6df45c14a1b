// `cassette advise`: a time bucket, hash sub-buckets and a TWCS window for
// a time-series table, from a described workload (--rate, --row-bytes,
// --ttl) or from an existing table's data (--data DIR ks.table). The rule
// is in tools/advise_rule.h and docs/ADVISE.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "cassette/status.h"
#include "tools/advise_rule.h"
#include "tools/command_line.h"

namespace cassette::tools {

struct AdviseSettings {
  // The described workload (all of rate and row size, or none with --data).
  std::optional<double> rows_per_second;  // --rate, per identifier
  std::optional<double> row_bytes;        // --row-bytes
  int64_t ttl_seconds = 0;                // --ttl
  bool ttl_given = false;
  double target_partition_bytes = 100e6;  // --target-partition-mb
  int64_t identifiers = 1;                // --identifiers
  // The observed form.
  std::optional<std::string> data_dir;  // --data
  std::string table;                    // ks.table
  // --clock manual:<ISO-8601>: read as of that time (data written under a
  // manual clock, whose TTLs the system clock would find expired).
  std::optional<int64_t> manual_clock_micros;
  OutputFormat format = OutputFormat::kTable;
};

// `args` are those after "advise". InvalidArgument for a usage error.
Result<AdviseSettings> ParseAdviseArguments(const std::vector<std::string>& args);

// Prints the advice; returns the exit code (0, or 1 with the reason on `err`).
int RunAdviseCommand(const AdviseSettings& settings, std::shared_ptr<FileSystem> file_system,
                     std::ostream& out, std::ostream& err);

// The advice as people read it (the candidates table, the recommendation
// and why), and as one JSON object.
std::string AdviceText(const Advice& advice);
std::string AdviceJson(const Advice& advice);

}  // namespace cassette::tools
