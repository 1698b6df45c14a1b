#include "engine/mutation/range_tombstone_coverage.h"

#include <algorithm>
#include <set>
#include <utility>

namespace cassette {
namespace {

using DeletionKey = std::pair<int64_t, int64_t>;  // (timestamp, local deletion time)

// Ordered as Supersedes orders deletions.
DeletionKey KeyOf(const DeletionTime& d) { return {d.marked_for_delete_at, d.local_deletion_time}; }

struct Event {
  ClusteringPosition position;
  bool opens;
  DeletionKey deletion;
};

}  // namespace

RangeTombstoneCoverage::RangeTombstoneCoverage(const std::vector<RangeTombstone>& tombstones,
                                               const DeletionTime& partition_deletion,
                                               const ClusteringRange* clip) {
  std::vector<Event> events;
  events.reserve(2 * tombstones.size());
  for (const RangeTombstone& rt : tombstones) {
    if (rt.deletion.IsLive() || partition_deletion.Supersedes(rt.deletion)) continue;
    ClusteringPosition start = ClusteringPosition::StartOf(rt.range.start);
    ClusteringPosition end = ClusteringPosition::EndOf(rt.range.end);
    if (clip != nullptr) {
      ClusteringPosition clip_start = ClusteringPosition::StartOf(clip->start);
      ClusteringPosition clip_end = ClusteringPosition::EndOf(clip->end);
      if (ComparePositions(start, clip_start) < 0) start = std::move(clip_start);
      if (ComparePositions(clip_end, end) < 0) end = std::move(clip_end);
    }
    if (ComparePositions(start, end) >= 0) continue;
    events.push_back({std::move(start), true, KeyOf(rt.deletion)});
    events.push_back({std::move(end), false, KeyOf(rt.deletion)});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return ComparePositions(a.position, b.position) < 0;
  });

  // Sweep: the strongest open deletion changes only at event positions, and
  // every event at one position is applied before the strongest is read, so
  // a tombstone that ends where an equal one starts leaves no seam.
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
}

DeletionTime RangeTombstoneCoverage::Cursor::Covering(std::string_view clustering) {
  const std::vector<Segment>& segments = *segments_;
  const size_t n = segments.size();
  // A row lies strictly inside a segment or outside it: bounds sit before
  // or after clusterings, never at one.
  if (!reversed_) {
    while (passed_ < n && CompareToRow(segments[passed_].end, clustering) < 0) ++passed_;
    if (passed_ < n && CompareToRow(segments[passed_].start, clustering) < 0) {
      return segments[passed_].deletion;
    }
    return DeletionTime::Live();
  }
  while (passed_ < n && CompareToRow(segments[n - 1 - passed_].start, clustering) > 0) ++passed_;
  if (passed_ < n && CompareToRow(segments[n - 1 - passed_].end, clustering) > 0) {
    return segments[n - 1 - passed_].deletion;
  }
  return DeletionTime::Live();
}

}  // namespace cassette
