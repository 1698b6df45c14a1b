// CompactionController: Cassandra's purge rule (docs/COMPACTION.md, "the purge rule"). A deletion
// (a cell tombstone, an expired cell rewritten as one, a row, range, partition or collection
// deletion, an expired row marker) written at timestamp T with local deletion time L may be dropped
// by a compaction only when
//   1. CanPurge(L, gc_before): L < gc_before, strictly (engine/mutation/expiry.h), and
//   2. T < MaxPurgeableTimestamp(key): every SSTable outside the compaction
//      that may hold the partition, and every memtable holding it, only has
//      data written after T, so dropping the deletion cannot resurrect
//      anything it shadows there.
// Data shadowed inside the compaction is dropped regardless (merge before
// purge); that is the compaction iterator's business.
//
// Thread-compatible; the SSTables it holds are immutable, and the memtable
// callback must be safe to call from the compacting thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/mutation/decorated_key.h"
#include "engine/mutation/deletion_time.h"
#include "engine/mutation/expiry.h"
#include "engine/sstable/sstable_reader.h"

namespace cassette {

class CompactionController {
 public:
  // The minimum write timestamp of the memtables holding `key`, or nullopt
  // when none does. The caller may answer for more than memtables: the db
  // also covers SSTables flushed from them after `overlapping` was taken.
  using MemtableMinTimestamp = std::function<std::optional<int64_t>(const DecoratedKey&)>;

  // `gc_before` in seconds. `overlapping`: the table's live SSTables that
  // are NOT inputs of this compaction (those whose key range misses every
  // key compacted cost one comparison per key and never block anything).
  // `memtable_min_timestamp` may be empty: no memtable holds data.
  CompactionController(int64_t gc_before,
                       std::vector<std::shared_ptr<const SSTableReader>> overlapping,
                       MemtableMinTimestamp memtable_min_timestamp = {});

  // A controller that never purges (flush; a compaction that must keep
  // every deletion).
  static CompactionController NoPurge();

  int64_t gc_before() const { return gc_before_; }

  // The smallest timestamp of data outside the compaction that may belong to
  // `key`: the minimum, over the SSTables that may contain the key (key range
  // and bloom filter), of their min timestamp, and the memtables' minimum.
  // INT64_MAX when nothing outside may hold the key. Costs bloom-filter
  // probes: callers compute it once per partition, and only when some
  // deletion is old enough to be purged (see MayPurgeByTime).
  int64_t MaxPurgeableTimestamp(const DecoratedKey& key) const;

  // Condition 1 alone: a deletion issued at `local_deletion_time` is past
  // gc_grace.
  bool MayPurgeByTime(int64_t local_deletion_time) const {
    return CanPurge(local_deletion_time, gc_before_);
  }
  // Both conditions, with `max_purgeable` = MaxPurgeableTimestamp(key).
  bool IsPurgeable(int64_t timestamp, int64_t local_deletion_time, int64_t max_purgeable) const {
    return MayPurgeByTime(local_deletion_time) && timestamp < max_purgeable;
  }
  bool IsPurgeable(const DeletionTime& deletion, int64_t max_purgeable) const {
    return !deletion.IsLive() &&
           IsPurgeable(deletion.marked_for_delete_at, deletion.local_deletion_time, max_purgeable);
  }
  // Convenience: both conditions for one deletion of `key`.
  bool IsPurgeable(const DecoratedKey& key, int64_t timestamp, int64_t local_deletion_time) const;

 private:
  int64_t gc_before_;
  // Sorted by min timestamp, ascending: the first one that may contain a key
  // gives the SSTables' answer, so most lookups stop early.
  std::vector<std::shared_ptr<const SSTableReader>> overlapping_;
  MemtableMinTimestamp memtable_min_timestamp_;
};

}  // namespace cassette
