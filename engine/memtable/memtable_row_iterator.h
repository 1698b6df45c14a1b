// MemtableRowIterator: the rows of one memtable partition as of a snapshot,
// within a clustering range, forward or reversed. Yields one Row per
// clustering: the newest version with seq <= snapshot (versions already
// hold the merge of older ones).
//
// Takes no lock and holds nothing but arena pointers, so it stays valid as
// long as the memtable lives, whatever writers do meanwhile. Reversed
// iteration costs a search per row (the list links forward only).
#pragma once

#include <cstdint>

#include "engine/memtable/memtable_row.h"
#include "engine/mutation/clustering_interval.h"
#include "engine/mutation/partition_source.h"

namespace cassette {

class MemtableRowIterator final : public RowIterator {
 public:
  MemtableRowIterator(const MemtableRowList* rows, uint64_t snapshot, const ClusteringRange& range,
                      bool reversed);
  // An iterator that yields nothing and reports `error` (REQUIRES: !ok()).
  explicit MemtableRowIterator(Status error);

  bool Valid() const override { return valid_; }
  const Row& row() const override { return row_; }
  void Next() override;
  Status status() const override { return status_; }

 private:
  // Moves from the list position to the next clustering that has a visible
  // version inside the range, and decodes it; else ends the iteration.
  void SettleForward();
  void SettleReverse();
  void Emit(const MemtableRow* version);

  MemtableRowList::Iterator it_;
  uint64_t snapshot_ = 0;
  ClusteringInterval interval_;
  bool reversed_ = false;
  bool valid_ = false;
  Row row_;
  Status status_;
};

}  // namespace cassette
