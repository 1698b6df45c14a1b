// RangeTombstoneCoverage: which range-tombstone deletion covers each row of
// one partition. A partition's range tombstones come from several sources
// concatenated (the same DELETE flushed twice, a slice inside a wider one,
// one range deleted again later); they are flattened here into disjoint
// segments in clustering order, each carrying the strongest deletion over
// it, the form Cassandra's merged marker stream encodes. Reads
// (read/range_tombstone_tracker) and compaction (compaction_iterator) both
// walk it with a Cursor: there is one answer to "which deletion covers this
// row".
//
// Thread-compatible; a Cursor borrows its coverage.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/clustering_position.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/range_tombstone.h"

namespace cassette {

class RangeTombstoneCoverage {
 public:
  struct Segment {
    ClusteringPosition start;
    ClusteringPosition end;
    DeletionTime deletion;
  };

  // Tombstones that `partition_deletion` supersedes shadow nothing it does
  // not and are left out, as Cassandra's merge drops their markers (one
  // equal to it stays, as in Cassandra). With `clip`, only what lies inside
  // that range is kept (a read's slice).
  RangeTombstoneCoverage(const std::vector<RangeTombstone>& tombstones,
                         const DeletionTime& partition_deletion,
                         const ClusteringRange* clip = nullptr);

  // Disjoint, non-empty, in storage order; adjacent segments differ in
  // deletion.
  const std::vector<Segment>& segments() const { return segments_; }
  bool empty() const { return segments_.empty(); }

  // Answers row by row, in iteration order, the deletion of the segment
  // covering the row (Live when none). Each row costs amortized O(1).
  class Cursor {
   public:
    Cursor(const RangeTombstoneCoverage& coverage, bool reversed)
        : segments_(&coverage.segments_), reversed_(reversed) {}

    // REQUIRES: rows passed in iteration order (storage order, or its
    // reverse for a reversed cursor).
    DeletionTime Covering(std::string_view clustering);

   private:
    const std::vector<Segment>* segments_;
    bool reversed_;
    size_t passed_ = 0;  // segments wholly behind the last row
  };

 private:
  std::vector<Segment> segments_;
};

}  // namespace cassette
