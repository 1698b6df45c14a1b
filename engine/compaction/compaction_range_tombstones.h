// The range tombstones of one merged partition, as compaction writes them.
// Inputs contribute theirs concatenated (the same DELETE flushed twice, one
// range deleted again later, a slice inside a wider one), so compaction
// first drops those that can no longer shadow anything on their own. Which
// deletion covers each row is RangeTombstoneCoverage's answer
// (engine/mutation/), the one reads use.
//
// Thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/mutation/clustering_interval.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/range_tombstone.h"

namespace cassette {

// Drops the tombstones that cover no clustering, those the partition
// deletion supersedes (or equals), and those inside the range of another
// one that is at least as strong (of two identical ones, one stays). The
// survivors are sorted by start, then end. Overlapping tombstones that
// each shadow something the other does not are all kept: readers
// reconcile them. Returns how many were dropped in *dropped (may be null).
// Quadratic in the worst case: past kMaxContainmentCheck tombstones only
// the linear rules apply.
inline constexpr size_t kMaxContainmentCheck = 1024;
std::vector<RangeTombstone> NormalizeRangeTombstones(std::vector<RangeTombstone> tombstones,
                                                     const DeletionTime& partition_deletion,
                                                     uint64_t* dropped);

}  // namespace cassette
