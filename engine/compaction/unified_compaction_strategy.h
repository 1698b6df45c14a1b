// UnifiedCompactionStrategy (Cassandra 5's UCS, docs/COMPACTION.md, and Cassandra's
// UnifiedCompactionStrategy.md). SSTables are grouped into levels by
// density (bytes / fraction of the token range covered): level 0 holds
// densities below m*f0, level i those in [m*f0*..*f(i-1), m*f0*..*fi), with
// m the flush size (observed, or flush_size_override) shaved by 0.9/f0. A
// level compacts once some key is covered by `threshold` of its SSTables:
// the overlapping SSTables (extended by overlap_inclusion_method) are merged
// and the output is split at the boundaries of the shard count chosen for
// its density. T<f> (w > 0) is tiered, L<f> (w < 0) leveled, N in between.
//
// Where cassette differs from Cassandra 5.0:
// - Among buckets of equal overlap Cassandra picks at random; cassette takes
//   the one with the lowest tokens (deterministic; the others follow once
//   it is compacting).
// - A level whose overlap is below its threshold never hides a compaction
//   that another level needs (Cassandra compares overlaps before checking
//   that the level has a pick; that only matters with mixed parameters).
// - The span of a file with fewer than 100 partitions is floored at its
//   share of the table's partitions (as Cassandra trunk does), rather than
//   replaced by the whole range only when it is tiny (5.0).
// - Outputs are recorded at level 0: UCS levels are derived, never stored,
//   so switching the table to LCS later starts from L0 as in Cassandra.
// - The first background call checks for fully expired SSTables (Cassandra
//   waits one check period after the strategy starts).
// Thread-compatible; calls are serialized by the manager.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/compaction/unified_compaction_options.h"

namespace cassette {

class UnifiedCompactionStrategy final : public CompactionStrategy {
 public:
  // One density level as the strategy sees it (for tests and stats).
  struct Level {
    int index = 0;
    double min_density = 0;
    double max_density = 0;
    int64_t fanout = 0;
    int64_t threshold = 0;
    int max_overlap = 0;                // most SSTables covering one token
    std::vector<uint64_t> generations;  // by density, ascending
  };

  explicit UnifiedCompactionStrategy(UnifiedCompactionOptions options);

  std::string_view name() const override { return "UnifiedCompactionStrategy"; }
  std::optional<CompactionTask> NextBackgroundTask(const CompactionSnapshot& snapshot) override;
  CompactionTask MajorTask(const CompactionSnapshot& snapshot) override;
  // Flushes are split into the shard count of the observed flush density
  // (shard_boundaries over the whole token range).
  CompactionTask FlushOutputShape() const override;
  // Feeds the observed flush size (the density of each flushed SSTable).
  void OnFlush(const CompactionCandidate& added) override;
  int64_t timer_period_seconds() const override {
    return options_.expired_sstable_check_frequency_seconds;
  }

  // The levels of the snapshot's non-compacting SSTables, empty levels
  // below the highest included.
  std::vector<Level> Levels(const CompactionSnapshot& snapshot) const;
  // m: the flush size levels are measured from (bytes; 0 before any flush
  // is observed and without flush_size_override).
  uint64_t FlushSizeBytes() const;
  const UnifiedCompactionOptions& options() const { return options_; }

 private:
  UnifiedCompactionOptions options_;
  // Exponential moving average of observed flush densities (NaN: none yet)
  // and the rounded value levels use, refreshed when it drifts by > 50%.
  double observed_flush_density_;
  uint64_t current_flush_size_ = 0;
  std::optional<int64_t> last_expired_check_micros_;
};

// Validates `options` (the table's compaction map; "class" is ignored) and
// builds the strategy.
Result<std::unique_ptr<CompactionStrategy>> NewUnifiedCompactionStrategy(
    const std::map<std::string, std::string>& options);

// The `shard_count - 1` tokens splitting the Murmur3 token range into equal
// shards, ascending (for tests and the flush path).
std::vector<int64_t> UnifiedShardBoundaries(int32_t shard_count);

}  // namespace cassette
