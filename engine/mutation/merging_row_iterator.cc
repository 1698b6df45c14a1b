#include "engine/mutation/merging_row_iterator.h"

#include <algorithm>
#include <utility>

#include "engine/mutation/reconcile.h"

namespace cassette {

MergingRowIterator::MergingRowIterator(std::vector<std::unique_ptr<RowIterator>> children,
                                       bool reversed)
    : children_(std::move(children)), clusterings_(children_.size(), nullptr), reversed_(reversed) {
  heap_.reserve(children_.size());
  for (size_t i = 0; i < children_.size(); ++i) PushIfValid(i);
  Advance();
}

bool MergingRowIterator::Before(const std::string& a, const std::string& b) const {
  int c = a.compare(b);
  return reversed_ ? c > 0 : c < 0;
}

bool MergingRowIterator::Later(size_t a, size_t b) const {
  return Before(*clusterings_[b], *clusterings_[a]);
}

Status MergingRowIterator::status() const {
  // A child that found the row it handed out corrupt (row() or encoded()
  // of a lazily decoding source) ends the merge too.
  if (status_.ok() && valid_) {
    for (size_t child : same_) {
      if (!children_[child]->Valid()) return children_[child]->status();
    }
  }
  return status_;
}

void MergingRowIterator::PushIfValid(size_t child) {
  RowIterator& it = *children_[child];
  if (it.Valid()) {
    clusterings_[child] = &it.clustering();
    heap_.push_back(child);
    std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return Later(a, b); });
  } else if (!it.status().ok() && status_.ok()) {
    status_ = it.status();
  }
}

void MergingRowIterator::Next() {
  // Children holding the row just returned move on only now, so the
  // reference returned by row() stayed valid until this call.
  if (same_.size() == 1) {
    // A run of rows from one child (the common case) skips the heap: its
    // next row is the merge's next when it sorts strictly before every
    // other child's.
    const size_t child = same_.front();
    RowIterator& it = *children_[child];
    it.Next();
    if (it.Valid() && status_.ok()) {
      const std::string& next = it.clustering();
      if (heap_.empty() || Before(next, *clusterings_[heap_.front()])) {
        clusterings_[child] = &next;
        return;
      }
    }
    same_.clear();
    PushIfValid(child);
    Advance();
    return;
  }
  for (size_t child : same_) {
    children_[child]->Next();
    PushIfValid(child);
  }
  same_.clear();
  Advance();
}

void MergingRowIterator::Advance() {
  valid_ = false;
  if (!status_.ok() || heap_.empty()) return;
  auto later = [this](size_t a, size_t b) { return Later(a, b); };
  std::pop_heap(heap_.begin(), heap_.end(), later);
  const size_t first = heap_.back();
  heap_.pop_back();
  same_.push_back(first);
  valid_ = true;
  const std::string& clustering = *clusterings_[first];
  if (heap_.empty() || *clusterings_[heap_.front()] != clustering) return;
  // Several children hold this clustering: their rows merged.
  current_ = children_[first]->row();
  while (!heap_.empty() && *clusterings_[heap_.front()] == current_.clustering) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    size_t child = heap_.back();
    heap_.pop_back();
    same_.push_back(child);
    MergeRow(&current_, children_[child]->row());
  }
}

}  // namespace cassette
