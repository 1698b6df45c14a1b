#include "engine/commitlog/commit_log.h"

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/clock.h"
#include "cassette/file_system.h"
#include "tests/commitlog/commit_log_test_util.h"

namespace cassette {
namespace {

constexpr char kDir[] = "/db/commitlog";

class CommitLogTest : public ::testing::Test {
 protected:
  CommitLogOptions Opts(CommitLogSync sync = CommitLogSync::kBatch, uint64_t segment_size = 256) {
    CommitLogOptions o;
    o.dir = kDir;
    o.segment_size = segment_size;
    o.sync = sync;
    return o;
  }
  std::unique_ptr<CommitLog> OpenLog(CommitLogOptions o, uint64_t first_id = 1) {
    auto log = CommitLog::Open(fs_.get(), &clock_, std::move(o), first_id);
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    return log.ok() ? std::move(log).value() : nullptr;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  ManualClock clock_{kTestStartMicros};
};

TEST_F(CommitLogTest, OpenValidatesOptions) {
  CommitLogOptions o;
  o.segment_size = 10;
  o.sync_period_ms = -1;
  o.group_window_ms = -2;
  auto log = CommitLog::Open(fs_.get(), &clock_, o, 1);
  ASSERT_TRUE(log.status().IsInvalidArgument());
  // Every problem is reported at once.
  const std::string& m = log.status().message();
  EXPECT_NE(m.find("dir must not be empty"), std::string::npos) << m;
  EXPECT_NE(m.find("segment_size 10 must be at least 97"), std::string::npos) << m;
  EXPECT_NE(m.find("sync_period_ms -1"), std::string::npos) << m;
  EXPECT_NE(m.find("group_window_ms -2"), std::string::npos) << m;

  o = Opts();
  o.background_sync = true;
  o.sync = CommitLogSync::kPeriodic;
  o.sync_period_ms = 0;
  EXPECT_TRUE(CommitLog::Open(fs_.get(), &clock_, o, 1).status().IsInvalidArgument());

  EXPECT_TRUE(CommitLog::Open(fs_.get(), &clock_, Opts(), 0).status().IsInvalidArgument());
}

TEST_F(CommitLogTest, OpenRefusesToOverwriteASegment) {
  auto log = OpenLog(Opts(), 3);
  ASSERT_TRUE(log->Append("x").ok());
  ASSERT_TRUE(log->Close().ok());
  auto again = CommitLog::Open(fs_.get(), &clock_, Opts(), 3);
  EXPECT_TRUE(again.status().IsInvalidArgument()) << again.status().ToString();
  // The existing segment is untouched.
  EXPECT_EQ(ReplayAll(fs_.get(), kDir).payloads(), std::vector<std::string>{"x"});
}

TEST_F(CommitLogTest, OpenCreatesADurableHeaderOnlySegment) {
  auto log = OpenLog(Opts(), 7);
  EXPECT_EQ(log->CurrentPosition(), (CommitLogPosition{7, kCommitLogSegmentHeaderSize}));
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{7});
  auto crashed = fs_->CrashClone(0, 1);
  auto ids = ListCommitLogSegments(crashed.get(), kDir);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, std::vector<uint64_t>{7});
  ReplayOutcome r = ReplayAll(crashed.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.stats.segments, 1u);
  EXPECT_EQ(r.stats.records, 0u);
  EXPECT_FALSE(r.stats.torn_tail);
}

TEST_F(CommitLogTest, RoundTripAcrossSegments) {
  auto log = OpenLog(Opts(CommitLogSync::kPeriodic, 256));
  std::vector<CommitLogPosition> positions;
  uint64_t framed = 0;
  for (int i = 0; i < 40; ++i) {
    auto pos = log->Append(TestRecord(i));
    ASSERT_TRUE(pos.ok()) << pos.status().ToString();
    if (!positions.empty()) {
      EXPECT_LT(positions.back(), *pos);
    }
    EXPECT_LE(pos->offset, 256u);
    EXPECT_EQ(log->CurrentPosition(), *pos);
    positions.push_back(*pos);
    framed += TestRecord(i).size() + kCommitLogRecordOverhead;
  }
  EXPECT_GT(positions.back().segment_id, 5u);
  std::vector<uint64_t> ids = log->SegmentIds();
  ASSERT_EQ(ids.size(), positions.back().segment_id);
  EXPECT_EQ(ids.front(), 1u);
  ASSERT_TRUE(log->Close().ok());
  // Every byte of every segment file (headers, frames, markers) is counted.
  uint64_t on_disk = 0;
  for (uint64_t id : ids) {
    auto size = fs_->GetFileSize(std::string(kDir) + "/" + CommitLogSegmentFileName(id));
    ASSERT_TRUE(size.ok());
    on_disk += *size;
  }
  EXPECT_EQ(log->bytes_written(), on_disk);
  EXPECT_GT(on_disk, framed);

  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.records.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(r.records[i].payload, TestRecord(i));
    EXPECT_EQ(r.records[i].position, positions[i]);
  }
  EXPECT_EQ(r.stats.records, 40u);
  EXPECT_EQ(r.stats.bytes, framed);
  EXPECT_EQ(r.stats.segments, ids.size());
  EXPECT_FALSE(r.stats.torn_tail);
}

TEST_F(CommitLogTest, FirstRecordPosition) {
  auto log = OpenLog(Opts(), 4);
  auto pos = log->Append("hello");
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(*pos,
            (CommitLogPosition{4, kCommitLogSegmentHeaderSize + kCommitLogRecordOverhead + 5}));
}

TEST_F(CommitLogTest, RecordSizeLimit) {
  auto log = OpenLog(Opts(CommitLogSync::kBatch, 200));
  // Room is kept for a sync marker and the seal after the record.
  const uint64_t max =
      200 - kCommitLogSegmentHeaderSize - kCommitLogRecordOverhead - 2 * kCommitLogMarkerSize;
  auto too_big = log->Append(std::string(max + 1, 'x'));
  ASSERT_TRUE(too_big.status().IsInvalidArgument()) << too_big.status().ToString();
  EXPECT_NE(too_big.status().message().find("exceeds the maximum of 104 bytes"), std::string::npos)
      << too_big.status().message();
  EXPECT_EQ(log->bytes_written(), kCommitLogSegmentHeaderSize);  // the header only
  // The log is still healthy; a maximal record fills a segment on its own.
  auto a = log->Append(std::string(max, 'a'));
  auto b = log->Append(std::string(max, 'b'));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, (CommitLogPosition{1, 136}));
  EXPECT_EQ(*b, (CommitLogPosition{2, 136}));
  ASSERT_TRUE(log->Close().ok());
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{std::string(max, 'a'), std::string(max, 'b')}));
}

TEST_F(CommitLogTest, CloseIsIdempotentAndRefusesLaterWrites) {
  auto log = OpenLog(Opts(CommitLogSync::kPeriodic));
  ASSERT_TRUE(log->Append("a").ok());
  EXPECT_EQ(log->sync_count(), 0u);
  ASSERT_TRUE(log->Close().ok());
  EXPECT_EQ(log->sync_count(), 1u);  // Close syncs
  EXPECT_TRUE(log->Close().ok());
  EXPECT_TRUE(log->Append("b").status().IsInvalidArgument());
  EXPECT_TRUE(log->Sync().IsInvalidArgument());
  // Close made "a" durable.
  EXPECT_EQ(ReplayAll(fs_->CrashClone(0, 3).get(), kDir).payloads(), std::vector<std::string>{"a"});
}

TEST_F(CommitLogTest, BackgroundSyncThreadStartsAndStops) {
  // The thread's timing runs on real time and is not asserted here; this
  // checks that a log with the thread appends, syncs on Close and shuts
  // the thread down.
  CommitLogOptions o = Opts(CommitLogSync::kPeriodic);
  o.background_sync = true;
  o.sync_period_ms = 3600 * 1000;
  auto log = OpenLog(o);
  ASSERT_TRUE(log->Append("a").ok());
  ASSERT_TRUE(log->Close().ok());
  EXPECT_EQ(ReplayAll(fs_->CrashClone(0, 3).get(), kDir).payloads(), std::vector<std::string>{"a"});
}

TEST_F(CommitLogTest, DiscardDeletesOnlySegmentsWhollyBeforeThePosition) {
  auto log = OpenLog(Opts(CommitLogSync::kPeriodic, 200));
  // Each 100-byte payload fills a segment (20 + 112 + 112 > 200).
  std::vector<CommitLogPosition> pos;
  for (int i = 0; i < 5; ++i) {
    auto p = log->Append(std::string(100, static_cast<char>('a' + i)));
    ASSERT_TRUE(p.ok());
    pos.push_back(*p);
  }
  ASSERT_EQ(pos.back().segment_id, 5u);
  ASSERT_EQ(log->SegmentIds(), (std::vector<uint64_t>{1, 2, 3, 4, 5}));

  // Inside segment 2 (before its end): only segment 1 goes.
  ASSERT_TRUE(log->DiscardSegmentsBefore({2, pos[1].offset - 1}).ok());
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{2, 3, 4, 5}));
  // At the end of segment 3: 2 and 3 go.
  ASSERT_TRUE(log->DiscardSegmentsBefore(pos[2]).ok());
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{4, 5}));
  // Past everything: the active segment stays.
  ASSERT_TRUE(log->DiscardSegmentsBefore({99, 0}).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{5});

  // The deletions are durable (the directory was synced).
  auto crashed = fs_->CrashClone(0, 1);
  auto ids = ListCommitLogSegments(crashed.get(), kDir);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, std::vector<uint64_t>{5});
}

TEST_F(CommitLogTest, DiscardAdoptedSegments) {
  {
    auto old = OpenLog(Opts(CommitLogSync::kPeriodic, 200));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(old->Append(std::string(100, 'o')).ok());
    ASSERT_TRUE(old->Close().ok());
  }
  auto listed = ListCommitLogSegmentFiles(fs_.get(), kDir);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 3u);
  auto log = OpenLog(Opts(CommitLogSync::kPeriodic, 200), 4);
  log->AdoptSegments(*listed);
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{1, 2, 3, 4}));

  // Segment 3 (adopted, its records' end unknown to the log) goes only once
  // pos reaches its end, seal included.
  const uint64_t end3 =
      kCommitLogSegmentHeaderSize + kCommitLogRecordOverhead + 100 + kCommitLogMarkerSize;
  ASSERT_TRUE(log->DiscardSegmentsBefore({3, end3 - 1}).ok());
  EXPECT_EQ(log->SegmentIds(), (std::vector<uint64_t>{3, 4}));
  ASSERT_TRUE(log->DiscardSegmentsBefore({3, end3}).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{4});
  EXPECT_FALSE(fs_->FileExists(SegmentPath(kDir, 3)));
  EXPECT_TRUE(fs_->FileExists(SegmentPath(kDir, 4)));
}

TEST_F(CommitLogTest, DiscardToleratesAlreadyDeletedSegments) {
  auto log = OpenLog(Opts(CommitLogSync::kPeriodic), 5);
  log->AdoptSegments(
      {{2, kCommitLogFormatVersion}, {3, kCommitLogFormatVersion}});  // never existed
  ASSERT_TRUE(log->DiscardSegmentsBefore({5, 0}).ok());
  EXPECT_EQ(log->SegmentIds(), std::vector<uint64_t>{5});
}

// Four threads append concurrently: every record comes back exactly once,
// in the order of the positions the appenders got, and each thread's
// records in the order it wrote them.
void ConcurrentAppends(CommitLogSync sync) {
  auto fs = NewMemFileSystem();
  ManualClock clock(kTestStartMicros);
  CommitLogOptions o;
  o.dir = kDir;
  o.segment_size = 4096;
  o.sync = sync;
  auto opened = CommitLog::Open(fs.get(), &clock, o, 1);
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<CommitLog> log = std::move(opened).value();
  constexpr int kThreads = 4;
  constexpr int kPerThread = 300;
  std::vector<std::vector<CommitLogPosition>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto pos = log->Append("t" + std::to_string(t) + "-" + std::to_string(i) +
                               std::string(static_cast<size_t>(i % 50), '.'));
        ASSERT_TRUE(pos.ok()) << pos.status().ToString();
        got[t].push_back(*pos);
      }
    });
  }
  for (auto& th : threads) th.join();
  // Acknowledged => durable in batch and group mode, before Close.
  auto image = sync == CommitLogSync::kPeriodic ? fs : fs->CrashClone(0, 11);
  ASSERT_TRUE(log->Close().ok());

  ReplayOutcome r = ReplayAll(image.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.records.size(), size_t{kThreads * kPerThread});
  std::map<CommitLogPosition, std::string> by_position;
  std::vector<int> next(kThreads, 0);
  for (size_t k = 0; k < r.records.size(); ++k) {
    const auto& rec = r.records[k];
    if (k > 0) {
      ASSERT_LT(r.records[k - 1].position, rec.position);
    }
    const int t = rec.payload[1] - '0';
    const int i = std::stoi(rec.payload.substr(3));
    ASSERT_EQ(i, next[t]) << "thread " << t << " out of order";
    ++next[t];
    ASSERT_EQ(got[t][i], rec.position);
  }
}

TEST(CommitLogConcurrencyTest, FourThreadsBatch) { ConcurrentAppends(CommitLogSync::kBatch); }
TEST(CommitLogConcurrencyTest, FourThreadsGroup) { ConcurrentAppends(CommitLogSync::kGroup); }
TEST(CommitLogConcurrencyTest, FourThreadsPeriodic) { ConcurrentAppends(CommitLogSync::kPeriodic); }

}  // namespace
}  // namespace cassette
