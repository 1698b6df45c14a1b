#include "engine/mutation/merging_row_iterator.h"

#include <algorithm>
#include <utility>

#include "engine/mutation/reconcile.h"

namespace cassette {

MergingRowIterator::MergingRowIterator(std::vector<std::unique_ptr<RowIterator>> children,
                                       bool reversed)
    : children_(std::move(children)), reversed_(reversed) {
  heap_.reserve(children_.size());
  for (size_t i = 0; i < children_.size(); ++i) PushIfValid(i);
  Advance();
}

bool MergingRowIterator::Later(size_t a, size_t b) const {
  int c = children_[a]->row().clustering.compare(children_[b]->row().clustering);
  return reversed_ ? c < 0 : c > 0;
}

void MergingRowIterator::PushIfValid(size_t child) {
  RowIterator& it = *children_[child];
  if (it.Valid()) {
    heap_.push_back(child);
    std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return Later(a, b); });
  } else if (!it.status().ok() && status_.ok()) {
    status_ = it.status();
  }
}

void MergingRowIterator::Next() {
  // Children holding the row just returned move on only now, so the
  // reference returned by row() stayed valid until this call.
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
  size_t first = heap_.back();
  heap_.pop_back();
  same_.push_back(first);
  current_ = children_[first]->row();
  while (!heap_.empty() && children_[heap_.front()]->row().clustering == current_.clustering) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    size_t child = heap_.back();
    heap_.pop_back();
    same_.push_back(child);
    MergeRow(&current_, children_[child]->row());
  }
  valid_ = true;
}

}  // namespace cassette
