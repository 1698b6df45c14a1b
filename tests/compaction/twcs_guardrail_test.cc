#include "engine/compaction/twcs_guardrail.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

using Options = std::map<std::string, std::string>;

Options Twcs(const std::string& unit, const std::string& size) {
  return {{"class", "TimeWindowCompactionStrategy"},
          {"compaction_window_unit", unit},
          {"compaction_window_size", size}};
}

TEST(TwcsGuardrailTest, OnlyTwcsTablesAreChecked) {
  EXPECT_TRUE(TwcsGuardrailWarnings({{"class", "SizeTieredCompactionStrategy"}}, 0).empty());
  EXPECT_TRUE(TwcsGuardrailWarnings({}, 0).empty());
  // Invalid options are validation's business.
  EXPECT_TRUE(TwcsGuardrailWarnings(Twcs("WEEKS", "1"), 0).empty());
}

TEST(TwcsGuardrailTest, TtlWithinFiftyWindowsIsFine) {
  EXPECT_TRUE(TwcsGuardrailWarnings(Twcs("HOURS", "1"), 6 * 3600).empty());
  EXPECT_TRUE(TwcsGuardrailWarnings(Twcs("HOURS", "1"), 50 * 3600).empty());
  EXPECT_TRUE(TwcsGuardrailWarnings(
                  {{"class", "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy"}},
                  30 * 86400)
                  .empty());  // default: 1 day windows
}

TEST(TwcsGuardrailTest, TooManyWindowsSuggestsABiggerWindow) {
  std::vector<std::string> w = TwcsGuardrailWarnings(Twcs("HOURS", "1"), 30 * 86400);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("default_time_to_live of 30 days spans 720 windows of 1 hour "
                       "(compaction_window_unit = 'HOURS', compaction_window_size = 1); Cassandra "
                       "recommends at most 50: consider compaction_window_unit = 'DAYS', "
                       "compaction_window_size = 2 (15 windows of 2 days).",
                       0),
            0u)
      << w[0];

  w = TwcsGuardrailWarnings(Twcs("HOURS", "1"),
                            50 * 3600 + 1);  // 51 windows, counting the partial one
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("spans 51 windows"), std::string::npos) << w[0];

  w = TwcsGuardrailWarnings(Twcs("MINUTES", "1"), 2 * 86400);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("spans 2880 windows of 1 minute"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("consider compaction_window_unit = 'HOURS', compaction_window_size = 2 (24 "
                      "windows of 2 hours)"),
            std::string::npos)
      << w[0];

  // A year of TTL with daily windows.
  w = TwcsGuardrailWarnings(Twcs("DAYS", "1"), 365 * 86400);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("consider compaction_window_unit = 'DAYS', compaction_window_size = 18 (21 "
                      "windows of 18 days)"),
            std::string::npos)
      << w[0];
}

TEST(TwcsGuardrailTest, NoDefaultTtlIsWarned) {
  std::vector<std::string> w = TwcsGuardrailWarnings(Twcs("HOURS", "6"), 0);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("without a default_time_to_live"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("windows of 6 hours (compaction_window_unit = 'HOURS', "
                      "compaction_window_size = 6) suit a TTL between 5 days and 12.5 days"),
            std::string::npos)
      << w[0];
}

}  // namespace
}  // namespace cassette
