// `cassette simulate WORKLOAD_FILE | --from-data DIR ks.table [--strategy SPEC]...
//                   [--duration 3d] [--seed N] [--jobs N] [--format table|json]
//                   [--csv FILE] [--report FILE.html] [--sample F]
//                   [--sample-check 3d] [--scratch DIR]`:
// the compaction lab. Replays the workload once per strategy through the
// real engine on a virtual clock (tools/lab_run.h) and compares them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "tools/lab_run.h"
#include "tools/lab_sampling.h"

namespace cassette::tools {

struct SimulateSettings {
  std::string workload_file;
  std::vector<std::string> strategies;  // empty: the file's run.strategies
  int64_t duration_seconds = 0;         // 0: the file's
  bool seed_set = false;
  uint64_t seed = 0;
  bool json = false;
  std::string csv_file;
  std::string report_file;           // the HTML report (tools/lab_report.h)
  std::string scratch_dir;           // empty: the runs keep their files in memory
  size_t jobs = 0;                   // strategies run at once; 0: the number of cores
  double sample = 0;                 // --sample F; 0: the file's run.sample
  int64_t sample_check_seconds = 0;  // --sample-check; 0: the file's
  // --from-data DIR ks.table: the workload derived from that table
  // (tools/lab_from_data.h) instead of a file.
  std::string from_data_dir;
  std::string from_data_table;
};

Result<SimulateSettings> ParseSimulateArguments(const std::vector<std::string>& args);

// The comparison for people: one column per strategy, a line per figure,
// and which strategy wins on which.
// `sampling`: what a sampled run measured of its error (null: not sampled).
std::string SimulateTable(const WorkloadSpec& spec, const std::vector<LabResult>& results,
                          const LabSampling* sampling = nullptr);
// One JSON object: {"workload":..., "strategies":[...]}; wall-clock
// figures only under each strategy's "wall" and "simulated_days_per_minute"
// keys, so the rest is identical
// for the same workload and seed.
std::string SimulateJson(const WorkloadSpec& spec, const std::vector<LabResult>& results,
                         const LabSampling* sampling = nullptr);
// The time series: strategy,second,disk_bytes,sstable_count,write_amplification,
// read_amplification_p99.
std::string SimulateCsv(const std::vector<LabResult>& results);

int RunSimulateCommand(const SimulateSettings& settings, std::ostream& out, std::ostream& err);

// The strategies compared when neither --strategy nor the workload names any.
const std::vector<std::string>& DefaultLabStrategies();

}  // namespace cassette::tools
