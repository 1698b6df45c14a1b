#include "engine/compaction/compaction_iterator.h"

#include <string>
#include <utility>

#include "engine/compaction/compaction_range_tombstones.h"
#include "engine/mutation/expiry.h"
#include "engine/mutation/range_tombstone_coverage.h"
#include "engine/mutation/reconcile.h"

namespace cassette {
namespace {

// Counts the rows an input yields (rows_read).
class CountingRowIterator final : public RowIterator {
 public:
  CountingRowIterator(std::unique_ptr<RowIterator> input, uint64_t* rows)
      : input_(std::move(input)), rows_(rows) {
    if (input_->Valid()) ++*rows_;
  }
  bool Valid() const override { return input_->Valid(); }
  const Row& row() const override { return input_->row(); }
  void Next() override {
    input_->Next();
    if (input_->Valid()) ++*rows_;
  }
  Status status() const override { return input_->status(); }
  const std::string& clustering() const override { return input_->clustering(); }
  const EncodedRow* encoded() const override { return input_->encoded(); }

 private:
  std::unique_ptr<RowIterator> input_;
  uint64_t* rows_;
};

// Counts the partitions and rows one input yields (partitions_read,
// rows_read). The merge moves each partition's content out once it has
// compared keys, so the rows are wrapped on the first access per position.
class CountingPartitionIterator final : public PartitionIterator {
 public:
  CountingPartitionIterator(std::unique_ptr<PartitionIterator> input,
                            CompactionIteratorStats* stats)
      : input_(std::move(input)), stats_(stats) {
    if (input_->Valid()) ++stats_->partitions_read;
  }
  bool Valid() const override { return input_->Valid(); }
  PartitionContent& partition() override {
    PartitionContent& content = input_->partition();
    if (!rows_wrapped_) {
      rows_wrapped_ = true;
      if (content.rows != nullptr) {
        content.rows =
            std::make_unique<CountingRowIterator>(std::move(content.rows), &stats_->rows_read);
      }
    }
    return content;
  }
  void Next() override {
    input_->Next();
    rows_wrapped_ = false;
    if (input_->Valid()) ++stats_->partitions_read;
  }
  Status status() const override { return input_->status(); }

 private:
  std::unique_ptr<PartitionIterator> input_;
  CompactionIteratorStats* stats_;
  bool rows_wrapped_ = false;
};

size_t CountCells(const Row& row) {
  size_t n = 0;
  for (const ColumnData& col : row.columns) n += col.cells.size();
  return n;
}

// True when compacting `row` under a live covering deletion would leave it
// exactly as it is: it holds only live data (the rule a read's
// IsOwnLiveView shares) and is not empty (an empty row is not yielded,
// where a read merely finds it not live). Most rows of a compaction are
// such rows, and they are passed through without a copy (the merge
// already built them).
bool PassesUnchanged(const Row& row, int64_t now_sec) {
  return !row.IsEmpty() && row.HoldsOnlyLiveData(now_sec);
}

// Shadowing, expiry and purge decisions for one partition. The maximum
// purgeable timestamp costs bloom-filter probes, so it is computed once,
// and only when some deletion is old enough to need it.
class PartitionPurger {
 public:
  PartitionPurger(DecoratedKey key, const CompactionController* controller, int64_t now_sec,
                  CompactionIteratorStats* stats)
      : key_(std::move(key)), controller_(controller), now_sec_(now_sec), stats_(stats) {}

  bool Purgeable(int64_t timestamp, int64_t local_deletion_time) {
    if (!controller_->MayPurgeByTime(local_deletion_time)) return false;
    if (!max_purgeable_) max_purgeable_ = controller_->MaxPurgeableTimestamp(key_);
    return timestamp < *max_purgeable_;
  }
  bool Purgeable(const DeletionTime& d) {
    return !d.IsLive() && Purgeable(d.marked_for_delete_at, d.local_deletion_time);
  }

  // Compacts one row (or the static row) under `covering`, the strongest
  // deletion over it from outside the row (partition deletion, range
  // tombstones). Returns true when nothing is left of it.
  bool CompactRow(Row* row, const DeletionTime& covering) {
    const size_t cells_before = CountCells(*row);
    RemoveShadowed(row, covering);
    stats_->cells_shadowed += cells_before - CountCells(*row);

    LivenessInfo& marker = row->marker;
    if (!marker.IsEmpty() && marker.IsExpiring() && !marker.IsLive(now_sec_) &&
        Purgeable(marker.timestamp, marker.local_expiration_time)) {
      marker = LivenessInfo{};
      ++stats_->expired_markers_purged;
    }
    if (Purgeable(row->deletion)) {
      row->deletion = DeletionTime::Live();
      ++stats_->row_deletions_purged;
    }
    std::erase_if(row->columns, [this](ColumnData& col) {
      if (Purgeable(col.complex_deletion)) {
        col.complex_deletion = DeletionTime::Live();
        ++stats_->complex_deletions_purged;
      }
      erase_if(col.cells, [this](Cell& cell) { return CompactCell(&cell); });
      return col.cells.empty() && col.complex_deletion.IsLive();
    });
    return row->IsEmpty();
  }

 private:
  // Returns true when the cell is purged; rewrites an expired cell that
  // stays as a tombstone.
  bool CompactCell(Cell* cell) {
    if (cell->IsTombstone()) {
      if (!Purgeable(cell->timestamp, cell->local_deletion_time)) return false;
      ++stats_->cells_purged;
      return true;
    }
    if (!cell->IsExpiring() || cell->IsLive(now_sec_)) return false;
    // Expired: a tombstone issued when the cell was written (docs/COMPACTION.md).
    const int64_t written = DeletionTimeOfExpired(cell->local_deletion_time, cell->ttl);
    if (Purgeable(cell->timestamp, written)) {
      ++stats_->cells_purged;
      ++stats_->expired_cells_purged;
      return true;
    }
    *cell = Cell::Tombstone(cell->timestamp, written, std::move(cell->path));
    ++stats_->expired_cells_converted;
    return false;
  }

  DecoratedKey key_;
  const CompactionController* controller_;
  int64_t now_sec_;
  CompactionIteratorStats* stats_;
  std::optional<int64_t> max_purgeable_;
};

// The compacted rows of one merged partition, computed as they are
// iterated. Always positioned on a surviving row (or at the end). A row
// that passes unchanged is handed out as the merge's (still encoded when
// it comes so from one input); only rows the purge changes are copied.
class CompactedRowIterator final : public RowIterator {
 public:
  CompactedRowIterator(std::unique_ptr<RowIterator> merged, const DeletionTime& partition_deletion,
                       RangeTombstoneCoverage coverage, PartitionPurger purger, int64_t now_sec,
                       CompactionIteratorStats* stats)
      : merged_(std::move(merged)),
        partition_deletion_(partition_deletion),
        coverage_(std::move(coverage)),
        covering_(coverage_, /*reversed=*/false),
        has_range_tombstones_(!coverage_.empty()),
        purger_(std::move(purger)),
        now_sec_(now_sec),
        stats_(stats) {
    Seek();
  }
  // covering_ points into coverage_.
  CompactedRowIterator(const CompactedRowIterator&) = delete;
  CompactedRowIterator& operator=(const CompactedRowIterator&) = delete;
  bool Valid() const override { return valid_; }
  const Row& row() const override { return changed_ ? current_ : merged_->row(); }
  void Next() override {
    merged_->Next();
    Seek();
  }
  Status status() const override { return merged_->status(); }
  const std::string& clustering() const override {
    return changed_ ? current_.clustering : merged_->clustering();
  }
  const EncodedRow* encoded() const override { return encoded_; }

 private:
  void Seek() {
    valid_ = false;
    changed_ = false;
    encoded_ = nullptr;
    for (; merged_->Valid(); merged_->Next()) {
      ++stats_->rows_merged;
      DeletionTime covering = partition_deletion_;
      if (has_range_tombstones_) {
        DeletionTime range = covering_.Covering(merged_->clustering());
        if (range.Supersedes(covering)) covering = range;
      }
      // The merge's row stays valid until merged_->Next(), which only our
      // own Next() calls.
      if (covering.IsLive()) {
        const EncodedRow* encoded = merged_->encoded();
        if (encoded != nullptr && encoded->scan.PassesUnchanged(now_sec_)) {
          encoded_ = encoded;
          ++stats_->rows_written;
          valid_ = true;
          return;
        }
        if (PassesUnchanged(merged_->row(), now_sec_)) {
          ++stats_->rows_written;
          valid_ = true;
          return;
        }
      }
      current_ = merged_->row();
      if (!purger_.CompactRow(&current_, covering)) {
        changed_ = true;
        ++stats_->rows_written;
        valid_ = true;
        return;
      }
    }
  }

  std::unique_ptr<RowIterator> merged_;
  DeletionTime partition_deletion_;
  RangeTombstoneCoverage coverage_;
  RangeTombstoneCoverage::Cursor covering_;
  bool has_range_tombstones_;
  PartitionPurger purger_;
  int64_t now_sec_;
  CompactionIteratorStats* stats_;
  Row current_;                          // a row the purge had to change
  bool changed_ = false;                 // row() is current_, not the merge's row
  const EncodedRow* encoded_ = nullptr;  // the merge's row, passing through encoded
  bool valid_ = false;
};

}  // namespace

CompactionIterator::CompactionIterator(std::vector<std::unique_ptr<PartitionIterator>> inputs,
                                       const CompactionController* controller, int64_t now_sec)
    : controller_(controller), now_sec_(now_sec) {
  std::vector<std::unique_ptr<PartitionIterator>> counted;
  counted.reserve(inputs.size());
  for (auto& input : inputs) {
    counted.push_back(std::make_unique<CountingPartitionIterator>(std::move(input), &stats_));
  }
  merged_ = std::make_unique<MergingPartitionIterator>(std::move(counted));
  SeekNonEmpty();
}

CompactionIterator::~CompactionIterator() {
  // The yielded content borrows the merge's row iterators.
  current_.reset();
}

void CompactionIterator::Next() {
  // Drop the content before the merge moves on: its rows borrow the inputs'.
  current_.reset();
  if (!status_.ok() || !merged_->Valid()) return;
  merged_->Next();
  SeekNonEmpty();
}

void CompactionIterator::SeekNonEmpty() {
  for (; merged_->Valid(); merged_->Next()) {
    ++stats_.partitions_merged;
    PartitionContent& in = merged_->partition();
    PartitionPurger purger(in.key, controller_, now_sec_, &stats_);
    const DeletionTime partition_deletion = in.partition_deletion;

    PartitionContent out;
    out.key = in.key;
    // Shadowing first, with every deletion as merged; purging after.
    std::vector<RangeTombstone> tombstones = NormalizeRangeTombstones(
        std::move(in.range_tombstones), partition_deletion, &stats_.range_tombstones_shadowed);
    out.static_row = std::move(in.static_row);
    if (!out.static_row.IsEmpty() && purger.CompactRow(&out.static_row, partition_deletion)) {
      out.static_row = Row{};
    }
    RangeTombstoneCoverage coverage(tombstones, partition_deletion);
    if (purger.Purgeable(partition_deletion)) {
      ++stats_.partition_deletions_purged;
    } else {
      out.partition_deletion = partition_deletion;
    }
    for (RangeTombstone& rt : tombstones) {
      if (purger.Purgeable(rt.deletion)) {
        ++stats_.range_tombstones_purged;
      } else {
        out.range_tombstones.push_back(std::move(rt));
      }
    }
    std::unique_ptr<RowIterator> rows = std::move(in.rows);
    if (rows == nullptr) rows = std::make_unique<VectorRowIterator>(std::vector<Row>{});
    out.rows = std::make_unique<CompactedRowIterator>(std::move(rows), partition_deletion,
                                                      std::move(coverage), std::move(purger),
                                                      now_sec_, &stats_);
    if (out.rows->Valid() || !out.partition_deletion.IsLive() || !out.static_row.IsEmpty() ||
        !out.range_tombstones.empty()) {
      ++stats_.partitions_written;
      current_ = std::move(out);
      return;
    }
    if (!out.rows->status().ok()) {
      status_ = out.rows->status();
      return;
    }
  }
  if (status_.ok()) status_ = merged_->status();
}

}  // namespace cassette
