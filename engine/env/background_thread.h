// BackgroundThread: calls a function every `interval_ms` of real time on a
// thread of its own, and at once when notified. The commit log uses it for
// the periodic fsync when running on the system clock; with a manual clock
// nothing should run on real time, so callers do not create one then.
//
// How one interval is waited out is an IntervalWaiter: the default one
// waits on the steady clock; tests inject one that ends an interval only
// when the test says, so they drive the periodic runs by hand.
//
// Thread-safe: Notify and Stop may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace cassette {

class IntervalWaiter {
 public:
  virtual ~IntervalWaiter() = default;
  // Called by the thread with `lock` held on the mutex guarding the state
  // `woken` reads; returns with it held. Returns once `woken()` is true
  // (Notify and Stop change that state and then notify `cv`) or once
  // `interval_ms` has passed, whichever comes first.
  virtual void Wait(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                    int64_t interval_ms, const std::function<bool()>& woken) = 0;
};

// Waits on the steady clock (cv.wait_for), so a wall-clock jump neither
// stalls nor floods the callback.
std::unique_ptr<IntervalWaiter> NewSteadyIntervalWaiter();

class BackgroundThread {
 public:
  // Starts the thread. REQUIRES: interval_ms > 0. `waiter` null: the
  // steady-clock waiter.
  BackgroundThread(int64_t interval_ms, std::function<void()> callback,
                   std::unique_ptr<IntervalWaiter> waiter = nullptr);
  // Stop().
  ~BackgroundThread();

  BackgroundThread(const BackgroundThread&) = delete;
  BackgroundThread& operator=(const BackgroundThread&) = delete;

  // Runs the callback as soon as possible instead of at the next interval.
  // Notifications arriving while the callback runs coalesce into one more run.
  void Notify();
  // Waits for a callback in progress to finish and joins the thread; the
  // callback is not called again. Idempotent. REQUIRES: not called from the
  // callback itself.
  void Stop();

 private:
  void Loop();

  const int64_t interval_ms_;
  const std::function<void()> callback_;
  const std::unique_ptr<IntervalWaiter> waiter_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;  // GUARDED_BY(mu_)
  bool stop_ = false;      // GUARDED_BY(mu_)
  std::mutex join_mu_;     // serializes concurrent Stop calls
  std::thread thread_;     // last: started once the members above exist
};

}  // namespace cassette
