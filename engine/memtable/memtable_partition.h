// MemtablePartition: one partition of a memtable, in the arena. Holds the
// key, the sequence number of the Apply that created it, the versions of
// its partition deletion, static row and range tombstones, and its rows.
//
// Every version carries the sequence number of the Apply that wrote it;
// reads take a snapshot sequence number and ignore newer versions, so an
// Apply is seen whole or not at all.
//
// Thread safety: Apply needs external synchronization (the memtable's write
// mutex). Reads run concurrently with Apply and take no lock. Everything
// lives in the arena: the object is never destroyed, only freed with it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/memtable/memtable_arena.h"
#include "engine/memtable/memtable_row.h"
#include "engine/memtable/versioned_list.h"
#include "engine/mutation/clustering_bound.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/plain_row.h"

namespace cassette {

class MemtablePartition {
 public:
  // Writer. Creates the partition in the arena (key copied).
  static MemtablePartition* New(int64_t token, std::string_view key, uint64_t created_seq,
                                MemtableArena* arena);

  int64_t token() const { return token_; }
  std::string_view key() const { return {key_data_, key_size_}; }
  // Readers with a snapshot below this do not see the partition.
  uint64_t created_seq() const { return created_seq_; }

  // Writer. Adds the update's content as versions tagged `seq`. Overwrites
  // of an existing clustering or static row store the merge of the old
  // and new row. `scratch` is a reusable encoding buffer.
  void Apply(const PartitionUpdate& update, uint64_t seq, MemtableArena* arena,
             std::string* scratch);
  // Writer. The same for an update holding one plain row.
  void ApplyPlainRow(std::string_view clustering, const PlainRow& row, uint64_t seq,
                     MemtableArena* arena, std::string* scratch);

  // The partition as of `snapshot`: rows in `range` (merged per clustering,
  // forward or reversed) and the range tombstones intersecting it. A decode
  // failure surfaces as the row iterator's status.
  PartitionContent Read(uint64_t snapshot, const ClusteringRange& range, bool reversed) const;

 private:
  MemtablePartition(int64_t token, const char* key_data, size_t key_size, uint64_t created_seq,
                    MemtableArena* arena);

  void ApplyDeletion(const DeletionTime& deletion, uint64_t seq, MemtableArena* arena);
  void ApplyStaticRow(const Row& row, uint64_t seq, MemtableArena* arena, std::string* scratch);
  void ApplyRow(const Row& row, uint64_t seq, MemtableArena* arena, std::string* scratch);
  // Links a version of the row at `clustering`: `encode(scratch)` encodes
  // the row as written, `merge(merged)` merges it into the decoded older
  // version when there is one.
  template <class Encode, class Merge>
  void InsertRowVersion(std::string_view clustering, uint64_t seq, MemtableArena* arena,
                        std::string* scratch, Encode&& encode, Merge&& merge);

  DeletionTime PartitionDeletion(uint64_t snapshot) const;
  Status StaticRow(uint64_t snapshot, Row* row) const;
  Status RangeTombstones(uint64_t snapshot, const ClusteringRange& range,
                         std::vector<RangeTombstone>* out) const;

  const int64_t token_;
  const char* const key_data_;
  const size_t key_size_;
  const uint64_t created_seq_;
  // Each version holds the merged state (the latest deletion, the merged
  // static row), so readers use only the newest visible one.
  VersionedList deletions_;
  VersionedList static_rows_;
  // Every range tombstone applied, one per version (not merged).
  VersionedList range_tombstones_;
  MemtableRowList rows_;
};

}  // namespace cassette
