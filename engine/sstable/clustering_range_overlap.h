// RangesOverlap: whether two clustering ranges share any clustering, so a
// read returns exactly the range tombstones that touch its slice.
#pragma once

#include "engine/mutation/clustering_bound.h"

namespace cassette {

// Exact over byte strings, with ClusteringRange's semantics: each range is
// the half-open interval [lo, hi) where an exclusive start and an inclusive
// end step past every string that starts with their prefix.
bool RangesOverlap(const ClusteringRange& a, const ClusteringRange& b);

}  // namespace cassette
