#include "engine/mutation/merging_partition_iterator.h"

#include <algorithm>
#include <utility>

#include "engine/mutation/merging_row_iterator.h"
#include "engine/mutation/reconcile.h"

namespace cassette {

PartitionContent MergePartitionContents(std::vector<PartitionContent> contents, bool reversed) {
  PartitionContent merged;
  std::vector<std::unique_ptr<RowIterator>> rows;
  rows.reserve(contents.size());
  for (size_t i = 0; i < contents.size(); ++i) {
    PartitionContent& c = contents[i];
    if (i == 0) {
      merged.key = c.key;
      merged.partition_deletion = c.partition_deletion;
      merged.static_row = std::move(c.static_row);
      merged.range_tombstones = std::move(c.range_tombstones);
    } else {
      if (c.partition_deletion.Supersedes(merged.partition_deletion)) {
        merged.partition_deletion = c.partition_deletion;
      }
      MergeRow(&merged.static_row, std::move(c.static_row));
      merged.range_tombstones.insert(merged.range_tombstones.end(),
                                     std::make_move_iterator(c.range_tombstones.begin()),
                                     std::make_move_iterator(c.range_tombstones.end()));
    }
    if (c.rows != nullptr) rows.push_back(std::move(c.rows));
  }
  // One source's rows need no merge: the read takes them straight from it.
  merged.rows = rows.size() == 1 ? std::move(rows.front())
                                 : std::make_unique<MergingRowIterator>(std::move(rows), reversed);
  return merged;
}

MergingPartitionIterator::MergingPartitionIterator(
    std::vector<std::unique_ptr<PartitionIterator>> children)
    : children_(std::move(children)) {
  heap_.reserve(children_.size());
  for (size_t i = 0; i < children_.size(); ++i) PushIfValid(i);
  Advance();
}

bool MergingPartitionIterator::Later(size_t a, size_t b) const {
  return children_[b]->partition().key < children_[a]->partition().key;
}

void MergingPartitionIterator::PushIfValid(size_t child) {
  PartitionIterator& it = *children_[child];
  if (it.Valid()) {
    heap_.push_back(child);
    std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return Later(a, b); });
  } else if (!it.status().ok() && status_.ok()) {
    status_ = it.status();
  }
}

PartitionContent& MergingPartitionIterator::partition() {
  if (!merged_) {
    std::vector<PartitionContent> contents;
    contents.reserve(same_.size());
    for (size_t child : same_) contents.push_back(std::move(children_[child]->partition()));
    merged_ = MergePartitionContents(std::move(contents), /*reversed=*/false);
  }
  return *merged_;
}

void MergingPartitionIterator::Next() {
  // The merged content borrows the children's row iterators: drop it before
  // the children move on.
  merged_.reset();
  for (size_t child : same_) {
    children_[child]->Next();
    PushIfValid(child);
  }
  same_.clear();
  Advance();
}

void MergingPartitionIterator::Advance() {
  valid_ = false;
  if (!status_.ok() || heap_.empty()) return;
  auto later = [this](size_t a, size_t b) { return Later(a, b); };
  std::pop_heap(heap_.begin(), heap_.end(), later);
  same_.push_back(heap_.back());
  heap_.pop_back();
  key_ = children_[same_.front()]->partition().key;
  while (!heap_.empty() && children_[heap_.front()]->partition().key == key_) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    same_.push_back(heap_.back());
    heap_.pop_back();
  }
  valid_ = true;
}

}  // namespace cassette
