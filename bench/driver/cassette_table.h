// The workload's table on cassette, as docs/BENCHMARKS.md
// defines it, and the database options a comparison runs cassette with.
#pragma once

#include <span>
#include <string>

#include "bench/driver/bench_engine.h"
#include "bench/driver/sensor_workload.h"
#include "cassette/db.h"
#include "cassette/options.h"
#include "cassette/schema.h"

namespace cassette::bench {

inline constexpr const char* kBenchKeyspace = "bench";
inline constexpr const char* kBenchTable = "readings";

// bench.readings: ((sensor_id, day), reading_time DESC), zstd at the
// configured level, TWCS with one-day windows (the engine's default for
// time series, per the workload); with a TTL (W5), one-hour windows, that
// default_time_to_live and gc_grace_seconds of one window.
TableSchema ReadingsTableSchema(const EngineConfig& config);
// Fills one row of an InsertBatch over (sensor_id, day, reading_time,
// temperature, humidity, tag) with reading `r`, whose sensor's uuid and
// tag values the caller keeps (built once, not per row).
void SetReadingRow(const Reading& r, const Value& uuid, const Value& tag, std::span<Value> row);
// The CREATE TABLE of the same table, for the CQL engine.
std::string ReadingsTableCql(const EngineConfig& config);
// Posix files, the system clock (or the simulated one of W5), the log as configured (periodic sync:
// never fsynced per write), the configured memtable size.
Options BenchDatabaseOptions(const EngineConfig& config);
// The table's settings for the report: "TWCS 1-day windows, zstd-3, ...".
std::string ReadingsTableDescription(const EngineConfig& config);
// W5: the table's flushed and compacted bytes (TableStats); cassette has no
// public counter of its commit-log bytes, so log_bytes stays -1.
Result<WriteCounters> ReadingsTableCounters(Database* db);

}  // namespace cassette::bench
