#include "engine/mutation/deferred_row_iterator.h"

#include <utility>

namespace cassette {

Result<std::unique_ptr<RowIterator>> DeferredRowIterator::Open() const {
  opened_ = true;
  Result<std::unique_ptr<RowIterator>> rows = open_();
  open_ = nullptr;  // what the opener captured is not needed any more
  return rows;
}

void DeferredRowIterator::OpenInPlace() const {
  Result<std::unique_ptr<RowIterator>> rows = Open();
  if (!rows.ok()) {
    open_status_ = rows.status();
    return;
  }
  rows_ = std::move(rows).value();
}

bool DeferredRowIterator::Valid() const {
  if (!opened_) OpenInPlace();
  return rows_ != nullptr && rows_->Valid();
}

Status DeferredRowIterator::status() const {
  if (!open_status_.ok() || rows_ == nullptr) return open_status_;
  return rows_->status();
}

}  // namespace cassette
