#include "engine/read/range_tombstone_tracker.h"

#include <algorithm>
#include <set>
#include <utility>

#include "engine/mutation/expiry.h"

namespace cassette {
namespace {

using DeletionKey = std::pair<int64_t, int64_t>;  // (timestamp, local deletion time)

DeletionKey KeyOf(const DeletionTime& d) { return {d.marked_for_delete_at, d.local_deletion_time}; }

struct Event {
  ClusteringPosition position;
  bool opens;
  DeletionKey deletion;
};

}  // namespace

RangeTombstoneTracker::RangeTombstoneTracker(const DeletionTime& partition_deletion,
                                             const std::vector<RangeTombstone>& tombstones,
                                             const ClusteringRange& range, bool reversed,
                                             int64_t gc_before)
    : reversed_(reversed) {
  const ClusteringPosition slice_start = ClusteringPosition::StartOf(range.start);
  const ClusteringPosition slice_end = ClusteringPosition::EndOf(range.end);
  std::vector<Event> events;
  for (const RangeTombstone& rt : tombstones) {
    if (rt.deletion.IsLive() || partition_deletion.Supersedes(rt.deletion)) continue;
    ClusteringPosition start = ClusteringPosition::StartOf(rt.range.start);
    ClusteringPosition end = ClusteringPosition::EndOf(rt.range.end);
    if (ComparePositions(start, slice_start) < 0) start = slice_start;
    if (ComparePositions(slice_end, end) < 0) end = slice_end;
    if (ComparePositions(start, end) >= 0) continue;
    events.push_back({std::move(start), true, KeyOf(rt.deletion)});
    events.push_back({std::move(end), false, KeyOf(rt.deletion)});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return ComparePositions(a.position, b.position) < 0;
  });

  // Sweep: the strongest open deletion changes only at event positions.
  std::multiset<DeletionKey> open;
  DeletionTime current = DeletionTime::Live();
  ClusteringPosition current_start;
  for (size_t i = 0; i < events.size();) {
    size_t j = i;
    for (; j < events.size() && ComparePositions(events[j].position, events[i].position) == 0;
         ++j) {
      if (events[j].opens) {
        open.insert(events[j].deletion);
      } else {
        open.erase(open.find(events[j].deletion));
      }
    }
    DeletionTime strongest = DeletionTime::Live();
    if (!open.empty()) strongest = {open.rbegin()->first, open.rbegin()->second};
    if (!(strongest == current)) {
      if (!current.IsLive()) segments_.push_back({current_start, events[i].position, current});
      current = strongest;
      current_start = events[i].position;
    }
    i = j;
  }

  // Markers: wherever the deletion the read sees changes. Purgeable
  // deletions read as live, so a segment of one is no marker of its own.
  auto visible = [gc_before](const DeletionTime& d) {
    return CanPurge(d.local_deletion_time, gc_before) ? DeletionTime::Live() : d;
  };
  DeletionTime previous = DeletionTime::Live();
  const ClusteringPosition* previous_end = nullptr;
  for (const Segment& segment : segments_) {
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

DeletionTime RangeTombstoneTracker::Covering(std::string_view clustering) {
  const size_t n = segments_.size();
  if (!reversed_) {
    while (segments_passed_ < n && CompareToRow(segments_[segments_passed_].end, clustering) < 0) {
      ++segments_passed_;
    }
    if (segments_passed_ < n && CompareToRow(segments_[segments_passed_].start, clustering) < 0) {
      return segments_[segments_passed_].deletion;
    }
    return DeletionTime::Live();
  }
  while (segments_passed_ < n &&
         CompareToRow(segments_[n - 1 - segments_passed_].start, clustering) > 0) {
    ++segments_passed_;
  }
  if (segments_passed_ < n &&
      CompareToRow(segments_[n - 1 - segments_passed_].end, clustering) > 0) {
    return segments_[n - 1 - segments_passed_].deletion;
  }
  return DeletionTime::Live();
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
