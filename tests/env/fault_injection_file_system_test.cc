#include "tests/support/fault_injection_file_system.h"

#include <gtest/gtest.h>

#include "engine/env/durable_directory.h"
#include "tests/support/file_contents.h"

namespace cassette {
namespace {

class FaultInjectionTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(CreateDirsDurably(&fs_, "/db").ok()); }

  FaultRule Rule(std::string_view spec) {
    auto r = ParseFaultRule(spec);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : FaultRule{};
  }

  std::shared_ptr<MemFileSystem> mem_ = NewMemFileSystem();
  FaultInjectionFileSystem fs_{mem_};
};

TEST(GlobMatchTest, StarCrossesSlashesQuestionMarkMatchesOne) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*.log", "/db/commitlog/CommitLog-1.log"));
  EXPECT_FALSE(GlobMatch("*.log", "/db/commitlog/CommitLog-1.log.tmp"));
  EXPECT_TRUE(GlobMatch("/db/*/MANIFEST*", "/db/ks/MANIFEST-000002"));
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "ac"));
  EXPECT_TRUE(GlobMatch("a*b*c", "axxbyyc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "axxbyy"));
  EXPECT_TRUE(GlobMatch("exact", "exact"));
  EXPECT_FALSE(GlobMatch("exact", "exact2"));
}

TEST(ParseFaultRuleTest, ParsesEveryTerm) {
  auto r = ParseFaultRule("op=sync path=*.log nth=2");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->op, FaultOp::kSync);
  EXPECT_EQ(r->glob, "*.log");
  EXPECT_EQ(r->when, FaultRule::When::kNth);
  EXPECT_EQ(r->nth, 2);
  r = ParseFaultRule("op=write from=3 short");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->when, FaultRule::When::kFromNth);
  EXPECT_EQ(r->nth, 3);
  EXPECT_TRUE(r->short_write);
  r = ParseFaultRule("");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->op, FaultOp::kAny);
  EXPECT_EQ(r->when, FaultRule::When::kEvery);

  EXPECT_TRUE(ParseFaultRule("op=fsync").status().IsInvalidArgument());
  EXPECT_TRUE(ParseFaultRule("nth=0").status().IsInvalidArgument());
  EXPECT_TRUE(ParseFaultRule("nth=x").status().IsInvalidArgument());
  EXPECT_TRUE(ParseFaultRule("bogus").status().IsInvalidArgument());
}

TEST_F(FaultInjectionTest, NthSyncOfMatchingPathFailsOnce) {
  fs_.AddRule(Rule("op=sync path=*.log nth=2"));
  auto log = fs_.NewWritableFile("/db/a.log");
  auto other = fs_.NewWritableFile("/db/a.db");
  ASSERT_TRUE(log.ok() && other.ok());
  EXPECT_TRUE((*other)->Sync().ok());  // does not match the glob
  EXPECT_TRUE((*log)->Sync().ok());
  Status s = (*log)->Sync();
  EXPECT_TRUE(s.IsIOError());
  EXPECT_EQ(s.message(), "injected fault: sync /db/a.log");
  EXPECT_TRUE((*log)->Sync().ok());
  EXPECT_EQ(fs_.injected(), 1);
  EXPECT_EQ(fs_.SyncCount("/db/a.log"), 2);
  EXPECT_EQ(fs_.SyncCount("/db/a.db"), 1);
  EXPECT_EQ(fs_.TotalSyncs(), 3);
}

TEST_F(FaultInjectionTest, FromNthFailsEveryLaterCall) {
  fs_.AddRule(Rule("op=write from=2"));
  auto w = fs_.NewWritableFile("/db/f");
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE((*w)->Append("a").ok());
  EXPECT_FALSE((*w)->Append("b").ok());
  EXPECT_FALSE((*w)->Append("c").ok());
  EXPECT_EQ(*ReadFileToString(*mem_, "/db/f"), "a");
  fs_.ClearRules();
  EXPECT_TRUE((*w)->Append("d").ok());
  EXPECT_EQ(*ReadFileToString(*mem_, "/db/f"), "ad");
}

TEST_F(FaultInjectionTest, ShortWriteAppendsHalfThenFails) {
  fs_.AddRule(Rule("op=write nth=1 short"));
  auto w = fs_.NewWritableFile("/db/f");
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE((*w)->Append("12345678").ok());
  EXPECT_EQ(*ReadFileToString(fs_, "/db/f"), "1234");
}

TEST_F(FaultInjectionTest, EveryOperationKindCanFail) {
  ASSERT_TRUE(WriteStringToFile(*mem_, "/db/f", "data", false).ok());
  fs_.AddRule(Rule("op=rename"));
  fs_.AddRule(Rule("op=delete"));
  fs_.AddRule(Rule("op=syncdir"));
  fs_.AddRule(Rule("op=mkdir"));
  fs_.AddRule(Rule("op=read path=/db/f"));
  EXPECT_EQ(fs_.RenameFile("/db/f", "/db/g").message(), "injected fault: rename /db/f to /db/g");
  EXPECT_TRUE(fs_.DeleteFile("/db/f").IsIOError());
  EXPECT_TRUE(fs_.DeleteDir("/db").IsIOError());
  EXPECT_TRUE(fs_.SyncDir("/db").IsIOError());
  EXPECT_TRUE(fs_.CreateDirs("/db/x").IsIOError());
  auto r = fs_.NewRandomAccessFile("/db/f");
  ASSERT_TRUE(r.ok());
  std::string out;
  EXPECT_TRUE((*r)->Read(0, 4, &out).IsIOError());
  auto seq = fs_.NewSequentialFile("/db/f");
  ASSERT_TRUE(seq.ok());
  EXPECT_TRUE((*seq)->Read(4, &out).IsIOError());
  EXPECT_EQ(fs_.injected(), 7);
  // Nothing reached the wrapped file system.
  EXPECT_TRUE(mem_->FileExists("/db/f"));
  EXPECT_FALSE(mem_->FileExists("/db/x"));
  EXPECT_EQ(fs_.SyncDirCount("/db"), 0);

  fs_.ClearRules();
  fs_.AddRule(Rule("op=open path=*/g"));
  EXPECT_TRUE(fs_.NewWritableFile("/db/g").status().IsIOError());
  EXPECT_TRUE(fs_.NewAppendableFile("/db/g").status().IsIOError());
  EXPECT_TRUE(fs_.LockFile("/db/g").status().IsIOError());
  EXPECT_TRUE(fs_.NewWritableFile("/db/h").ok());
  EXPECT_TRUE(fs_.SyncDir("/db").ok());
  EXPECT_EQ(fs_.SyncDirCount("/db"), 1);
}

TEST_F(FaultInjectionTest, FailedSyncLeavesDataUnsyncedForCrashTests) {
  auto w = fs_.NewWritableFile("/db/log");
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(fs_.SyncDir("/db").ok());
  ASSERT_TRUE((*w)->Append("rec1").ok());
  ASSERT_TRUE((*w)->Sync().ok());
  fs_.AddRule(Rule("op=sync"));
  ASSERT_TRUE((*w)->Append("rec2").ok());
  EXPECT_FALSE((*w)->Sync().ok());
  EXPECT_EQ(*ReadFileToString(*mem_->CrashClone(0, 1), "/db/log"), "rec1");
}

}  // namespace
}  // namespace cassette
