// TimeWindowCompactionStrategy::ReportWindows (twcs_window_report.h).
#include "engine/compaction/twcs_window_report.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/mutation/expiry.h"

namespace cassette {
namespace {

constexpr int64_t kNoDeletion = std::numeric_limits<int64_t>::max();
constexpr int64_t kNothing = std::numeric_limits<int64_t>::min();

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b < 0 ? kNothing : kNoDeletion;
  return r;
}

int64_t SaturatingMicros(int64_t seconds) {
  int64_t r;
  if (__builtin_mul_overflow(seconds, int64_t{1000000}, &r))
    return seconds < 0 ? kNothing : kNoDeletion;
  return r;
}

}  // namespace

std::vector<TwcsWindowReport> TimeWindowCompactionStrategy::ReportWindows(
    const CompactionSnapshot& snapshot, int64_t gc_grace_seconds) const {
  // The report is about what is on disk: a file being compacted is shown
  // in its window and judged as if it were not.
  CompactionSnapshot all = snapshot;
  for (CompactionCandidate& c : all.sstables) c.compacting = false;
  const bool ignore_overlaps = window_.unsafe_aggressive_sstable_expiration;

  std::map<int64_t, std::vector<const CompactionCandidate*>> windows;
  for (const CompactionCandidate& c : all.sstables) {
    if (c.stats != nullptr)
      windows[window_.WindowStartSeconds(c.stats->max_timestamp)].push_back(&c);
  }

  // What the strategy's next expiry check drops: Cassandra's check runs over
  // every SSTable of the table at once.
  std::vector<uint64_t> everything;
  for (const CompactionCandidate& c : all.sstables) everything.push_back(c.generation);
  const std::vector<uint64_t> expired = FullyExpiredSSTables(all, everything, ignore_overlaps);
  const std::set<uint64_t> droppable(expired.begin(), expired.end());

  std::vector<TwcsWindowReport> out;
  for (const auto& [start, files] : windows) {
    TwcsWindowReport r;
    r.window_start_micros = SaturatingMicros(start);
    r.window_end_micros = SaturatingMicros(SaturatingAdd(start, window_.window_seconds()));
    std::set<uint64_t> in_window;
    for (const CompactionCandidate* f : files) {
      r.generations.push_back(f->generation);
      in_window.insert(f->generation);
    }
    std::sort(r.generations.begin(), r.generations.end());
    for (uint64_t generation : r.generations) {
      if (droppable.count(generation) > 0) r.droppable_generations.push_back(generation);
    }

    bool never_expires = false;
    int64_t latest_expiry = kNothing;
    std::set<uint64_t> blockers;
    for (const CompactionCandidate* f : files) {
      const SSTableStats& stats = *f->stats;
      (droppable.count(f->generation) > 0 ? r.droppable_bytes : r.live_bytes) += f->size_on_disk;
      if (stats.max_local_deletion_time == kNoDeletion) {
        never_expires = true;
        continue;
      }
      latest_expiry = std::max(latest_expiry, stats.max_local_deletion_time);
      if (ignore_overlaps || droppable.count(f->generation) > 0) continue;

      // What will still hold data as old as this file's when it is past
      // gc_grace: files not expired by then (now, if it already is). The
      // check spans the whole table, so key ranges do not matter here (with
      // hashed partition keys nearly every pair of SSTables overlaps anyway).
      const int64_t expired_by =
          std::max(all.gc_before, SaturatingAdd(stats.max_local_deletion_time, 1));
      for (const CompactionCandidate& o : all.sstables) {
        if (o.stats == nullptr || in_window.count(o.generation) > 0) continue;
        if (o.stats->min_timestamp <= stats.max_timestamp &&
            o.stats->max_local_deletion_time >= expired_by) {
          blockers.insert(o.generation);
        }
      }
      if (CanPurge(stats.max_local_deletion_time, all.gc_before) && all.memtable_min_timestamp &&
          *all.memtable_min_timestamp <= stats.max_timestamp) {
        r.blocked_by_memtable = true;
      }
    }
    if (!never_expires) {
      r.droppable_at_micros =
          latest_expiry == kNothing
              ? 0
              : SaturatingMicros(SaturatingAdd(SaturatingAdd(latest_expiry, gc_grace_seconds), 1));
    }
    r.blocking_generations.assign(blockers.begin(), blockers.end());
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace cassette
