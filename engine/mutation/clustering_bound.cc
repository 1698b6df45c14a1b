#include "engine/mutation/clustering_bound.h"

#include "engine/mutation/clustering_interval.h"

namespace cassette {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

bool ClusteringRange::AfterBoundedStart(std::string_view clustering) const {
  if (StartsWith(clustering, start.prefix)) return start.inclusive;
  return clustering > std::string_view(start.prefix);
}

bool ClusteringRange::BeforeBoundedEnd(std::string_view clustering) const {
  if (StartsWith(clustering, end.prefix)) return end.inclusive;
  return clustering < std::string_view(end.prefix);
}

bool ClusteringRange::IsEmpty() const {
  // Exact over arbitrary byte strings. Whether a valid clustering of the
  // table lies in a non-empty range (e.g. between int 1 and int 2) is not
  // knowable here; answering "not empty" then only costs a scan.
  return ClusteringInterval::FromRange(*this).empty;
}

bool ClusteringRange::Overlaps(const ClusteringRange& other) const {
  return ClusteringInterval::FromRange(*this).Overlaps(ClusteringInterval::FromRange(other));
}

bool ClusteringRange::Intersects(std::string_view min, std::string_view max) const {
  if (min > max) return false;
  const ClusteringInterval iv = ClusteringInterval::FromRange(*this);
  // A non-empty [lo, hi) meets [min, max] iff lo <= max and min < hi.
  return !iv.empty && std::string_view(iv.lo) <= max && iv.BeforeEnd(min);
}

}  // namespace cassette
