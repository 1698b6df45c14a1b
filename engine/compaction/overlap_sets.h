// Overlap sets (Cassandra's utils/Overlaps, used by UCS): for items with
// inclusive key ranges, the minimal list of sets such that items that do
// not overlap never share a set, every group of items covering a common
// key is inside some set, and each item appears in consecutive sets only.
// The largest set's size is the read amplification of the items: the most
// of them one key lookup may have to visit. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/mutation/decorated_key.h"

namespace cassette {

// How a bucket of overlapping items grows to the overlap sets next to it.
enum class OverlapInclusionMethod {
  kNone,        // only the overlap set over the threshold
  kSingle,      // plus the neighbouring sets sharing an item with it
  kTransitive,  // plus every set chained to it by shared items
};

struct KeyRange {
  DecoratedKey first;
  DecoratedKey last;  // inclusive
};

// The overlap sets of `items`, in key order; each set lists item indices
// ascending. Empty for no items.
std::vector<std::vector<size_t>> ConstructOverlapSets(const std::vector<KeyRange>& items);

// A run of consecutive overlap sets compacted together: sets [begin, end).
struct OverlapBucket {
  size_t begin = 0;
  size_t end = 0;
};

// Cassandra's assignOverlapsIntoBuckets: every set with at least
// `threshold` items starts a bucket, extended over its neighbours by
// `method`; buckets never share a set.
std::vector<OverlapBucket> AssignOverlapsIntoBuckets(int64_t threshold,
                                                     OverlapInclusionMethod method,
                                                     const std::vector<std::vector<size_t>>& sets);

}  // namespace cassette
