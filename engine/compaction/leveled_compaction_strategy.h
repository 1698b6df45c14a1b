// LeveledCompactionStrategy (Cassandra's LeveledCompactionStrategy and
// LeveledManifest; docs/COMPACTION.md). Flushes land in L0, where files may overlap;
// L1..L8 each hold files of about sstable_size_in_mb that do not overlap
// one another, and level n aims at fanout^n * sstable_size bytes (L0 at 4
// files' worth). The level most over its target, highest first, sends one
// file (taken round-robin through its key range) with the overlapping files
// of the next level down a level; L0 is compacted into L1 when higher levels
// are content, and falls back to size-tiering when it holds more than 32
// files. With nothing else to do, a file whose droppable tombstones are
// worth it is compacted alone.
//
// Where cassette differs from Cassandra:
// - A file recorded in L1+ that overlaps an older file of its level is
//   treated as L0 (Cassandra rewrites its level to 0 when it loads it).
// - single_sstable_uplevel moves a lone L1+ file up one level without
//   rewriting it (CompactionTask::move_only), as Cassandra does.
// - A major compaction writes every output into one level (the lowest
//   that holds the data without exceeding its target) rather than filling
//   L1, then L2, ... in key order.
// Thread-compatible; calls are serialized by the manager.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/compaction/size_tiered_buckets.h"
#include "engine/mutation/decorated_key.h"

namespace cassette {

struct LeveledCompactionOptions {
  uint64_t sstable_size_bytes = 160ull << 20;  // sstable_size_in_mb
  int32_t fanout_size = 10;
  bool single_sstable_uplevel = false;
  CompactionCommonOptions common;
  SizeTieredOptions size_tiered;  // for the L0 fallback
};

// Validates the whole `compaction` map ("class" is ignored) with Cassandra's
// messages: the common options, sstable_size_in_mb, fanout_size, the
// size-tiered options, then unknown keys.
Result<LeveledCompactionOptions> ParseLeveledCompactionOptions(
    const std::map<std::string, std::string>& options);

class LeveledCompactionStrategy final : public CompactionStrategy {
 public:
  static constexpr uint32_t kLevelCount = 9;  // L0..L8
  // More L0 files than this and L0 is size-tiered before anything else.
  static constexpr size_t kMaxCompactingL0 = 32;
  // Rounds without compacting into the highest level after which one of
  // its files joins a lower compaction that covers it.
  static constexpr int kNoCompactionLimit = 25;

  explicit LeveledCompactionStrategy(LeveledCompactionOptions options);

  std::string_view name() const override { return "LeveledCompactionStrategy"; }
  std::optional<CompactionTask> NextBackgroundTask(const CompactionSnapshot& snapshot) override;
  CompactionTask MajorTask(const CompactionSnapshot& snapshot) override;
  // Remembers where the compaction out of a level ended, so that the next
  // one out of that level starts after it (round-robin over the key range).
  void OnCompactionEnd(const CompactionTask& task,
                       const std::vector<CompactionCandidate>& outputs) override;

  // The bytes level `level` aims at.
  uint64_t MaxBytesForLevel(uint32_t level) const;
  const LeveledCompactionOptions& options() const { return options_; }

 private:
  struct Levels;

  std::optional<CompactionTask> PickTask(const CompactionSnapshot& snapshot, const Levels& levels);
  std::vector<const CompactionCandidate*> CandidatesForLevel(const Levels& levels, uint32_t level);
  std::vector<const CompactionCandidate*> CandidatesForL0(const Levels& levels) const;
  std::vector<const CompactionCandidate*> SizeTieredL0(const Levels& levels) const;
  std::vector<const CompactionCandidate*> AddStarved(const Levels& levels, uint32_t target,
                                                     std::vector<const CompactionCandidate*> c);
  uint32_t NextLevel(const Levels& levels,
                     const std::vector<const CompactionCandidate*>& candidates) const;
  std::optional<CompactionTask> TombstoneTask(const CompactionSnapshot& snapshot,
                                              const Levels& levels) const;
  CompactionTask MakeTask(const CompactionSnapshot& snapshot,
                          const std::vector<const CompactionCandidate*>& inputs,
                          uint32_t output_level, uint64_t max_output_bytes,
                          std::string reason) const;

  LeveledCompactionOptions options_;
  // Per level, the last key of the furthest output of the last compaction
  // out of it (Cassandra's lastCompactedSSTables).
  std::array<std::optional<DecoratedKey>, kLevelCount> last_compacted_;
  std::array<int, kLevelCount> compaction_counter_{};
  // The level of every file of the last snapshot seen, for OnCompactionEnd.
  std::map<uint64_t, uint32_t> known_levels_;
};

// Validates `options` and builds the strategy.
Result<std::unique_ptr<CompactionStrategy>> NewLeveledCompactionStrategy(
    const std::map<std::string, std::string>& options);

}  // namespace cassette
