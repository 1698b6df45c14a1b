// ClusteringInterval: a ClusteringRange as a half-open interval [lo, hi)
// of byte strings, the form a sorted list can seek on. Because clustering
// encodings are prefix-free and memcmp-ordered, the rows that start with a
// prefix P are exactly [P, succ(P)), where succ(P) drops trailing 0xff bytes
// and increments the last byte left. So
//   start inclusive P -> lo = P        start exclusive P -> lo = succ(P)
//   end   inclusive P -> hi = succ(P)  end   exclusive P -> hi = P
// and a clustering c is in the range iff lo <= c < hi: the same answer as
// ClusteringRange::Contains, with one comparison per end.
#pragma once

#include <string>
#include <string_view>

#include "engine/mutation/clustering_bound.h"

namespace cassette {

struct ClusteringInterval {
  // No byte string is in the range (an exclusive start past every string).
  bool empty = false;
  std::string lo;  // "" when the start is unbounded
  bool unbounded_end = false;
  std::string hi;  // meaningful when !unbounded_end

  static ClusteringInterval FromRange(const ClusteringRange& range);

  bool AtOrAfterStart(std::string_view c) const { return !empty && c >= std::string_view(lo); }
  bool BeforeEnd(std::string_view c) const {
    return !empty && (unbounded_end || c < std::string_view(hi));
  }
  bool Contains(std::string_view c) const { return AtOrAfterStart(c) && BeforeEnd(c); }
  // True when some byte string lies in both intervals.
  bool Overlaps(const ClusteringInterval& other) const;
};

}  // namespace cassette
