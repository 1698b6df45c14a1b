// Options::Validate reports every problem at once and never clamps.
#include <gtest/gtest.h>

#include "cassette/options.h"

namespace cassette {
namespace {

TEST(OptionsTest, DefaultsAreValid) { EXPECT_TRUE(Options{}.Validate().ok()); }

TEST(OptionsTest, CompactionThreadNiceIsANiceness) {
  Options o;
  for (int nice : {0, 10, 19}) {
    o.compaction_thread_nice = nice;
    EXPECT_TRUE(o.Validate().ok()) << nice;
  }
  for (int nice : {-1, 20}) {
    o.compaction_thread_nice = nice;
    Status s = o.Validate();
    EXPECT_TRUE(s.IsInvalidArgument()) << nice;
    EXPECT_NE(s.message().find("compaction_thread_nice must be in 0..19"), std::string::npos)
        << s.ToString();
  }
}

TEST(OptionsTest, EveryProblemIsReportedTogether) {
  Options o;
  o.compaction_threads = -1;
  o.compaction_thread_nice = 20;
  o.memtable_flush_threshold = 1;
  Status s = o.Validate();
  ASSERT_TRUE(s.IsInvalidArgument());
  for (const char* want : {"compaction_threads must be >= 0", "compaction_thread_nice must be",
                           "memtable_flush_threshold must be >= 4096"}) {
    EXPECT_NE(s.message().find(want), std::string::npos) << want << ": " << s.ToString();
  }
}

}  // namespace
}  // namespace cassette
