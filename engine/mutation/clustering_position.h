// ClusteringPosition: a point of a partition's clustering space, so that
// bounds of different ranges and rows can be ordered against each other.
// A bound sits just before or just after every clustering that starts with
// its prefix; a row sits at its clustering. With the prefix-free comparable
// encoding, "starts with" is a byte prefix and memcmp orders the rest.
#pragma once

#include <string>
#include <string_view>

#include "engine/mutation/clustering_bound.h"

namespace cassette {

struct ClusteringPosition {
  enum Side : int { kBefore = -1, kAt = 0, kAfter = 1 };

  std::string prefix;  // before "" is -infinity, after "" is +infinity
  Side side = kBefore;

  // Where a range that starts (ends) at `bound` starts (ends).
  static ClusteringPosition StartOf(const Bound& bound);
  static ClusteringPosition EndOf(const Bound& bound);

  friend bool operator==(const ClusteringPosition&, const ClusteringPosition&) = default;
};

// <0, 0, >0 as position a is before, at, after position b.
int ComparePositions(std::string_view a, ClusteringPosition::Side a_side, std::string_view b,
                     ClusteringPosition::Side b_side);
inline int ComparePositions(const ClusteringPosition& a, const ClusteringPosition& b) {
  return ComparePositions(a.prefix, a.side, b.prefix, b.side);
}
// A position against the row with full clustering `clustering`.
inline int CompareToRow(const ClusteringPosition& p, std::string_view clustering) {
  return ComparePositions(p.prefix, p.side, clustering, ClusteringPosition::kAt);
}

}  // namespace cassette
