// LevelDB as a peer of cassette: the sensor table in the key-value layout
// of docs/BENCHMARKS.md, as close to cassette's settings as
// LevelDB 1.23 allows. It cannot match them all, and description() says
// where it differs: its only codec is Snappy (no zstd), its filters hold
// whole keys (a partition lookup, which is a Seek, never consults them), it
// cannot turn its log off, and it has no flush or wait-for-compaction call.
#include <memory>

#include "bench/driver/bench_engine.h"
#include "bench/driver/peer_reads.h"

#ifdef CASSETTE_HAVE_LEVELDB

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

namespace cassette::bench {
namespace {

constexpr size_t kBlockBytes = 16 << 10;
constexpr size_t kBlockCacheBytes = 32 << 20;
constexpr int kBloomBitsPerKey = 10;

Status FromLevel(const leveldb::Status& s, std::string_view what) {
  return Status::IOError("leveldb " + std::string(what) + ": " + s.ToString());
}

class LevelDbEngine final : public BenchEngine {
 public:
  ~LevelDbEngine() override { Close().IgnoreError(); }

  std::string name() const override { return "leveldb"; }

  std::string description() const override {
    return "LevelDB " + std::to_string(leveldb::kMajorVersion) + "." +
           std::to_string(leveldb::kMinorVersion) +
           " own leveled compaction, snappy (LevelDB 1.23 has no zstd), 16 KiB blocks, "
           "bloom 10 bits on whole keys (partition lookups cannot use it), "
           "no flush or compaction wait";
  }

  Status Open(const EngineConfig& config) override {
    if (db_ != nullptr) return Status::InvalidArgument("leveldb engine already open");
    if (!config.log) return Status::NotSupported("LevelDB cannot run without its log");
    // W5 needs rows to leave by age: LevelDB has neither a compaction filter
    // nor FIFO compaction, so it cannot keep a TTL.
    if (config.ttl_seconds > 0) {
      return Status::NotSupported("LevelDB has no TTL mechanism (no compaction filter, no FIFO)");
    }
    sensors_.Reset(config.sensors);

    // The options only borrow the filter policy and the cache: they must
    // outlive the DB, so the engine owns them and frees them after it.
    filter_.reset(leveldb::NewBloomFilterPolicy(kBloomBitsPerKey));
    cache_.reset(leveldb::NewLRUCache(kBlockCacheBytes));
    leveldb::Options options;
    options.create_if_missing = true;
    options.write_buffer_size = config.memtable_bytes;
    options.compression = leveldb::kSnappyCompression;
    options.block_size = kBlockBytes;
    options.filter_policy = filter_.get();
    options.block_cache = cache_.get();

    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(options, config.dir, &db);
    if (!s.ok()) return FromLevel(s, "open " + config.dir);
    db_.reset(db);
    return Status::OK();
  }

  Status Write(std::span<const Reading> readings) override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    leveldb::WriteBatch batch;
    ForEachPeerRow(readings, sensors_, [&](const std::string& key, const std::string& value) {
      batch.Put(key, value);
    });
    leveldb::WriteOptions options;
    options.sync = false;  // the log is written, never fsynced per write
    leveldb::Status s = db_->Write(options, &batch);
    if (!s.ok()) return FromLevel(s, "write");
    return Status::OK();
  }

  // LevelDB has no flush and no way to wait for its background compaction,
  // so Settle does nothing: the memtable stays in memory (its rows are in
  // the log) and a compaction may still run. Its writes already stall on
  // its own compaction while they go, so the ingest rate it reports is
  // sustained, not borrowed; the final memtable flush is simply not timed,
  // which if anything flatters LevelDB. CompactAll does flush everything.
  Status Settle() override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    return Status::OK();
  }

  // Over the whole key space LevelDB writes the memtable out, then compacts
  // every level into the next, waiting until done.
  Status CompactAll() override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    db_->CompactRange(nullptr, nullptr);
    return Status::OK();
  }

  Result<ReadOutcome> Newest(int sensor, int32_t day, int n) override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    const ReadOutcome out =
        ScanNewest(it.get(), PeerPartitionPrefix(sensors_.Uuid(sensor), day), n);
    if (!it->status().ok()) return FromLevel(it->status(), "newest");
    return out;
  }

  Result<ReadOutcome> Slice(int sensor, int32_t day, int64_t from_ms, int64_t to_ms) override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    const ReadOutcome out = ScanSlice(it.get(), sensors_.Uuid(sensor), day, from_ms, to_ms);
    if (!it->status().ok()) return FromLevel(it->status(), "slice");
    return out;
  }

  Result<bool> HasPartition(int sensor, int32_t day) override {
    if (db_ == nullptr) return Status::InvalidArgument("leveldb engine not open");
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    const bool found = SeekPartition(it.get(), PeerPartitionPrefix(sensors_.Uuid(sensor), day));
    if (!it->status().ok()) return FromLevel(it->status(), "has partition");
    return found;
  }

  Status Close() override {
    // LevelDB closes by deletion; the cache and filter go only after it.
    db_.reset();
    cache_.reset();
    filter_.reset();
    return Status::OK();
  }

 private:
  // Declared before db_ so that, destroyed after it, they outlive it.
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<leveldb::DB> db_;
  PeerSensors sensors_;
};

}  // namespace

std::unique_ptr<BenchEngine> NewLevelDbEngine() { return std::make_unique<LevelDbEngine>(); }

}  // namespace cassette::bench

#else  // !CASSETTE_HAVE_LEVELDB

namespace cassette::bench {

// Built without LevelDB (CMake did not find it): the driver skips the peer.
std::unique_ptr<BenchEngine> NewLevelDbEngine() { return nullptr; }

}  // namespace cassette::bench

#endif  // CASSETTE_HAVE_LEVELDB
