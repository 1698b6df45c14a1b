#include "engine/compaction/compaction_controller.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace cassette {

CompactionController::CompactionController(
    int64_t gc_before, std::vector<std::shared_ptr<const SSTableReader>> overlapping,
    MemtableMinTimestamp memtable_min_timestamp)
    : gc_before_(gc_before),
      overlapping_(std::move(overlapping)),
      memtable_min_timestamp_(std::move(memtable_min_timestamp)) {
  // Empty files hold nothing to resurrect.
  std::erase_if(overlapping_, [](const std::shared_ptr<const SSTableReader>& r) {
    return r == nullptr || r->stats().partition_count == 0;
  });
  std::stable_sort(overlapping_.begin(), overlapping_.end(),
                   [](const std::shared_ptr<const SSTableReader>& a,
                      const std::shared_ptr<const SSTableReader>& b) {
                     return a->stats().min_timestamp < b->stats().min_timestamp;
                   });
}

CompactionController CompactionController::NoPurge() {
  return CompactionController(kPurgeNothing, {});
}

int64_t CompactionController::MaxPurgeableTimestamp(const DecoratedKey& key) const {
  int64_t min_ts = std::numeric_limits<int64_t>::max();
  for (const auto& sstable : overlapping_) {
    if (sstable->MayContainKey(key)) {
      min_ts = sstable->stats().min_timestamp;
      break;  // sorted: no later file can lower it
    }
  }
  if (memtable_min_timestamp_) {
    if (std::optional<int64_t> memtable = memtable_min_timestamp_(key)) {
      min_ts = std::min(min_ts, *memtable);
    }
  }
  return min_ts;
}

bool CompactionController::IsPurgeable(const DecoratedKey& key, int64_t timestamp,
                                       int64_t local_deletion_time) const {
  return MayPurgeByTime(local_deletion_time) && timestamp < MaxPurgeableTimestamp(key);
}

}  // namespace cassette
