// BenchEngine: what the driver asks of every engine it compares, in the
// workload's own terms (readings, sensors, days), so each engine stores
// and reads them its own best way: cassette as CQL rows through the typed
// API or prepared CQL, a key-value peer with the key layout of
// docs/BENCHMARKS.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "bench/driver/sensor_workload.h"
#include "cassette/clock.h"
#include "cassette/status.h"

namespace cassette::bench {

struct EngineConfig {
  std::string dir;  // fresh, empty
  int sensors = 1000;
  bool log = true;  // commit log / WAL on, never fsynced per write
  // cassette's commitlog_compression zstd (--log-compression); the peers'
  // logs keep their defaults (RocksDB's and LevelDB's are uncompressed).
  bool log_compression = false;
  uint64_t memtable_bytes = 64ull << 20;
  int zstd_level = 3;
  // W5 retention. `clock` is the simulated time every engine takes "now"
  // from (write times, expiry, file ages); null: real time. `ttl_seconds`
  // > 0 makes the engine keep rows only that long, its own way (cassette:
  // the table's default_time_to_live on TWCS with 1-hour windows).
  std::shared_ptr<ManualClock> clock;
  int64_t ttl_seconds = 0;
  // RocksDB's two ways to keep a TTL: FIFO compaction with `ttl` (whole
  // files dropped by age) instead of leveled compaction with a compaction
  // filter on the key's reading time.
  bool fifo = false;
};

// Bytes an engine counted itself writing; -1 where it keeps no counter.
struct WriteCounters {
  int64_t sstable_bytes = -1;       // flush and compaction output
  int64_t log_bytes = -1;           // commit log / WAL
  int64_t sstable_disk_bytes = -1;  // size of the live SSTable files now
  std::string detail;               // e.g. compactions run, files dropped whole
};

// What a read returned: the rows and a sum over their temperatures, so the
// driver can check that every engine returned the same data.
struct ReadOutcome {
  int64_t rows = 0;
  double temperature_sum = 0;
};

class BenchEngine {
 public:
  virtual ~BenchEngine() = default;
  // Short name for the table ("cassette", "rocksdb", ...).
  virtual std::string name() const = 0;
  // Version and configuration, for the report.
  virtual std::string description() const = 0;

  virtual Status Open(const EngineConfig& config) = 0;
  // One write call: a batch, as atomic as the engine makes batches.
  virtual Status Write(std::span<const Reading> readings) = 0;
  // Flushes what is in memory and waits until background compaction is idle.
  virtual Status Settle() = 0;
  // A full (major) compaction of everything.
  virtual Status CompactAll() = 0;
  // The newest `n` readings of a sensor's day, newest first.
  virtual Result<ReadOutcome> Newest(int sensor, int32_t day, int n) = 0;
  // The readings of a sensor's day with from_ms <= reading_time < to_ms.
  virtual Result<ReadOutcome> Slice(int sensor, int32_t day, int64_t from_ms, int64_t to_ms) = 0;
  // Whether the partition (sensor, day) holds any reading.
  virtual Result<bool> HasPartition(int sensor, int32_t day) = 0;
  virtual Status Close() = 0;

  // W5: what the engine wrote since Open, by its own counters.
  virtual Result<WriteCounters> Counters() { return WriteCounters{}; }
  // W5: whether reads never return a row past its TTL (cassette enforces
  // expiry on every read; the peers drop rows only when compaction reaches
  // them, so until then expired rows stay readable).
  virtual bool ExpiresOnRead() const { return false; }
  // W5: whether the engine may drop rows still within their TTL: RocksDB
  // FIFO drops whole files by age, and which age has changed between
  // releases (6.8 went by a file's oldest row, 7.8 by its flush time).
  virtual bool MayDropLiveRows() const { return false; }
};

std::unique_ptr<BenchEngine> NewCassetteApiEngine();
std::unique_ptr<BenchEngine> NewCassetteCqlEngine();
// Null when the driver was built without the peer (CMake did not find it).
std::unique_ptr<BenchEngine> NewRocksDbEngine();
std::unique_ptr<BenchEngine> NewLevelDbEngine();

}  // namespace cassette::bench
