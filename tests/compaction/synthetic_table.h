// SyntheticTable: SSTable statistics built by hand for compaction strategy
// unit tests (sizes, timestamps, expiry, key ranges, tombstones), and the
// CompactionSnapshot a strategy sees of them. Strategies read only
// statistics, so no file is ever written.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/compaction/compaction_strategy.h"
#include "engine/sstable/sstable_stats.h"

namespace cassette {
namespace testing_compaction {

constexpr int64_t kMicros = 1000000;  // per second
constexpr int64_t kMinuteS = 60;
constexpr int64_t kHourS = 3600;
constexpr int64_t kDayS = 86400;
constexpr int64_t kNeverExpires = std::numeric_limits<int64_t>::max();
constexpr uint64_t kMiB = 1ull << 20;

struct FileSpec {
  uint64_t generation = 0;
  uint64_t size = kMiB;
  // Cell timestamps, microseconds.
  int64_t min_ts = 0;
  int64_t max_ts = 0;
  // Seconds; kNeverExpires = some data without TTL.
  int64_t max_ldt = kNeverExpires;
  // Partition range, by token.
  int64_t first_token = -1000;
  int64_t last_token = 1000;
  uint64_t partitions = 100;
  bool compacting = false;
  int64_t created_micros = 0;
};

class SyntheticTable {
 public:
  SSTableStats& Add(const FileSpec& spec) {
    auto stats = std::make_unique<SSTableStats>();
    stats->partition_count = spec.partitions;
    stats->min_timestamp = spec.min_ts;
    stats->max_timestamp = spec.max_ts;
    stats->max_local_deletion_time = spec.max_ldt;
    stats->min_local_deletion_time = spec.max_ldt;
    stats->first_key = DecoratedKey{spec.first_token, "first" + std::to_string(spec.generation)};
    stats->last_key = DecoratedKey{spec.last_token, "last" + std::to_string(spec.generation)};
    stats->creation_time_micros = spec.created_micros;
    stats->cells_per_partition.Add(10, spec.partitions);
    stats->cell_count = 10 * spec.partitions;
    CompactionCandidate c;
    c.generation = spec.generation;
    c.size_on_disk = spec.size;
    c.compacting = spec.compacting;
    c.stats = stats.get();
    candidates_.push_back(c);
    stats_.push_back(std::move(stats));
    return *stats_.back();
  }

  // A file of `size` bytes written at `ts_seconds` with TTL `ttl_seconds`
  // (0 = none) on the full key range: the usual time-series flush.
  SSTableStats& AddWrite(uint64_t generation, uint64_t size, int64_t ts_seconds,
                         int64_t ttl_seconds) {
    FileSpec spec;
    spec.generation = generation;
    spec.size = size;
    spec.min_ts = ts_seconds * kMicros;
    spec.max_ts = ts_seconds * kMicros;
    spec.max_ldt = ttl_seconds > 0 ? ts_seconds + ttl_seconds : kNeverExpires;
    spec.created_micros = ts_seconds * kMicros;
    return Add(spec);
  }

  void SetCompacting(uint64_t generation, bool compacting) {
    for (CompactionCandidate& c : candidates_) {
      if (c.generation == generation) c.compacting = compacting;
    }
  }

  void Remove(uint64_t generation) {
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (candidates_[i].generation == generation) {
        candidates_.erase(candidates_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  }

  CompactionSnapshot Snapshot(int64_t now_seconds, int64_t gc_grace_seconds = 0) const {
    CompactionSnapshot s;
    s.sstables = candidates_;
    s.memtable_min_timestamp = memtable_min_timestamp;
    s.now_micros = now_seconds * kMicros;
    s.gc_before = now_seconds - gc_grace_seconds;
    return s;
  }

  std::optional<int64_t> memtable_min_timestamp;

 private:
  std::vector<std::unique_ptr<SSTableStats>> stats_;
  std::vector<CompactionCandidate> candidates_;
};

// Gives a file `tombstones` deletions with local deletion time
// `drop_time_seconds` among its 10 cells per partition.
inline void AddTombstones(SSTableStats* stats, uint64_t tombstones, int64_t drop_time_seconds) {
  stats->tombstone_drop_times.Update(drop_time_seconds, tombstones);
  stats->tombstone_cell_count += tombstones;
}

}  // namespace testing_compaction
}  // namespace cassette
