// Runs the workloads of docs/BENCHMARKS.md on one engine in a
// fresh directory and measures them: W1 ingest (with the log, or without
// it for W1-nolog), then on the same data W2 newest 100, W3 one-hour
// slices, W4 missing partitions, and last a full compaction for the space
// figure. Every read's row count is checked against the data written, and
// the first reads of each workload also their values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/driver/bench_engine.h"

namespace cassette::bench {

// The sizes of one run. Scale shrinks rows and sensors together, so every
// sensor still covers the same stretch of simulated time.
struct RunPlan {
  int sensors = 1000;
  int64_t rows = 20'000'000;
  int batch_rows = 100;
  int64_t newest_queries = 100'000;
  int64_t slice_queries = 100'000;
  int64_t missing_lookups = 1'000'000;
  uint64_t memtable_bytes = 64ull << 20;
  bool log_compression = false;  // EngineConfig::log_compression
  int zstd_level = 3;
  uint64_t seed = 42;
  // Cost as the work grows: > 1 multiplies the rows (same sensors, longer
  // in simulated time) and runs only W1 and W2, named "W1 x4", "W2 x4".
  int growth = 1;
};
RunPlan ScaledPlan(double scale);

// One figure set of one workload on one engine (zero where it does not
// apply). Higher is better for ops/s and MB/s, lower for the rest.
struct WorkloadResult {
  std::string workload;  // W1, W1-nolog, W2, W3, W4, space; "W1 x4", "W2 x4" when grown
  std::string engine;
  bool available = true;  // false: the engine cannot run it (note says why)
  std::string note;
  double ops_per_s = 0;  // rows/s (W1, W3), queries/s (W2), lookups/s (W4)
  double mb_per_s = 0;   // logical MB/s (W1, W3)
  double p50_us = 0;     // per write call (W1) or per query
  double p99_us = 0;
  // W1: bytes written ÷ logical bytes; W5: flush, compaction and log bytes
  // ÷ logical bytes.
  double write_amplification = 0;
  // W1: bytes on disk ÷ logical bytes; W5: ÷ the logical bytes of the rows
  // still within their TTL.
  double space_amplification = 0;
  double bytes_per_row = 0;                // space: on disk after a full compaction
  double disk_fraction = 0;                // W1: bytes written per second ÷ disk bandwidth
  double peak_rss_mb = 0;                  // W1
  double seconds = 0;                      // the workload's wall time
  double sstable_write_amplification = 0;  // W5: flush + compaction bytes ÷ logical bytes
  double disk_mb = 0;                      // W5: MB on disk at the end (every file)
  double sstable_disk_mb = 0;              // W5: MB of live SSTables at the end
  double expired_rows_readable = 0;        // W5: rows past their TTL a read still returns
  double live_rows_missing = 0;            // W5: rows within their TTL no read returns
};

// Every number of a WorkloadResult, for the code that handles them alike
// (medians, the child's report to the parent).
inline constexpr double WorkloadResult::*kResultNumbers[] = {
    &WorkloadResult::ops_per_s,
    &WorkloadResult::mb_per_s,
    &WorkloadResult::p50_us,
    &WorkloadResult::p99_us,
    &WorkloadResult::write_amplification,
    &WorkloadResult::space_amplification,
    &WorkloadResult::bytes_per_row,
    &WorkloadResult::disk_fraction,
    &WorkloadResult::peak_rss_mb,
    &WorkloadResult::seconds,
    &WorkloadResult::sstable_write_amplification,
    &WorkloadResult::disk_mb,
    &WorkloadResult::sstable_disk_mb,
    &WorkloadResult::expired_rows_readable,
    &WorkloadResult::live_rows_missing,
};

// The p-quantile (0..1) of `samples`, which it reorders; 0 when empty.
double Percentile(std::vector<double>* samples, double p);

// W1 and the reads (or only W1 when !log). `disk_mb_per_s` (0: unknown)
// turns W1's disk bytes/s into a fraction.
Result<std::vector<WorkloadResult>> RunWorkloads(BenchEngine* engine, const RunPlan& plan,
                                                 const std::string& dir, bool log,
                                                 double disk_mb_per_s);

}  // namespace cassette::bench
