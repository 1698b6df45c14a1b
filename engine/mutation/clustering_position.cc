#include "engine/mutation/clustering_position.h"

#include <algorithm>

namespace cassette {

ClusteringPosition ClusteringPosition::StartOf(const Bound& bound) {
  // An empty prefix is unbounded whatever its inclusiveness says.
  if (bound.prefix.empty()) return {std::string(), kBefore};
  return {bound.prefix, bound.inclusive ? kBefore : kAfter};
}

ClusteringPosition ClusteringPosition::EndOf(const Bound& bound) {
  if (bound.prefix.empty()) return {std::string(), kAfter};
  return {bound.prefix, bound.inclusive ? kAfter : kBefore};
}

int ComparePositions(std::string_view a, ClusteringPosition::Side a_side, std::string_view b,
                     ClusteringPosition::Side b_side) {
  int c = a.substr(0, std::min(a.size(), b.size())).compare(b.substr(0, a.size()));
  if (c != 0) return c < 0 ? -1 : 1;
  if (a.size() == b.size()) return (a_side > b_side) - (a_side < b_side);
  // One is a proper prefix of the other: the positions around the shorter
  // prefix enclose every clustering that extends it. A row (kAt) is never
  // a proper prefix of a valid bound; plain byte order then applies.
  if (a.size() < b.size()) return a_side == ClusteringPosition::kAt ? -1 : a_side;
  return b_side == ClusteringPosition::kAt ? 1 : -b_side;
}

}  // namespace cassette
