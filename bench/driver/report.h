// The driver's output: the medians of every figure over the repetitions,
// printed as one table (engines side by side, then the ratio of cassette to
// the best peer, > 1 meaning cassette wins) and written as JSON.
#pragma once

#include <string>
#include <vector>

#include "bench/driver/retention_workload.h"
#include "bench/driver/workload_runner.h"

namespace cassette::bench {

struct MachineLimits;

// The medians over the repetitions of each (workload, engine).
std::vector<WorkloadResult> Medians(const std::vector<WorkloadResult>& runs);

struct ReportContext {
  std::vector<std::string> engines;       // column order; "cassette" is compared with the peers
  std::vector<std::string> peers;         // the engines a user would pick instead
  std::vector<std::string> descriptions;  // per engine, same order
  const MachineLimits* limits = nullptr;  // null: not measured
  RunPlan plan;
  RetentionPlan retention;
  bool base = true;  // W1-W4 ran
  bool w5 = false;   // W5 ran
  double scale = 1;
  std::string growth = "1";  // the row multipliers run, e.g. "1,4,16"
  int repetitions = 0;
  std::string date;
};

std::string FormatTable(const std::vector<WorkloadResult>& medians, const ReportContext& context);
std::string FormatJson(const std::vector<WorkloadResult>& medians, const ReportContext& context);

}  // namespace cassette::bench
