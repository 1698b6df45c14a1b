#include "engine/compaction/unified_compaction_strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/overlap_sets.h"

namespace cassette {
namespace {

constexpr double kTwoPow64 = 18446744073709551616.0;
// Below these a file's token span says little about its density (one
// partition, or a handful), so it is floored at its share of partitions.
constexpr uint64_t kPerPartitionSpanThreshold = 100;
const double kMinimumTokenCoverage = std::ldexp(1.0, -48);
constexpr uint64_t kDefaultTablePartitions = 1 << 16;
// Weight of each new flush in the observed flush size (Cassandra's
// ExpMovingAverage.decayBy1000).
constexpr double kFlushSizeAlpha = 0.0046;
constexpr double kMiB = 1 << 20;
constexpr int64_t kMicrosPerSecond = 1000000;

bool HasKeys(const CompactionCandidate& c) {
  return c.stats != nullptr && c.stats->partition_count > 0;
}

// Fraction of the token range from `first` to `last`, both included.
double TokenSpan(int64_t first, int64_t last) {
  const uint64_t diff = static_cast<uint64_t>(last) - static_cast<uint64_t>(first);
  return (static_cast<double>(diff) + 1.0) / kTwoPow64;
}

// ShardManager.rangeSpanned: the span of `partitions` partitions between
// two tokens, floored for files with few partitions at their share of the
// table's `table_partitions`.
double RangeSpanned(int64_t first, int64_t last, uint64_t partitions, uint64_t table_partitions) {
  const double span = TokenSpan(first, last);
  if (partitions >= kPerPartitionSpanThreshold && span >= kMinimumTokenCoverage) return span;
  const double floor = std::min(static_cast<double>(partitions) /
                                    static_cast<double>(std::max<uint64_t>(1, table_partitions)),
                                1.0);
  return span > floor ? span : floor;
}

double Density(const CompactionCandidate& c, uint64_t table_partitions) {
  const SSTableStats& s = *c.stats;
  return static_cast<double>(c.size_on_disk) /
         RangeSpanned(s.first_key.token, s.last_key.token, s.partition_count, table_partitions);
}

// The density of the output of merging `inputs`: their bytes over the span
// from the first key of any to the last key of any.
double CombinedDensity(const std::vector<const CompactionCandidate*>& inputs,
                       uint64_t table_partitions) {
  uint64_t bytes = 0, partitions = 0;
  const DecoratedKey* first = nullptr;
  const DecoratedKey* last = nullptr;
  for (const CompactionCandidate* c : inputs) {
    bytes += c->size_on_disk;
    if (!HasKeys(*c)) continue;
    partitions += c->stats->partition_count;
    if (first == nullptr || c->stats->first_key < *first) first = &c->stats->first_key;
    if (last == nullptr || *last < c->stats->last_key) last = &c->stats->last_key;
  }
  if (first == nullptr) return static_cast<double>(bytes);
  const double span = RangeSpanned(first->token, last->token, partitions, table_partitions);
  return span >= kMinimumTokenCoverage ? static_cast<double>(bytes) / span
                                       : static_cast<double>(bytes);
}

// Estimated partitions of the table, for the per-partition span floor.
uint64_t TablePartitions(const CompactionSnapshot& snapshot) {
  uint64_t total = 0;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (c.stats != nullptr) total += c.stats->partition_count;
  }
  return total == 0 ? kDefaultTablePartitions : total;
}

// Boundary `i` of `shards` equal shards of (INT64_MIN, INT64_MAX].
int64_t ShardBoundary(uint64_t i, uint64_t shards) {
  const unsigned __int128 offset = (static_cast<unsigned __int128>(i) << 64) / shards;
  return static_cast<int64_t>(static_cast<uint64_t>(std::numeric_limits<int64_t>::min()) +
                              static_cast<uint64_t>(offset));
}

// The boundaries of `shards` shards that fall inside (first, last]: the
// only ones an output spanning [first, last] can cross.
std::vector<int64_t> BoundariesWithin(int32_t shards, int64_t first, int64_t last) {
  std::vector<int64_t> out;
  if (shards <= 1) return out;
  const uint64_t n = static_cast<uint64_t>(shards);
  const uint64_t offset =
      static_cast<uint64_t>(first) - static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
  uint64_t i = static_cast<uint64_t>((static_cast<unsigned __int128>(offset) * n) >> 64);
  for (i = std::max<uint64_t>(i, 1); i < n; ++i) {
    const int64_t b = ShardBoundary(i, n);
    if (b > last) break;
    if (b > first) out.push_back(b);
  }
  return out;
}

struct LevelWork {
  UnifiedCompactionStrategy::Level info;
  int32_t scaling_parameter = 0;
  std::vector<const CompactionCandidate*> sstables;
};

// Groups `suitable` into density levels (Cassandra's formLevels).
std::vector<LevelWork> FormLevels(std::vector<const CompactionCandidate*> suitable,
                                  const UnifiedCompactionOptions& options, uint64_t flush_size,
                                  uint64_t table_partitions) {
  std::vector<std::pair<double, const CompactionCandidate*>> by_density;
  for (const CompactionCandidate* c : suitable) {
    by_density.emplace_back(Density(*c, table_partitions), c);
  }
  std::stable_sort(by_density.begin(), by_density.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second->generation < b.second->generation;
  });

  const auto make_level = [&](int index, double min) {
    LevelWork level;
    level.scaling_parameter = options.ScalingParameter(static_cast<size_t>(index));
    level.info.index = index;
    level.info.fanout = UnifiedFanout(level.scaling_parameter);
    level.info.threshold = UnifiedThreshold(level.scaling_parameter);
    level.info.min_density = min;
    level.info.max_density = std::floor(min * static_cast<double>(level.info.fanout));
    return level;
  };
  // Level 0 starts a little below the flush size, so that f slightly
  // smaller flushes still make level 1.
  const double f0 = static_cast<double>(UnifiedFanout(options.ScalingParameter(0)));
  const double base = std::max(kMiB, static_cast<double>(flush_size)) * (1.0 - 0.9 / f0);
  LevelWork level = make_level(0, 0);
  level.info.max_density = std::floor(base * f0);

  std::vector<LevelWork> levels;
  for (const auto& [density, c] : by_density) {
    while (!(density < level.info.max_density)) {
      const int next = level.info.index + 1;
      const double min = level.info.max_density;
      levels.push_back(std::move(level));
      level = make_level(next, min);
    }
    level.sstables.push_back(c);
    level.info.generations.push_back(c->generation);
  }
  if (!level.sstables.empty()) levels.push_back(std::move(level));
  return levels;
}

std::vector<std::vector<size_t>> LevelOverlapSets(const LevelWork& level) {
  std::vector<KeyRange> ranges;
  for (const CompactionCandidate* c : level.sstables) {
    ranges.push_back({c->stats->first_key, c->stats->last_key});
  }
  return ConstructOverlapSets(ranges);
}

struct Pick {
  int level = 0;
  int overlap = 0;
  std::vector<const CompactionCandidate*> sstables;
};

// Oldest first by max timestamp is the order in which SSTables leave a
// late bucket: picking the oldest keeps time order across compactions.
bool NewerFirst(const CompactionCandidate* a, const CompactionCandidate* b) {
  if (a->stats->max_timestamp != b->stats->max_timestamp) {
    return a->stats->max_timestamp > b->stats->max_timestamp;
  }
  return a->generation > b->generation;
}

// The oldest SSTables of `sorted` (newest first) such that no overlap set
// of the bucket gets more than `limit` of them.
std::vector<const CompactionCandidate*> PullOldest(
    const std::vector<const CompactionCandidate*>& sorted, const std::vector<size_t>& sorted_items,
    const std::vector<std::vector<size_t>>& sets, OverlapBucket bucket, int64_t limit) {
  std::vector<int64_t> selected(bucket.end - bucket.begin, 0);
  size_t take = sorted.size();
  for (size_t n = 0; n < sorted.size(); ++n) {
    const size_t item = sorted_items[sorted.size() - 1 - n];
    bool over = false;
    for (size_t s = bucket.begin; s < bucket.end; ++s) {
      if (std::binary_search(sets[s].begin(), sets[s].end(), item) &&
          ++selected[s - bucket.begin] > limit) {
        over = true;
      }
    }
    if (over) {
      take = n;
      break;
    }
  }
  return std::vector<const CompactionCandidate*>(sorted.end() - static_cast<ptrdiff_t>(take),
                                                 sorted.end());
}

// Cassandra's Bucket.constructPick: all of the bucket when it is on time,
// else the oldest SSTables in a count that lays data out as timely
// compactions would have.
Pick BucketPick(const LevelWork& level, const std::vector<std::vector<size_t>>& sets,
                OverlapBucket bucket, const UnifiedCompactionOptions& options) {
  std::set<size_t> members;
  int overlap = 0;
  for (size_t s = bucket.begin; s < bucket.end; ++s) {
    members.insert(sets[s].begin(), sets[s].end());
    overlap = std::max(overlap, static_cast<int>(sets[s].size()));
  }
  std::vector<size_t> items(members.begin(), members.end());
  std::sort(items.begin(), items.end(),
            [&](size_t a, size_t b) { return NewerFirst(level.sstables[a], level.sstables[b]); });
  std::vector<const CompactionCandidate*> sorted;
  for (size_t i : items) sorted.push_back(level.sstables[i]);

  const int64_t fanout = level.info.fanout;
  const int64_t limit_option = options.max_sstables_to_compact <= 0
                                   ? std::numeric_limits<int32_t>::max()
                                   : options.max_sstables_to_compact;
  const int64_t max_to_compact = std::max(fanout, limit_option);
  const int64_t next_fanout =
      UnifiedFanout(options.ScalingParameter(static_cast<size_t>(level.info.index) + 1));
  Pick pick{level.info.index, overlap, sorted};
  const int64_t count = overlap;
  if (count <= fanout) return pick;
  if (count <= fanout * next_fanout || max_to_compact == fanout) {
    if (count <= max_to_compact) return pick;
    pick.sstables = PullOldest(sorted, items, sets, bucket, max_to_compact);
    return pick;
  }
  // Very late: take as many as timely compactions would have merged into
  // one SSTable of a higher level (tiered), or every SSTable that would
  // have reached it (leveled).
  const int64_t limit = std::min(max_to_compact, count);
  int64_t pick_size = fanout, next_step = fanout;
  size_t index = static_cast<size_t>(level.info.index);
  do {
    pick_size = next_step;
    next_step *= UnifiedFanout(options.ScalingParameter(++index));
  } while (next_step <= limit);
  if (level.scaling_parameter < 0) pick_size *= limit / pick_size;
  pick.sstables = PullOldest(sorted, items, sets, bucket, pick_size);
  return pick;
}

// The compaction a level needs, if any: a bucket of the highest overlap
// (the first such in token order).
std::optional<Pick> LevelPick(LevelWork& level, const UnifiedCompactionOptions& options) {
  const std::vector<std::vector<size_t>> sets = LevelOverlapSets(level);
  for (const std::vector<size_t>& set : sets) {
    level.info.max_overlap = std::max(level.info.max_overlap, static_cast<int>(set.size()));
  }
  if (level.info.max_overlap < level.info.threshold) return std::nullopt;
  for (const OverlapBucket& bucket :
       AssignOverlapsIntoBuckets(level.info.threshold, options.overlap_inclusion_method, sets)) {
    int overlap = 0;
    for (size_t s = bucket.begin; s < bucket.end; ++s) {
      overlap = std::max(overlap, static_cast<int>(sets[s].size()));
    }
    if (overlap == level.info.max_overlap) return BucketPick(level, sets, bucket, options);
  }
  return std::nullopt;
}

std::vector<uint64_t> Generations(const std::vector<const CompactionCandidate*>& sstables) {
  std::vector<uint64_t> out;
  for (const CompactionCandidate* c : sstables) out.push_back(c->generation);
  std::sort(out.begin(), out.end());
  return out;
}

// Fills the shard split of a task rewriting `inputs`; returns the shard
// count of the whole token range.
int32_t ShapeOutput(const std::vector<const CompactionCandidate*>& inputs,
                    const UnifiedCompactionOptions& options, uint64_t table_partitions,
                    CompactionTask* task) {
  task->output_level = 0;
  task->max_output_bytes = 0;  // UCS splits at shard boundaries only
  const int32_t shards = UnifiedShardCount(options, CombinedDensity(inputs, table_partitions));
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (const CompactionCandidate* c : inputs) {
    if (!HasKeys(*c)) continue;
    first = std::min(first, c->stats->first_key.token);
    last = std::max(last, c->stats->last_key.token);
  }
  if (first <= last) task->shard_boundaries = BoundariesWithin(shards, first, last);
  return shards;
}

}  // namespace

std::vector<int64_t> UnifiedShardBoundaries(int32_t shard_count) {
  return BoundariesWithin(shard_count, std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max());
}

UnifiedCompactionStrategy::UnifiedCompactionStrategy(UnifiedCompactionOptions options)
    : options_(std::move(options)),
      observed_flush_density_(std::numeric_limits<double>::quiet_NaN()) {}

uint64_t UnifiedCompactionStrategy::FlushSizeBytes() const {
  return options_.flush_size_override > 0 ? options_.flush_size_override : current_flush_size_;
}

void UnifiedCompactionStrategy::OnFlush(const CompactionCandidate& added) {
  if (!HasKeys(added)) return;
  // A flush spans the table's whole live range: its files' densities are
  // the flush size, whatever the shards it was split into.
  const double density = Density(added, added.stats->partition_count);
  if (std::isnan(observed_flush_density_)) {
    observed_flush_density_ = density;
  } else {
    observed_flush_density_ += kFlushSizeAlpha * (density - observed_flush_density_);
  }
  // Levels move only when the observation drifts by more than half, and in
  // whole MiB, so that the hierarchy stays put under small variations.
  if (current_flush_size_ == 0 ||
      std::abs(1 - static_cast<double>(current_flush_size_) / observed_flush_density_) > 0.5) {
    current_flush_size_ = static_cast<uint64_t>(std::ceil(observed_flush_density_ / kMiB)) << 20;
  }
}

std::vector<UnifiedCompactionStrategy::Level> UnifiedCompactionStrategy::Levels(
    const CompactionSnapshot& snapshot) const {
  std::vector<const CompactionCandidate*> suitable;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting && HasKeys(c)) suitable.push_back(&c);
  }
  std::vector<Level> out;
  for (LevelWork& level :
       FormLevels(suitable, options_, FlushSizeBytes(), TablePartitions(snapshot))) {
    LevelPick(level, options_);  // fills max_overlap
    out.push_back(std::move(level.info));
  }
  return out;
}

std::optional<CompactionTask> UnifiedCompactionStrategy::NextBackgroundTask(
    const CompactionSnapshot& snapshot) {
  if (!options_.common.enabled) return std::nullopt;
  std::vector<const CompactionCandidate*> suitable;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting && HasKeys(c)) suitable.push_back(&c);
  }
  std::vector<uint64_t> expired;
  const int64_t period = options_.expired_sstable_check_frequency_seconds;
  const bool check_due =
      !last_expired_check_micros_ ||
      (period < std::numeric_limits<int64_t>::max() / kMicrosPerSecond &&
       snapshot.now_micros - *last_expired_check_micros_ > period * kMicrosPerSecond);
  if (check_due) {
    last_expired_check_micros_ = snapshot.now_micros;
    expired = FullyExpiredSSTables(snapshot, Generations(suitable),
                                   options_.unsafe_aggressive_sstable_expiration);
    std::sort(expired.begin(), expired.end());
    std::erase_if(suitable, [&](const CompactionCandidate* c) {
      return std::binary_search(expired.begin(), expired.end(), c->generation);
    });
  }

  const uint64_t table_partitions = TablePartitions(snapshot);
  std::optional<Pick> selected;
  for (LevelWork& level : FormLevels(suitable, options_, FlushSizeBytes(), table_partitions)) {
    std::optional<Pick> pick = LevelPick(level, options_);
    // The highest overlap first; on a tie the lower level, which covers
    // more of the token range for the same work.
    if (pick && (!selected || pick->overlap > selected->overlap)) selected = std::move(pick);
  }
  if (!selected && expired.empty()) return std::nullopt;

  CompactionTask task;
  task.expired = expired;
  if (!selected) {
    task.reason = "fully expired: " + std::to_string(expired.size()) + " sstables";
    return task;
  }
  task.inputs = Generations(selected->sstables);
  const int32_t shards = ShapeOutput(selected->sstables, options_, table_partitions, &task);
  task.reason = "level " + std::to_string(selected->level) + " overlap " +
                std::to_string(selected->overlap) + ": " + std::to_string(task.inputs.size()) +
                " sstables, " + std::to_string(shards) + " shards";
  if (!expired.empty()) task.reason += ", " + std::to_string(expired.size()) + " fully expired";
  return task;
}

CompactionTask UnifiedCompactionStrategy::MajorTask(const CompactionSnapshot& snapshot) {
  std::vector<const CompactionCandidate*> inputs;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting) inputs.push_back(&c);
  }
  CompactionTask task;
  task.expired = FullyExpiredSSTables(snapshot, Generations(inputs),
                                      options_.unsafe_aggressive_sstable_expiration);
  std::sort(task.expired.begin(), task.expired.end());
  std::erase_if(inputs, [&](const CompactionCandidate* c) {
    return std::binary_search(task.expired.begin(), task.expired.end(), c->generation);
  });
  task.inputs = Generations(inputs);
  const int32_t shards = ShapeOutput(inputs, options_, TablePartitions(snapshot), &task);
  task.reason = "major compaction: " + std::to_string(task.inputs.size()) + " sstables, " +
                std::to_string(shards) + " shards";
  return task;
}

CompactionTask UnifiedCompactionStrategy::FlushOutputShape() const {
  CompactionTask shape;
  const double density = std::isnan(observed_flush_density_) ? 0 : observed_flush_density_;
  shape.shard_boundaries = UnifiedShardBoundaries(UnifiedShardCount(options_, density));
  return shape;
}

Result<std::unique_ptr<CompactionStrategy>> NewUnifiedCompactionStrategy(
    const std::map<std::string, std::string>& options) {
  CASSETTE_ASSIGN_OR_RETURN(UnifiedCompactionOptions parsed,
                            ParseUnifiedCompactionOptions(options));
  return std::unique_ptr<CompactionStrategy>(
      std::make_unique<UnifiedCompactionStrategy>(std::move(parsed)));
}

}  // namespace cassette
