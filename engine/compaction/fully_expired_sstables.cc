// FullyExpiredSSTables, TaskDroppingExpired and WorthDroppingTombstones
// (declared in compaction_common_options.h): the decisions every strategy
// shares that look at more than one SSTable's statistics.
#include <algorithm>
#include <atomic>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "engine/compaction/compaction_common_options.h"
#include "engine/mutation/expiry.h"

namespace cassette {
namespace {

std::atomic<bool> whole_sstable_expiry{true};

bool HasKeys(const CompactionCandidate& c) {
  return c.stats != nullptr && c.stats->partition_count > 0;
}

// The overlapping SSTables of `sstable`: every other file of the snapshot,
// compacting or not, whose key range intersects its own.
std::vector<const CompactionCandidate*> Overlapping(const CompactionCandidate& sstable,
                                                    const CompactionSnapshot& snapshot) {
  std::vector<const CompactionCandidate*> out;
  for (const CompactionCandidate& other : snapshot.sstables) {
    if (other.generation != sstable.generation && SSTablesOverlap(sstable, other)) {
      out.push_back(&other);
    }
  }
  return out;
}

// Fraction of `sstable`'s token span that the overlapping files' token
// spans cover, assuming its partitions are spread evenly over its span.
// Cassandra asks its key samples; cassette keeps none, so it interpolates.
double CoveredTokenFraction(const CompactionCandidate& sstable,
                            const std::vector<const CompactionCandidate*>& overlaps) {
  const long double lo = static_cast<long double>(sstable.stats->first_key.token);
  const long double hi = static_cast<long double>(sstable.stats->last_key.token);
  std::vector<std::pair<long double, long double>> spans;
  for (const CompactionCandidate* o : overlaps) {
    const long double a = std::max(lo, static_cast<long double>(o->stats->first_key.token));
    const long double b = std::min(hi, static_cast<long double>(o->stats->last_key.token));
    if (a <= b) spans.emplace_back(a, b);
  }
  if (spans.empty()) return 0;
  // A one-token file that overlaps anything is covered whole.
  if (hi <= lo) return 1;
  std::sort(spans.begin(), spans.end());
  long double covered = 0;
  long double start = spans[0].first, end = spans[0].second;
  for (size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first > end) {
      covered += end - start;
      start = spans[i].first;
      end = spans[i].second;
    } else {
      end = std::max(end, spans[i].second);
    }
  }
  covered += end - start;
  return static_cast<double>(std::min<long double>(1, covered / (hi - lo)));
}

}  // namespace

bool SSTablesOverlap(const CompactionCandidate& a, const CompactionCandidate& b) {
  if (!HasKeys(a) || !HasKeys(b)) return false;
  return !(a.stats->last_key < b.stats->first_key) && !(b.stats->last_key < a.stats->first_key);
}

void SetWholeSSTableExpiryForTesting(bool enabled) {
  whole_sstable_expiry.store(enabled, std::memory_order_relaxed);
}

std::vector<uint64_t> FullyExpiredSSTables(const CompactionSnapshot& snapshot,
                                           const std::vector<uint64_t>& candidates,
                                           bool ignore_overlaps) {
  if (!whole_sstable_expiry.load(std::memory_order_relaxed)) return {};
  const std::set<uint64_t> wanted(candidates.begin(), candidates.end());
  std::vector<const CompactionCandidate*> set;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting && c.stats != nullptr && wanted.count(c.generation) > 0) set.push_back(&c);
  }
  std::vector<uint64_t> expired;
  if (set.empty()) return expired;
  const int64_t gc_before = snapshot.gc_before;

  if (ignore_overlaps) {
    for (const CompactionCandidate* c : set) {
      if (CanPurge(c->stats->max_local_deletion_time, gc_before)) expired.push_back(c->generation);
    }
    return expired;
  }

  // The oldest timestamp of data that may still be live or not yet
  // purgeable and that the candidates' tombstones might shadow: files
  // outside the set that overlap it and are not expired themselves, the
  // set's own non-expired files, and the memtables.
  int64_t min_timestamp = std::numeric_limits<int64_t>::max();
  const std::set<uint64_t> in_set = [&] {
    std::set<uint64_t> s;
    for (const CompactionCandidate* c : set) s.insert(c->generation);
    return s;
  }();
  for (const CompactionCandidate& other : snapshot.sstables) {
    if (in_set.count(other.generation) > 0 || other.stats == nullptr) continue;
    if (CanPurge(other.stats->max_local_deletion_time, gc_before)) continue;
    const bool overlaps = std::any_of(set.begin(), set.end(), [&](const CompactionCandidate* c) {
      return SSTablesOverlap(*c, other);
    });
    if (overlaps) min_timestamp = std::min(min_timestamp, other.stats->min_timestamp);
  }
  std::vector<const CompactionCandidate*> time_expired;
  for (const CompactionCandidate* c : set) {
    if (CanPurge(c->stats->max_local_deletion_time, gc_before)) {
      time_expired.push_back(c);
    } else {
      min_timestamp = std::min(min_timestamp, c->stats->min_timestamp);
    }
  }
  if (snapshot.memtable_min_timestamp) {
    min_timestamp = std::min(min_timestamp, *snapshot.memtable_min_timestamp);
  }
  for (const CompactionCandidate* c : time_expired) {
    if (c->stats->max_timestamp < min_timestamp) expired.push_back(c->generation);
  }
  return expired;
}

CompactionTask TaskDroppingExpired(const CompactionSnapshot& snapshot,
                                   const std::vector<uint64_t>& generations, bool ignore_overlaps) {
  CompactionTask task;
  const std::vector<uint64_t> expired =
      FullyExpiredSSTables(snapshot, generations, ignore_overlaps);
  const std::set<uint64_t> expired_set(expired.begin(), expired.end());
  for (uint64_t generation : generations) {
    (expired_set.count(generation) > 0 ? task.expired : task.inputs).push_back(generation);
  }
  return task;
}

bool WorthDroppingTombstones(const CompactionCandidate& sstable, const CompactionSnapshot& snapshot,
                             const CompactionCommonOptions& options) {
  if (sstable.stats == nullptr) return false;
  const SSTableStats& stats = *sstable.stats;
  // The ratio is an estimate: a file whose tombstones turn out not to be
  // droppable would be picked again and again, so each file waits for
  // tombstone_compaction_interval after it was written.
  constexpr int64_t kMicrosPerSecond = 1000000;
  const int64_t interval = options.tombstone_compaction_interval_seconds;
  if (interval >
      (std::numeric_limits<int64_t>::max() - std::max<int64_t>(0, stats.creation_time_micros)) /
          kMicrosPerSecond) {
    return false;
  }
  if (snapshot.now_micros < stats.creation_time_micros + interval * kMicrosPerSecond) return false;

  const double ratio = stats.DroppableTombstoneRatio(snapshot.gc_before);
  if (!(ratio > options.tombstone_threshold)) return false;
  if (options.unchecked_tombstone_compaction) return true;

  const std::vector<const CompactionCandidate*> overlaps = Overlapping(sstable, snapshot);
  if (overlaps.empty()) return true;
  if (!sstable.compacting &&
      !FullyExpiredSSTables(snapshot, {sstable.generation}, /*ignore_overlaps=*/false).empty()) {
    return true;
  }
  // Only the tombstones of partitions no overlapping file may hold are
  // expected to go.
  const double outside = 1.0 - CoveredTokenFraction(sstable, overlaps);
  return outside * ratio > options.tombstone_threshold;
}

}  // namespace cassette
