// RocksDB as a peer of cassette: the sensor table in the key-value layout
// of ../shared/workloads/README.md, configured as a user who reads
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
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/slice_transform.h>
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

class RocksDbEngine final : public BenchEngine {
 public:
  ~RocksDbEngine() override { Close().IgnoreError(); }

  std::string name() const override { return "rocksdb"; }

  std::string description() const override {
    std::string d = "RocksDB " + std::to_string(ROCKSDB_MAJOR) + "." +
                    std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH) +
                    " leveled, zstd-" + std::to_string(config_.zstd_level) +
                    ", 16 KiB blocks, prefix bloom 10 bits";
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
    for (;;) {
      uint64_t running = 0;
      uint64_t pending = 0;
      if (!db_->GetIntProperty("rocksdb.num-running-compactions", &running) ||
          !db_->GetIntProperty("rocksdb.compaction-pending", &pending)) {
        return Status::IOError("rocksdb: compaction properties unavailable");
      }
      if (running == 0 && pending == 0) return Status::OK();
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
    db_.reset();
    if (!s.ok()) return FromRocks(s, "close");
    return Status::OK();
  }

 private:
  // prefix_same_as_start keeps the iterator inside the partition and lets
  // Seek consult the prefix bloom of every table before reading its blocks.
  static rocksdb::ReadOptions PrefixReadOptions() {
    rocksdb::ReadOptions options;
    options.prefix_same_as_start = true;
    return options;
  }

  EngineConfig config_;
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
