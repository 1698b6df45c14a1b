#include "engine/mutation/clustering_interval.h"

#include <algorithm>
#include <optional>

namespace cassette {
namespace {

// The smallest string greater than every string starting with `prefix`;
// none when `prefix` is all 0xff bytes.
std::optional<std::string> PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xff) s.pop_back();
  if (s.empty()) return std::nullopt;
  s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
  return s;
}

}  // namespace

ClusteringInterval ClusteringInterval::FromRange(const ClusteringRange& range) {
  ClusteringInterval iv;
  if (!range.start.prefix.empty()) {
    if (range.start.inclusive) {
      iv.lo = range.start.prefix;
    } else if (auto succ = PrefixSuccessor(range.start.prefix)) {
      iv.lo = std::move(*succ);
    } else {
      iv.empty = true;
    }
  }
  if (range.end.prefix.empty()) {
    iv.unbounded_end = true;
  } else if (!range.end.inclusive) {
    iv.hi = range.end.prefix;
  } else if (auto succ = PrefixSuccessor(range.end.prefix)) {
    iv.hi = std::move(*succ);
  } else {
    iv.unbounded_end = true;
  }
  if (!iv.unbounded_end && iv.lo >= iv.hi) iv.empty = true;
  return iv;
}

bool ClusteringInterval::Overlaps(const ClusteringInterval& other) const {
  if (empty || other.empty) return false;
  // Both non-empty: they meet iff each starts before the other ends.
  return BeforeEnd(other.lo) && other.BeforeEnd(lo);
}

}  // namespace cassette
