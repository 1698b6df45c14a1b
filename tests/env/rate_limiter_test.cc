// The token bucket with time driven by hand: the limiter reads a stepping
// clock and waits through an injected sleeper that moves that clock by
// exactly the time asked for, so every wait is a number the test can
// predict from the rate (no real sleeping, no wall-clock assertions).
#include "engine/env/rate_limiter.h"

#include <atomic>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

namespace cassette {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr int64_t kSecond = 1'000'000'000;

// A clock that moves only when told to. Not a ManualClock on purpose: the
// limiter admits everything on a ManualClock, and here its waits are what
// is being tested.
class SteppingClock final : public Clock {
 public:
  int64_t WallMicros() const override { return nanos_.load() / 1000; }
  int64_t MonotonicNanos() const override { return nanos_.load(); }
  void Advance(int64_t nanos) { nanos_.fetch_add(nanos); }

 private:
  std::atomic<int64_t> nanos_{1'000 * kSecond};
};

struct Driven {
  std::shared_ptr<SteppingClock> clock = std::make_shared<SteppingClock>();
  std::vector<int64_t> sleeps;  // every wait the limiter asked for, in order
  std::unique_ptr<RateLimiter> Limiter(uint64_t bytes_per_second) {
    return NewRateLimiter(clock, bytes_per_second, [this](int64_t nanos) {
      sleeps.push_back(nanos);
      clock->Advance(nanos);
    });
  }
};

TEST(RateLimiterTest, ManualClockNeverWaits) {
  // The simulator replays days of compaction under a manual clock: a limit
  // must not turn that into real sleeping.
  auto clock = std::make_shared<ManualClock>(1'000'000);
  auto limiter = NewRateLimiter(clock, 1024, [](int64_t) { ADD_FAILURE() << "slept"; });
  for (int i = 0; i < 100; ++i) limiter->Request(1 << 20);
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
  EXPECT_EQ(limiter->bytes_per_second(), 1024u);
}

TEST(RateLimiterTest, ZeroMeansUnlimited) {
  Driven d;
  auto limiter = d.Limiter(0);
  for (int i = 0; i < 100; ++i) limiter->Request(1ull << 30);
  EXPECT_TRUE(d.sleeps.empty());
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
}

TEST(RateLimiterTest, WaitsOnlyOnceTheBudgetIsSpent) {
  // The bucket starts full (one second of budget): requests within it pass
  // at once; the next one waits for exactly the missing bytes' refill
  // (16 MiB at 64 MiB/s: a quarter second, plus the nanosecond the
  // limiter adds so the refill is never a rounding short).
  Driven d;
  auto limiter = d.Limiter(64 * kMiB);
  limiter->Request(16 * kMiB);
  limiter->Request(16 * kMiB);
  EXPECT_TRUE(d.sleeps.empty());
  limiter->Request(48 * kMiB);
  EXPECT_EQ(d.sleeps, std::vector<int64_t>{kSecond / 4 + 1});
  EXPECT_EQ(limiter->total_wait_nanos(), kSecond / 4 + 1);
}

TEST(RateLimiterTest, AnOversizedRequestPassesAndLeavesADebt) {
  // A request larger than the bucket waits only for a full bucket, then
  // drives it negative: the next request waits out the debt as well.
  Driven d;
  auto limiter = d.Limiter(kMiB);
  limiter->Request(3 * kMiB);
  EXPECT_TRUE(d.sleeps.empty());
  limiter->Request(kMiB);
  EXPECT_EQ(d.sleeps, std::vector<int64_t>{3 * kSecond + 1});
}

TEST(RateLimiterTest, IdleTimeRefillsAtMostOneSecondOfBudget) {
  Driven d;
  auto limiter = d.Limiter(kMiB);
  limiter->Request(kMiB);  // the bucket is empty
  d.clock->Advance(10 * kSecond);
  limiter->Request(kMiB);  // ten idle seconds refilled it: no wait...
  EXPECT_TRUE(d.sleeps.empty());
  limiter->Request(kMiB);  // ...but only to one second's worth
  EXPECT_EQ(d.sleeps, std::vector<int64_t>{kSecond + 1});
}

TEST(RateLimiterTest, LiftingTheLimitStopsWaiting) {
  Driven d;
  auto limiter = d.Limiter(kMiB);
  limiter->Request(kMiB);
  limiter->SetBytesPerSecond(0);
  limiter->Request(1ull << 30);
  EXPECT_TRUE(d.sleeps.empty());
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
}

TEST(RateLimiterTest, LiftingTheLimitDuringAWaitEndsIt) {
  // The limit is lifted (ALTER of compaction_throughput) while a request
  // waits: it goes through after that one wait, not after the refill.
  auto clock = std::make_shared<SteppingClock>();
  std::unique_ptr<RateLimiter> limiter;
  int sleeps = 0;
  limiter = NewRateLimiter(clock, kMiB, [&](int64_t nanos) {
    ++sleeps;
    clock->Advance(nanos / 10);  // woken early, a tenth of the way in
    limiter->SetBytesPerSecond(0);
  });
  limiter->Request(kMiB);
  limiter->Request(kMiB);
  EXPECT_EQ(sleeps, 1);
  EXPECT_EQ(limiter->total_wait_nanos(), (kSecond + 1) / 10);
  EXPECT_EQ(limiter->bytes_per_second(), 0u);
}

}  // namespace
}  // namespace cassette
