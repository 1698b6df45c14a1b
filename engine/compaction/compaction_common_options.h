// The options every strategy accepts (Cassandra's AbstractCompactionStrategy
// and CompactionParams): thresholds, the single-SSTable tombstone
// compaction knobs, and the switches that only change behaviour elsewhere
// (enabled, log_all, only_purge_repaired_tombstones, provide_overlapping_tombstones).
// Parsed with Cassandra's ConfigurationException messages.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/compaction/compaction_strategy.h"

namespace cassette {

struct CompactionCommonOptions {
  int32_t min_threshold = 4;
  int32_t max_threshold = 32;
  double tombstone_threshold = 0.2;
  int64_t tombstone_compaction_interval_seconds = 86400;
  bool unchecked_tombstone_compaction = false;
  // False unless one of the three tombstone options above was given with a
  // value other than "false" (TWCS only turns tombstone compactions on
  // then; the other strategies always have them on).
  bool tombstone_options_given = false;
  bool enabled = true;
  bool only_purge_repaired_tombstones = false;
  bool log_all = false;
};

// Parses the common options out of `options` and erases the keys it
// consumed from `*unconsumed` (which the strategy's own parser then
// inspects; whatever is left over is an unknown option). "class" counts as
// consumed. Checked in Cassandra's order: provide_overlapping_tombstones,
// then AbstractCompactionStrategy.validateOptions (tombstone_threshold,
// tombstone_compaction_interval, unchecked_tombstone_compaction, log_all,
// enabled), then min_threshold/max_threshold (which Cassandra checks after
// the strategy's own options; only the first of several errors differs).
Result<CompactionCommonOptions> ParseCompactionCommonOptions(
    const std::map<std::string, std::string>& options, std::set<std::string>* unconsumed);

// ConfigurationException naming every key left in `unconsumed` (sorted:
// "Properties specified [a, b] are not understood by <strategy>"), or OK
// when it is empty. `strategy` is the class name.
Status RejectUnknownCompactionOptions(const std::set<std::string>& unconsumed,
                                      std::string_view strategy);

// Cassandra's worthDroppingTombstones for one SSTable (docs/COMPACTION.md): the interval
// since its creation has passed, its estimated droppable ratio at
// snapshot.gc_before exceeds tombstone_threshold, and (unless unchecked)
// the overlapping SSTables of the snapshot do not keep the tombstones alive.
bool WorthDroppingTombstones(const CompactionCandidate& sstable, const CompactionSnapshot& snapshot,
                             const CompactionCommonOptions& options);

// True when both files hold partitions and their [first_key, last_key]
// ranges intersect.
bool SSTablesOverlap(const CompactionCandidate& a, const CompactionCandidate& b);

// The fully expired SSTables of the snapshot (Cassandra's
// getFullyExpiredSSTables, docs/COMPACTION.md), considering only non-compacting files
// among `candidates` (generations); with `ignore_overlaps`
// (unsafe_aggressive_sstable_expiration) only the deletion-time condition
// applies.
std::vector<uint64_t> FullyExpiredSSTables(const CompactionSnapshot& snapshot,
                                           const std::vector<uint64_t>& candidates,
                                           bool ignore_overlaps);

// For tests only (tests/db/expiry_drop_pairing_test.cc): while false,
// FullyExpiredSSTables finds none, so every strategy rewrites fully expired
// files through CompactionIterator (which purges the same data) instead of
// dropping them whole, and the test can pair the two. True unless a test
// sets it; production code never does.
void SetWholeSSTableExpiryForTesting(bool enabled);

// A task over `generations` as Cassandra's CompactionTask runs it: the
// fully expired files among them (FullyExpiredSSTables with the same
// ignore_overlaps, overlaps taken outside the task) go to `expired`, to be
// dropped whole; the others, in the given order, are `inputs`.
CompactionTask TaskDroppingExpired(const CompactionSnapshot& snapshot,
                                   const std::vector<uint64_t>& generations, bool ignore_overlaps);

}  // namespace cassette
