// `cassette commitlog verify|dump` on a database's commit log, healthy,
// torn and damaged: verify says what opening the directory would do.
#include "tools/commitlog_command.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cassette/db.h"
#include "tests/support/file_contents.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // 2024-01-15T00:00:00Z

class CommitLogCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.file_system = fs_;
    options.clock = std::make_shared<ManualClock>(kStart);
    options.scheduler = std::make_shared<ManualScheduler>();
    options.commitlog_sync = CommitLogSync::kBatch;
    auto db = Database::Open(options, "/data");
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateKeyspace({.name = "ks"}).ok());
    ASSERT_TRUE((*db)
                    ->CreateTable(TableSchema("ks", "t")
                                      .AddPartitionKey("k", DataType::Int())
                                      .AddRegular("v", DataType::Int()))
                    .ok());
    for (int i = 0; i < 5; ++i) {
      Mutation m("ks", "t", {Value::Int(i)});
      m.Insert({}).Set("v", Value::Int(i));
      ASSERT_TRUE((*db)->Apply(m).ok());
    }
    // A power loss: batch mode synced every write.
    fs_ = fs_->CrashClone(0, 1);
    auto names = fs_->GetChildren("/data/commitlog");
    ASSERT_TRUE(names.ok() && names->size() == 1);
    segment_ = "/data/commitlog/" + names->front();
  }

  int Run(CommitLogSettings::Action action) {
    out_.str("");
    err_.str("");
    CommitLogSettings settings;
    settings.action = action;
    settings.data_dir = "/data";
    return RunCommitLogCommand(settings, fs_, out_, err_);
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  std::string segment_;
  std::ostringstream out_, err_;
};

TEST_F(CommitLogCommandTest, VerifyAHealthyLog) {
  ASSERT_EQ(Run(CommitLogSettings::Action::kVerify), 0) << err_.str();
  EXPECT_NE(out_.str().find("5 records, 5 markers, open (the newest segment)"), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("commit log /data/commitlog: OK, 1 segments, 5 records"),
            std::string::npos)
      << out_.str();
}

TEST_F(CommitLogCommandTest, VerifyReportsATornTailAsHarmless) {
  auto bytes = ReadFileToString(*fs_, segment_);
  ASSERT_TRUE(WriteStringToFile(*fs_, segment_, *bytes + "torn", true).ok());
  ASSERT_EQ(Run(CommitLogSettings::Action::kVerify), 0) << err_.str();
  EXPECT_NE(out_.str().find("a torn final write of 4 bytes"), std::string::npos) << out_.str();
}

TEST_F(CommitLogCommandTest, VerifyFailsOnDamageTheOpenWouldRefuse) {
  std::string bytes = *ReadFileToString(*fs_, segment_);
  bytes[40] ^= 0x08;  // inside the first record, synced (markers follow)
  ASSERT_TRUE(WriteStringToFile(*fs_, segment_, bytes, true).ok());
  ASSERT_EQ(Run(CommitLogSettings::Action::kVerify), 1);
  EXPECT_NE(out_.str().find("damage at offset 20: record payload checksum mismatch, next intact "
                            "marker at offset"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("CORRUPT: commit log segment " + segment_ +
                            ": record payload checksum mismatch at offset 20, before an intact "
                            "marker"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("The damage holds 1 records and 4 intact records follow the marker"),
            std::string::npos)
      << out_.str();
}

TEST_F(CommitLogCommandTest, DumpListsRecordsAndMarkers) {
  ASSERT_EQ(Run(CommitLogSettings::Action::kDump), 0) << err_.str();
  const std::string text = out_.str();
  EXPECT_NE(text.find("offset 20 record of "), std::string::npos) << text;
  EXPECT_NE(text.find(": 1 partition updates [table 1 token "), std::string::npos) << text;
  EXPECT_NE(text.find("sync marker after 1 records"), std::string::npos) << text;
}

TEST_F(CommitLogCommandTest, ArgumentsAreChecked) {
  EXPECT_FALSE(ParseCommitLogArguments({}).ok());
  EXPECT_FALSE(ParseCommitLogArguments({"fix"}).ok());
  EXPECT_FALSE(ParseCommitLogArguments({"verify", "--data"}).ok());
  auto parsed = ParseCommitLogArguments({"dump", "--data", "/x"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->action, CommitLogSettings::Action::kDump);
  EXPECT_EQ(parsed->data_dir, "/x");
}

}  // namespace
}  // namespace cassette::tools
