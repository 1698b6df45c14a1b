#include "engine/memtable/memtable_partition_iterator.h"

#include <cassert>

namespace cassette {

MemtablePartitionIterator::MemtablePartitionIterator(const MemtablePartitionList* partitions,
                                                     uint64_t snapshot, const TokenInterval& tokens)
    : it_(partitions), snapshot_(snapshot), tokens_(tokens) {
  // The empty key sorts first among keys of a token.
  it_.Seek(PartitionLookup{tokens_.first, {}});
  Settle();
}

void MemtablePartitionIterator::Next() {
  assert(valid_);
  it_.Next();
  Settle();
}

void MemtablePartitionIterator::Settle() {
  valid_ = false;
  content_ = PartitionContent{};
  for (; it_.Valid(); it_.Next()) {
    const MemtablePartition* p = it_.key();
    if (p->token() > tokens_.last) return;
    if (p->created_seq() > snapshot_) continue;
    content_ = p->Read(snapshot_, ClusteringRange::All(), /*reversed=*/false);
    valid_ = true;
    return;
  }
}

}  // namespace cassette
