// CompactionIterator: the data part of a compaction. It merges the input
// SSTables' partition streams (one scanner each) and yields, partition by
// partition, what the output must hold:
//   - merge before purge: data shadowed by the partition deletion, a
//     covering range tombstone, the row's deletion or a collection's
//     deletion is dropped, whatever gc_grace says;
//   - range tombstones made redundant by the partition deletion or by a
//     wider, stronger one are dropped (CompactionRangeTombstones);
//   - an expired cell becomes a tombstone at its write second (ldt = expiry
//     - ttl; docs/COMPACTION.md), keeping its timestamp and dropping its value;
//   - every deletion (cell tombstone, expired cell, expired row marker, row,
//     range, collection and partition deletion) is dropped when the
//     controller says it is purgeable (docs/COMPACTION.md). An expired row marker has
//     no tombstone form: it stays as it is until its expiration passes the
//     purge rule (Cassandra's DeletionPurger);
//   - rows and partitions left empty are not yielded.
// It is itself a PartitionIterator, so CompactionOutputWriter takes it as
// it takes a memtable's iterator at flush.
//
// Thread-compatible. Not movable: the per-partition iterators it hands out
// point back into it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_controller.h"
#include "engine/mutation/merging_partition_iterator.h"
#include "engine/mutation/partition_source.h"

namespace cassette {

struct CompactionIteratorStats {
  // Read from the inputs: a key present in three inputs counts three times.
  uint64_t partitions_read = 0;
  uint64_t rows_read = 0;
  // Distinct keys / clusterings after the merge.
  uint64_t partitions_merged = 0;
  uint64_t rows_merged = 0;
  // Yielded (non-empty after shadowing and purging).
  uint64_t partitions_written = 0;
  uint64_t rows_written = 0;

  // Cells dropped because a deletion in the compaction shadows them.
  uint64_t cells_shadowed = 0;
  // Range tombstones dropped as redundant (NormalizeRangeTombstones).
  uint64_t range_tombstones_shadowed = 0;
  // Expired cells rewritten as tombstones (and kept).
  uint64_t expired_cells_converted = 0;

  // Purged deletions, by kind. cells_purged counts cell tombstones and
  // expired cells; expired_cells_purged is the part of it that had expired.
  uint64_t cells_purged = 0;
  uint64_t expired_cells_purged = 0;
  uint64_t expired_markers_purged = 0;
  uint64_t row_deletions_purged = 0;
  uint64_t complex_deletions_purged = 0;
  uint64_t range_tombstones_purged = 0;
  uint64_t partition_deletions_purged = 0;

  uint64_t tombstones_purged() const {
    return cells_purged + expired_markers_purged + row_deletions_purged + complex_deletions_purged +
           range_tombstones_purged + partition_deletions_purged;
  }
};

class CompactionIterator final : public PartitionIterator {
 public:
  // `inputs`: the partition streams of the inputs, each forward over rows.
  // `controller` must outlive the iterator; `now_sec` decides which cells
  // have expired (the same second gc_before was computed from).
  CompactionIterator(std::vector<std::unique_ptr<PartitionIterator>> inputs,
                     const CompactionController* controller, int64_t now_sec);
  ~CompactionIterator() override;
  CompactionIterator(const CompactionIterator&) = delete;
  CompactionIterator& operator=(const CompactionIterator&) = delete;

  bool Valid() const override { return current_.has_value(); }
  // REQUIRES: Valid(). The content and its row iterator stay valid until
  // Next(); the rows are compacted lazily as the caller iterates them, and
  // the row iterator is already positioned on the first surviving row.
  PartitionContent& partition() override { return *current_; }
  void Next() override;
  // The first error of any input (including row errors seen while looking
  // for a partition's first surviving row). Row errors met later surface
  // in the partition's row iterator.
  Status status() const override { return status_; }

  // Grows as the caller iterates; final once the iteration ended.
  const CompactionIteratorStats& stats() const { return stats_; }

 private:
  // Moves the merge forward until a partition with something left in it.
  void SeekNonEmpty();

  CompactionIteratorStats stats_;
  const CompactionController* controller_;
  int64_t now_sec_;
  std::unique_ptr<MergingPartitionIterator> merged_;
  std::optional<PartitionContent> current_;
  Status status_;
};

}  // namespace cassette
