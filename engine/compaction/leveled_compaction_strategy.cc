#include "engine/compaction/leveled_compaction_strategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>
#include <utility>

#include "engine/compaction/compaction_option_parsing.h"

namespace cassette {
namespace {

constexpr std::string_view kStrategy = "LeveledCompactionStrategy";

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

// A file without statistics is taken to span every token: it then blocks
// rather than silently overlaps.
int64_t FirstToken(const CompactionCandidate* c) {
  return c->stats != nullptr && c->stats->partition_count > 0 ? c->stats->first_key.token
                                                              : std::numeric_limits<int64_t>::min();
}
int64_t LastToken(const CompactionCandidate* c) {
  return c->stats != nullptr && c->stats->partition_count > 0 ? c->stats->last_key.token
                                                              : std::numeric_limits<int64_t>::max();
}

const DecoratedKey& FirstKey(const CompactionCandidate* c) {
  static const DecoratedKey kMin{std::numeric_limits<int64_t>::min(), ""};
  return c->stats != nullptr && c->stats->partition_count > 0 ? c->stats->first_key : kMin;
}
const DecoratedKey& LastKey(const CompactionCandidate* c) {
  static const DecoratedKey kMax{std::numeric_limits<int64_t>::max(), std::string(64, '\xff')};
  return c->stats != nullptr && c->stats->partition_count > 0 ? c->stats->last_key : kMax;
}

// Cassandra compares LCS ranges by token, bounds included.
bool TokensOverlap(int64_t first, int64_t last, const CompactionCandidate* c) {
  return first <= LastToken(c) && FirstToken(c) <= last;
}

uint64_t TotalBytes(const std::vector<const CompactionCandidate*>& files) {
  uint64_t total = 0;
  for (const CompactionCandidate* c : files) total += c->size_on_disk;
  return total;
}

// The token range of all of `files` together.
std::pair<int64_t, int64_t> TokenRange(const std::vector<const CompactionCandidate*>& files) {
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (const CompactionCandidate* c : files) {
    first = std::min(first, FirstToken(c));
    last = std::max(last, LastToken(c));
  }
  return {first, last};
}

int64_t MaxTimestamp(const CompactionCandidate* c) {
  return c->stats != nullptr ? c->stats->max_timestamp : std::numeric_limits<int64_t>::min();
}

// Oldest data first (Cassandra's maxTimestampAscending).
void SortByAge(std::vector<const CompactionCandidate*>* files) {
  std::sort(files->begin(), files->end(),
            [](const CompactionCandidate* a, const CompactionCandidate* b) {
              return MaxTimestamp(a) != MaxTimestamp(b) ? MaxTimestamp(a) < MaxTimestamp(b)
                                                        : a->generation < b->generation;
            });
}

std::string LevelName(uint32_t level) { return "L" + std::to_string(level); }

}  // namespace

Result<LeveledCompactionOptions> ParseLeveledCompactionOptions(
    const std::map<std::string, std::string>& options) {
  LeveledCompactionOptions out;
  std::set<std::string> unconsumed;
  for (const auto& [key, value] : options) unconsumed.insert(key);
  unconsumed.erase("class");
  CASSETTE_ASSIGN_OR_RETURN(out.common, ParseCompactionCommonOptions(options, &unconsumed));

  // Cassandra validates a missing size as "1" and a missing fanout as "10".
  const std::string size = FindOption(options, "sstable_size_in_mb").value_or("1");
  int32_t size_mb;
  if (!ParseJavaInt(size, &size_mb)) {
    return Config(size + " is not a parsable int (base10) for sstable_size_in_mb");
  }
  if (size_mb < 1) {
    return Config("sstable_size_in_mb must be larger than 0, but was " + std::to_string(size_mb));
  }
  if (options.count("sstable_size_in_mb") > 0) {
    out.sstable_size_bytes = static_cast<uint64_t>(size_mb) << 20;
  }
  const std::string fanout = FindOption(options, "fanout_size").value_or("10");
  if (!ParseJavaInt(fanout, &out.fanout_size)) {
    // Cassandra names the sstable size value here, not the fanout's.
    return Config(size + " is not a parsable int (base10) for fanout_size");
  }
  if (out.fanout_size < 1) {
    return Config("fanout_size must be larger than 0, but was " + std::to_string(out.fanout_size));
  }
  // Boolean.parseBoolean: anything but "true" is false, never an error.
  if (std::optional<std::string> v = FindOption(options, "single_sstable_uplevel")) {
    out.single_sstable_uplevel = EqualsIgnoreCase(*v, "true");
  }
  for (const char* key : {"sstable_size_in_mb", "fanout_size", "single_sstable_uplevel"}) {
    unconsumed.erase(key);
  }
  CASSETTE_ASSIGN_OR_RETURN(out.size_tiered, ParseSizeTieredOptions(options, &unconsumed));
  CASSETTE_RETURN_IF_ERROR(RejectUnknownCompactionOptions(unconsumed, kStrategy));
  return out;
}

// The snapshot's files by level: L0 oldest first, L1+ by first key.
struct LeveledCompactionStrategy::Levels {
  std::array<std::vector<const CompactionCandidate*>, kLevelCount> files;
  std::map<uint64_t, uint32_t> level_of;  // by generation

  explicit Levels(const CompactionSnapshot& snapshot) {
    // Per level, the key ranges placed so far (first -> last, disjoint).
    std::array<std::map<DecoratedKey, DecoratedKey>, kLevelCount> placed;
    for (const CompactionCandidate& c : snapshot.sstables) {
      uint32_t level = c.level < kLevelCount ? c.level : 0;
      if (level > 0) {
        // The placed range with the greatest start at or before our end is
        // the only one that may reach into us.
        std::map<DecoratedKey, DecoratedKey>& ranges = placed[level];
        auto it = ranges.upper_bound(LastKey(&c));
        if (it != ranges.begin() && !(std::prev(it)->second < FirstKey(&c))) {
          level = 0;
        } else {
          ranges.emplace(FirstKey(&c), LastKey(&c));
        }
      }
      files[level].push_back(&c);
      level_of[c.generation] = level;
    }
    for (uint32_t level = 1; level < kLevelCount; ++level) {
      std::sort(files[level].begin(), files[level].end(),
                [](const CompactionCandidate* a, const CompactionCandidate* b) {
                  if (!(FirstKey(a) == FirstKey(b))) return FirstKey(a) < FirstKey(b);
                  return a->generation < b->generation;
                });
    }
  }

  uint32_t LevelOf(const CompactionCandidate* c) const { return level_of.at(c->generation); }
};

LeveledCompactionStrategy::LeveledCompactionStrategy(LeveledCompactionOptions options)
    : options_(std::move(options)) {}

uint64_t LeveledCompactionStrategy::MaxBytesForLevel(uint32_t level) const {
  const long double size = static_cast<long double>(options_.sstable_size_bytes);
  if (level == 0) return 4 * options_.sstable_size_bytes;
  const long double bytes = std::pow(static_cast<long double>(options_.fanout_size), level) * size;
  if (bytes >= static_cast<long double>(std::numeric_limits<uint64_t>::max())) {
    return std::numeric_limits<uint64_t>::max();
  }
  return static_cast<uint64_t>(bytes);
}

uint32_t LeveledCompactionStrategy::NextLevel(
    const Levels& levels, const std::vector<const CompactionCandidate*>& candidates) const {
  uint32_t min = kLevelCount, max = 0;
  for (const CompactionCandidate* c : candidates) {
    min = std::min(min, levels.LevelOf(c));
    max = std::max(max, levels.LevelOf(c));
  }
  // Less than one output's worth of L0 stays in L0.
  if (max == 0 && TotalBytes(candidates) < options_.sstable_size_bytes) return 0;
  const uint32_t next = min == max ? max + 1 : max;
  return std::min(next, kLevelCount - 1);
}

std::vector<const CompactionCandidate*> LeveledCompactionStrategy::CandidatesForLevel(
    const Levels& levels, uint32_t level) {
  const std::vector<const CompactionCandidate*>& files = levels.files[level];
  const std::vector<const CompactionCandidate*>& next = levels.files[level + 1];
  // Start after the range the last compaction out of this level ended at,
  // wrapping around: over time every part of the level gets its turn.
  size_t start = 0;
  if (last_compacted_[level]) {
    const auto it = std::find_if(files.begin(), files.end(), [&](const CompactionCandidate* c) {
      return *last_compacted_[level] < FirstKey(c);
    });
    if (it != files.end()) start = static_cast<size_t>(it - files.begin());
  }
  for (size_t k = 0; k < files.size(); ++k) {
    const CompactionCandidate* file = files[(start + k) % files.size()];
    if (file->compacting) continue;
    std::vector<const CompactionCandidate*> candidates{file};
    bool busy = false;
    for (const CompactionCandidate* c : next) {
      if (!TokensOverlap(FirstToken(file), LastToken(file), c)) continue;
      busy |= c->compacting;
      candidates.push_back(c);
    }
    if (!busy) return candidates;
  }
  return {};
}

std::vector<const CompactionCandidate*> LeveledCompactionStrategy::CandidatesForL0(
    const Levels& levels) const {
  std::vector<const CompactionCandidate*> compacting_l0;
  for (const CompactionCandidate* c : levels.files[0]) {
    if (c->compacting) compacting_l0.push_back(c);
  }
  const auto [busy_first, busy_last] = TokenRange(compacting_l0);

  // Oldest first, each with the L0 files overlapping it; never a group
  // touching a running L0 compaction, and no file inside its range.
  std::vector<const CompactionCandidate*> by_age = levels.files[0];
  SortByAge(&by_age);
  std::set<uint64_t> remaining;
  for (const CompactionCandidate* c : by_age) remaining.insert(c->generation);
  std::vector<const CompactionCandidate*> candidates;
  std::set<uint64_t> chosen;
  const size_t max_threshold = static_cast<size_t>(options_.common.max_threshold);
  for (const CompactionCandidate* file : by_age) {
    std::vector<const CompactionCandidate*> group{file};
    for (const CompactionCandidate* c : by_age) {
      if (c != file && remaining.count(c->generation) > 0 &&
          TokensOverlap(FirstToken(file), LastToken(file), c)) {
        group.push_back(c);
      }
    }
    if (std::any_of(group.begin(), group.end(),
                    [](const CompactionCandidate* c) { return c->compacting; })) {
      continue;
    }
    for (const CompactionCandidate* c : group) {
      if ((compacting_l0.empty() || !TokensOverlap(busy_first, busy_last, c)) &&
          chosen.insert(c->generation).second) {
        candidates.push_back(c);
      }
      remaining.erase(c->generation);
    }
    if (candidates.size() > max_threshold) {
      SortByAge(&candidates);
      candidates.resize(max_threshold);
      break;
    }
  }

  // With more than one output's worth, the L0 files go to L1 together with
  // the L1 files they overlap.
  if (TotalBytes(candidates) > options_.sstable_size_bytes) {
    const std::pair<int64_t, int64_t> range = TokenRange(candidates);
    const int64_t first = range.first, last = range.second;
    std::vector<const CompactionCandidate*> l1;
    for (const CompactionCandidate* c : levels.files[1]) {
      if (!TokensOverlap(first, last, c)) continue;
      if (c->compacting) return {};
      l1.push_back(c);
    }
    if (!compacting_l0.empty() &&
        std::any_of(compacting_l0.begin(), compacting_l0.end(),
                    [&](const CompactionCandidate* c) { return TokensOverlap(first, last, c); })) {
      return {};
    }
    candidates.insert(candidates.end(), l1.begin(), l1.end());
  }
  if (candidates.size() < 2) return {};
  return candidates;
}

std::vector<const CompactionCandidate*> LeveledCompactionStrategy::SizeTieredL0(
    const Levels& levels) const {
  std::vector<const CompactionCandidate*> idle;
  for (const CompactionCandidate* c : levels.files[0]) {
    if (!c->compacting) idle.push_back(c);
  }
  return MostInterestingBucket(SizeTieredBuckets(idle, options_.size_tiered),
                               options_.common.min_threshold, options_.common.max_threshold);
}

std::vector<const CompactionCandidate*> LeveledCompactionStrategy::AddStarved(
    const Levels& levels, uint32_t target, std::vector<const CompactionCandidate*> candidates) {
  for (uint32_t i = 1; i < kLevelCount; ++i) ++compaction_counter_[i];
  compaction_counter_[target] = 0;
  for (uint32_t i = kLevelCount - 1; i > 0; --i) {
    if (levels.files[i].empty()) continue;
    // Only the highest non-empty level is considered. A level that has not
    // been compacted into for long (its data shrank, or sstable_size grew)
    // would never reach its target again: pull one of its files that lies
    // within the compaction's range down with it.
    if (compaction_counter_[i] <= kNoCompactionLimit) return candidates;
    const DecoratedKey* min = nullptr;
    const DecoratedKey* max = nullptr;
    for (const CompactionCandidate* c : candidates) {
      if (min == nullptr || FirstKey(c) < *min) min = &FirstKey(c);
      if (max == nullptr || *max < LastKey(c)) max = &LastKey(c);
    }
    if (min == nullptr || *min == *max) return candidates;
    for (const CompactionCandidate* c : levels.files[i]) {
      if (!c->compacting && FirstToken(c) >= min->token && LastToken(c) <= max->token &&
          std::find(candidates.begin(), candidates.end(), c) == candidates.end()) {
        candidates.push_back(c);
        return candidates;
      }
    }
    return candidates;
  }
  return candidates;
}

CompactionTask LeveledCompactionStrategy::MakeTask(
    const CompactionSnapshot& snapshot, const std::vector<const CompactionCandidate*>& inputs,
    uint32_t output_level, uint64_t max_output_bytes, std::string reason) const {
  CompactionTask task;
  for (const CompactionCandidate* c : inputs) task.inputs.push_back(c->generation);
  std::sort(task.inputs.begin(), task.inputs.end());
  // As in every Cassandra compaction, inputs that are fully expired are
  // dropped whole rather than rewritten.
  task.expired = FullyExpiredSSTables(snapshot, task.inputs, /*ignore_overlaps=*/false);
  std::sort(task.expired.begin(), task.expired.end());
  std::erase_if(task.inputs, [&](uint64_t g) {
    return std::binary_search(task.expired.begin(), task.expired.end(), g);
  });
  task.output_level = output_level;
  task.max_output_bytes = max_output_bytes;
  task.reason = std::move(reason);
  // single_sstable_uplevel: a lone file of L1+ going up one level overlaps
  // nothing there (the overlapping files would be inputs too), so it can
  // move without a rewrite, as Cassandra's SingleSSTableLCSTask does.
  if (options_.single_sstable_uplevel && inputs.size() == 1 && task.inputs.size() == 1 &&
      inputs[0]->level > 0 && output_level == inputs[0]->level + 1) {
    task.move_only = true;
    task.reason += " (moved up without a rewrite)";
  }
  return task;
}

std::optional<CompactionTask> LeveledCompactionStrategy::PickTask(
    const CompactionSnapshot& snapshot, const Levels& levels) {
  const uint64_t size = options_.sstable_size_bytes;
  // When L0 falls far behind, size-tier it first: that is cheap and keeps
  // reads bounded while the higher levels catch up.
  std::vector<const CompactionCandidate*> l0_tiered;
  if (levels.files[0].size() > kMaxCompactingL0) l0_tiered = SizeTieredL0(levels);
  const auto l0_tiered_task = [&] {
    return MakeTask(snapshot, l0_tiered, 0, 0,
                    "L0 size-tiered: " + std::to_string(l0_tiered.size()) + " of " +
                        std::to_string(levels.files[0].size()) + " sstables");
  };

  // Highest level first: compacting there first costs the least rewriting
  // of lower levels' data.
  for (uint32_t level = kLevelCount - 1; level > 0; --level) {
    if (levels.files[level].empty()) continue;
    uint64_t idle_bytes = 0;
    for (const CompactionCandidate* c : levels.files[level]) {
      if (!c->compacting) idle_bytes += c->size_on_disk;
    }
    const double score =
        static_cast<double>(idle_bytes) / static_cast<double>(MaxBytesForLevel(level));
    // The last level has nowhere to go.
    if (score <= 1.001 || level == kLevelCount - 1) continue;
    if (!l0_tiered.empty()) return l0_tiered_task();
    std::vector<const CompactionCandidate*> candidates = CandidatesForLevel(levels, level);
    if (candidates.empty()) continue;
    const uint32_t next = NextLevel(levels, candidates);
    candidates = AddStarved(levels, next, std::move(candidates));
    char score_text[32];
    std::snprintf(score_text, sizeof(score_text), "%.3f", score);
    return MakeTask(snapshot, candidates, next, size,
                    LevelName(level) + " score " + score_text + " -> " + LevelName(next) + ": " +
                        std::to_string(candidates.size()) + " sstables");
  }

  if (levels.files[0].empty()) return std::nullopt;
  std::vector<const CompactionCandidate*> candidates = CandidatesForL0(levels);
  if (candidates.empty()) {
    if (!l0_tiered.empty()) return l0_tiered_task();
    return std::nullopt;
  }
  const uint32_t next = NextLevel(levels, candidates);
  return MakeTask(
      snapshot, candidates, next, size,
      "L0 -> " + LevelName(next) + ": " + std::to_string(candidates.size()) + " sstables");
}

std::optional<CompactionTask> LeveledCompactionStrategy::TombstoneTask(
    const CompactionSnapshot& snapshot, const Levels& levels) const {
  const double threshold = options_.common.tombstone_threshold;
  for (uint32_t level = kLevelCount; level-- > 0;) {
    std::vector<std::pair<double, const CompactionCandidate*>> by_ratio;
    for (const CompactionCandidate* c : levels.files[level]) {
      if (c->compacting || c->stats == nullptr) continue;
      by_ratio.emplace_back(c->stats->DroppableTombstoneRatio(snapshot.gc_before), c);
    }
    std::sort(by_ratio.begin(), by_ratio.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second->generation < b.second->generation;
    });
    for (const auto& [ratio, c] : by_ratio) {
      if (ratio <= threshold) break;  // the rest of the level has less
      if (!WorthDroppingTombstones(*c, snapshot, options_.common)) continue;
      CompactionTask task = MakeTask(snapshot, {c}, level, options_.sstable_size_bytes,
                                     "tombstone compaction in " + LevelName(level));
      task.tombstone_compaction = true;
      return task;
    }
  }
  return std::nullopt;
}

std::optional<CompactionTask> LeveledCompactionStrategy::NextBackgroundTask(
    const CompactionSnapshot& snapshot) {
  const Levels levels(snapshot);
  known_levels_ = levels.level_of;
  if (!options_.common.enabled) return std::nullopt;
  if (std::optional<CompactionTask> task = PickTask(snapshot, levels)) return task;
  return TombstoneTask(snapshot, levels);
}

CompactionTask LeveledCompactionStrategy::MajorTask(const CompactionSnapshot& snapshot) {
  const Levels levels(snapshot);
  known_levels_ = levels.level_of;
  std::vector<const CompactionCandidate*> inputs;
  std::set<uint32_t> busy_levels;  // levels a running compaction reads or writes
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting) {
      inputs.push_back(&c);
    } else {
      busy_levels.insert(levels.LevelOf(&c));
      busy_levels.insert(levels.LevelOf(&c) + 1);
    }
  }
  CompactionTask task =
      MakeTask(snapshot, inputs, 0, options_.sstable_size_bytes,
               "major compaction: " + std::to_string(inputs.size()) + " sstables");
  // Every idle file is an input, so the outputs may form any level that no
  // running compaction touches: the lowest that holds them within target.
  uint64_t bytes = 0;
  for (const CompactionCandidate* c : inputs) {
    if (std::find(task.expired.begin(), task.expired.end(), c->generation) == task.expired.end()) {
      bytes += c->size_on_disk;
    }
  }
  uint32_t fit = 1;
  while (fit < kLevelCount - 1 && MaxBytesForLevel(fit) < bytes) ++fit;
  uint32_t level = 0;
  for (uint32_t n = fit; n < kLevelCount && level == 0; ++n) {
    if (busy_levels.count(n) == 0) level = n;
  }
  for (uint32_t n = fit; n-- > 1 && level == 0;) {
    if (busy_levels.count(n) == 0) level = n;
  }
  task.output_level = level;
  return task;
}

void LeveledCompactionStrategy::OnCompactionEnd(const CompactionTask& task,
                                                const std::vector<CompactionCandidate>& outputs) {
  std::optional<uint32_t> min_level;
  for (const std::vector<uint64_t>* gens : {&task.inputs, &task.expired}) {
    for (uint64_t g : *gens) {
      const auto it = known_levels_.find(g);
      if (it != known_levels_.end())
        min_level = std::min(min_level.value_or(it->second), it->second);
    }
  }
  const CompactionCandidate* furthest = nullptr;
  for (const CompactionCandidate& c : outputs) {
    if (c.stats == nullptr || c.stats->partition_count == 0) continue;
    if (furthest == nullptr || FirstKey(furthest) < FirstKey(&c)) furthest = &c;
  }
  if (!min_level || furthest == nullptr) return;
  last_compacted_[*min_level] = LastKey(furthest);
}

Result<std::unique_ptr<CompactionStrategy>> NewLeveledCompactionStrategy(
    const std::map<std::string, std::string>& options) {
  CASSETTE_ASSIGN_OR_RETURN(LeveledCompactionOptions parsed,
                            ParseLeveledCompactionOptions(options));
  return std::unique_ptr<CompactionStrategy>(
      std::make_unique<LeveledCompactionStrategy>(std::move(parsed)));
}

}  // namespace cassette
