#include "engine/mutation/merging_row_iterator.h"

#include <algorithm>
#include <utility>

#include "engine/mutation/deferred_row_iterator.h"
#include "engine/mutation/reconcile.h"

namespace cassette {

MergingRowIterator::MergingRowIterator(std::vector<std::unique_ptr<RowIterator>> children,
                                       bool reversed)
    : children_(std::move(children)),
      clusterings_(children_.size(), nullptr),
      unopened_(children_.size(), false),
      reversed_(reversed) {
  heap_.reserve(children_.size());
  for (size_t i = 0; i < children_.size(); ++i) Push(i);
  Advance();
}

bool MergingRowIterator::Before(const std::string& a, const std::string& b) const {
  int c = a.compare(b);
  return reversed_ ? c > 0 : c < 0;
}

bool MergingRowIterator::Later(size_t a, size_t b) const {
  const std::string& x = *clusterings_[a];
  const std::string& y = *clusterings_[b];
  if (Before(y, x)) return true;
  // At one clustering, an unopened child comes first: it must be opened
  // before the rows holding that clustering are merged.
  return unopened_[b] && !unopened_[a] && x == y;
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

void MergingRowIterator::Push(size_t child) {
  if (DeferredRowIterator* deferred = children_[child]->AsDeferred()) {
    clusterings_[child] = &deferred->start();
    unopened_[child] = true;
    heap_.push_back(child);
    std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return Later(a, b); });
    return;
  }
  PushIfValid(child);
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
  auto later = [this](size_t a, size_t b) { return Later(a, b); };
  // Open the children whose start the merge has reached; each goes back in
  // at its first row (which may be past other children's starts).
  while (status_.ok() && !heap_.empty() && unopened_[heap_.front()]) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const size_t child = heap_.back();
    heap_.pop_back();
    unopened_[child] = false;
    // The source's own iterator takes the deferred one's place.
    Result<std::unique_ptr<RowIterator>> rows = children_[child]->AsDeferred()->Open();
    if (!rows.ok()) {
      status_ = rows.status();
      break;
    }
    if (*rows == nullptr) continue;
    children_[child] = std::move(rows).value();
    PushIfValid(child);
  }
  if (!status_.ok() || heap_.empty()) return;
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
