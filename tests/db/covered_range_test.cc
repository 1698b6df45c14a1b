// CoveredRange: what a scan of a partially released compaction input still
// covers (the tokens above where the released part ended).
#include <gtest/gtest.h>

#include "engine/db/view_read_source.h"

namespace cassette {
namespace {

TEST(CoveredRangeTest, TheReleasedTokensAreLeftOut) {
  const TokenInterval all = TokenInterval::All();
  EXPECT_EQ(CoveredRange(all, std::nullopt), all);
  EXPECT_EQ(CoveredRange(all, 10), (TokenInterval{11, INT64_MAX}));
  const TokenInterval part{1, 100};
  EXPECT_EQ(CoveredRange(part, -5), part);  // released below the interval
  EXPECT_EQ(CoveredRange(part, 50), (TokenInterval{51, 100}));
  EXPECT_EQ(CoveredRange(part, 99), (TokenInterval{100, 100}));
  EXPECT_FALSE(CoveredRange(part, 100).has_value());
  EXPECT_FALSE(CoveredRange(all, INT64_MAX).has_value());
}

}  // namespace
}  // namespace cassette
