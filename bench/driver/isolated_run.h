// Runs one engine's workloads in a child process, so each engine starts
// from a fresh heap: its peak resident memory is its own (a heap that an
// earlier engine grew stays resident in the parent), and a crash in a
// peer cannot take the driver down with it. Results come back through a
// pipe as text.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/driver/workload_runner.h"
#include "cassette/status.h"

namespace cassette::bench {

struct EngineRun {
  std::vector<WorkloadResult> results;
  std::string description;
};

// `run` executes in a forked child; its outcome (or the child's death) is
// returned here.
Result<EngineRun> RunIsolated(const std::function<Result<EngineRun>()>& run);

}  // namespace cassette::bench
