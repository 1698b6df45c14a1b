// TimeWindowCompactionStrategy (Cassandra's TWCS; docs/COMPACTION.md): every SSTable
// belongs to the time window of its newest cell timestamp; the newest
// window is compacted size-tiered, each older window down to one SSTable;
// fully expired SSTables are dropped whole, never rewritten. Beyond
// Cassandra (as ScyllaDB does), split_output_by_window (default true)
// makes flushes and compactions split their output at window boundaries,
// so a late write lands in its own window's SSTable instead of pinning an
// old window's data to a new one. Thread-compatible; the strategy keeps
// the newest window it has seen and the time of its last expiry check.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_common_options.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/compaction/size_tiered_buckets.h"
#include "engine/compaction/time_window_options.h"
#include "engine/compaction/twcs_window_report.h"

namespace cassette {

class TimeWindowCompactionStrategy : public CompactionStrategy {
 public:
  static constexpr std::string_view kName = "TimeWindowCompactionStrategy";

  TimeWindowCompactionStrategy(const CompactionCommonOptions& common,
                               const SizeTieredOptions& size_tiered,
                               const TimeWindowOptions& window)
      : common_(common), size_tiered_(size_tiered), window_(window) {}

  std::string_view name() const override { return kName; }

  // Cassandra's getNextBackgroundSSTables: the expired check (at most once per
  // expired_sstable_check_frequency_seconds; the first call always
  // checks), then windows newest first, then a single-SSTable tombstone
  // compaction if tombstone options were given.
  std::optional<CompactionTask> NextBackgroundTask(const CompactionSnapshot& snapshot) override;
  // Every non-compacting SSTable in one task (split by window unless
  // split_output_by_window is false); fully expired ones dropped whole.
  CompactionTask MajorTask(const CompactionSnapshot& snapshot) override;
  CompactionTask FlushOutputShape() const override;
  // expired_sstable_check_frequency_seconds, so that expiry is noticed
  // when nothing is written; at least 1 (a frequency of 0 means "check on
  // every call", which still needs calls).
  int64_t timer_period_seconds() const override;

  // The window width in microseconds.
  int64_t window_micros() const;
  // The start (microseconds since the epoch) of the window of a cell
  // timestamp, given in the table's timestamp_resolution (microseconds
  // unless the table says otherwise).
  int64_t WindowStartMicros(int64_t timestamp) const;

  // Each window with SSTables, oldest first: what it holds, what could be
  // dropped now, when it can be dropped and what blocks it
  // (twcs_window_report.h). `gc_grace_seconds` is the table's.
  std::vector<TwcsWindowReport> ReportWindows(const CompactionSnapshot& snapshot,
                                              int64_t gc_grace_seconds) const;

  const CompactionCommonOptions& common_options() const { return common_; }
  const SizeTieredOptions& size_tiered_options() const { return size_tiered_; }
  const TimeWindowOptions& window_options() const { return window_; }
  // Start (seconds) of the newest window any background call has seen.
  std::optional<int64_t> highest_window_seen_seconds() const { return highest_window_seen_; }

 private:
  struct Choice {
    std::vector<uint64_t> generations;
    std::string reason;
    bool tombstone_compaction = false;
  };

  // Cassandra's newestBucket over the non-expired candidates.
  Choice ChooseFromWindows(const std::vector<const CompactionCandidate*>& candidates);
  // Sets the window split of a task's outputs.
  void ShapeOutput(CompactionTask* task) const;

  CompactionCommonOptions common_;
  SizeTieredOptions size_tiered_;
  TimeWindowOptions window_;
  std::optional<int64_t> highest_window_seen_;
  std::optional<int64_t> last_expired_check_micros_;
};

// Validates `options` (the table's compaction map; "class" is ignored)
// with Cassandra's messages and builds the strategy.
Result<std::unique_ptr<CompactionStrategy>> NewTimeWindowCompactionStrategy(
    const std::map<std::string, std::string>& options);

// "2024-01-15T00:00Z": a window start (seconds since the epoch, UTC) as
// task reasons and reports print it.
std::string FormatWindowStart(int64_t seconds);

}  // namespace cassette
