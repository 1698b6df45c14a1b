// MergingRowIterator: a k-way merge of the row iterators of several sources
// over one partition. Rows come out in storage (clustering memcmp) order,
// or in its reverse when the children are reversed; rows of equal
// clustering are merged into one with MergeRow (cell reconciliation, the
// stronger marker and row deletion). Nothing is dropped: shadowing, expiry
// and purging are the consumer's business (the read path's live view,
// compaction's purge). A clustering only one child holds (most of them, in
// a compaction or a read over disjoint sources) is handed out as that
// child's row, without a copy (and still encoded, when the child keeps it
// so: the merge itself only compares clusterings). A child that can wait
// (a DeferredRowIterator) is opened only when the merge reaches its start,
// so a consumer that stops early never reads the ones it did not reach.
//
// Thread-compatible.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/mutation/partition_source.h"

namespace cassette {

class MergingRowIterator final : public RowIterator {
 public:
  // REQUIRES: every child iterates in the same direction, given by `reversed`.
  MergingRowIterator(std::vector<std::unique_ptr<RowIterator>> children, bool reversed);

  bool Valid() const override { return valid_; }
  // The merged row, or the only child's holding that clustering (valid
  // until Next() either way: the children move on only then).
  const Row& row() const override {
    return same_.size() == 1 ? children_[same_.front()]->row() : current_;
  }
  void Next() override;
  Status status() const override;
  const std::string& clustering() const override { return *clusterings_[same_.front()]; }
  const EncodedRow* encoded() const override {
    return same_.size() == 1 ? children_[same_.front()]->encoded() : nullptr;
  }
  bool EncodedBody(std::string_view* body, const EncodingStats** bases) const override {
    return same_.size() == 1 && children_[same_.front()]->EncodedBody(body, bases);
  }

 private:
  // Heap order: the child whose row comes first sits at the top.
  bool Later(size_t a, size_t b) const;
  // True when clustering `a` comes before `b` (ties excluded).
  bool Before(const std::string& a, const std::string& b) const;
  // Adds a child to the heap: at its deferred start, or at its first row.
  void Push(size_t child);
  void PushIfValid(size_t child);
  void Advance();

  std::vector<std::unique_ptr<RowIterator>> children_;
  // The clustering each child in the heap (or in same_) is positioned on
  // (saves a virtual call per comparison); an unopened child's start.
  std::vector<const std::string*> clusterings_;
  // Children in the heap at their deferred start, not yet opened.
  std::vector<bool> unopened_;
  bool reversed_;
  std::vector<size_t> heap_;
  std::vector<size_t> same_;  // children positioned on the current clustering
  Row current_;               // their rows merged, when there are several
  bool valid_ = false;
  Status status_;
};

}  // namespace cassette
