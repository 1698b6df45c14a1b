// CompactionStrategy: decides which SSTables of one table to compact
// together, from the SSTables' sizes, levels and statistics alone. A
// strategy never touches files: the compaction manager (engine/db) gives it
// a snapshot of the table's live SSTables and runs the task it proposes.
// One file per strategy (stcs, lcs, twcs, ucs); Cassandra's rules and
// defaults are in docs/COMPACTION.md.
//
// Decision functions take `now` as a parameter (never a clock), so the same
// snapshot always yields the same task. A strategy may keep state between
// calls (TWCS's newest window seen, LCS's round-robin position); calls on
// one strategy are serialized by the manager. Thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/status.h"
#include "engine/sstable/sstable_stats.h"

namespace cassette {

// One live SSTable as a strategy sees it.
struct CompactionCandidate {
  uint64_t generation = 0;  // higher = written later
  uint64_t size_on_disk = 0;
  uint32_t level = 0;  // LCS level; 0 for other strategies' files
  // True while the file is an input of a running compaction: strategies
  // never pick it, but still see it (its key range blocks overlaps).
  bool compacting = false;
  // Must outlive the strategy call.
  const SSTableStats* stats = nullptr;
};

// What a strategy decides from: a consistent snapshot of one table.
struct CompactionSnapshot {
  std::vector<CompactionCandidate> sstables;  // by generation, oldest first
  // Min timestamp over the table's non-empty memtables (nullopt when all are
  // empty): data there may be shadowed by an expired SSTable's tombstones.
  std::optional<int64_t> memtable_min_timestamp;
  int64_t now_micros = 0;
  // now (seconds) - gc_grace_seconds: deletions with a local deletion time
  // strictly below it may be purged (docs/COMPACTION.md, the purge rule).
  int64_t gc_before = 0;
};

struct CompactionTask {
  // Generations merged and rewritten into new SSTables.
  std::vector<uint64_t> inputs;
  // Fully expired generations dropped whole, without being rewritten.
  std::vector<uint64_t> expired;
  // The level the outputs are recorded at (LCS and UCS).
  uint32_t output_level = 0;
  // Start a new output SSTable once the current one reaches this many
  // bytes on disk, at a partition boundary (0 = one output).
  uint64_t max_output_bytes = 0;
  // Split outputs at these tokens (ascending): a partition with token
  // >= boundary[i] goes to a later output than one below it (UCS shards).
  std::vector<int64_t> shard_boundaries;
  // When > 0, outputs are split at time-window boundaries of this width
  // (microseconds, epoch aligned): every row, static row and deletion goes
  // to the output of the window of its newest timestamp (TWCS).
  int64_t split_window_micros = 0;
  // A single-SSTable tombstone compaction (for statistics and logging).
  bool tombstone_compaction = false;
  // The inputs move to output_level as they are, without being rewritten
  // (LCS's single_sstable_uplevel: a lone file that overlaps nothing in
  // the next level).
  bool move_only = false;
  // Why the strategy chose this task, for logs and `cassette stats`, e.g.
  // "tiered bucket of 4", "window 2024-01-15T00:00Z: 3 sstables".
  std::string reason;

  bool empty() const { return inputs.empty() && expired.empty(); }
};

class CompactionStrategy {
 public:
  virtual ~CompactionStrategy() = default;

  // Cassandra's class name, e.g. "TimeWindowCompactionStrategy".
  virtual std::string_view name() const = 0;

  // The next background task, or nullopt when there is nothing to do.
  virtual std::optional<CompactionTask> NextBackgroundTask(const CompactionSnapshot& snapshot) = 0;

  // nodetool compact: every non-compacting SSTable in one task (a strategy
  // may split it, e.g. TWCS one task per window is not Cassandra's: it puts
  // all in one task, and so do we). Expired files are still dropped whole.
  virtual CompactionTask MajorTask(const CompactionSnapshot& snapshot) = 0;

  // How a flush of the memtable should split its output (TWCS windows, UCS
  // shards); only the output shape (max_output_bytes, shard_boundaries,
  // split_window_micros) is read.
  virtual CompactionTask FlushOutputShape() const { return {}; }

  // Notifications. The snapshot passed to the next NextBackgroundTask
  // already reflects them; strategies with per-file state use them.
  virtual void OnFlush(const CompactionCandidate& /*added*/) {}
  virtual void OnCompactionEnd(const CompactionTask& /*task*/,
                               const std::vector<CompactionCandidate>& /*outputs*/) {}

  // Seconds between calls on a timer when nothing else happens (TWCS's
  // expired_sstable_check_frequency_seconds); 0 = no timer needed.
  virtual int64_t timer_period_seconds() const { return 0; }
};

// Validates the table option `compaction = {'class': ..., ...}` and builds
// its strategy. ConfigurationException with Cassandra's message for an
// unknown class, an unknown option or a bad value. The class may be given
// as the short name or with Cassandra's package prefix
// (org.apache.cassandra.db.compaction.).
Result<std::unique_ptr<CompactionStrategy>> CreateCompactionStrategy(
    const std::map<std::string, std::string>& options);

}  // namespace cassette
