#include "engine/sstable/clustering_range_overlap.h"

#include <optional>
#include <string>
#include <string_view>

namespace cassette {

namespace {

// The smallest string after every string that starts with `prefix`; none
// when prefix is all 0xff.
std::optional<std::string> Successor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xff) s.pop_back();
  if (s.empty()) return std::nullopt;
  s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
  return s;
}

// A range as the half-open interval [lo, hi) of byte strings it holds.
struct Interval {
  bool nothing_after_start = false;
  std::string lo;
  bool unbounded = false;
  std::string hi;
};

Interval ToInterval(const ClusteringRange& r) {
  Interval iv;
  if (!r.start.prefix.empty()) {
    if (r.start.inclusive) {
      iv.lo = r.start.prefix;
    } else if (auto s = Successor(r.start.prefix)) {
      iv.lo = std::move(*s);
    } else {
      iv.nothing_after_start = true;
    }
  }
  if (r.end.prefix.empty()) {
    iv.unbounded = true;
  } else if (!r.end.inclusive) {
    iv.hi = r.end.prefix;
  } else if (auto s = Successor(r.end.prefix)) {
    iv.hi = std::move(*s);
  } else {
    iv.unbounded = true;
  }
  return iv;
}

}  // namespace

bool RangesOverlap(const ClusteringRange& a, const ClusteringRange& b) {
  const Interval x = ToInterval(a);
  const Interval y = ToInterval(b);
  if (x.nothing_after_start || y.nothing_after_start) return false;
  const std::string& lo = x.lo < y.lo ? y.lo : x.lo;
  if (!x.unbounded && !(lo < x.hi)) return false;
  if (!y.unbounded && !(lo < y.hi)) return false;
  return true;
}

}  // namespace cassette
