#include "engine/compaction/overlap_sets.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace cassette {
namespace {

bool Intersects(const std::vector<size_t>& set, const std::set<size_t>& target) {
  return std::any_of(set.begin(), set.end(), [&](size_t i) { return target.count(i) > 0; });
}

}  // namespace

std::vector<std::vector<size_t>> ConstructOverlapSets(const std::vector<KeyRange>& items) {
  std::vector<std::vector<size_t>> sets;
  if (items.empty()) return sets;
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return items[a].first < items[b].first; });

  // The items covering the current sweep position. Items are added in
  // order of their start, so each one overlaps every item still active.
  std::vector<size_t> active;
  const auto emit = [&] {
    std::vector<size_t> set = active;
    std::sort(set.begin(), set.end());
    sets.push_back(std::move(set));
  };
  for (size_t item : order) {
    const DecoratedKey& start = items[item].first;
    const auto ended = [&](size_t a) { return items[a].last < start; };
    if (std::any_of(active.begin(), active.end(), ended)) {
      // Something ends before this item starts: the active set is maximal.
      emit();
      std::erase_if(active, ended);
    }
    active.push_back(item);
  }
  emit();
  return sets;
}

std::vector<OverlapBucket> AssignOverlapsIntoBuckets(int64_t threshold,
                                                     OverlapInclusionMethod method,
                                                     const std::vector<std::vector<size_t>>& sets) {
  std::vector<OverlapBucket> buckets;
  const size_t count = sets.size();
  // Sets before `claimed` already belong to a bucket.
  size_t claimed = 0;
  for (size_t i = 0; i < count; ++i) {
    if (static_cast<int64_t>(sets[i].size()) < threshold) continue;
    OverlapBucket bucket{i, i + 1};
    if (method != OverlapInclusionMethod::kNone) {
      // SINGLE extends over neighbours sharing an item with the set itself;
      // TRANSITIVE with anything gathered so far.
      const std::set<size_t> own(sets[i].begin(), sets[i].end());
      std::set<size_t> all = own;
      const std::set<size_t>& target = method == OverlapInclusionMethod::kTransitive ? all : own;
      size_t begin = i;
      while (begin > claimed && Intersects(sets[begin - 1], target)) {
        --begin;
        all.insert(sets[begin].begin(), sets[begin].end());
      }
      size_t end = i + 1;
      while (end < count && Intersects(sets[end], target)) {
        all.insert(sets[end].begin(), sets[end].end());
        ++end;
      }
      bucket = {begin, end};
      i = end - 1;
    }
    buckets.push_back(bucket);
    claimed = i + 1;
  }
  return buckets;
}

}  // namespace cassette
