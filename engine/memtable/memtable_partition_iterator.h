// MemtablePartitionIterator: a memtable's partitions within a token range,
// in partition order, each with its full content (all rows, forward), as of
// a snapshot taken at creation. Lock-free; valid while the memtable lives.
#pragma once

#include <cstdint>

#include "engine/memtable/memtable_partition_list.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/token_interval.h"

namespace cassette {

class MemtablePartitionIterator final : public PartitionIterator {
 public:
  // Ranges do not wrap around the ring here; callers split a wrapping one.
  MemtablePartitionIterator(const MemtablePartitionList* partitions, uint64_t snapshot,
                            const TokenInterval& tokens);

  bool Valid() const override { return valid_; }
  PartitionContent& partition() override { return content_; }
  void Next() override;
  Status status() const override { return Status::OK(); }

 private:
  // From the list position, finds the next partition in range that the
  // snapshot sees and loads its content; else ends the iteration.
  void Settle();

  MemtablePartitionList::Iterator it_;
  uint64_t snapshot_;
  TokenInterval tokens_;
  bool valid_ = false;
  PartitionContent content_;
};

}  // namespace cassette
