#include "engine/read/range_tombstone_tracker.h"

#include "engine/mutation/expiry.h"

namespace cassette {

RangeTombstoneTracker::RangeTombstoneTracker(const DeletionTime& partition_deletion,
                                             const std::vector<RangeTombstone>& tombstones,
                                             const ClusteringRange& range, bool reversed,
                                             int64_t gc_before)
    : reversed_(reversed),
      coverage_(tombstones, partition_deletion, &range),
      cursor_(coverage_, reversed) {
  // Markers: wherever the deletion the read sees changes. Purgeable
  // deletions read as live, so a segment of one is no marker of its own.
  auto visible = [gc_before](const DeletionTime& d) {
    return CanPurge(d.local_deletion_time, gc_before) ? DeletionTime::Live() : d;
  };
  DeletionTime previous = DeletionTime::Live();
  const ClusteringPosition* previous_end = nullptr;
  for (const RangeTombstoneCoverage::Segment& segment : coverage_.segments()) {
    if (previous_end != nullptr && ComparePositions(*previous_end, segment.start) != 0) {
      if (!previous.IsLive()) markers_.push_back(*previous_end);
      previous = DeletionTime::Live();
    }
    DeletionTime seen = visible(segment.deletion);
    if (!(seen == previous)) markers_.push_back(segment.start);
    previous = seen;
    previous_end = &segment.end;
  }
  if (previous_end != nullptr && !previous.IsLive()) markers_.push_back(*previous_end);
}

int64_t RangeTombstoneTracker::MarkersBefore(std::string_view clustering) {
  const size_t n = markers_.size();
  size_t before = markers_counted_;
  if (!reversed_) {
    while (markers_counted_ < n && CompareToRow(markers_[markers_counted_], clustering) < 0) {
      ++markers_counted_;
    }
  } else {
    while (markers_counted_ < n &&
           CompareToRow(markers_[n - 1 - markers_counted_], clustering) > 0) {
      ++markers_counted_;
    }
  }
  return static_cast<int64_t>(markers_counted_ - before);
}

int64_t RangeTombstoneTracker::RemainingMarkers() {
  int64_t remaining = static_cast<int64_t>(markers_.size() - markers_counted_);
  markers_counted_ = markers_.size();
  return remaining;
}

}  // namespace cassette
