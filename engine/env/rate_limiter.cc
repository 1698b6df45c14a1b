#include "engine/env/rate_limiter.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace cassette {
namespace {

// A token bucket refilled from the clock's monotonic time, holding at most
// one second of budget so an idle period does not allow a burst larger
// than the configured rate. Requests larger than the bucket are admitted
// once the bucket is full and drive it negative (a debt the following
// requests wait out), so any request size makes progress.
class TokenBucketRateLimiter final : public RateLimiter {
 public:
  TokenBucketRateLimiter(std::shared_ptr<Clock> clock, uint64_t bytes_per_second,
                         RateLimiterSleeper sleeper)
      : clock_(std::move(clock)),
        sleeper_(std::move(sleeper)),
        simulated_(dynamic_cast<ManualClock*>(clock_.get()) != nullptr),
        rate_(bytes_per_second),
        last_refill_nanos_(clock_->MonotonicNanos()),
        available_(static_cast<double>(bytes_per_second)) {}

  void Request(uint64_t bytes) override {
    std::unique_lock lock(mutex_);
    if (rate_ == 0 || simulated_) return;
    Refill();
    const double capacity = static_cast<double>(rate_);
    // Wait until the bucket holds the request, or is full for an oversized one.
    const double needed = std::min(static_cast<double>(bytes), capacity);
    while (available_ < needed) {
      const double deficit = needed - available_;
      const int64_t wait_nanos =
          static_cast<int64_t>(deficit * 1e9 / static_cast<double>(rate_)) + 1;
      const int64_t start = clock_->MonotonicNanos();
      lock.unlock();
      sleeper_(wait_nanos);
      lock.lock();
      wait_nanos_ += clock_->MonotonicNanos() - start;
      if (rate_ == 0) return;  // the limit was lifted while we slept
      Refill();
    }
    available_ -= static_cast<double>(bytes);
  }

  void SetBytesPerSecond(uint64_t bytes_per_second) override {
    std::lock_guard lock(mutex_);
    Refill();
    rate_ = bytes_per_second;
    available_ = std::min(available_, static_cast<double>(rate_));
  }
  uint64_t bytes_per_second() const override {
    std::lock_guard lock(mutex_);
    return rate_;
  }
  int64_t total_wait_nanos() const override {
    std::lock_guard lock(mutex_);
    return wait_nanos_;
  }

 private:
  void Refill() {
    const int64_t now = clock_->MonotonicNanos();
    const double elapsed = static_cast<double>(now - last_refill_nanos_) / 1e9;
    last_refill_nanos_ = now;
    available_ =
        std::min(static_cast<double>(rate_), available_ + elapsed * static_cast<double>(rate_));
  }

  const std::shared_ptr<Clock> clock_;
  const RateLimiterSleeper sleeper_;
  const bool simulated_;
  mutable std::mutex mutex_;
  uint64_t rate_;
  int64_t last_refill_nanos_;
  double available_;
  int64_t wait_nanos_ = 0;
};

void SleepOnSteadyClock(int64_t nanos) {
  std::this_thread::sleep_for(std::chrono::nanoseconds(nanos));
}

}  // namespace

std::unique_ptr<RateLimiter> NewRateLimiter(std::shared_ptr<Clock> clock, uint64_t bytes_per_second,
                                            RateLimiterSleeper sleeper) {
  if (!sleeper) sleeper = SleepOnSteadyClock;
  return std::make_unique<TokenBucketRateLimiter>(std::move(clock), bytes_per_second,
                                                  std::move(sleeper));
}

}  // namespace cassette
