// One strategy's run in the compaction lab: the workload replayed through
// the real engine (Database, the same code path as production) in
// deterministic mode: a manual clock moved one simulated second at a
// time, a manual scheduler, compactions run inline when a flush or the
// strategy's check proposes them, flushes at the memtable threshold. The
// files are kept in memory (or, given a scratch directory, on disk), behind
// a counting file system.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "tools/lab_workload.h"

namespace cassette::tools {

// "twcs:compaction_window_unit=HOURS,compaction_window_size=1", "stcs",
// "lcs", "ucs:scaling_parameters=T4", or a class name: the table's
// compaction map. InvalidArgument for an unknown short name or a bad
// option list (the engine then checks the options with Cassandra's
// messages when the table is altered).
Result<std::map<std::string, std::string>> ParseStrategySpec(const std::string& spec);

// Whether a compaction map (ParseStrategySpec) is TWCS's, by short or full
// class name: the runs whose windows the lab records.
bool IsTimeWindowStrategy(const std::map<std::string, std::string>& compaction);

// A point of the time series, taken every run.sample_every.
struct LabSample {
  int64_t second = 0;  // since the run's start
  uint64_t disk_bytes = 0;
  int64_t sstable_count = 0;
  double write_amplification = 0;     // SSTable bytes so far / user bytes so far
  double read_amplification_p99 = 0;  // over the reads since the previous sample
  // Data past TTL (or deletion) + gc_grace still on disk (estimated).
  uint64_t expired_bytes_waiting = 0;

  friend bool operator==(const LabSample&, const LabSample&) = default;
};

// A TWCS window at a sample (Database::ExplainExpiry), what the report's
// window picture draws: a few figures, not the window's SSTable list, so a
// month of hourly samples stays small.
struct LabWindow {
  int64_t start_second = 0;  // the window's start, since the run's start (< 0: before it)
  int64_t sstables = 0;
  uint64_t live_bytes = 0;       // its files not droppable yet
  uint64_t droppable_bytes = 0;  // its fully expired files, which the next expiry check drops
  // Past TTL + gc_grace of every file (the engine's droppable_at): its
  // remaining live bytes are expired data waiting for what blocks them.
  bool expired = false;
  // SSTables outside the window with older data that outlives it (or the
  // memtable) hold its expired files back (Cassandra's overlap check).
  bool blocked = false;

  friend bool operator==(const LabWindow&, const LabWindow&) = default;
};

// The TWCS windows at one sample point, oldest first.
struct LabWindowSample {
  int64_t second = 0;  // since the run's start, as LabSample::second
  std::vector<LabWindow> windows;

  friend bool operator==(const LabWindowSample&, const LabWindowSample&) = default;
};

struct LabResult {
  std::string strategy;  // the spec as given
  std::map<std::string, std::string> compaction;
  // Deterministic figures (same workload and seed: same values).
  uint64_t user_bytes = 0;               // as the engine counts them (`cassette stats`)
  uint64_t logical_bytes = 0;            // key and payload bytes of the rows written
  uint64_t sstable_bytes_written = 0;    // flushed + compacted
  uint64_t device_bytes_written = 0;     // everything, commit log included
  double write_amplification = 0;        // SSTable bytes / user bytes (the engine's figure)
  double total_write_amplification = 0;  // device bytes / user bytes
  uint64_t peak_disk_bytes = 0;          // the most the files held at any moment
  // The most a compaction (or a second's flushes and compactions) held on
  // disk above both what was there before and what was left after: the
  // free space a run needs beyond its data.
  uint64_t peak_temporary_bytes = 0;
  uint64_t final_disk_bytes = 0;
  uint64_t live_logical_bytes = 0;  // rows neither expired nor deleted at the end
  double space_amplification = 0;   // final SSTable bytes / live logical bytes
  int64_t sstable_count = 0;
  int64_t max_sstable_count = 0;
  int64_t reads = 0;
  std::map<std::string, double> read_amplification_p50;  // by read kind, and "all"
  std::map<std::string, double> read_amplification_p99;
  double tombstones_per_read_p99 = 0;
  uint64_t compactions = 0;
  uint64_t compaction_bytes_read = 0;
  uint64_t compaction_bytes_written = 0;
  uint64_t expired_bytes_dropped_whole = 0;  // SSTables dropped by expiry, never read
  // Estimated: bytes of the rewritten inputs in the share of rows that a
  // compaction did not write out (rows in - rows out over rows in):
  // expired, deleted, or older versions of rows written again.
  uint64_t expired_bytes_rewritten = 0;
  // Expiry lag: how long data stayed on disk past its TTL (or deletion) +
  // gc_grace, over the bytes that left (dropped whole or purged by a
  // compaction) and those still waiting at the end (their wait so far).
  // For TWCS, a window's oldest data also waits for its newest: up to a
  // window on top of the time to the next expiry check.
  int64_t expiry_lag_p50_seconds = 0;
  int64_t expiry_lag_p99_seconds = 0;
  int64_t expiry_lag_max_seconds = 0;
  uint64_t expired_bytes_waiting = 0;  // at the end (estimated)
  uint64_t writes = 0;
  uint64_t deletes = 0;
  std::vector<LabSample> series;
  // TimeWindowCompactionStrategy runs: the windows at every sample.
  std::vector<LabWindowSample> windows;
  std::vector<std::string> notes;  // caveats of this run
  // Wall-clock figures (differ between runs).
  double wall_seconds = 0;
  double compaction_cpu_seconds = 0;  // CPU time in flushes and compactions
  double simulated_days_per_minute = 0;

  // Field by field (tools/lab_result_codec's round trip is checked with it).
  friend bool operator==(const LabResult&, const LabResult&) = default;
};

// Called after each simulated day: (day, days in all).
using LabProgress = std::function<void(int64_t, int64_t)>;

// Runs `spec` with `strategy` in `scratch_dir` (created; emptied first),
// or in memory when `scratch_dir` is empty. `keep_files`: leave the
// database in scratch_dir/data afterwards (closed), for inspection.
Result<LabResult> RunStrategy(const WorkloadSpec& spec, const std::string& strategy,
                              const std::string& scratch_dir, const LabProgress& progress = {},
                              bool keep_files = false);

// Called from the thread running strategy `index` after each simulated day.
using LabStrategyProgress = std::function<void(size_t index, int64_t day, int64_t days)>;

// A run to make: a workload and a strategy.
struct LabJob {
  WorkloadSpec spec;
  std::string strategy;
};

// Runs every job, `threads` at a time, job i in scratch_dir/i (in memory
// when `scratch_dir` is empty); `progress` gets the job's index. The
// results are in the order of `jobs`.
std::vector<Result<LabResult>> RunLabJobs(const std::vector<LabJob>& jobs,
                                          const std::string& scratch_dir, size_t threads,
                                          const LabStrategyProgress& progress = {});

// Runs every strategy, `jobs` at a time on threads, strategy i in
// scratch_dir/i (in memory when `scratch_dir` is empty). Each run has its own database, clock and
// scheduler and shares nothing with the others, so its figures are the same alone or in company.
// The results are in the order of `strategies`.
std::vector<Result<LabResult>> RunStrategies(const WorkloadSpec& spec,
                                             const std::vector<std::string>& strategies,
                                             const std::string& scratch_dir, size_t jobs,
                                             const LabStrategyProgress& progress = {});

}  // namespace cassette::tools
