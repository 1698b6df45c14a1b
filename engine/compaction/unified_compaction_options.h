// The options of UnifiedCompactionStrategy (Cassandra 5's
// unified/Controller.java; docs/COMPACTION.md) and the arithmetic they drive: the
// scaling parameter w of each level (fanout and threshold), and the number
// of shards an output of a given density is split into. Validated with
// Cassandra's ConfigurationException messages. Plain values and pure
// functions; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/overlap_sets.h"

namespace cassette {

struct UnifiedCompactionOptions {
  // One w per level, the last one repeating: w < 0 is leveled (L(2-w)),
  // w > 0 tiered (T(2+w)), 0 is N. Default T4.
  std::vector<int32_t> scaling_parameters{2};
  uint64_t target_sstable_size = 1ull << 30;
  // Outputs of lower density are split into fewer than base_shard_count
  // shards so that no shard is smaller than this; 0 turns that off.
  uint64_t min_sstable_size = 100ull << 20;
  int32_t base_shard_count = 4;
  // Share of density growth that goes to larger SSTables rather than more
  // shards (0: fixed target size, 1: fixed shard count).
  double sstable_growth = 0.333;
  // The flush size levels are measured from; 0 = observed from flushes.
  uint64_t flush_size_override = 0;
  // <= 0: no limit beyond the level's fanout.
  int32_t max_sstables_to_compact = 0;
  int64_t expired_sstable_check_frequency_seconds = 600;
  bool unsafe_aggressive_sstable_expiration = false;
  OverlapInclusionMethod overlap_inclusion_method = OverlapInclusionMethod::kTransitive;
  CompactionCommonOptions common;

  // The scaling parameter of level `index` (the last one repeats).
  int32_t ScalingParameter(size_t index) const;
};

// Parses and validates the whole `compaction` map ("class" is ignored), in
// Cassandra's order: the common options, then Controller.validateOptions,
// then unknown keys.
Result<UnifiedCompactionOptions> ParseUnifiedCompactionOptions(
    const std::map<std::string, std::string>& options);

// f = 2 + |w|.
int64_t UnifiedFanout(int32_t w);
// t = f for tiered levels (w > 0), 2 otherwise.
int64_t UnifiedThreshold(int32_t w);

// Cassandra's Controller.getNumShards: how many equal shards of the whole
// token range an output of `density` bytes (size / token-range fraction) is
// split into. A power-of-two multiple of base_shard_count (or, under
// min_sstable_size, a power of two no larger than it).
int32_t UnifiedShardCount(const UnifiedCompactionOptions& options, double density);

// Cassandra's FBUtilities.parseHumanReadableBytes ("100MiB", "10 MB",
// "1.5GiB", "1024B"; binary prefixes with 'i', decimal without). False with
// Java's NumberFormatException message in *error ("null" when Java has none).
bool ParseHumanReadableBytes(std::string_view text, int64_t* out, std::string* error);

// Cassandra's FBUtilities.prettyPrintMemory: "512B", "1.000MiB".
std::string PrettyPrintMemory(int64_t size);

}  // namespace cassette
