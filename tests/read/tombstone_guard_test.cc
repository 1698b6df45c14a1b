#include "engine/read/tombstone_guard.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(TombstoneGuardTest, WarnsPastTheWarnThreshold) {
  TombstoneGuard guard(/*warn=*/3, /*failure=*/10);
  EXPECT_TRUE(guard.Add(3));
  EXPECT_FALSE(guard.ShouldWarn());
  EXPECT_TRUE(guard.Add(1));
  EXPECT_TRUE(guard.ShouldWarn());
  EXPECT_EQ(guard.Warning(7, "SELECT * FROM ks.t", -5),
            "Read 7 live rows and 4 tombstone cells for query SELECT * FROM ks.t; token -5 "
            "(see tombstone_warn_threshold)");
}

TEST(TombstoneGuardTest, WarningCutsTheQueryAt512Characters) {
  TombstoneGuard guard(0, -1);
  EXPECT_TRUE(guard.Add(1));
  std::string query(600, 'q');
  std::string w = guard.Warning(0, query, 1);
  EXPECT_NE(w.find(std::string(512, 'q') + "; token 1"), std::string::npos);
  EXPECT_EQ(w.find(std::string(513, 'q')), std::string::npos);
}

TEST(TombstoneGuardTest, FailsPastTheFailureThreshold) {
  TombstoneGuard guard(1, 5);
  EXPECT_TRUE(guard.Add(5));
  EXPECT_FALSE(guard.Add(3));
  Status s = guard.Failure("SELECT * FROM ks.t WHERE pk = 1", 99, "(1), 7");
  EXPECT_EQ(s.code(), Status::Code::kReadFailure);
  EXPECT_EQ(s.message(),
            "Scanned over 6 tombstones during query 'SELECT * FROM ks.t WHERE pk = 1' (last "
            "scanned row token was 99 and partion key was ((1), 7)); query aborted");
}

TEST(TombstoneGuardTest, NegativeThresholdsAreDisabled) {
  TombstoneGuard guard(-1, -1);
  EXPECT_TRUE(guard.Add(1000000));
  EXPECT_FALSE(guard.ShouldWarn());
}

}  // namespace
}  // namespace cassette
