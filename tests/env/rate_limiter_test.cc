#include "engine/env/rate_limiter.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(RateLimiterTest, ManualClockNeverWaits) {
  // The simulator replays days of compaction under a manual clock: a limit
  // must not turn that into real sleeping.
  auto clock = std::make_shared<ManualClock>(1'000'000);
  auto limiter = NewRateLimiter(clock, 1024);
  for (int i = 0; i < 100; ++i) limiter->Request(1 << 20);
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
  EXPECT_EQ(limiter->bytes_per_second(), 1024u);
}

TEST(RateLimiterTest, ZeroMeansUnlimited) {
  auto limiter = NewRateLimiter(SystemClock(), 0);
  for (int i = 0; i < 100; ++i) limiter->Request(1ull << 30);
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
}

TEST(RateLimiterTest, WaitsOnlyOnceTheBudgetIsSpent) {
  // The bucket starts full (one second of budget): requests within it pass
  // at once, the next one has to wait for the refill.
  auto limiter = NewRateLimiter(SystemClock(), 64 << 20);
  limiter->Request(16 << 20);
  limiter->Request(16 << 20);
  EXPECT_EQ(limiter->total_wait_nanos(), 0);
  limiter->Request(48 << 20);
  EXPECT_GT(limiter->total_wait_nanos(), 0);
}

TEST(RateLimiterTest, LiftingTheLimitStopsWaiting) {
  auto limiter = NewRateLimiter(SystemClock(), 1 << 20);
  limiter->Request(1 << 20);
  limiter->SetBytesPerSecond(0);
  const int64_t waited = limiter->total_wait_nanos();
  limiter->Request(1ull << 30);
  EXPECT_EQ(limiter->total_wait_nanos(), waited);
}

}  // namespace
}  // namespace cassette
