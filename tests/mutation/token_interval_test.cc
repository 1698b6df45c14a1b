// TokenInterval::Of, the one place a token range's exclusive ends become
// the closed interval the sources scan, at the ends of int64.
#include "engine/mutation/token_interval.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(TokenIntervalTest, ExclusiveEndsStepInward) {
  EXPECT_EQ(TokenInterval::Of(1, true, 9, true), (TokenInterval{1, 9}));
  EXPECT_EQ(TokenInterval::Of(1, false, 9, false), (TokenInterval{2, 8}));
  EXPECT_EQ(TokenInterval::Of(5, true, 5, true), (TokenInterval{5, 5}));
  EXPECT_FALSE(TokenInterval::Of(5, false, 5, true).has_value());
  EXPECT_FALSE(TokenInterval::Of(5, true, 5, false).has_value());
  EXPECT_FALSE(TokenInterval::Of(9, true, 1, true).has_value());
}

TEST(TokenIntervalTest, TheEndsOfTheRingNeverOverflow) {
  EXPECT_EQ(TokenInterval::Of(INT64_MIN, true, INT64_MAX, true), TokenInterval::All());
  EXPECT_FALSE(TokenInterval::Of(INT64_MAX, false, INT64_MAX, true).has_value());
  EXPECT_FALSE(TokenInterval::Of(INT64_MIN, true, INT64_MIN, false).has_value());
  EXPECT_EQ(TokenInterval::Of(INT64_MAX - 1, false, INT64_MAX, true),
            (TokenInterval{INT64_MAX, INT64_MAX}));
  EXPECT_TRUE(TokenInterval::All().Contains(INT64_MIN));
  EXPECT_TRUE(TokenInterval::All().Contains(INT64_MAX));
  EXPECT_FALSE((TokenInterval{2, 8}).Contains(9));
}

}  // namespace
}  // namespace cassette
