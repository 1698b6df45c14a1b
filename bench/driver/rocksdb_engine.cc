// RocksDB as a peer of cassette: the sensor table in the key-value layout
// of docs/BENCHMARKS.md, configured as a user who reads
// partitions by prefix would configure it, and as close to cassette's own
// settings as RocksDB allows (zstd at the same level, 16 KiB blocks like
// cassette's chunks, a 32 MiB block cache like cassette's default), so the
// comparison measures the engines and not their defaults.
#include <memory>

#include "bench/driver/bench_engine.h"
#include "bench/driver/peer_reads.h"

#ifdef CASSETTE_HAVE_ROCKSDB

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/cache.h>
#include <rocksdb/compaction_filter.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/statistics.h>
#include <rocksdb/system_clock.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

namespace cassette::bench {
namespace {

constexpr size_t kBlockBytes = 16 << 10;
constexpr size_t kBlockCacheBytes = 32 << 20;
constexpr int kBloomBitsPerKey = 10;
constexpr int kBackgroundJobs = 2;

Status FromRocks(const rocksdb::Status& s, std::string_view what) {
  return Status::IOError("rocksdb " + std::string(what) + ": " + s.ToString());
}

// RocksDB's perf counters are per thread and on by default; a fair run turns
// them off on every thread that calls into it. Setting a thread-local level
// is a store, so doing it on each call covers whatever thread the driver uses.
void DisablePerfCounters() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }

// W5: RocksDB's "now" is the workload's simulated time. FIFO's ttl compares
// a file's creation time with GetCurrentTime, and both come from the Env's
// SystemClock, so the clock is replaced there (Env::system_clock_, which
// RocksDB's internals use) and in the Env's own forwarding calls. Sleeps
// stay real.
class SimulatedSystemClock final : public rocksdb::SystemClockWrapper {
 public:
  explicit SimulatedSystemClock(std::shared_ptr<ManualClock> clock)
      : SystemClockWrapper(rocksdb::SystemClock::Default()), clock_(std::move(clock)) {}
  const char* Name() const override { return "cassette-bench-simulated"; }
  uint64_t NowMicros() override { return static_cast<uint64_t>(clock_->WallMicros()); }
  uint64_t NowNanos() override { return static_cast<uint64_t>(clock_->WallMicros()) * 1000; }
  rocksdb::Status GetCurrentTime(int64_t* unix_time) override {
    *unix_time = clock_->WallMicros() / 1'000'000;
    return rocksdb::Status::OK();
  }

 private:
  std::shared_ptr<ManualClock> clock_;
};

class SimulatedEnv final : public rocksdb::EnvWrapper {
 public:
  explicit SimulatedEnv(std::shared_ptr<ManualClock> clock) : EnvWrapper(rocksdb::Env::Default()) {
    system_clock_ = std::make_shared<SimulatedSystemClock>(std::move(clock));
  }
  const char* Name() const override { return "cassette-bench-simulated"; }
  uint64_t NowMicros() override { return system_clock_->NowMicros(); }
  uint64_t NowNanos() override { return system_clock_->NowNanos(); }
  rocksdb::Status GetCurrentTime(int64_t* unix_time) override {
    return system_clock_->GetCurrentTime(unix_time);
  }
};

// W5, leveled: compaction drops a row once its reading time, read from the
// key (uuid ‖ BE day ‖ BE (2^63 − 1 − ms)), is more than the TTL before the
// simulated now. Rows stay readable until a compaction reaches them.
class RetentionFilter final : public rocksdb::CompactionFilter {
 public:
  RetentionFilter(std::shared_ptr<ManualClock> clock, int64_t ttl_seconds)
      : clock_(std::move(clock)), ttl_ms_(ttl_seconds * 1000) {}
  const char* Name() const override { return "cassette-bench-retention"; }
  bool Filter(int /*level*/, const rocksdb::Slice& key, const rocksdb::Slice& /*value*/,
              std::string* /*new_value*/, bool* /*value_changed*/) const override {
    if (key.size() < kPeerKeySize) return false;
    uint64_t reversed = 0;
    for (size_t i = kPeerPartitionPrefixSize; i < kPeerKeySize; ++i) {
      reversed = (reversed << 8) | static_cast<uint8_t>(key[i]);
    }
    const int64_t reading_ms = static_cast<int64_t>(PeerReversedTime(0) - reversed);
    return reading_ms < clock_->WallMicros() / 1000 - ttl_ms_;
  }

 private:
  std::shared_ptr<ManualClock> clock_;
  int64_t ttl_ms_;
};

class RocksDbEngine final : public BenchEngine {
 public:
  ~RocksDbEngine() override { Close().IgnoreError(); }

  std::string name() const override { return config_.fifo ? "rocksdb-fifo" : "rocksdb"; }

  std::string description() const override {
    std::string d = "RocksDB " + std::to_string(ROCKSDB_MAJOR) + "." +
                    std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH);
    if (config_.ttl_seconds > 0 && config_.fifo) {
      d += " FIFO with ttl " + std::to_string(config_.ttl_seconds) + " s (no size limit)";
    } else if (config_.ttl_seconds > 0) {
      d += " leveled with a compaction filter dropping rows older than " +
           std::to_string(config_.ttl_seconds) + " s";
    } else {
      d += " leveled";
    }
    d += ", zstd-" + std::to_string(config_.zstd_level) + ", 16 KiB blocks, prefix bloom 10 bits";
    if (config_.clock != nullptr) d += ", simulated clock (Env)";
    if (!config_.log) d += ", WAL off";
    return d;
  }

  Status Open(const EngineConfig& config) override {
    DisablePerfCounters();
    if (db_ != nullptr) return Status::InvalidArgument("rocksdb engine already open");
    config_ = config;
    sensors_.Reset(config.sensors);

    rocksdb::Options options;
    options.create_if_missing = true;
    options.IncreaseParallelism(kBackgroundJobs);
    options.max_background_jobs = kBackgroundJobs;
    options.write_buffer_size = config.memtable_bytes;
    // zstd on every level: without an explicit bottommost setting RocksDB
    // would still use `compression` there, but its options are a separate
    // struct that is ignored unless enabled.
    options.compression = rocksdb::kZSTD;
    options.compression_opts.level = config.zstd_level;
    options.bottommost_compression = rocksdb::kZSTD;
    options.bottommost_compression_opts = options.compression_opts;
    options.bottommost_compression_opts.enabled = true;
    // Every read of the workloads is within one partition: a prefix bloom on
    // (uuid, day) lets W4's lookups of missing partitions skip data blocks.
    options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(kPeerPartitionPrefixSize));

    rocksdb::BlockBasedTableOptions table;
    table.block_size = kBlockBytes;
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(kBloomBitsPerKey));
    table.whole_key_filtering = false;
    table.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

    if (config.clock != nullptr) {
      env_ = std::make_unique<SimulatedEnv>(config.clock);
      options.env = env_.get();
    }
    if (config.ttl_seconds > 0) {
      // W5 reports the flush, compaction and WAL bytes RocksDB counts.
      statistics_ = rocksdb::CreateDBStatistics();
      options.statistics = statistics_;
      if (config.fifo) {
        options.compaction_style = rocksdb::kCompactionStyleFIFO;
        // Only the TTL drops files: the size cap (1 GiB by default) would
        // drop live data of a full-scale run.
        options.compaction_options_fifo.max_table_files_size = UINT64_MAX;
        options.ttl = static_cast<uint64_t>(config.ttl_seconds);
      } else {
        if (config.clock == nullptr) {
          return Status::InvalidArgument("rocksdb: a TTL filter needs the simulated clock");
        }
        filter_ = std::make_unique<RetentionFilter>(config.clock, config.ttl_seconds);
        options.compaction_filter = filter_.get();
      }
    }

    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, config.dir, &db);
    if (!s.ok()) return FromRocks(s, "open " + config.dir);
    db_.reset(db);
    write_options_.sync = false;
    write_options_.disableWAL = !config.log;
    return Status::OK();
  }

  Status Write(std::span<const Reading> readings) override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    rocksdb::WriteBatch batch(readings.size() * (kPeerKeySize + kPeerValueSize + 8) + 16);
    rocksdb::Status put;
    ForEachPeerRow(readings, sensors_, [&](const std::string& key, const std::string& value) {
      if (put.ok()) put = batch.Put(key, value);
    });
    if (!put.ok()) return FromRocks(put, "batch put");
    rocksdb::Status s = db_->Write(write_options_, &batch);
    if (!s.ok()) return FromRocks(s, "write");
    return Status::OK();
  }

  Status Settle() override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    rocksdb::FlushOptions flush;
    flush.wait = true;
    rocksdb::Status s = db_->Flush(flush);
    if (!s.ok()) return FromRocks(s, "flush");
    // 7.8 has no WaitForCompact: poll until nothing runs and nothing is due.
    // FIFO with ttl can report a compaction due that its picker declines
    // (the score counts a file expired by its oldest key's time, the picker
    // goes by the file's creation time): then nothing ever runs, so a second
    // of "due" with nothing running counts as idle. RocksDB schedules what
    // is due as soon as a flush or compaction finishes, well within that.
    constexpr int kDeclinedPolls = 100;
    int idle_but_due = 0;
    for (;;) {
      uint64_t running = 0;
      uint64_t pending = 0;
      uint64_t flushing = 0;
      if (!db_->GetIntProperty("rocksdb.num-running-compactions", &running) ||
          !db_->GetIntProperty("rocksdb.compaction-pending", &pending) ||
          !db_->GetIntProperty("rocksdb.num-running-flushes", &flushing)) {
        return Status::IOError("rocksdb: compaction properties unavailable");
      }
      if (running == 0 && flushing == 0 && pending == 0) return Status::OK();
      idle_but_due = running == 0 && flushing == 0 ? idle_but_due + 1 : 0;
      if (idle_but_due >= kDeclinedPolls) return Status::OK();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  Status CompactAll() override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    rocksdb::CompactRangeOptions options;
    // Without kForce the last level is left as it is when nothing above it
    // overlaps, which is not a full compaction.
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    rocksdb::Status s = db_->CompactRange(options, nullptr, nullptr);
    if (!s.ok()) return FromRocks(s, "compact range");
    return Settle();
  }

  Result<ReadOutcome> Newest(int sensor, int32_t day, int n) override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(PrefixReadOptions()));
    const ReadOutcome out =
        ScanNewest(it.get(), PeerPartitionPrefix(sensors_.Uuid(sensor), day), n);
    if (!it->status().ok()) return FromRocks(it->status(), "newest");
    return out;
  }

  Result<ReadOutcome> Slice(int sensor, int32_t day, int64_t from_ms, int64_t to_ms) override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(PrefixReadOptions()));
    const ReadOutcome out = ScanSlice(it.get(), sensors_.Uuid(sensor), day, from_ms, to_ms);
    if (!it->status().ok()) return FromRocks(it->status(), "slice");
    return out;
  }

  Result<bool> HasPartition(int sensor, int32_t day) override {
    DisablePerfCounters();
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(PrefixReadOptions()));
    const bool found = SeekPartition(it.get(), PeerPartitionPrefix(sensors_.Uuid(sensor), day));
    if (!it->status().ok()) return FromRocks(it->status(), "has partition");
    return found;
  }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    rocksdb::Status s = db_->Close();
    // The Env and the filter must outlive the DB.
    db_.reset();
    filter_.reset();
    env_.reset();
    if (!s.ok()) return FromRocks(s, "close");
    return Status::OK();
  }

  Result<WriteCounters> Counters() override {
    if (db_ == nullptr) return Status::InvalidArgument("rocksdb engine not open");
    WriteCounters counters;
    if (statistics_ == nullptr) return counters;
    const uint64_t flushed = statistics_->getTickerCount(rocksdb::FLUSH_WRITE_BYTES);
    const uint64_t compacted = statistics_->getTickerCount(rocksdb::COMPACT_WRITE_BYTES);
    counters.sstable_bytes = static_cast<int64_t>(flushed + compacted);
    counters.log_bytes = static_cast<int64_t>(statistics_->getTickerCount(rocksdb::WAL_FILE_BYTES));
    uint64_t live_sst = 0;
    if (db_->GetIntProperty("rocksdb.live-sst-files-size", &live_sst)) {
      counters.sstable_disk_bytes = static_cast<int64_t>(live_sst);
    }
    counters.detail = std::to_string(flushed) + " bytes flushed, " + std::to_string(compacted) +
                      " compacted, " + std::to_string(counters.log_bytes) +
                      " WAL bytes; files at the end: " + FilesPerLevel();
    return counters;
  }

  bool MayDropLiveRows() const override { return config_.fifo; }

 private:
  // prefix_same_as_start keeps the iterator inside the partition and lets
  // Seek consult the prefix bloom of every table before reading its blocks.
  static rocksdb::ReadOptions PrefixReadOptions() {
    rocksdb::ReadOptions options;
    options.prefix_same_as_start = true;
    return options;
  }

  // "L0 3, L1 5, ..." of the levels holding files.
  std::string FilesPerLevel() {
    std::string out;
    for (int level = 0; level < 7; ++level) {
      std::string files;
      if (!db_->GetProperty("rocksdb.num-files-at-level" + std::to_string(level), &files) ||
          files == "0") {
        continue;
      }
      out += (out.empty() ? "L" : ", L") + std::to_string(level) + " " + files;
    }
    return out.empty() ? "no" : out;
  }

  EngineConfig config_;
  // Declared before db_: members are destroyed in reverse, and the DB uses both.
  std::unique_ptr<SimulatedEnv> env_;
  std::unique_ptr<RetentionFilter> filter_;
  std::shared_ptr<rocksdb::Statistics> statistics_;
  std::unique_ptr<rocksdb::DB> db_;
  rocksdb::WriteOptions write_options_;
  PeerSensors sensors_;
};

}  // namespace

std::unique_ptr<BenchEngine> NewRocksDbEngine() { return std::make_unique<RocksDbEngine>(); }

}  // namespace cassette::bench

#else  // !CASSETTE_HAVE_ROCKSDB

namespace cassette::bench {

// Built without RocksDB (CMake did not find it): the driver skips the peer.
std::unique_ptr<BenchEngine> NewRocksDbEngine() { return nullptr; }

}  // namespace cassette::bench

#endif  // CASSETTE_HAVE_ROCKSDB
