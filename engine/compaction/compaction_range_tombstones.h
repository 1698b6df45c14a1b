// The range tombstones of one merged partition, as compaction needs them.
// Inputs contribute theirs concatenated (the same DELETE flushed twice, one
// range deleted again later, a slice inside a wider one), so compaction
// first drops those that can no longer shadow anything on their own, then
// walks the partition's rows in clustering order asking which deletion
// covers each row.
//
// Thread-compatible.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/mutation/clustering_interval.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/range_tombstone.h"

namespace cassette {

// Drops the tombstones that cover no clustering, those the partition
// deletion supersedes (or equals), and those inside the range of another
// one that is at least as strong (of two identical ones, one stays). The
// survivors are sorted by start, then end. Overlapping tombstones that
// each shadow something the other does not are all kept: readers
// reconcile them. Returns how many were dropped in *dropped (may be null).
// Quadratic in the worst case: past kMaxContainmentCheck tombstones only
// the linear rules apply.
inline constexpr size_t kMaxContainmentCheck = 1024;
std::vector<RangeTombstone> NormalizeRangeTombstones(std::vector<RangeTombstone> tombstones,
                                                     const DeletionTime& partition_deletion,
                                                     uint64_t* dropped);

// Answers, for rows passed in ascending clustering order, the strongest
// range tombstone deletion covering the row (Live when none).
class CoveringRangeTombstones {
 public:
  explicit CoveringRangeTombstones(const std::vector<RangeTombstone>& tombstones);

  // REQUIRES: clusterings passed in ascending order.
  DeletionTime Covering(std::string_view clustering);

 private:
  struct Entry {
    ClusteringInterval interval;
    DeletionTime deletion;
  };
  std::vector<Entry> by_start_;  // sorted by interval.lo
  size_t next_ = 0;              // first entry not yet opened
  std::vector<size_t> open_;     // started at or before the last row
};

}  // namespace cassette
