#include "engine/compaction/compaction_range_tombstones.h"

#include <algorithm>
#include <utility>

namespace cassette {
namespace {

// True when every clustering in `inner` is also in `outer`.
bool Contains(const ClusteringInterval& outer, const ClusteringInterval& inner) {
  if (inner.empty) return true;
  if (outer.empty) return false;
  if (inner.lo < outer.lo) return false;
  if (outer.unbounded_end) return true;
  return !inner.unbounded_end && inner.hi <= outer.hi;
}

// Ascending start, then the wider end first; ties keep input order.
bool StartsBefore(const ClusteringInterval& a, const ClusteringInterval& b) {
  if (a.lo != b.lo) return a.lo < b.lo;
  if (a.unbounded_end != b.unbounded_end) return a.unbounded_end;
  return !a.unbounded_end && a.hi > b.hi;
}

}  // namespace

std::vector<RangeTombstone> NormalizeRangeTombstones(std::vector<RangeTombstone> tombstones,
                                                     const DeletionTime& partition_deletion,
                                                     uint64_t* dropped) {
  const size_t before = tombstones.size();
  struct Item {
    ClusteringInterval interval;
    RangeTombstone tombstone;
  };
  std::vector<Item> items;
  items.reserve(tombstones.size());
  for (RangeTombstone& rt : tombstones) {
    ClusteringInterval iv = ClusteringInterval::FromRange(rt.range);
    // A tombstone the partition deletion is at least as strong as shadows
    // nothing that deletion does not, and is purgeable no later.
    if (iv.empty || rt.deletion.IsLive() || !rt.deletion.Supersedes(partition_deletion)) continue;
    items.push_back({std::move(iv), std::move(rt)});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return StartsBefore(a.interval, b.interval);
  });

  std::vector<bool> keep(items.size(), true);
  if (items.size() <= kMaxContainmentCheck) {
    for (size_t i = 0; i < items.size(); ++i) {
      for (size_t j = 0; j < items.size() && keep[i]; ++j) {
        if (i == j || !keep[j]) continue;
        const DeletionTime& di = items[i].tombstone.deletion;
        const DeletionTime& dj = items[j].tombstone.deletion;
        if (di.Supersedes(dj) || !Contains(items[j].interval, items[i].interval)) continue;
        // j is as strong and covers i. Two identical ones would each drop
        // the other; the earlier (kept) one wins.
        if (dj == di && Contains(items[i].interval, items[j].interval) && j > i) continue;
        keep[i] = false;
      }
    }
  }
  std::vector<RangeTombstone> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (keep[i]) out.push_back(std::move(items[i].tombstone));
  }
  if (dropped != nullptr) *dropped += before - out.size();
  return out;
}

}  // namespace cassette
