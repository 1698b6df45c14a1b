// The disk failure policy from the command line: `cassette shell
// --disk-failure-policy`, what the shell says about a damaged SSTable at
// open, and how `cassette stats` lists damaged SSTables.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/sstable/sstable_format.h"
#include "engine/sstable/sstable_reader.h"
#include "tests/support/file_contents.h"
#include "tools/command_line.h"
#include "tools/shell.h"
#include "tools/stats_command.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

TEST(DiskFailurePolicyToolsTest, ShellTakesThePolicy) {
  for (const auto& [text, policy] : {std::pair{"stop", DiskFailurePolicy::kStop},
                                     std::pair{"best_effort", DiskFailurePolicy::kBestEffort},
                                     std::pair{"ignore", DiskFailurePolicy::kIgnore}}) {
    Result<ShellSettings> settings = ParseShellArguments({"--disk-failure-policy", text});
    ASSERT_TRUE(settings.ok()) << settings.status().ToString();
    EXPECT_EQ(settings->disk_failure_policy, policy);
  }
  EXPECT_EQ(ParseShellArguments({}).value().disk_failure_policy, DiskFailurePolicy::kStop);
  EXPECT_EQ(ParseShellArguments({"--disk-failure-policy", "die"}).status().message(),
            "--disk-failure-policy must be stop, best_effort or ignore, not 'die'");
  EXPECT_NE(UsageText().find("[--disk-failure-policy stop|best_effort|ignore]"), std::string::npos);
}

class DamagedDirectoryTest : public ::testing::Test {
 protected:
  // ks.t with two SSTables; the older one's statistics damaged, so that
  // opening finds it.
  void SetUp() override {
    Options options;
    options.file_system = fs_;
    options.clock = std::make_shared<ManualClock>(kStart);
    options.scheduler = std::make_shared<ManualScheduler>();
    options.auto_compaction = false;
    auto db = Database::Open(options, "/data");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateKeyspace({.name = "ks"}).ok());
    ASSERT_TRUE((*db)
                    ->CreateTable(TableSchema("ks", "t")
                                      .AddPartitionKey("k", DataType::Int())
                                      .AddRegular("v", DataType::Int()))
                    .ok());
    for (int32_t k : {1, 2}) {
      Mutation m("ks", "t", {Value::Int(k)});
      m.Insert({}).Set("v", Value::Int(k * 10));
      ASSERT_TRUE((*db)->Apply(m).ok());
      ASSERT_TRUE((*db)->Flush().ok());
    }
    ASSERT_TRUE((*db)->Close().ok());
    auto dirs = fs_->GetChildren("/data/ks");
    ASSERT_TRUE(dirs.ok() && dirs->size() == 1);
    damaged_ = "/data/ks/" + dirs->front() + "/000001.sst";
    auto reader = SSTableReader::Open(fs_.get(), damaged_, nullptr);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const SectionEntry* statistics = (*reader)->footer().Find(SectionType::kStatistics);
    ASSERT_NE(statistics, nullptr);
    std::string bytes = *ReadFileToString(*fs_, damaged_);
    bytes[statistics->offset + statistics->length / 2] ^= 0x5a;
    ASSERT_TRUE(WriteStringToFile(*fs_, damaged_, bytes, true).ok());
  }

  Result<std::unique_ptr<Shell>> OpenShell(const std::string& policy) {
    Result<ShellSettings> settings =
        ParseShellArguments({"--data", "/data", "--clock", "manual:2024-01-15T00:00:00Z",
                             "--disk-failure-policy", policy});
    if (!settings.ok()) return settings.status();
    return Shell::Open(*settings, fs_, ShellIo{.out = &out_, .err = &err_, .tty = false});
  }

  int Stats(OutputFormat format) {
    StatsSettings settings;
    settings.data_dir = "/data";
    settings.format = format;
    out_.str("");
    return RunStatsCommand(settings, fs_, out_, err_);
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::string damaged_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(DamagedDirectoryTest, ShellRefusesUnderStopAndReportsUnderBestEffort) {
  Result<std::unique_ptr<Shell>> stopped = OpenShell("stop");
  ASSERT_FALSE(stopped.ok());
  EXPECT_TRUE(stopped.status().IsCorruption());
  EXPECT_NE(stopped.status().message().find(damaged_ + ": "), std::string::npos);

  Result<std::unique_ptr<Shell>> shell = OpenShell("best_effort");
  ASSERT_TRUE(shell.ok()) << shell.status().ToString();
  EXPECT_NE(err_.str().find("cassette: warning: " + damaged_ +
                            " is out of service (kept on disk, never read): Corruption: sstable " +
                            damaged_),
            std::string::npos)
      << err_.str();
  (*shell)->RunScript("SELECT k, v FROM ks.t;", "-e");
  EXPECT_NE(out_.str().find("20"), std::string::npos) << out_.str();
  EXPECT_EQ(out_.str().find("10"), std::string::npos) << out_.str();
  ASSERT_TRUE((*shell)->Close().ok());
}

TEST_F(DamagedDirectoryTest, StatsListsDamagedSSTables) {
  // Before any policy acted: stats opens read-only, skipping the file.
  ASSERT_EQ(Stats(OutputFormat::kTable), 0) << err_.str();
  EXPECT_NE(out_.str().find("\t\tSSTable count: 1\n"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("\t\tDamaged SSTables: 1\n\t\t\t" + damaged_ +
                            ": not loaded (found by open): Corruption: sstable " + damaged_),
            std::string::npos)
      << out_.str();

  // Taken out of service by a best_effort open: stats shows it so.
  Result<std::unique_ptr<Shell>> shell = OpenShell("best_effort");
  ASSERT_TRUE(shell.ok()) << shell.status().ToString();
  ASSERT_TRUE((*shell)->Close().ok());
  ASSERT_EQ(Stats(OutputFormat::kTable), 0) << err_.str();
  EXPECT_NE(out_.str().find(damaged_ + ": out of service (found by open): Corruption: "),
            std::string::npos)
      << out_.str();
  ASSERT_EQ(Stats(OutputFormat::kJson), 0) << err_.str();
  EXPECT_NE(out_.str().find("\"sstable_failures\":[{\"path\":\"" + damaged_ +
                            "\",\"generation\":1,\"found_by\":\"open\",\"out_of_service\":true,"
                            "\"error\":\"Corruption: sstable " +
                            damaged_),
            std::string::npos)
      << out_.str();
}

}  // namespace
}  // namespace cassette::tools
