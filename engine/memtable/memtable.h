// Memtable: the in-memory, sorted home of a table's recent writes until
// they are flushed to an SSTable. Partitions are in partition order (token,
// then key bytes); rows in clustering order.
//
// Concurrency: Apply is thread-safe; writers take a mutex, one at a time.
// Reads take no lock and never block writers: they walk lock-free skip
// lists in an arena that is only freed with the memtable. Each Apply gets a
// sequence number, published only after all of its parts are linked; a read
// snapshots the published number when it starts and ignores newer parts, so
// it sees each applied PartitionUpdate whole or not at all, and iterators
// see a consistent snapshot across partitions.
//
// Storage: rows, static rows and range tombstones are stored encoded (row
// codec, fixed bases). An overwrite of a clustering stores the merged row as
// a new version next to the old one, so a read decodes one version per row.
// Appends in clustering order (time series) skip the search.
//
// Lifetime: iterators and row iterators returned by reads stay valid as
// long as the Memtable lives (the db holds memtables by shared_ptr while
// reading).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "engine/memtable/memtable_arena.h"
#include "engine/memtable/memtable_partition_list.h"
#include "engine/memtable/memtable_stats.h"
#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"
#include "engine/mutation/plain_row.h"
#include "engine/mutation/row_codec.h"
#include "engine/mutation/token_interval.h"

namespace cassette {

class Memtable {
 public:
  Memtable();
  Memtable(const Memtable&) = delete;
  Memtable& operator=(const Memtable&) = delete;

  // Adds the update (all of it, atomically for readers). An update with no
  // content at all (live deletion, empty static row, no tombstones, no
  // rows) changes nothing and creates no partition. Thread-safe.
  void Apply(const PartitionUpdate& update);
  // The same for an update holding one plain row, from its description
  // (no Row is built unless the row overwrites one).
  void Apply(const PlainRowWrite& write);

  // Bytes held: the arena plus the writers' partition index.
  size_t ApproximateMemoryUsage() const;
  bool empty() const { return partition_count() == 0; }
  size_t partition_count() const { return partition_count_.load(std::memory_order_relaxed); }

  // Over everything applied: min/max write timestamp (INT64_MAX / INT64_MIN
  // when empty) and the stats the flush writer encodes against.
  int64_t MinTimestamp() const { return stats_.MinTimestamp(); }
  int64_t MaxTimestamp() const { return stats_.MaxTimestamp(); }
  EncodingStats encoding_stats() const { return stats_.encoding_stats(); }

  bool ContainsPartition(const DecoratedKey& key) const;

  // A consistent snapshot of the partition as of the call: rows merged per
  // clustering, restricted to `range`, forward or reversed; the range
  // tombstones that intersect `range` (all of them for an unbounded range),
  // in the order they were applied. nullopt when the partition is absent.
  std::optional<PartitionContent> ReadPartition(const DecoratedKey& key,
                                                const ClusteringRange& range, bool reversed) const;

  // Partitions within the token range, in partition order, full content,
  // forward; a snapshot as of the call.
  std::unique_ptr<PartitionIterator> NewIterator(const TokenInterval& tokens) const;
  // Every partition (flush).
  std::unique_ptr<PartitionIterator> NewIterator() const;

 private:
  // Writer. The partition for `key`, created (tagged `seq`) if absent.
  MemtablePartition* FindOrCreate(int64_t token, std::string_view key, uint64_t seq);
  // Writer, after an Apply linked everything tagged `seq`.
  void Publish(const MemtablePartition* partition, uint64_t seq);
  // The partition for `key` if `snapshot` sees it.
  const MemtablePartition* FindVisible(const DecoratedKey& key, uint64_t snapshot) const;
  uint64_t Snapshot() const { return published_seq_.load(std::memory_order_acquire); }

  std::mutex write_mu_;
  MemtableArena arena_;  // allocation guarded by write_mu_
  MemtablePartitionList partitions_;
  // Writers find partitions by token in O(1) instead of searching the list:
  // token -> the first partition created with that token (collisions of
  // distinct keys fall back to the list). Guarded by write_mu_.
  std::unordered_map<int64_t, MemtablePartition*> by_token_;
  std::string scratch_;    // encoding buffer, guarded by write_mu_
  uint64_t last_seq_ = 0;  // guarded by write_mu_
  std::atomic<uint64_t> published_seq_{0};
  std::atomic<size_t> partition_count_{0};
  MemtableStats stats_;
};

}  // namespace cassette
