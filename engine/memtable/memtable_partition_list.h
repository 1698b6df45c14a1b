// MemtablePartitionList: a memtable's partitions in partition order (signed
// token, then unsigned key bytes), as DecoratedKey orders them.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/memtable/arena_skip_list.h"
#include "engine/memtable/memtable_partition.h"

namespace cassette {

// What the list is searched by: a DecoratedKey's parts, without a copy.
struct PartitionLookup {
  int64_t token;
  std::string_view key;
};

struct MemtablePartitionComparator {
  int operator()(const MemtablePartition* p, const PartitionLookup& l) const {
    if (p->token() != l.token) return p->token() < l.token ? -1 : 1;
    return p->key().compare(l.key);  // char_traits<char>: unsigned bytes
  }
};

using MemtablePartitionList =
    ArenaSkipList<MemtablePartition*, PartitionLookup, MemtablePartitionComparator>;

}  // namespace cassette
