// W5 retention of docs/BENCHMARKS.md: a week of 50 sensors on a
// simulated clock, rows kept for a TTL of two days, each engine expiring
// them its own way (cassette: default_time_to_live on TWCS with 1-hour
// windows; RocksDB: FIFO with ttl, or leveled with a compaction filter;
// LevelDB cannot). Measures the ingest, the bytes written and kept, and
// reads every partition at the end for expired rows still returned.
#pragma once

#include <cstdint>
#include <string>

#include "bench/driver/bench_engine.h"
#include "bench/driver/workload_runner.h"

namespace cassette::bench {

struct RetentionPlan {
  int sensors = 50;
  int64_t days = 7;
  // Every sensor reads once per interval; scale stretches the interval, so
  // the week, the TTL and the hourly windows stay as they are.
  int64_t interval_seconds = 1;
  int64_t ttl_seconds = 2 * 86400;
  // The full-scale 64 MiB shrinks with the row rate (at least 1 MiB), so a
  // memtable spans the same simulated time and flushes as often.
  uint64_t memtable_bytes = 64ull << 20;
  int zstd_level = 3;
  bool log_compression = false;  // EngineConfig::log_compression
  // The figures are taken this long after the week's end, the engines
  // settled at the end and again then: one TWCS expired-SSTable check
  // period (expired_sstable_check_frequency_seconds, 600) and a second.
  // cassette checks for expired files at most once per period of its clock;
  // a background compaction that ran late in real time may have taken the
  // end's check with an earlier simulated now, and a real clock's timer
  // would run the next one within the period.
  int64_t settle_seconds = 601;

  int64_t EndSecond() const { return days * 86400; }
  // The instant of the figures: rows older than it minus the TTL have expired.
  int64_t MeasureSecond() const { return EndSecond() + settle_seconds; }
  // Readings per sensor: seconds 0, interval, 2 interval, ... < EndSecond().
  int64_t Steps() const { return (EndSecond() + interval_seconds - 1) / interval_seconds; }
  int64_t Rows() const { return Steps() * sensors; }
};

// One reading every round(1 / scale) seconds (at least 1), 50 sensors, 7 days.
RetentionPlan ScaledRetentionPlan(double scale);

// Runs W5 on a fresh engine in `dir` (`fifo`: RocksDB's FIFO variant). The
// result is unavailable (with a note) when the engine has no TTL. Fails
// when an engine that expires on read returns an expired row, when one
// that should keep every live row lost some, or when a read returns rows
// never written.
Result<WorkloadResult> RunRetention(BenchEngine* engine, const RetentionPlan& plan,
                                    const std::string& dir, bool fifo, std::string* description);

}  // namespace cassette::bench
