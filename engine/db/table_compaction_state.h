// TableCompactionState: what the database keeps per table for compaction:
// the strategy built from the table's compaction option (rebuilt when an
// ALTER changes it), the SSTables currently being compacted, and the
// counters and history `GetTableStats` reports.
//
// Thread-safe: every member is guarded by `mutex` except the atomics.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "cassette/db.h"
#include "engine/compaction/compaction_strategy.h"
#include "engine/db/table_history.h"

namespace cassette {

struct TableCompactionState {
  std::mutex mutex;
  std::unique_ptr<CompactionStrategy> strategy;  // GUARDED_BY(mutex)
  std::map<std::string, std::string> options;    // what `strategy` was built from
  std::set<uint64_t> compacting;                 // GUARDED_BY(mutex)
  // Compactions that did their work (not postponed), and the signal of
  // each one releasing its inputs (Database::Compact waits for those
  // running, and settles once none did work meanwhile).
  uint64_t finished = 0;  // GUARDED_BY(mutex)
  std::condition_variable compaction_finished;
  // Returns, `lock` (on `mutex`) held again, once no compaction holds any
  // of the table's SSTables.
  void WaitWhileCompacting(std::unique_lock<std::mutex>& lock) {
    compaction_finished.wait(lock, [this] { return compacting.empty(); });
  }
  std::deque<CompactionRecord> recent;  // GUARDED_BY(mutex), at most kMaxRecent
  int64_t last_timer_check_micros = 0;  // GUARDED_BY(mutex)
  // The table's HISTORY file, where `recent` and the write-stall totals
  // outlive the process. Set before the table is published, never
  // replaced (thread-safe itself); null only for a table under test.
  std::unique_ptr<TableHistory> history;
  static constexpr size_t kMaxRecent = TableHistory::kKeptCompactions;

  std::atomic<int64_t> completed{0};
  std::atomic<int64_t> running{0};
  std::atomic<int64_t> postponed_for_space{0};
  std::atomic<int64_t> expired_dropped{0};
  std::atomic<int64_t> tombstones_purged{0};
  std::atomic<int64_t> late_writes{0};
  // A background compaction job for the table is queued or running.
  std::atomic<bool> scheduled{false};
  // TWCS tables: the window width in timestamp units (0 otherwise), read
  // on the write path to count late writes without taking `mutex`.
  std::atomic<int64_t> twcs_window{0};
};

}  // namespace cassette
