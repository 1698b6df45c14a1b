// DeferredRowIterator: the rows of a source that is read only when a merge
// reaches them. The source states where its rows start (in iteration
// order), and MergingRowIterator opens it only once the merge gets there,
// so a read that stops at its limit never touches a source whose rows all
// come after the rows it returned: the newest 100 rows of a partition that
// every SSTable holds are then read from the one or two files that hold
// them.
//
// A merge opens it with Open() and takes the source's own iterator in its
// place; any other consumer may use it as it is: Valid() opens the source
// (once), and an error opening it ends the iteration and stays in
// status(). Thread-compatible.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/mutation/partition_source.h"

namespace cassette {

class DeferredRowIterator final : public RowIterator {
 public:
  // Returns the source's row iterator (null: the source holds no rows).
  using Opener = std::function<Result<std::unique_ptr<RowIterator>>()>;

  // REQUIRES: no row `open` yields comes before `start` in iteration order.
  DeferredRowIterator(std::string start, Opener open)
      : start_(std::move(start)), open_(std::move(open)) {}

  DeferredRowIterator* AsDeferred() override { return opened_ ? nullptr : this; }
  // No row of the source comes before it in iteration order.
  const std::string& start() const { return start_; }
  // REQUIRES: not opened yet. Reads the source and hands over its rows
  // (null: it holds none); this iterator is spent.
  Result<std::unique_ptr<RowIterator>> Open() const;

  bool Valid() const override;
  const Row& row() const override { return rows_->row(); }
  void Next() override { rows_->Next(); }
  Status status() const override;
  const std::string& clustering() const override { return rows_->clustering(); }
  const EncodedRow* encoded() const override { return rows_->encoded(); }
  bool EncodedBody(std::string_view* body, const EncodingStats** bases) const override {
    return rows_->EncodedBody(body, bases);
  }

 private:
  // Opening is not a visible change of state: before and after, the
  // iterator stands on the source's first row. Hence const, with the
  // members it fills mutable.
  void OpenInPlace() const;

  std::string start_;
  mutable Opener open_;
  mutable bool opened_ = false;
  mutable std::unique_ptr<RowIterator> rows_;
  mutable Status open_status_;
};

}  // namespace cassette
