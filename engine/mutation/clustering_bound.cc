#include "engine/mutation/clustering_bound.h"

#include <optional>

namespace cassette {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// The smallest byte string greater than every string that starts with
// `prefix`: drop trailing 0xff bytes and increment the last remaining one.
// None when `prefix` is all 0xff (no string lies after that block).
std::optional<std::string> PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xff) s.pop_back();
  if (s.empty()) return std::nullopt;
  s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
  return s;
}

// Every bound reduces to a half-open interval [lo, hi) over byte strings:
//   start inclusive P -> lo = P            (P and everything after it)
//   start exclusive P -> lo = succ(P)      (past every string starting with P)
//   end   inclusive P -> hi = succ(P)
//   end   exclusive P -> hi = P
// An absent lo means nothing is after the start; an absent hi means no end.
struct Interval {
  bool empty_start = false;  // the start excludes every string
  std::string lo;            // "" is the smallest string: unbounded start
  bool unbounded_end = false;
  std::string hi;
};

Interval ToInterval(const ClusteringRange& r) {
  Interval iv;
  if (!r.start.prefix.empty()) {
    if (r.start.inclusive) {
      iv.lo = r.start.prefix;
    } else if (auto succ = PrefixSuccessor(r.start.prefix)) {
      iv.lo = std::move(*succ);
    } else {
      iv.empty_start = true;
    }
  }
  if (r.end.prefix.empty()) {
    iv.unbounded_end = true;
  } else if (!r.end.inclusive) {
    iv.hi = r.end.prefix;
  } else if (auto succ = PrefixSuccessor(r.end.prefix)) {
    iv.hi = std::move(*succ);
  } else {
    iv.unbounded_end = true;
  }
  return iv;
}

}  // namespace

bool ClusteringRange::AfterStart(std::string_view clustering) const {
  if (start.prefix.empty()) return true;
  if (StartsWith(clustering, start.prefix)) return start.inclusive;
  return clustering > std::string_view(start.prefix);
}

bool ClusteringRange::BeforeEnd(std::string_view clustering) const {
  if (end.prefix.empty()) return true;
  if (StartsWith(clustering, end.prefix)) return end.inclusive;
  return clustering < std::string_view(end.prefix);
}

bool ClusteringRange::IsEmpty() const {
  // Exact over arbitrary byte strings. Whether a valid clustering of the
  // table lies in a non-empty range (e.g. between int 1 and int 2) is not
  // knowable here; answering "not empty" then only costs a scan.
  Interval iv = ToInterval(*this);
  if (iv.empty_start) return true;
  return !iv.unbounded_end && iv.lo >= iv.hi;
}

bool ClusteringRange::Intersects(std::string_view min, std::string_view max) const {
  if (min > max) return false;
  Interval iv = ToInterval(*this);
  if (iv.empty_start) return false;
  // A non-empty [lo, hi) meets [min, max] iff lo <= max and min < hi.
  if (std::string_view(iv.lo) > max) return false;
  if (iv.unbounded_end) return true;
  return iv.lo < iv.hi && min < std::string_view(iv.hi);
}

}  // namespace cassette
