// The workload's table on cassette, as ../shared/workloads/README.md
// defines it, and the database options a comparison runs cassette with.
#pragma once

#include <string>

#include "bench/driver/bench_engine.h"
#include "cassette/options.h"
#include "cassette/schema.h"

namespace cassette::bench {

inline constexpr const char* kBenchKeyspace = "bench";
inline constexpr const char* kBenchTable = "readings";

// bench.readings: ((sensor_id, day), reading_time DESC), zstd at the
// configured level, TWCS with one-day windows (the engine's default for
// time series, per the workload).
TableSchema ReadingsTableSchema(const EngineConfig& config);
// The CREATE TABLE of the same table, for the CQL engine.
std::string ReadingsTableCql(const EngineConfig& config);
// Posix files, system clock, the log as configured (periodic sync: never
// fsynced per write), the configured memtable size.
Options BenchDatabaseOptions(const EngineConfig& config);

}  // namespace cassette::bench
