// RollIfOnlyBefore: sealing a fully flushed active segment so that
// DiscardSegmentsBefore can delete it, and only when no record was appended
// after the position the caller saw (queue order decides, never timing).
#include <algorithm>
#include <atomic>
#include <barrier>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
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

constexpr char kDir[] = "/db/commitlog";

CommitLogOptions Opts(CommitLogSync sync, uint64_t segment_size = 1 << 16) {
  CommitLogOptions o;
  o.dir = kDir;
  o.segment_size = segment_size;
  o.sync = sync;
  return o;
}

std::unique_ptr<CommitLog> MustOpen(FileSystem* fs, Clock* clock, CommitLogOptions o,
                                    uint64_t first_id = 1) {
  auto log = CommitLog::Open(fs, clock, std::move(o), first_id);
  EXPECT_TRUE(log.ok()) << log.status().ToString();
  return log.ok() ? std::move(log).value() : nullptr;
}

std::vector<uint64_t> Listed(FileSystem* fs) {
  auto ids = ListCommitLogSegments(fs, kDir);
  EXPECT_TRUE(ids.ok()) << ids.status().ToString();
  return ids.ok() ? *ids : std::vector<uint64_t>{};
}

class CommitLogRollTest : public ::testing::TestWithParam<CommitLogSync> {
 protected:
  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  ManualClock clock_{kTestStartMicros};
};

// The database's sequence after a flush: roll, then discard at the same
// position. What is left is one durable, header-only segment with the next id.
TEST_P(CommitLogRollTest, RollThenDiscardLeavesOneHeaderOnlySegment) {
  auto log = MustOpen(fs_.get(), &clock_, Opts(GetParam()));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(log->Append(TestRecord(i)).ok());
  const CommitLogPosition pos = log->CurrentPosition();
  ASSERT_EQ(pos.segment_id, 1u);

  auto rolled = log->RollIfOnlyBefore(pos);
  ASSERT_TRUE(rolled.ok()) << rolled.status().ToString();
  EXPECT_TRUE(*rolled);
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(log->CurrentPosition(), (CommitLogPosition{2, kCommitLogSegmentHeaderSize}));
  // Sealed means synced whole, whatever the mode: a crash here keeps every
  // record (replay would skip them as flushed, but must still read them).
  ReplayOutcome sealed = ReplayAll(fs_->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(sealed.status.ok()) << sealed.status.ToString();
  EXPECT_EQ(sealed.records.size(), 5u);
  EXPECT_FALSE(sealed.stats.torn_tail);

  ASSERT_TRUE(log->DiscardSegmentsBefore(pos).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{2});
  auto crashed = fs_->CrashClone(0, 2);
  EXPECT_EQ(Listed(crashed.get()), std::vector<uint64_t>{2});
  EXPECT_EQ(*crashed->GetFileSize(SegmentPath(kDir, 2)), kCommitLogSegmentHeaderSize);
  ReplayOutcome r = ReplayAll(crashed.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.records.empty());
  EXPECT_FALSE(r.stats.torn_tail);

  // Appends continue in the new segment.
  auto next = log->Append("after");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->segment_id, 2u);
  ASSERT_TRUE(log->Close().ok());
  EXPECT_EQ(ReplayAll(fs_.get(), kDir).payloads(), std::vector<std::string>{"after"});
}

TEST_P(CommitLogRollTest, RecordAppendedSincePositionKeepsTheSegment) {
  auto log = MustOpen(fs_.get(), &clock_, Opts(GetParam()));
  ASSERT_TRUE(log->Append("flushed").ok());
  const CommitLogPosition pos = log->CurrentPosition();
  ASSERT_TRUE(log->Append("not yet flushed").ok());

  auto rolled = log->RollIfOnlyBefore(pos);
  ASSERT_TRUE(rolled.ok());
  EXPECT_FALSE(*rolled);
  ASSERT_TRUE(log->DiscardSegmentsBefore(pos).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{1});
  ASSERT_TRUE(log->Close().ok());
  EXPECT_EQ(ReplayAll(fs_.get(), kDir).payloads(),
            (std::vector<std::string>{"flushed", "not yet flushed"}));
}

TEST_P(CommitLogRollTest, HeaderOnlySegmentIsNotRolled) {
  auto log = MustOpen(fs_.get(), &clock_, Opts(GetParam()), 7);
  auto rolled = log->RollIfOnlyBefore(log->CurrentPosition());
  ASSERT_TRUE(rolled.ok());
  EXPECT_FALSE(*rolled);
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{7});
  EXPECT_EQ(Listed(fs_.get()), std::vector<uint64_t>{7});
}

// A position in a segment that has since filled and been switched: the
// active segment holds newer records.
TEST_P(CommitLogRollTest, PositionInAnEarlierSegmentDoesNotRoll) {
  auto log = MustOpen(fs_.get(), &clock_, Opts(GetParam(), 200));
  ASSERT_TRUE(log->Append(std::string(100, 'a')).ok());
  const CommitLogPosition pos = log->CurrentPosition();
  auto second = log->Append(std::string(100, 'b'));  // does not fit: segment 2
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->segment_id, 2u);
  auto rolled = log->RollIfOnlyBefore(pos);
  ASSERT_TRUE(rolled.ok());
  EXPECT_FALSE(*rolled);
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{1, 2}));
  ASSERT_TRUE(log->DiscardSegmentsBefore(pos).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{2});
}

TEST_P(CommitLogRollTest, RefusedAfterClose) {
  auto log = MustOpen(fs_.get(), &clock_, Opts(GetParam()));
  ASSERT_TRUE(log->Append("a").ok());
  const CommitLogPosition pos = log->CurrentPosition();
  ASSERT_TRUE(log->Close().ok());
  EXPECT_TRUE(log->RollIfOnlyBefore(pos).status().IsInvalidArgument());
  EXPECT_EQ(Listed(fs_.get()), std::vector<uint64_t>{1});
}

INSTANTIATE_TEST_SUITE_P(Modes, CommitLogRollTest,
                         ::testing::Values(CommitLogSync::kPeriodic, CommitLogSync::kBatch,
                                           CommitLogSync::kGroup));

// Queue order decides. A leader is held in an fsync while a record and a
// roll queue behind it; the next leader takes both in one pass.
class RollQueueOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_->set_hook([this](std::string_view op, const std::string&) { hold_.MaybeHold(op); });
    log_ = MustOpen(fs_.get(), &clock_, Opts(CommitLogSync::kPeriodic));
    // Unsynced, so that the Sync() below really reaches the file system.
    ASSERT_TRUE(log_->Append("flushed").ok());
    pos_ = log_->CurrentPosition();
    hold_.Arm("sync");
    threads_.emplace_back([this] { sync_status_ = log_->Sync(); });
    hold_.WaitHeld();
  }
  void QueueAppend() {
    const size_t queued = log_->TEST_QueuedWriters();
    threads_.emplace_back([this] { appended_ = log_->Append("racing"); });
    while (log_->TEST_QueuedWriters() == queued) std::this_thread::yield();
  }
  void QueueRoll() {
    const size_t queued = log_->TEST_QueuedWriters();
    threads_.emplace_back([this] { rolled_ = log_->RollIfOnlyBefore(pos_); });
    while (log_->TEST_QueuedWriters() == queued) std::this_thread::yield();
  }
  void Finish() {
    hold_.Release();
    for (auto& t : threads_) t.join();
    ASSERT_TRUE(sync_status_.ok());
    ASSERT_TRUE(appended_.ok()) << appended_.status().ToString();
    ASSERT_TRUE(rolled_.ok()) << rolled_.status().ToString();
  }

  std::shared_ptr<MemFileSystem> mem_ = NewMemFileSystem();
  std::shared_ptr<HookedFileSystem> fs_ = std::make_shared<HookedFileSystem>(mem_);
  ManualClock clock_{kTestStartMicros};
  OpLatch hold_;
  std::unique_ptr<CommitLog> log_;
  CommitLogPosition pos_;
  std::vector<std::thread> threads_;
  Status sync_status_;
  Result<CommitLogPosition> appended_ = Status::Unavailable("not run");
  Result<bool> rolled_ = Status::Unavailable("not run");
};

TEST_F(RollQueueOrderTest, RecordQueuedBeforeTheRollKeepsTheSegment) {
  ASSERT_NO_FATAL_FAILURE(QueueAppend());
  ASSERT_NO_FATAL_FAILURE(QueueRoll());
  ASSERT_NO_FATAL_FAILURE(Finish());
  EXPECT_FALSE(*rolled_);
  EXPECT_EQ(appended_->segment_id, 1u);
  ASSERT_TRUE(log_->DiscardSegmentsBefore(pos_).ok());
  EXPECT_EQ(log_->SegmentIds(), std::vector<uint64_t>{1});
  ASSERT_TRUE(log_->Close().ok());
  EXPECT_EQ(ReplayAll(mem_.get(), kDir).payloads(),
            (std::vector<std::string>{"flushed", "racing"}));
}

TEST_F(RollQueueOrderTest, RecordQueuedAfterTheRollGoesToTheNewSegment) {
  ASSERT_NO_FATAL_FAILURE(QueueRoll());
  ASSERT_NO_FATAL_FAILURE(QueueAppend());
  ASSERT_NO_FATAL_FAILURE(Finish());
  EXPECT_TRUE(*rolled_);
  EXPECT_EQ(appended_->segment_id, 2u);
  EXPECT_GT(*appended_, pos_);
  // The racing record is past pos, so discarding at pos keeps it.
  ASSERT_TRUE(log_->DiscardSegmentsBefore(pos_).ok());
  EXPECT_EQ(log_->SegmentIds(), std::vector<uint64_t>{2});
  ASSERT_TRUE(log_->Close().ok());
  EXPECT_EQ(ReplayAll(mem_.get(), kDir).payloads(), std::vector<std::string>{"racing"});
}

// Rolls interleaved with concurrent appenders: no record is lost, doubled or
// reordered, and positions still increase in replay order. The appenders
// work in rounds, a barrier between rounds: inside a round the rolls race
// the appends (which wins is up to the machine; correctness is not), and
// between rounds, with the queue known to be empty, one more roll must do
// exactly what the active segment calls for — roll when the round's last
// record is in it, not when a racing roll already sealed that record away.
TEST(RollConcurrencyTest, RollsBetweenConcurrentAppends) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(fs.get(), &clock, Opts(CommitLogSync::kBatch, 4096));
  constexpr int kThreads = 3;
  constexpr int kRounds = 25;
  constexpr int kPerRound = 8;
  constexpr int kPerThread = kRounds * kPerRound;
  std::vector<std::vector<CommitLogPosition>> got(kThreads);
  std::atomic<int> appended{0};
  std::barrier round_start(kThreads + 1);
  std::barrier round_end(kThreads + 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        round_start.arrive_and_wait();
        for (int i = r * kPerRound; i < (r + 1) * kPerRound; ++i) {
          auto pos = log->Append("t" + std::to_string(t) + "-" + std::to_string(i));
          EXPECT_TRUE(pos.ok()) << pos.status().ToString();
          if (pos.ok()) got[t].push_back(*pos);
          appended.fetch_add(1);
        }
        round_end.arrive_and_wait();
      }
    });
  }
  int racing_rolls = 0;
  int quiet_rolls = 0;
  for (int r = 0; r < kRounds; ++r) {
    round_start.arrive_and_wait();
    while (appended.load() < (r + 1) * kThreads * kPerRound) {
      auto rolled = log->RollIfOnlyBefore(log->CurrentPosition());
      EXPECT_TRUE(rolled.ok()) << rolled.status().ToString();
      racing_rolls += rolled.ok() && *rolled ? 1 : 0;
    }
    round_end.arrive_and_wait();
    // Quiet: every append of the round has returned and none is queued.
    CommitLogPosition last{0, 0};
    for (const auto& positions : got) {
      if (!positions.empty()) last = std::max(last, positions.back());
    }
    const CommitLogPosition now = log->CurrentPosition();
    // (EXPECT, not ASSERT, below: the appenders must reach the barriers.)
    auto rolled = log->RollIfOnlyBefore(now);
    EXPECT_TRUE(rolled.ok()) << rolled.status().ToString();
    EXPECT_EQ(rolled.ok() && *rolled, last.segment_id == now.segment_id) << "round " << r;
    quiet_rolls += rolled.ok() && *rolled ? 1 : 0;
    // Sealed or not, the active segment now holds no record: nothing to roll.
    auto again = log->RollIfOnlyBefore(log->CurrentPosition());
    EXPECT_TRUE(again.ok() && !*again) << "round " << r;
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(log->Close().ok());

  ReplayOutcome r = ReplayAll(fs.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.records.size(), size_t{kThreads * kPerThread});
  std::vector<int> next(kThreads, 0);
  for (size_t k = 0; k < r.records.size(); ++k) {
    const ReplayedRecord& rec = r.records[k];
    if (k > 0) {
      ASSERT_LT(r.records[k - 1].position, rec.position);
    }
    const int t = rec.payload[1] - '0';
    const int i = std::stoi(rec.payload.substr(3));
    ASSERT_EQ(i, next[t]);
    ++next[t];
    ASSERT_EQ(got[t][i], rec.position);
  }
  std::printf("rolls racing appends: %d, rolls between rounds: %d of %d\n", racing_rolls,
              quiet_rolls, kRounds);
}

// A roll that cannot create the next segment fails, and leaves the sealed
// segment active: later records go after its seal (a full disk must not
// fail the log for good), and replay reads them.
TEST(RollFailureTest, FailedSegmentCreationKeepsTheSealedSegment) {
  auto mem = NewMemFileSystem();
  auto faulty = std::make_shared<FaultInjectionFileSystem>(mem);
  ManualClock clock(kTestStartMicros);
  auto log = MustOpen(faulty.get(), &clock, Opts(CommitLogSync::kBatch));
  ASSERT_TRUE(log->Append("a").ok());
  auto rule = ParseFaultRule("op=open path=*CommitLog-2-2.log");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);
  EXPECT_TRUE(log->RollIfOnlyBefore(log->CurrentPosition()).status().IsIOError());
  // The sealed segment is intact and still the last one.
  ReplayOutcome sealed = ReplayAll(mem->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(sealed.status.ok()) << sealed.status.ToString();
  EXPECT_EQ(sealed.payloads(), std::vector<std::string>{"a"});
  EXPECT_TRUE(sealed.stats.last_sealed);
  ASSERT_TRUE(log->Append("b").ok());
  ReplayOutcome r = ReplayAll(mem->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace cassette
