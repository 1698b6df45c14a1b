// MergingPartitionIterator: a k-way merge of the partition iterators of
// several sources, by DecoratedKey (token, then key bytes). Each merged
// partition carries the superseding partition deletion, the static rows
// merged, the range tombstones of every source concatenated and a
// MergingRowIterator over the sources' rows. The merge is lazy: key() costs
// nothing, partition() builds the merged content on first use, so a
// consumer that only needs keys (a read's partition discovery) never
// touches rows.
//
// Thread-compatible.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine/mutation/partition_source.h"

namespace cassette {

// Merges the contents several sources hold for one key. Takes over their
// row iterators (which must all run in the direction `reversed` names);
// a single one is handed on as it is.
// REQUIRES: !contents.empty() and every content has the same key.
PartitionContent MergePartitionContents(std::vector<PartitionContent> contents, bool reversed);

class MergingPartitionIterator final : public PartitionIterator {
 public:
  // REQUIRES: children iterate forward over rows (as scans do).
  explicit MergingPartitionIterator(std::vector<std::unique_ptr<PartitionIterator>> children);

  bool Valid() const override { return valid_; }
  // REQUIRES: Valid().
  const DecoratedKey& key() const { return key_; }
  // REQUIRES: Valid(). Valid until Next().
  PartitionContent& partition() override;
  void Next() override;
  Status status() const override { return status_; }

 private:
  bool Later(size_t a, size_t b) const;
  void PushIfValid(size_t child);
  void Advance();

  std::vector<std::unique_ptr<PartitionIterator>> children_;
  std::vector<size_t> heap_;
  std::vector<size_t> same_;  // children positioned on key_
  DecoratedKey key_;
  std::optional<PartitionContent> merged_;
  bool valid_ = false;
  Status status_;
};

}  // namespace cassette
