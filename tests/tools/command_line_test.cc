// `cassette shell` and `cassette stats` flags.
#include "tools/command_line.h"

#include <gtest/gtest.h>

namespace cassette::tools {
namespace {

TEST(CommandLineTest, ShellDefaults) {
  Result<ShellSettings> settings = ParseShellArguments({});
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->data_dir, "./data");
  EXPECT_FALSE(settings->manual_clock_micros.has_value());
  EXPECT_EQ(settings->format, OutputFormat::kTable);
  EXPECT_EQ(settings->commitlog_sync, CommitLogSync::kPeriodic);
  EXPECT_FALSE(settings->execute || settings->file || settings->fail_fast);
}

TEST(CommandLineTest, ShellFlags) {
  Result<ShellSettings> settings =
      ParseShellArguments({"--data", "/d", "--clock", "manual:2024-01-15T00:00:00Z",
                           "--format=json", "--commitlog-sync", "batch", "--commit-failure-policy",
                           "ignore", "-f", "x.cql", "--fail-fast"});
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  EXPECT_EQ(settings->data_dir, "/d");
  EXPECT_EQ(settings->manual_clock_micros, std::optional<int64_t>(1705276800000000LL));
  EXPECT_EQ(settings->format, OutputFormat::kJson);
  EXPECT_EQ(settings->commitlog_sync, CommitLogSync::kBatch);
  EXPECT_EQ(settings->commit_failure_policy, CommitFailurePolicy::kIgnore);
  EXPECT_EQ(settings->file, std::optional<std::string>("x.cql"));
  EXPECT_TRUE(settings->fail_fast);

  Result<ShellSettings> system = ParseShellArguments({"--clock", "system", "-e", "SELECT 1"});
  ASSERT_TRUE(system.ok());
  EXPECT_FALSE(system->manual_clock_micros.has_value());
  EXPECT_EQ(system->execute, std::optional<std::string>("SELECT 1"));
}

TEST(CommandLineTest, ShellUsageErrors) {
  EXPECT_EQ(ParseShellArguments({"--format", "xml"}).status().message(),
            "--format must be table or json, not 'xml'");
  EXPECT_EQ(ParseShellArguments({"--clock", "manual:yesterday"}).status().message(),
            "'yesterday' is not an ISO-8601 time (e.g. 2024-01-15T00:00:00Z)");
  EXPECT_EQ(ParseShellArguments({"--clock", "wall"}).status().message(),
            "--clock must be system or manual:<ISO-8601>, not 'wall'");
  EXPECT_EQ(ParseShellArguments({"--data"}).status().message(), "--data needs a value");
  EXPECT_EQ(ParseShellArguments({"-e", "a", "-f", "b"}).status().message(),
            "-e and -f cannot be used together");
  EXPECT_EQ(ParseShellArguments({"--commitlog-sync", "never"}).status().message(),
            "--commitlog-sync must be periodic, group or batch, not 'never'");
  EXPECT_EQ(ParseShellArguments({"--commit-failure-policy", "panic"}).status().message(),
            "--commit-failure-policy must be stop, ignore or die, not 'panic'");
  auto die = ParseShellArguments({"--commit-failure-policy", "die"});
  ASSERT_TRUE(die.ok()) << die.status().ToString();
  EXPECT_EQ(ParseShellArguments({"extra"}).status().message(),
            "unknown argument to cassette shell: 'extra'");
}

TEST(CommandLineTest, Stats) {
  Result<StatsSettings> settings =
      ParseStatsArguments({"--data", "/d", "--format", "json", "iot.t"});
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->data_dir, "/d");
  EXPECT_EQ(settings->format, OutputFormat::kJson);
  EXPECT_EQ(settings->table, "iot.t");
  EXPECT_FALSE(ParseStatsArguments({"a.b", "c.d"}).ok());
  EXPECT_FALSE(settings->manual_clock_micros.has_value());
  // The shell's --clock syntax: data written on a manual clock is judged
  // at that time.
  Result<StatsSettings> manual = ParseStatsArguments({"--clock", "manual:2024-01-15T00:00:00Z"});
  ASSERT_TRUE(manual.ok()) << manual.status().ToString();
  EXPECT_EQ(manual->manual_clock_micros, 1705276800000000);
  EXPECT_TRUE(ParseStatsArguments({"--clock", "system"}).ok());
  EXPECT_FALSE(ParseStatsArguments({"--clock", "yesterday"}).ok());
}

}  // namespace
}  // namespace cassette::tools
