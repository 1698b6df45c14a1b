// The compaction lab's runs, each in a child process of its own: a crash,
// a sanitizer's abort or an out-of-memory kill in one strategy's run
// costs that run alone, and the others still finish and report.
//
// Each child is a fork() of the caller. It runs its job and writes to a
// pipe what the parent needs: a message per simulated day done, then the
// run's LabResult or its error (tools/lab_result_codec), and exits. The
// parent waits on every pipe at once (poll), forwards the progress and
// reaps each child (waitpid) before starting the next.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "tools/lab_run.h"

namespace cassette::tools {

// What a child runs for a job: RunStrategy(job.spec, job.strategy,
// scratch_dir, progress) unless a test passes another.
using LabChildRun = std::function<Result<LabResult>(
    const LabJob& job, const std::string& scratch_dir, const LabProgress& progress)>;

// Runs every job in a child process, at most `processes` at a time, job
// i in scratch_dir/i (in memory when `scratch_dir` is empty); `progress`
// is called in the caller's thread with the job's index. The results are
// in the order of `jobs`, each the run's own (wall-clock figures measured
// in its process) or its error; a child that dies by a signal, exits
// otherwise than after writing its result, or writes a result that does
// not decode gives an IOError naming the strategy and the cause
// ("strategy 'lcs' crashed: signal 11 (Segmentation fault)"), and the
// other jobs still run.
//
// REQUIRES: the calling process is single-threaded. fork() copies only
// the calling thread: a lock another thread held at that moment (the
// allocator's, a logger's, a Database's) would stay held in the child
// forever. `cassette simulate` calls it before any thread starts.
std::vector<Result<LabResult>> RunLabJobsInProcesses(const std::vector<LabJob>& jobs,
                                                     const std::string& scratch_dir,
                                                     size_t processes,
                                                     const LabStrategyProgress& progress = {},
                                                     const LabChildRun& run = {});

}  // namespace cassette::tools
