#include "engine/compaction/time_window_compaction_strategy.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include "engine/types/calendar.h"

namespace cassette {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;

std::vector<uint64_t> Generations(const std::vector<const CompactionCandidate*>& files) {
  std::vector<uint64_t> out;
  out.reserve(files.size());
  for (const CompactionCandidate* f : files) out.push_back(f->generation);
  return out;
}

int64_t SaturatingMicros(int64_t seconds) {
  int64_t r;
  if (__builtin_mul_overflow(seconds, kMicrosPerSecond, &r)) {
    return seconds < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return r;
}

std::string Plural(size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string FormatWindowStart(int64_t seconds) {
  const int64_t days = FloorDiv(seconds, 86400);
  const int64_t in_day = FloorMod(seconds, 86400);
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04lld-%02u-%02uT%02lld:%02lldZ", static_cast<long long>(y), m,
                d, static_cast<long long>(in_day / 3600),
                static_cast<long long>(in_day % 3600 / 60));
  return buf;
}

int64_t TimeWindowCompactionStrategy::window_micros() const {
  return SaturatingMicros(window_.window_seconds());
}

int64_t TimeWindowCompactionStrategy::WindowStartMicros(int64_t timestamp) const {
  return SaturatingMicros(window_.WindowStartSeconds(timestamp));
}

int64_t TimeWindowCompactionStrategy::timer_period_seconds() const {
  return std::max<int64_t>(1, window_.expired_sstable_check_frequency_seconds);
}

void TimeWindowCompactionStrategy::ShapeOutput(CompactionTask* task) const {
  if (window_.split_output_by_window)
    task->split_window_micros = window_.window_in_timestamp_units();
}

CompactionTask TimeWindowCompactionStrategy::FlushOutputShape() const {
  CompactionTask shape;
  ShapeOutput(&shape);
  return shape;
}

TimeWindowCompactionStrategy::Choice TimeWindowCompactionStrategy::ChooseFromWindows(
    const std::vector<const CompactionCandidate*>& candidates) {
  std::map<int64_t, std::vector<const CompactionCandidate*>> windows;
  for (const CompactionCandidate* c : candidates) {
    windows[window_.WindowStartSeconds(c->stats->max_timestamp)].push_back(c);
  }
  if (windows.empty()) return {};
  const int64_t newest = windows.rbegin()->first;
  if (!highest_window_seen_ || newest > *highest_window_seen_) highest_window_seen_ = newest;

  const size_t min_threshold = static_cast<size_t>(common_.min_threshold);
  const size_t max_threshold = static_cast<size_t>(common_.max_threshold);
  for (auto it = windows.rbegin(); it != windows.rend(); ++it) {
    const int64_t start = it->first;
    std::vector<const CompactionCandidate*>& files = it->second;
    if (files.size() >= min_threshold && start >= *highest_window_seen_) {
      // The window still being written: size-tiered, so that the fresh
      // small flushes merge among themselves first.
      const std::vector<const CompactionCandidate*> bucket = MostInterestingBucket(
          SizeTieredBuckets(files, size_tiered_), common_.min_threshold, common_.max_threshold);
      if (!bucket.empty()) {
        return {Generations(bucket),
                "newest window " + FormatWindowStart(start) + ": size-tiered bucket of " +
                    Plural(bucket.size(), "sstable"),
                false};
      }
    } else if (files.size() >= 2 && start < *highest_window_seen_) {
      // A past window: everything in it becomes one SSTable, smallest
      // files first when there are more than max_threshold.
      std::stable_sort(files.begin(), files.end(),
                       [](const CompactionCandidate* a, const CompactionCandidate* b) {
                         return a->size_on_disk < b->size_on_disk;
                       });
      if (files.size() > max_threshold) files.resize(max_threshold);
      return {Generations(files),
              "window " + FormatWindowStart(start) + ": " + Plural(files.size(), "sstable") +
                  " into one",
              false};
    }
  }
  return {};
}

std::optional<CompactionTask> TimeWindowCompactionStrategy::NextBackgroundTask(
    const CompactionSnapshot& snapshot) {
  if (!common_.enabled || snapshot.sstables.empty()) return std::nullopt;
  std::vector<const CompactionCandidate*> uncompacting;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting && c.stats != nullptr) uncompacting.push_back(&c);
  }

  const bool ignore_overlaps = window_.unsafe_aggressive_sstable_expiration;
  std::vector<uint64_t> expired;
  const int64_t frequency = SaturatingMicros(window_.expired_sstable_check_frequency_seconds);
  if (!last_expired_check_micros_ ||
      snapshot.now_micros - *last_expired_check_micros_ > frequency) {
    expired = FullyExpiredSSTables(snapshot, Generations(uncompacting), ignore_overlaps);
    last_expired_check_micros_ = snapshot.now_micros;
  }
  const std::set<uint64_t> expired_set(expired.begin(), expired.end());
  std::vector<const CompactionCandidate*> rest;
  for (const CompactionCandidate* c : uncompacting) {
    if (expired_set.count(c->generation) == 0) rest.push_back(c);
  }

  Choice choice = ChooseFromWindows(rest);
  // Tombstone compactions only when the table asked for them: a TWCS
  // table normally waits for whole SSTables to expire instead.
  if (choice.generations.empty() && common_.tombstone_options_given) {
    const CompactionCandidate* smallest = nullptr;
    for (const CompactionCandidate* c : rest) {
      if ((smallest == nullptr || c->size_on_disk < smallest->size_on_disk) &&
          WorthDroppingTombstones(*c, snapshot, common_)) {
        smallest = c;
      }
    }
    if (smallest != nullptr) {
      char ratio[32];
      std::snprintf(ratio, sizeof(ratio), "%.3f",
                    smallest->stats->DroppableTombstoneRatio(snapshot.gc_before));
      choice = {{smallest->generation},
                "tombstone compaction of sstable " + std::to_string(smallest->generation) +
                    " (droppable tombstone ratio " + ratio + ")",
                true};
    }
  }

  std::vector<uint64_t> all = choice.generations;
  all.insert(all.end(), expired.begin(), expired.end());
  if (all.empty()) return std::nullopt;
  CompactionTask task = TaskDroppingExpired(snapshot, all, ignore_overlaps);
  task.tombstone_compaction = choice.tombstone_compaction && !task.inputs.empty();
  task.reason = choice.reason;
  if (!task.expired.empty()) {
    if (!task.reason.empty()) task.reason += "; ";
    task.reason += "dropping " + Plural(task.expired.size(), "fully expired sstable");
  }
  ShapeOutput(&task);
  return task;
}

CompactionTask TimeWindowCompactionStrategy::MajorTask(const CompactionSnapshot& snapshot) {
  std::vector<uint64_t> all;
  for (const CompactionCandidate& c : snapshot.sstables) {
    if (!c.compacting) all.push_back(c.generation);
  }
  CompactionTask task =
      TaskDroppingExpired(snapshot, all, window_.unsafe_aggressive_sstable_expiration);
  task.reason = "major compaction of " + Plural(all.size(), "sstable");
  if (!task.expired.empty()) {
    task.reason += "; dropping " + Plural(task.expired.size(), "fully expired sstable");
  }
  ShapeOutput(&task);
  return task;
}

Result<std::unique_ptr<CompactionStrategy>> NewTimeWindowCompactionStrategy(
    const std::map<std::string, std::string>& options) {
  std::set<std::string> unconsumed;
  for (const auto& [key, value] : options) unconsumed.insert(key);
  CASSETTE_ASSIGN_OR_RETURN(CompactionCommonOptions common,
                            ParseCompactionCommonOptions(options, &unconsumed));
  CASSETTE_ASSIGN_OR_RETURN(TimeWindowOptions window, ParseTimeWindowOptions(options, &unconsumed));
  CASSETTE_ASSIGN_OR_RETURN(SizeTieredOptions size_tiered,
                            ParseSizeTieredOptions(options, &unconsumed));
  CASSETTE_RETURN_IF_ERROR(
      RejectUnknownCompactionOptions(unconsumed, TimeWindowCompactionStrategy::kName));
  return std::unique_ptr<CompactionStrategy>(
      std::make_unique<TimeWindowCompactionStrategy>(common, size_tiered, window));
}

}  // namespace cassette
