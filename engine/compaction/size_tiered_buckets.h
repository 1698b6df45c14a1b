// Size-tiered bucketing (Cassandra's SizeTieredCompactionStrategy; docs/COMPACTION.md):
// used by STCS itself, by TWCS inside its newest window and by LCS's L0
// fallback.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_strategy.h"

namespace cassette {

struct SizeTieredOptions {
  double bucket_low = 0.5;
  double bucket_high = 1.5;
  uint64_t min_sstable_size = 50ull << 20;  // bytes
};

// Parses bucket_low, bucket_high and min_sstable_size (erasing them from
// `*unconsumed`) with Cassandra's messages.
Result<SizeTieredOptions> ParseSizeTieredOptions(const std::map<std::string, std::string>& options,
                                                 std::set<std::string>* unconsumed);

// Groups files of similar size. Each bucket lists its files smallest first.
std::vector<std::vector<const CompactionCandidate*>> SizeTieredBuckets(
    std::vector<const CompactionCandidate*> sstables, const SizeTieredOptions& options);

// The bucket to compact: buckets with fewer than min_threshold files are
// dropped, the rest trimmed to max_threshold. Cassandra ranks buckets by
// read hotness, then by smaller average size; cassette keeps no read meter
// (every file is equally cold, as in Cassandra without reads), so the
// bucket with the smallest average size wins. Empty when none qualifies.
std::vector<const CompactionCandidate*> MostInterestingBucket(
    const std::vector<std::vector<const CompactionCandidate*>>& buckets, int32_t min_threshold,
    int32_t max_threshold);

}  // namespace cassette
