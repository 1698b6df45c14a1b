// Internal clustering bounds over the comparable encoding. Because every
// component's encoding is prefix-free, a clustering prefix is a byte prefix
// of every clustering that starts with it, and memcmp order is clustering
// order (DESC columns are already inverted in the encoding).
#pragma once

#include <string>
#include <string_view>

namespace cassette {

struct Bound {
  std::string prefix;  // empty: unbounded
  bool inclusive = true;
  friend bool operator==(const Bound&, const Bound&) = default;
};

// A range of clusterings in storage order: [start, end] with each end
// inclusive or exclusive of the rows that start with its prefix.
struct ClusteringRange {
  Bound start;
  Bound end;

  static ClusteringRange All() { return {}; }
  // True when `clustering` (a full clustering) is at or after the start.
  // (Inline for the unbounded side: scans test every row against it.)
  bool AfterStart(std::string_view clustering) const {
    return start.prefix.empty() || AfterBoundedStart(clustering);
  }
  // True when `clustering` is at or before the end.
  bool BeforeEnd(std::string_view clustering) const {
    return end.prefix.empty() || BeforeBoundedEnd(clustering);
  }
  bool Contains(std::string_view clustering) const {
    return AfterStart(clustering) && BeforeEnd(clustering);
  }
  // True when no clustering can fall in the range.
  bool IsEmpty() const;
  // True when some byte string lies in both ranges (a range tombstone that
  // touches a read's slice).
  bool Overlaps(const ClusteringRange& other) const;
  // True when some clustering in [min, max] (both full clusterings) may be in the range.
  bool Intersects(std::string_view min, std::string_view max) const;
  friend bool operator==(const ClusteringRange&, const ClusteringRange&) = default;

 private:
  bool AfterBoundedStart(std::string_view clustering) const;
  bool BeforeBoundedEnd(std::string_view clustering) const;
};

}  // namespace cassette
