// What survives a power loss in each sync mode (MemFileSystem::CrashClone),
// group commit sharing fsyncs, and failed I/O surfacing from Append.
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/clock.h"
#include "engine/commitlog/commit_log.h"
#include "tests/commitlog/commit_log_test_util.h"
#include "tests/commitlog/op_latch.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/hooked_file_system.h"

namespace cassette {
namespace {

constexpr char kDir[] = "/data/commitlog";

std::vector<std::string> Records(int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i < to; ++i) out.push_back(TestRecord(i));
  return out;
}

CommitLogOptions Opts(CommitLogSync sync, uint64_t segment_size = 300) {
  CommitLogOptions o;
  o.dir = kDir;
  o.segment_size = segment_size;
  o.sync = sync;
  o.sync_period_ms = 1000;
  o.group_window_ms = 50;
  return o;
}

std::unique_ptr<CommitLog> MustOpen(FileSystem* fs, Clock* clock, CommitLogOptions o) {
  auto log = CommitLog::Open(fs, clock, std::move(o), 1);
  EXPECT_TRUE(log.ok()) << log.status().ToString();
  return log.ok() ? std::move(log).value() : nullptr;
}

class AcknowledgedIsDurableTest : public ::testing::TestWithParam<CommitLogSync> {};

// batch and group: after every acknowledged Append, a crash keeps every
// record acknowledged so far, across segment switches, whatever happens to
// unsynced bytes.
TEST_P(AcknowledgedIsDurableTest, EveryAcknowledgedRecordSurvives) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(GetParam()));
  const uint64_t syncs_before = log->sync_count();
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(log->Append(TestRecord(i)).ok());
    for (int keep : {0, 50, 100}) {
      ReplayOutcome r = ReplayAll(fs->CrashClone(keep, 100 + i).get(), kDir);
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      ASSERT_EQ(r.payloads(), Records(0, i + 1)) << "after record " << i << " keep " << keep;
      ASSERT_FALSE(r.stats.torn_tail);
    }
  }
  EXPECT_GT(log->CurrentPosition().segment_id, 3u);
  // One writer at a time: one fsync per record, in group mode too.
  EXPECT_EQ(log->sync_count() - syncs_before, 30u);
}

INSTANTIATE_TEST_SUITE_P(Modes, AcknowledgedIsDurableTest,
                         ::testing::Values(CommitLogSync::kBatch, CommitLogSync::kGroup),
                         [](const auto& info) {
                           return info.param == CommitLogSync::kBatch ? "Batch" : "Group";
                         });

// The log hands its bytes to the OS's write-back every MiB, and the hint
// never stands in for the fsync: unsynced records are still lost in a
// crash, and the next Sync still syncs.
TEST(CommitLogWritebackTest, HintsEveryMibWithoutCountingAsSynced) {
  auto mem = NewMemFileSystem();
  FaultInjectionFileSystem fs(mem);
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(&fs, &clock, Opts(CommitLogSync::kPeriodic, 8 << 20));
  const std::string segment = SegmentPath(kDir, 1);
  const std::string record(64 << 10, 'r');
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(log->Append(record).ok());
  // 40 records of 64 KiB (+ framing): past 1 MiB at the 16th, 2 MiB at the 32nd.
  EXPECT_EQ(fs.WritebackCount(segment), 2);
  const int syncs = fs.SyncCount(segment);
  EXPECT_TRUE(ReplayAll(mem->CrashClone(0, 1).get(), kDir).payloads().empty());
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(fs.SyncCount(segment), syncs + 1);
  EXPECT_EQ(ReplayAll(mem->CrashClone(0, 2).get(), kDir).payloads().size(), 40u);
  // The fsync resets the count: the next hint comes a MiB after it.
  for (int i = 0; i < 15; ++i) ASSERT_TRUE(log->Append(record).ok());
  EXPECT_EQ(fs.WritebackCount(segment), 2);
  ASSERT_TRUE(log->Append(record).ok());
  EXPECT_EQ(fs.WritebackCount(segment), 3);
}

TEST(PeriodicDurabilityTest, OnlyRecordsBeforeTheLastSyncAreGuaranteed) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(CommitLogSync::kPeriodic, 1 << 20));
  auto survivors = [&] { return ReplayAll(fs->CrashClone(0, 1).get(), kDir).payloads(); };

  for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->Append(TestRecord(i)).ok());
  EXPECT_EQ(log->sync_count(), 0u);
  EXPECT_TRUE(survivors().empty());
  // The OS has them: a crash that wrote everything back loses nothing.
  EXPECT_EQ(ReplayAll(fs->CrashClone(100, 1).get(), kDir).payloads(), Records(0, 3));

  // Once the period has passed, the next Append syncs, covering itself.
  ASSERT_TRUE(clock.Advance(1000 * 1000).ok());
  ASSERT_TRUE(log->Append(TestRecord(3)).ok());
  EXPECT_EQ(log->sync_count(), 1u);
  EXPECT_EQ(survivors(), Records(0, 4));

  ASSERT_TRUE(log->Append(TestRecord(4)).ok());
  ASSERT_TRUE(log->Append(TestRecord(5)).ok());
  EXPECT_EQ(log->sync_count(), 1u);
  EXPECT_EQ(survivors(), Records(0, 4));

  // The period counts from the last sync.
  ASSERT_TRUE(clock.Advance(999 * 1000).ok());
  ASSERT_TRUE(log->Append(TestRecord(6)).ok());
  EXPECT_EQ(log->sync_count(), 1u);
  ASSERT_TRUE(clock.Advance(1000).ok());
  ASSERT_TRUE(log->Append(TestRecord(7)).ok());
  EXPECT_EQ(log->sync_count(), 2u);
  EXPECT_EQ(survivors(), Records(0, 8));

  // An explicit Sync covers everything; with nothing new it does not fsync.
  ASSERT_TRUE(log->Append(TestRecord(8)).ok());
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(log->sync_count(), 3u);
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(log->sync_count(), 3u);
  EXPECT_EQ(survivors(), Records(0, 9));
}

TEST(PeriodicDurabilityTest, TornUnsyncedTailLeavesAPrefix) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(CommitLogSync::kPeriodic, 1 << 20));
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(log->Append(TestRecord(i)).ok());
  ASSERT_TRUE(log->Sync().ok());
  for (int i = 10; i < 20; ++i) ASSERT_TRUE(log->Append(TestRecord(i)).ok());
  int torn = 0;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    ReplayOutcome r = ReplayAll(fs->CrashClone(60, seed).get(), kDir);
    ASSERT_TRUE(r.status.ok()) << seed << ": " << r.status.ToString();
    const int n = static_cast<int>(r.records.size());
    ASSERT_GE(n, 10) << seed;
    ASSERT_EQ(r.payloads(), Records(0, n)) << seed;
    torn += r.stats.torn_tail;
  }
  EXPECT_GT(torn, 0) << "no seed tore a record; the test lost its point";
}

TEST(PeriodicDurabilityTest, SegmentSwitchSyncsTheFullSegment) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(CommitLogSync::kPeriodic, 200));
  std::vector<CommitLogPosition> pos;
  for (int i = 0; i < 12; ++i) {
    auto p = log->Append(TestRecord(i));
    ASSERT_TRUE(p.ok());
    pos.push_back(*p);
  }
  // Everything in segments before the active one is durable; records in the
  // active one are not (the clock never moved).
  int sealed = 0;
  while (pos[sealed].segment_id != pos.back().segment_id) ++sealed;
  ASSERT_GT(sealed, 0);
  ReplayOutcome r = ReplayAll(fs->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), Records(0, sealed));
}

TEST(CommitLogFailureTest, FailedFsyncSurfacesFromAppendInBatchMode) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(faulty.get(), &clock, Opts(CommitLogSync::kBatch));
  ASSERT_TRUE(log->Append("first").ok());
  auto rule = ParseFaultRule("op=sync path=*.log nth=1");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);

  auto failed = log->Append("second");
  ASSERT_TRUE(failed.status().IsIOError()) << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("injected fault: sync"), std::string::npos);
  // The log stays failed: retrying an fsync after a failure could report
  // data durable that the kernel already dropped.
  EXPECT_EQ(log->Append("third").status(), failed.status());
  EXPECT_EQ(log->Sync(), failed.status());
  EXPECT_EQ(log->Close(), failed.status());
  EXPECT_EQ(log->Close(), failed.status());
  EXPECT_EQ(faulty->injected(), 1);
}

// A failed write (a full disk, here half a record) fails its Append, and
// the segment is cut back to the records before it, so the log takes the
// next record once the disk has room, and replays without a torn tail.
TEST(CommitLogFailureTest, FailedWriteIsTakenBackAndTheLogGoesOn) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(faulty.get(), &clock, Opts(CommitLogSync::kPeriodic));
  ASSERT_TRUE(log->Append("first").ok());
  auto rule = ParseFaultRule("op=write path=*.log nth=1 short");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);
  EXPECT_TRUE(log->Append(std::string(40, 'x')).status().IsIOError());
  EXPECT_TRUE(log->Append("after").ok());
  ASSERT_TRUE(log->Sync().ok());
  ReplayOutcome r = ReplayAll(faulty->base(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{"first", "after"}));
  EXPECT_FALSE(r.stats.torn_tail);
}

// When the cut itself fails, the segment's end is unknown: the log stays
// failed, as after a failed fsync.
TEST(CommitLogFailureTest, FailedWriteThatCannotBeTakenBackFailsTheLog) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(faulty.get(), &clock, Opts(CommitLogSync::kPeriodic));
  ASSERT_TRUE(log->Append("first").ok());
  for (const char* spec : {"op=write path=*.log nth=1 short", "op=truncate path=*.log"}) {
    auto rule = ParseFaultRule(spec);
    ASSERT_TRUE(rule.ok());
    faulty->AddRule(*rule);
  }
  auto failed = log->Append(std::string(40, 'x'));
  EXPECT_TRUE(failed.status().IsIOError());
  faulty->ClearRules();
  EXPECT_EQ(log->Append("after").status(), failed.status());
  ReplayOutcome r = ReplayAll(faulty->base(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), std::vector<std::string>{"first"});
  EXPECT_TRUE(r.stats.torn_tail);
}

TEST(CommitLogFailureTest, FailedSegmentCreationSurfacesFromAppend) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(faulty.get(), &clock, Opts(CommitLogSync::kBatch, 300));
  ASSERT_TRUE(log->Append(std::string(150, 'a')).ok());
  auto rule = ParseFaultRule("op=syncdir nth=1");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);
  // Does not fit in segment 1: the switch to segment 2 fails, and the
  // half-made segment 2 is removed so a later switch can make it.
  auto failed = log->Append(std::string(150, 'b'));
  EXPECT_TRUE(failed.status().IsIOError()) << failed.status().ToString();
  EXPECT_FALSE(faulty->base()->FileExists(SegmentPath(kDir, 2)));
  // Segment 1, sealed by the attempt, takes what still fits; the switch
  // succeeds on the next try.
  ASSERT_TRUE(log->Append("c").ok());
  auto b = log->Append(std::string(150, 'b'));
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->segment_id, 2u);
  ReplayOutcome r = ReplayAll(faulty->base(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(),
            (std::vector<std::string>{std::string(150, 'a'), "c", std::string(150, 'b')}));
}

TEST(CommitLogFailureTest, FailedOpenIsReported) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  ManualClock clock(kTestStartMicros);
  auto rule = ParseFaultRule("op=sync nth=1");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);
  EXPECT_TRUE(
      CommitLog::Open(faulty.get(), &clock, Opts(CommitLogSync::kBatch), 1).status().IsIOError());
}

struct GroupCase {
  const char* name;
  CommitLogSync mode;
  const char* hold;     // where the first writer is held
  bool window_elapses;  // the clock passes the group window while it is held
  uint64_t want_syncs;  // fsyncs for the four records
};

void PrintTo(const GroupCase& c, std::ostream* os) { *os << c.name; }

class GroupCommitTest : public ::testing::TestWithParam<GroupCase> {};

// Writer 0 is held inside its write or fsync while writers 1-3 queue up
// behind it. Then count the fsyncs the four records cost.
TEST_P(GroupCommitTest, QueuedWritersShareFsyncs) {
  const GroupCase& c = GetParam();
  auto mem = NewMemFileSystem();
  auto fs = std::make_shared<HookedFileSystem>(mem);
  OpLatch latch;
  fs->set_hook([&](std::string_view op, const std::string&) { latch.MaybeHold(op); });
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(c.mode, 1 << 20));
  const uint64_t syncs_before = log->sync_count();
  latch.Arm(c.hold);

  std::vector<std::thread> threads;
  std::vector<Status> results(4);
  auto append = [&](int i) { results[i] = log->Append(TestRecord(i)).status(); };
  threads.emplace_back(append, 0);
  latch.WaitHeld();
  for (int i = 1; i < 4; ++i) threads.emplace_back(append, i);
  // No sleeping: the queue length is the fact we wait for.
  while (log->TEST_QueuedWriters() < 4) std::this_thread::yield();
  if (c.window_elapses) {
    ASSERT_TRUE(clock.Advance(50 * 1000).ok());
  }
  latch.Release();
  for (auto& t : threads) t.join();

  for (const Status& s : results) EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(log->sync_count() - syncs_before, c.want_syncs);
  // Whatever the sharing, every acknowledged record is durable.
  ReplayOutcome r = ReplayAll(mem->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.records.size(), 4u);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, GroupCommitTest,
    ::testing::Values(
        // Held in fsync: the three queued writers form the next group.
        GroupCase{"BatchHeldInSync", CommitLogSync::kBatch, "sync", false, 2},
        GroupCase{"GroupHeldInSync", CommitLogSync::kGroup, "sync", false, 2},
        // Held in the write: batch syncs for writer 0 alone, then for 1-3;
        // group absorbs 1-3 (window still open) and syncs once.
        GroupCase{"BatchHeldInWrite", CommitLogSync::kBatch, "flush", false, 2},
        GroupCase{"GroupHeldInWrite", CommitLogSync::kGroup, "flush", false, 1},
        // Window over: group syncs at once, like batch.
        GroupCase{"GroupWindowElapsed", CommitLogSync::kGroup, "flush", true, 2}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cassette
