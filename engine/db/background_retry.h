// BackgroundRetry: one kind of background work of one table (its flush,
// or its compactions) once it has failed: how many times in a row, the
// last error, and when to try again. The delay doubles with every failure
// in a row, from Options::background_retry_initial_ms up to
// background_retry_max_ms, on the database's clock, so a manual clock
// makes the retries deterministic (docs/RELIABILITY.md, "Background
// failures").
//
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "cassette/status.h"

namespace cassette {

class BackgroundRetry {
 public:
  struct Failure {
    int in_a_row;          // this one included
    int64_t delay_micros;  // until the retry is due
    bool first;            // the work was not failing before
  };
  // A failure at `now_micros`; `counted` adds it to total_failures (a
  // failure of work a caller asked for only renews the wait).
  Failure Fail(const Status& error, int64_t now_micros, int64_t initial_micros, int64_t max_micros,
               bool counted);
  // A success: returns how many failures in a row it ends (0: none).
  int Succeed();

  // Cheap: for the write path.
  bool failing() const { return failing_.load(std::memory_order_acquire); }
  // The last failure's error, and when the retry is due (OK and 0 when
  // not failing).
  Status error() const;
  int64_t due_micros() const;
  int in_a_row() const;
  // True once per failure, when `now_micros` has reached the due time:
  // the caller then starts the retry.
  bool ClaimDueRetry(int64_t now_micros);
  // Gives a claimed retry back (it could not start: the work was already
  // queued or running), so that the next check claims it again.
  void Unclaim();
  // Counted failures since the database opened.
  int64_t total_failures() const { return total_.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex mu_;
  std::atomic<bool> failing_{false};
  int in_a_row_ = 0;        // GUARDED_BY(mu_)
  int64_t due_micros_ = 0;  // GUARDED_BY(mu_)
  bool claimed_ = false;    // GUARDED_BY(mu_)
  Status error_;            // GUARDED_BY(mu_)
  std::atomic<int64_t> total_{0};
};

// A table's background work as the database watches it.
struct TableBackgroundState {
  BackgroundRetry flush;
  BackgroundRetry compaction;
  // A write stall was logged since the last flush (one line per stall
  // episode, not one per stalled write).
  std::atomic<bool> stall_logged{false};
};

}  // namespace cassette
