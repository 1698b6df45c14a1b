// RangeTombstoneTracker: the range tombstones of one partition as a read
// walks its rows. The tombstones of every source, clipped to the read's
// slice, are a RangeTombstoneCoverage (engine/mutation/), which answers
// which deletion covers each row. The tracker adds what only a read needs:
// how many range-tombstone markers the read passed since the last row, as
// Cassandra counts each bound and boundary marker as one tombstone.
//
// Thread-compatible.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/clustering_position.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/range_tombstone.h"
#include "engine/mutation/range_tombstone_coverage.h"

namespace cassette {

class RangeTombstoneTracker {
 public:
  // Tombstones that the partition deletion supersedes are dropped, as
  // Cassandra's merge drops their markers. Deletions with a local deletion
  // time before gc_before still shadow rows but their markers are not
  // counted (the read purges them first, overlaps ignored).
  RangeTombstoneTracker(const DeletionTime& partition_deletion,
                        const std::vector<RangeTombstone>& tombstones, const ClusteringRange& range,
                        bool reversed, int64_t gc_before);
  // Segments and cursor point into this object.
  RangeTombstoneTracker(const RangeTombstoneTracker&) = delete;
  RangeTombstoneTracker& operator=(const RangeTombstoneTracker&) = delete;

  // The deletion of the range tombstone covering the row (Live if none).
  // REQUIRES: rows are passed in iteration order (storage order, or its
  // reverse for a reversed tracker).
  DeletionTime Covering(std::string_view clustering) { return cursor_.Covering(clustering); }
  // Markers strictly before the row in iteration order, not counted yet.
  int64_t MarkersBefore(std::string_view clustering);
  // Markers not counted yet, for a partition read to its end.
  int64_t RemainingMarkers();

  // Disjoint, in storage order.
  const std::vector<RangeTombstoneCoverage::Segment>& segments() const {
    return coverage_.segments();
  }
  // Every marker position in storage order.
  const std::vector<ClusteringPosition>& markers() const { return markers_; }

 private:
  bool reversed_;
  RangeTombstoneCoverage coverage_;
  RangeTombstoneCoverage::Cursor cursor_;
  std::vector<ClusteringPosition> markers_;
  size_t markers_counted_ = 0;
};

}  // namespace cassette
