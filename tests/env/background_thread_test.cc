// BackgroundThread runs on real time by design; these tests never sleep:
// they wait for the callback itself to signal.
#include "engine/env/background_thread.h"

#include <condition_variable>
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

constexpr int64_t kHour = 3600 * 1000;

TEST(BackgroundThreadTest, NotifyRunsTheCallbackBeforeTheInterval) {
  Counter c;
  BackgroundThread t(kHour, [&] { c.Hit(); });
  t.Notify();
  c.WaitFor(1);
  t.Notify();
  c.WaitFor(2);
  t.Stop();
  EXPECT_EQ(c.value(), 2);
}

TEST(BackgroundThreadTest, RunsPeriodically) {
  Counter c;
  BackgroundThread t(1, [&] { c.Hit(); });
  c.WaitFor(3);
}

TEST(BackgroundThreadTest, StopIsPromptIdempotentAndFinal) {
  Counter c;
  BackgroundThread t(kHour, [&] { c.Hit(); });
  t.Stop();  // returns without waiting for the hour
  t.Stop();
  t.Notify();  // after Stop: ignored
  EXPECT_EQ(c.value(), 0);
}

}  // namespace
}  // namespace cassette
