// BackgroundThread with its intervals driven by hand: an injected
// IntervalWaiter ends an interval only when the test says, so every run of
// the callback is one the test caused, and nothing sleeps or depends on
// how fast the machine is.
#include "engine/env/background_thread.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include <gtest/gtest.h>

namespace cassette {
namespace {

class Counter {
 public:
  void Hit() {
    std::lock_guard<std::mutex> l(mu_);
    ++n_;
    cv_.notify_all();
  }
  void WaitFor(int n) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return n_ >= n; });
  }
  int value() {
    std::lock_guard<std::mutex> l(mu_);
    return n_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_ = 0;
};

// The test's side of a ManualIntervalWaiter: how many waits the thread has
// begun, and Elapse() to end the one in progress as if its interval passed.
class ManualIntervals {
 public:
  // Blocks until the thread has begun its n-th wait (1-based).
  void WaitForWaits(int n) {
    std::unique_lock<std::mutex> l(mu_);
    changed_.wait(l, [&] { return waits_ >= n; });
  }
  int64_t last_interval_ms() {
    std::lock_guard<std::mutex> l(mu_);
    return last_interval_ms_;
  }
  // Ends the current (or next) wait. REQUIRES: WaitForWaits(1) returned.
  void Elapse() {
    std::mutex* thread_mu;
    std::condition_variable* thread_cv;
    {
      std::lock_guard<std::mutex> l(mu_);
      thread_mu = thread_mu_;
      thread_cv = thread_cv_;
    }
    {
      std::lock_guard<std::mutex> l(*thread_mu);
      elapsed_pending_ = true;
    }
    thread_cv->notify_all();
  }

 private:
  friend class ManualIntervalWaiter;

  std::mutex mu_;  // lock order: the thread's mutex, then this one
  std::condition_variable changed_;
  int waits_ = 0;                                 // GUARDED_BY(mu_)
  int64_t last_interval_ms_ = 0;                  // GUARDED_BY(mu_)
  std::mutex* thread_mu_ = nullptr;               // GUARDED_BY(mu_)
  std::condition_variable* thread_cv_ = nullptr;  // GUARDED_BY(mu_)
  bool elapsed_pending_ = false;                  // GUARDED_BY(*thread_mu_)
};

class ManualIntervalWaiter final : public IntervalWaiter {
 public:
  explicit ManualIntervalWaiter(std::shared_ptr<ManualIntervals> intervals)
      : intervals_(std::move(intervals)) {}

  void Wait(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, int64_t interval_ms,
            const std::function<bool()>& woken) override {
    ManualIntervals& m = *intervals_;
    {
      std::lock_guard<std::mutex> l(m.mu_);
      m.thread_mu_ = lock.mutex();
      m.thread_cv_ = &cv;
      m.last_interval_ms_ = interval_ms;
      ++m.waits_;
      m.changed_.notify_all();
    }
    cv.wait(lock, [&] { return woken() || m.elapsed_pending_; });
    m.elapsed_pending_ = false;
  }

 private:
  const std::shared_ptr<ManualIntervals> intervals_;
};

constexpr int64_t kHour = 3600 * 1000;

struct Driven {
  std::shared_ptr<ManualIntervals> intervals = std::make_shared<ManualIntervals>();
  std::unique_ptr<IntervalWaiter> Waiter() {
    return std::make_unique<ManualIntervalWaiter>(intervals);
  }
};

TEST(BackgroundThreadTest, RunsOncePerElapsedInterval) {
  Driven d;
  Counter c;
  BackgroundThread t(
      250, [&] { c.Hit(); }, d.Waiter());
  d.intervals->WaitForWaits(1);
  EXPECT_EQ(d.intervals->last_interval_ms(), 250);
  EXPECT_EQ(c.value(), 0);  // no interval has passed yet
  for (int run = 1; run <= 3; ++run) {
    d.intervals->Elapse();
    // The thread ran the callback once, then began the next wait.
    d.intervals->WaitForWaits(run + 1);
    EXPECT_EQ(c.value(), run);
  }
  t.Stop();
  EXPECT_EQ(c.value(), 3);
}

TEST(BackgroundThreadTest, NotificationsDuringARunCoalesceIntoOneMore) {
  Driven d;
  Counter c;
  std::mutex gate_mu;
  std::condition_variable gate_cv;
  bool gate_open = false;
  BackgroundThread t(
      kHour,
      [&] {
        c.Hit();
        std::unique_lock<std::mutex> l(gate_mu);
        gate_cv.wait(l, [&] { return gate_open; });
      },
      d.Waiter());
  t.Notify();
  c.WaitFor(1);  // the first run is in the callback, held at the gate
  t.Notify();
  t.Notify();
  t.Notify();
  {
    std::lock_guard<std::mutex> l(gate_mu);
    gate_open = true;
  }
  gate_cv.notify_all();
  // Waits: the first (ended by the Notify), the second (ended at once by
  // the coalesced notifications), the third (nothing left: it blocks).
  d.intervals->WaitForWaits(3);
  EXPECT_EQ(c.value(), 2);
  t.Stop();
  EXPECT_EQ(c.value(), 2);
}

TEST(BackgroundThreadTest, NotifyRunsTheCallbackBeforeTheInterval) {
  Counter c;
  BackgroundThread t(kHour, [&] { c.Hit(); });  // the steady-clock waiter
  t.Notify();
  c.WaitFor(1);
  t.Notify();
  c.WaitFor(2);
  t.Stop();
  EXPECT_EQ(c.value(), 2);
}

TEST(BackgroundThreadTest, StopIsPromptIdempotentAndFinal) {
  Counter c;
  BackgroundThread t(kHour, [&] { c.Hit(); });
  t.Stop();  // returns without waiting for the hour
  t.Stop();
  t.Notify();  // after Stop: ignored
  EXPECT_EQ(c.value(), 0);
}

TEST(BackgroundThreadTest, StopEndsADrivenWaitWithoutARun) {
  Driven d;
  Counter c;
  BackgroundThread t(
      kHour, [&] { c.Hit(); }, d.Waiter());
  d.intervals->WaitForWaits(1);
  t.Stop();
  EXPECT_EQ(c.value(), 0);
}

TEST(SteadyIntervalWaiterTest, ReturnsAtOnceWhenAlreadyWoken) {
  // The production waiter checks the wake-up state before waiting, so a
  // Notify that came while the callback ran is never lost to an interval.
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  NewSteadyIntervalWaiter()->Wait(lock, cv, kHour, [] { return true; });
  EXPECT_TRUE(lock.owns_lock());
}

}  // namespace
}  // namespace cassette
