// Default write timestamps follow Cassandra's coordinator: milliseconds x
// 1000, and one more than the last when the clock has not moved on.
#include "engine/db/timestamp_generator.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace cassette {
namespace {

TEST(TimestampGenerator, MillisecondsTimesAThousand) {
  TimestampGenerator gen;
  EXPECT_EQ(gen.Next(1'700'000'000'123'456), 1'700'000'000'123'000);
  // The same millisecond again: the next microsecond, then the next.
  EXPECT_EQ(gen.Next(1'700'000'000'123'999), 1'700'000'000'123'001);
  EXPECT_EQ(gen.Next(1'700'000'000'123'000), 1'700'000'000'123'002);
  // A later millisecond starts again at its multiple of 1000.
  EXPECT_EQ(gen.Next(1'700'000'000'124'001), 1'700'000'000'124'000);
  // A clock that goes back never takes the timestamps back.
  EXPECT_EQ(gen.Next(1'600'000'000'000'000), 1'700'000'000'124'001);
}

TEST(TimestampGenerator, NegativeClocksFloor) {
  TimestampGenerator gen;
  // Before 1970 (a manual clock may be set there): floored, not truncated.
  EXPECT_EQ(gen.Next(-1'500), -2'000);
  EXPECT_EQ(gen.Next(-1'000), -1'000);
  EXPECT_EQ(gen.Next(-1), -999);
}

TEST(TimestampGenerator, ExtremesDoNotOverflow) {
  TimestampGenerator low;
  EXPECT_EQ(low.Next(INT64_MIN), INT64_MIN + 1);  // INT64_MIN is kNoTimestamp
  TimestampGenerator high;
  EXPECT_EQ(high.Next(INT64_MAX), INT64_MAX - INT64_MAX % 1000);
}

}  // namespace
}  // namespace cassette
