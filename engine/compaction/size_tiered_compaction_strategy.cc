#include "engine/compaction/size_tiered_compaction_strategy.h"

#include <cstdio>
#include <set>
#include <vector>

namespace cassette {
namespace {

std::vector<uint64_t> Generations(const std::vector<const CompactionCandidate*>& files) {
  std::vector<uint64_t> out;
  out.reserve(files.size());
  for (const CompactionCandidate* f : files) out.push_back(f->generation);
  return out;
}

std::string DescribeExpired(const CompactionTask& task) {
  if (task.expired.empty()) return "";
  return "; dropping " + std::to_string(task.expired.size()) + " fully expired sstable" +
         (task.expired.size() == 1 ? "" : "s");
}

}  // namespace

std::optional<CompactionTask> SizeTieredCompactionStrategy::NextBackgroundTask(
    const CompactionSnapshot& snapshot) {
  if (!common_.enabled) return std::nullopt;
  std::vector<const CompactionCandidate*> candidates;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting && c.stats != nullptr) candidates.push_back(&c);
  }
  const std::vector<const CompactionCandidate*> bucket = MostInterestingBucket(
      SizeTieredBuckets(candidates, size_tiered_), common_.min_threshold, common_.max_threshold);
  if (!bucket.empty()) {
    CompactionTask task = TaskDroppingExpired(snapshot, Generations(bucket), false);
    uint64_t total = 0;
    for (const CompactionCandidate* c : bucket) total += c->size_on_disk;
    task.reason = "size-tiered bucket of " + std::to_string(bucket.size()) + " sstables (average " +
                  std::to_string(total / bucket.size()) + " bytes)" + DescribeExpired(task);
    return task;
  }

  // Nothing to merge: the largest file worth rewriting for its tombstones.
  const CompactionCandidate* largest = nullptr;
  for (const CompactionCandidate* c : candidates) {
    if ((largest == nullptr || c->size_on_disk > largest->size_on_disk) &&
        WorthDroppingTombstones(*c, snapshot, common_)) {
      largest = c;
    }
  }
  if (largest == nullptr) return std::nullopt;
  CompactionTask task = TaskDroppingExpired(snapshot, {largest->generation}, false);
  task.tombstone_compaction = !task.inputs.empty();
  char ratio[32];
  std::snprintf(ratio, sizeof(ratio), "%.3f",
                largest->stats->DroppableTombstoneRatio(snapshot.gc_before));
  task.reason = "tombstone compaction of sstable " + std::to_string(largest->generation) +
                " (droppable tombstone ratio " + ratio + ")" + DescribeExpired(task);
  return task;
}

CompactionTask SizeTieredCompactionStrategy::MajorTask(const CompactionSnapshot& snapshot) {
  std::vector<uint64_t> all;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting) all.push_back(c.generation);
  }
  CompactionTask task = TaskDroppingExpired(snapshot, all, false);
  task.reason =
      "major compaction of " + std::to_string(all.size()) + " sstables" + DescribeExpired(task);
  return task;
}

Result<std::unique_ptr<CompactionStrategy>> NewSizeTieredCompactionStrategy(
    const std::map<std::string, std::string>& options) {
  std::set<std::string> unconsumed;
  for (const auto& [key, value] : options) unconsumed.insert(key);
  CASSETTE_ASSIGN_OR_RETURN(CompactionCommonOptions common,
                            ParseCompactionCommonOptions(options, &unconsumed));
  CASSETTE_ASSIGN_OR_RETURN(SizeTieredOptions size_tiered,
                            ParseSizeTieredOptions(options, &unconsumed));
  CASSETTE_RETURN_IF_ERROR(
      RejectUnknownCompactionOptions(unconsumed, SizeTieredCompactionStrategy::kName));
  return std::unique_ptr<CompactionStrategy>(
      std::make_unique<SizeTieredCompactionStrategy>(common, size_tiered));
}

}  // namespace cassette
