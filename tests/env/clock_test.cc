#include <limits>

#include <gtest/gtest.h>

#include "cassette/clock.h"

namespace cassette {
namespace {

constexpr int64_t kJan2024 = 1704067200LL * 1000000;  // 2024-01-01T00:00:00Z in micros

TEST(ManualClockTest, MovesOnlyWhenTold) {
  ManualClock clock(kJan2024);
  EXPECT_EQ(clock.WallMicros(), kJan2024);
  EXPECT_EQ(clock.MonotonicNanos(), kJan2024 * 1000);
  ASSERT_TRUE(clock.Advance(86400LL * 1000000).ok());
  EXPECT_EQ(clock.WallMicros(), kJan2024 + 86400LL * 1000000);
  ASSERT_TRUE(clock.Set(kJan2024 + 86400LL * 1000000).ok());  // same time is fine
  ASSERT_TRUE(clock.Advance(0).ok());
  ASSERT_TRUE(clock.Set(kJan2024 * 2).ok());
  EXPECT_EQ(clock.WallMicros(), kJan2024 * 2);
}

TEST(ManualClockTest, RefusesToGoBackwards) {
  ManualClock clock(kJan2024);
  Status s = clock.Set(kJan2024 - 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("backwards"), std::string::npos);
  EXPECT_TRUE(clock.Advance(-1).IsInvalidArgument());
  EXPECT_EQ(clock.WallMicros(), kJan2024);
}

TEST(ManualClockTest, RefusesToOverflow) {
  ManualClock clock(std::numeric_limits<int64_t>::max() - 5);
  EXPECT_TRUE(clock.Advance(10).IsInvalidArgument());
  EXPECT_TRUE(clock.Advance(5).ok());
  EXPECT_EQ(clock.WallMicros(), std::numeric_limits<int64_t>::max());
}

TEST(SystemClockTest, IsASingletonWithPlausibleTime) {
  auto clock = SystemClock();
  EXPECT_EQ(clock.get(), SystemClock().get());
  EXPECT_GT(clock->WallMicros(), kJan2024);
  int64_t a = clock->MonotonicNanos();
  int64_t b = clock->MonotonicNanos();
  EXPECT_GE(b, a);
}

}  // namespace
}  // namespace cassette
