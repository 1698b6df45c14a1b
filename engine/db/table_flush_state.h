// TableFlushState: the one flush a table may have at a time, as the
// scheduler and the writers see it: idle, queued on the scheduler, or
// running on some thread.
//
// Writers need it to respect the memtable budget: once the active and the
// flushing memtable together hold Options::memtable_flush_threshold bytes,
// a writer must not add more until a flush frees some. It waits while a
// flush runs; a flush that is only queued (a busy pool, or a
// ManualScheduler that runs nothing until asked) it takes over and runs
// itself, so a writer never waits for a job nobody is running. The
// scheduled job then finds the flush taken and does nothing.
//
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "engine/db/history_file.h"

namespace cassette {

class TableFlushState {
 public:
  // idle -> queued: true when the caller must schedule the flush job.
  bool TryQueue();
  // queued -> running, for the scheduled job: false when a writer took the
  // flush over (or ran it already).
  bool TryStartQueued();
  // idle or queued -> running, for a writer that needs memtable space:
  // false when a flush is already running elsewhere.
  bool TryStart();
  // running -> idle; wakes the writers waiting for it.
  void Finish();
  // Returns once no flush is running (at once when none is).
  void WaitWhileRunning();

  // Write calls that found the memtable budget spent (and waited for a
  // flush or ran one), since the table was opened.
  int64_t write_stalls() const;
  // A stall beginning at `wall_micros` (database clock), and the time a
  // stalled writer spent waiting once it may go on.
  void CountWriteStall(int64_t wall_micros);
  void AddStalledTime(int64_t micros);
  // The table's lifetime figures: those of earlier runs (restored from
  // the HISTORY file at open) plus this run's.
  void RestoreStallTotals(const WriteStallTotals& earlier);
  WriteStallTotals stall_totals() const;

 private:
  enum class State { kIdle, kQueued, kRunning };

  mutable std::mutex mu_;
  std::condition_variable finished_;
  State state_ = State::kIdle;  // guarded by mu_
  int64_t write_stalls_ = 0;    // guarded by mu_
  WriteStallTotals totals_;     // guarded by mu_
};

}  // namespace cassette
