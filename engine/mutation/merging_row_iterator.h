// MergingRowIterator: a k-way merge of the row iterators of several sources
// over one partition. Rows come out in storage (clustering memcmp) order,
// or in its reverse when the children are reversed; rows of equal
// clustering are merged into one with MergeRow (cell reconciliation, the
// stronger marker and row deletion). Nothing is dropped: shadowing, expiry
// and purging are the consumer's business (the read path's live view,
// compaction's purge).
//
// Thread-compatible.
#pragma once

#include <memory>
#include <vector>

#include "engine/mutation/partition_source.h"

namespace cassette {

class MergingRowIterator final : public RowIterator {
 public:
  // REQUIRES: every child iterates in the same direction, given by `reversed`.
  MergingRowIterator(std::vector<std::unique_ptr<RowIterator>> children, bool reversed);

  bool Valid() const override { return valid_; }
  const Row& row() const override { return current_; }
  void Next() override;
  Status status() const override { return status_; }

 private:
  // Heap order: the child whose row comes first sits at the top.
  bool Later(size_t a, size_t b) const;
  void PushIfValid(size_t child);
  void Advance();

  std::vector<std::unique_ptr<RowIterator>> children_;
  bool reversed_;
  std::vector<size_t> heap_;
  std::vector<size_t> same_;  // children whose row was merged into current_
  Row current_;
  bool valid_ = false;
  Status status_;
};

}  // namespace cassette
