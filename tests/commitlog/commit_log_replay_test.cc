#include "engine/commitlog/commit_log_replay.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/clock.h"
#include "engine/commitlog/commit_log.h"
#include "tests/commitlog/commit_log_test_util.h"

namespace cassette {
namespace {

constexpr char kDir[] = "/cl";

class CommitLogReplayTest : public ::testing::Test {
 protected:
  // Writes `n` records with a fresh log starting at `first_id`, closes it
  // and returns the records' positions.
  std::vector<CommitLogPosition> Write(int n, uint64_t first_id = 1, uint64_t segment_size = 1000,
                                       int first_record = 0) {
    CommitLogOptions o;
    o.dir = kDir;
    o.segment_size = segment_size;
    o.sync = CommitLogSync::kPeriodic;
    auto log = CommitLog::Open(fs_.get(), &clock_, o, first_id);
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    std::vector<CommitLogPosition> positions;
    for (int i = first_record; i < first_record + n; ++i) {
      auto pos = (*log)->Append(TestRecord(i));
      EXPECT_TRUE(pos.ok());
      positions.push_back(*pos);
    }
    EXPECT_TRUE((*log)->Close().ok());
    return positions;
  }

  std::vector<std::string> Records(int from, int to) {
    std::vector<std::string> out;
    for (int i = from; i < to; ++i) out.push_back(TestRecord(i));
    return out;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  ManualClock clock_{kTestStartMicros};
};

// Segment 1 holding the records "a" and "bc", as format version 1 lays it
// out (a build before markers wrote it). Reading it must keep working for
// as long as version 1 is supported.
constexpr char kGoldenVersion1SegmentHex[] =
    "4353434c01000000010000000000000076a06e05"  // header
    "010000009376bbf36156740d55"                // "a"
    "020000009681741f6263fcf9cb82";             // "bc"

// The same records as version 2 writes them, closed cleanly: the header
// names version 2, and the seal marker (at offset 47, after 2 records)
// ends the segment.
constexpr char kGoldenSegmentHex[] =
    "4353434c020000000100000000000000716f3b10"  // header
    "010000009376bbf36156740d55"                // "a"
    "020000009681741f6263fcf9cb82"              // "bc"
    "ffffffff5f9e0704"                          // marker head
    "2f000000000000000200000000000000020000007"
    "3da4cd8";  // offset 47, 2 records, seal

TEST_F(CommitLogReplayTest, WritesTheGoldenSegment) {
  CommitLogOptions o;
  o.dir = kDir;
  auto log = CommitLog::Open(fs_.get(), &clock_, o, 1);
  ASSERT_TRUE(log.ok());
  ASSERT_TRUE((*log)->Append("a").ok());
  ASSERT_TRUE((*log)->Append("bc").ok());
  ASSERT_TRUE((*log)->Close().ok());
  EXPECT_EQ(ToHex(ReadAll(fs_.get(), SegmentPath(kDir, 1))), kGoldenSegmentHex);
}

TEST_F(CommitLogReplayTest, ReadsTheGoldenSegments) {
  ASSERT_TRUE(fs_->CreateDirs(kDir).ok());
  WriteAll(fs_.get(), SegmentPath(kDir, 1), FromHex(kGoldenSegmentHex));
  ReplayOutcome v2 = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(v2.status.ok()) << v2.status.ToString();
  EXPECT_EQ(v2.payloads(), (std::vector<std::string>{"a", "bc"}));
  EXPECT_TRUE(v2.stats.last_sealed);
  ASSERT_TRUE(fs_->DeleteFile(SegmentPath(kDir, 1)).ok());
  WriteAll(fs_.get(), std::string(kDir) + "/" + CommitLogSegmentFileName(uint32_t{1}, 1),
           FromHex(kGoldenVersion1SegmentHex));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].payload, "a");
  EXPECT_EQ(r.records[0].position, (CommitLogPosition{1, 33}));
  EXPECT_EQ(r.records[1].payload, "bc");
  EXPECT_EQ(r.records[1].position, (CommitLogPosition{1, 47}));
  EXPECT_EQ(r.stats.bytes, 27u);
  EXPECT_FALSE(r.stats.torn_tail);
}

TEST_F(CommitLogReplayTest, MissingDirectoryIsEmpty) {
  auto ids = ListCommitLogSegments(fs_.get(), "/nowhere");
  ASSERT_TRUE(ids.ok());
  EXPECT_TRUE(ids->empty());
  ReplayOutcome r = ReplayAll(fs_.get(), "/nowhere");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.stats.segments, 0u);
}

TEST_F(CommitLogReplayTest, ListSortsNumericallyAndIgnoresOtherFiles) {
  ASSERT_TRUE(fs_->CreateDirs(kDir).ok());
  for (const char* name : {"CommitLog-1-10.log", "CommitLog-1-9.log", "CommitLog-1-100.log",
                           "CommitLog-1-5.log.repair", "notes.txt"}) {
    WriteAll(fs_.get(), std::string(kDir) + "/" + name, "");
  }
  auto ids = ListCommitLogSegments(fs_.get(), kDir);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<uint64_t>{9, 10, 100}));
}

TEST_F(CommitLogReplayTest, OtherFormatVersionIsRefused) {
  Write(1);
  WriteAll(fs_.get(), std::string(kDir) + "/CommitLog-4-7.log", "");
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  EXPECT_EQ(r.status.code(), Status::Code::kNotSupported) << r.status.ToString();
  EXPECT_NE(r.status.message().find("CommitLog-4-7.log"), std::string::npos);
}

TEST_F(CommitLogReplayTest, CallbackErrorStopsReplay) {
  Write(5);
  int calls = 0;
  Status s = ReplayCommitLog(
      fs_.get(), kDir, {},
      [&](const CommitLogPosition&, std::string_view) {
        return ++calls == 3 ? Status::IOError("apply failed") : Status::OK();
      },
      nullptr);
  EXPECT_EQ(s, Status::IOError("apply failed"));
  EXPECT_EQ(calls, 3);
}

// Cuts the last segment at every byte offset inside its last few records:
// replay never fails and returns exactly the records that are still whole.
TEST_F(CommitLogReplayTest, TruncatedLastSegmentAtEveryOffset) {
  std::vector<CommitLogPosition> pos = Write(12, 1, 400);
  const uint64_t last = pos.back().segment_id;
  ASSERT_GT(last, 1u);
  const std::string path = SegmentPath(kDir, last);
  const std::string full = ReadAll(fs_.get(), path);
  // Close sealed the last segment after its last record.
  ASSERT_EQ(full.size(), pos.back().offset + kCommitLogMarkerSize);

  // Records in the last segment, and how many records precede it.
  int first_in_last = 0;
  while (pos[first_in_last].segment_id != last) ++first_in_last;
  ASSERT_GE(pos.size() - first_in_last, 3u) << "want a few records in the last segment";
  // Every cut, from an empty file (a torn creation) to the whole segment.
  for (uint64_t cut = 0; cut <= full.size(); ++cut) {
    WriteAll(fs_.get(), path, std::string_view(full).substr(0, cut));
    ReplayOutcome r = ReplayAll(fs_.get(), kDir);
    ASSERT_TRUE(r.status.ok()) << "cut " << cut << ": " << r.status.ToString();
    int whole = first_in_last;
    while (whole < static_cast<int>(pos.size()) && pos[whole].offset <= cut) ++whole;
    ASSERT_EQ(r.payloads(), Records(0, whole)) << "cut " << cut;
    if (cut < kCommitLogSegmentHeaderSize) {
      EXPECT_TRUE(r.stats.torn_tail);
      EXPECT_EQ(r.stats.torn_at, (CommitLogPosition{last, 0}));
      EXPECT_EQ(r.stats.discarded_bytes, cut);
      EXPECT_EQ(r.stats.segments, last - 1);
      continue;
    }
    const uint64_t intact_end = cut == full.size()      ? full.size()
                                : whole > first_in_last ? pos[whole - 1].offset
                                                        : kCommitLogSegmentHeaderSize;
    EXPECT_EQ(r.stats.segments, last);
    EXPECT_EQ(r.stats.torn_tail, cut != intact_end) << "cut " << cut;
    EXPECT_EQ(r.stats.discarded_bytes, cut - intact_end) << "cut " << cut;
    if (r.stats.torn_tail) {
      EXPECT_EQ(r.stats.torn_at, (CommitLogPosition{last, intact_end})) << "cut " << cut;
    }
  }
}

TEST_F(CommitLogReplayTest, TornHeaderOfLastSegmentIsIgnored) {
  std::vector<CommitLogPosition> pos = Write(3);
  ASSERT_EQ(pos.back().segment_id, 1u);
  const std::string path2 = SegmentPath(kDir, 2);
  std::string header;
  EncodeCommitLogSegmentHeader(2, &header);
  for (size_t cut = 0; cut < header.size(); ++cut) {
    WriteAll(fs_.get(), path2, header.substr(0, cut));
    ReplayOutcome r = ReplayAll(fs_.get(), kDir);
    ASSERT_TRUE(r.status.ok()) << cut << ": " << r.status.ToString();
    EXPECT_EQ(r.payloads(), Records(0, 3));
    EXPECT_EQ(r.stats.segments, 1u);
    EXPECT_TRUE(r.stats.torn_tail);
    EXPECT_EQ(r.stats.torn_at, (CommitLogPosition{2, 0}));
    EXPECT_EQ(r.stats.discarded_bytes, cut);
  }
  // A whole header and nothing else is a valid, empty segment.
  WriteAll(fs_.get(), path2, header);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.stats.segments, 2u);
  EXPECT_FALSE(r.stats.torn_tail);
}

TEST_F(CommitLogReplayTest, DamagedHeaderOfEarlierSegmentIsCorruption) {
  Write(3, 1);
  Write(3, 2, 1000, 3);
  const std::string path1 = SegmentPath(kDir, 1);
  std::string bytes = ReadAll(fs_.get(), path1);
  bytes[10] ^= 0x40;
  WriteAll(fs_.get(), path1, bytes);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(r.status.message().find(path1), std::string::npos) << r.status.message();
  EXPECT_NE(r.status.message().find("at offset 0"), std::string::npos) << r.status.message();
  EXPECT_TRUE(r.records.empty());
}

// The header is fsynced before any record: a last segment whose header is
// damaged but that holds bytes past it lost its header to rot, not to a
// crash, and its records must not be skipped silently.
TEST_F(CommitLogReplayTest, DamagedHeaderOfLastSegmentWithRecordsIsCorruption) {
  Write(3);
  const std::string path = SegmentPath(kDir, 1);
  std::string bytes = ReadAll(fs_.get(), path);
  bytes[5] ^= 0x01;
  WriteAll(fs_.get(), path, bytes);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(r.status.message().find(path + ": segment header checksum mismatch at offset 0"),
            std::string::npos)
      << r.status.message();
  ReplayOptions ignore;
  ignore.skip_damage = true;
  ReplayOutcome skipped = ReplayAll(fs_.get(), kDir, ignore);
  ASSERT_TRUE(skipped.status.ok());
  EXPECT_EQ(skipped.stats.damage.size(), 1u);
}

TEST_F(CommitLogReplayTest, HeaderNamingAnotherSegmentIsCorruption) {
  Write(2, 1);
  // Copy segment 1 over as segment 2: intact, but misplaced.
  WriteAll(fs_.get(), SegmentPath(kDir, 2), ReadAll(fs_.get(), SegmentPath(kDir, 1)));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(r.status.message().find("CommitLog-2-2.log: header names segment 1"), std::string::npos)
      << r.status.message();
}

TEST_F(CommitLogReplayTest, CorruptByteInEarlierSegmentIsCorruptionWithFileAndOffset) {
  std::vector<CommitLogPosition> pos = Write(12, 1, 400);
  ASSERT_GT(pos.back().segment_id, 1u);
  const std::string path1 = SegmentPath(kDir, 1);
  const std::string good = ReadAll(fs_.get(), path1);
  // Every byte of every frame of segment 1 (its records, then its seal),
  // in turn.
  const uint64_t seal = good.size() - kCommitLogMarkerSize;
  for (size_t i = kCommitLogSegmentHeaderSize; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x04;
    WriteAll(fs_.get(), path1, bad);
    ReplayOutcome r = ReplayAll(fs_.get(), kDir);
    ASSERT_TRUE(r.status.IsCorruption()) << i << ": " << r.status.ToString();
    // The offset named is the start of the damaged frame.
    uint64_t frame_start = kCommitLogSegmentHeaderSize;
    for (const auto& p : pos) {
      if (p.segment_id == 1 && p.offset <= i) frame_start = p.offset;
    }
    const char* what = i < frame_start + 8 ? "record length checksum mismatch"
                       : i >= seal         ? "damaged sync marker"
                                           : "record payload checksum mismatch";
    EXPECT_TRUE(r.status.message().starts_with("commit log segment " + path1 + ": " + what +
                                               " at offset " + std::to_string(frame_start)))
        << i << ": " << r.status.message();
  }
  // A segment cut short that is not the last one is corruption too.
  WriteAll(fs_.get(), path1, std::string_view(good).substr(0, good.size() - 1));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption());
  EXPECT_NE(r.status.message().find("truncated record"), std::string::npos) << r.status.message();
}

// Damage in the last segment followed by a marker was fsynced: it is not a
// torn write. Stop refuses with the file, the offset and what follows;
// ignore replays on from the marker and counts what was lost.
TEST_F(CommitLogReplayTest, CorruptByteBeforeAMarkerInLastSegmentIsCorruption) {
  std::vector<CommitLogPosition> pos = Write(12, 1, 400);
  const uint64_t last = pos.back().segment_id;
  int first_in_last = 0;
  while (pos[first_in_last].segment_id != last) ++first_in_last;
  const std::string path = SegmentPath(kDir, last);
  std::string bytes = ReadAll(fs_.get(), path);
  // Damage the second record of the last segment (Close sealed it).
  const uint64_t victim = pos[first_in_last].offset;
  bytes[victim + 9] ^= 0x01;
  WriteAll(fs_.get(), path, bytes);
  const size_t in_last = pos.size() - first_in_last;
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  // The seal is the first marker after the damage: every record from the
  // damaged one to it is lost, none follows it.
  EXPECT_TRUE(r.status.message().starts_with(
      "commit log segment " + path + ": record payload checksum mismatch at offset " +
      std::to_string(victim) + ", before an intact marker at offset " +
      std::to_string(pos.back().offset) + ": not a torn write, the segment was fsynced past it. " +
      "The damage holds " + std::to_string(in_last - 1) +
      " records and 0 intact records follow the marker"))
      << r.status.message();

  ReplayOptions ignore;
  ignore.skip_damage = true;
  ReplayOutcome skipped = ReplayAll(fs_.get(), kDir, ignore);
  ASSERT_TRUE(skipped.status.ok()) << skipped.status.ToString();
  EXPECT_EQ(skipped.payloads(), Records(0, first_in_last + 1));
  EXPECT_FALSE(skipped.stats.torn_tail);
  ASSERT_EQ(skipped.stats.damage.size(), 1u);
  EXPECT_EQ(skipped.stats.records_lost, in_last - 1);
}

// Periodic mode: damage after the last sync marker is the unsynced tail a
// power loss may leave in any state, so it ends replay cleanly.
TEST_F(CommitLogReplayTest, CorruptByteAfterTheLastMarkerIsATornTail) {
  std::vector<CommitLogPosition> pos = Write(12, 1, 400);
  const uint64_t last = pos.back().segment_id;
  int first_in_last = 0;
  while (pos[first_in_last].segment_id != last) ++first_in_last;
  const std::string path = SegmentPath(kDir, last);
  // Drop the seal: the segment as it stood before Close, never synced.
  std::string bytes = ReadAll(fs_.get(), path);
  bytes.resize(bytes.size() - kCommitLogMarkerSize);
  const uint64_t victim = pos[first_in_last].offset;
  bytes[victim + 9] ^= 0x01;
  WriteAll(fs_.get(), path, bytes);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), Records(0, first_in_last + 1));
  EXPECT_TRUE(r.stats.torn_tail);
  EXPECT_EQ(r.stats.torn_at, (CommitLogPosition{last, victim}));
  EXPECT_EQ(r.stats.discarded_bytes, bytes.size() - victim);
}

TEST_F(CommitLogReplayTest, MissingSegmentsAreCorruption) {
  Write(3, 1);
  Write(3, 2, 1000, 3);
  Write(3, 3, 1000, 6);
  ASSERT_TRUE(fs_->DeleteFile(SegmentPath(kDir, 2)).ok());
  ReplayOutcome middle = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(middle.status.IsCorruption()) << middle.status.ToString();
  EXPECT_NE(middle.status.message().find("CommitLog-2-2.log is missing"), std::string::npos)
      << middle.status.message();

  ReplayOptions ignore;
  ignore.skip_damage = true;
  ReplayOutcome skipped = ReplayAll(fs_.get(), kDir, ignore);
  ASSERT_TRUE(skipped.status.ok()) << skipped.status.ToString();
  std::vector<std::string> want = Records(0, 3);
  for (const std::string& r : Records(6, 9)) want.push_back(r);
  EXPECT_EQ(skipped.payloads(), want);
  EXPECT_EQ(skipped.stats.damage.size(), 1u);

  // The first and the newest, known from the manifest's bounds.
  ReplayOptions bounds;
  bounds.first_required_segment = 1;
  bounds.newest_known_segment = 4;
  ASSERT_TRUE(fs_->DeleteFile(SegmentPath(kDir, 1)).ok());
  ReplayOutcome first = ReplayAll(fs_.get(), kDir, bounds);
  ASSERT_TRUE(first.status.IsCorruption()) << first.status.ToString();
  EXPECT_NE(first.status.message().find("CommitLog-2-1.log to CommitLog-2-2.log is missing"),
            std::string::npos)
      << first.status.message();
  bounds.first_required_segment = 3;
  ReplayOutcome newest = ReplayAll(fs_.get(), kDir, bounds);
  ASSERT_TRUE(newest.status.IsCorruption()) << newest.status.ToString();
  EXPECT_NE(newest.status.message().find("CommitLog-2-4.log is missing"), std::string::npos)
      << newest.status.message();
  // Segments before the first required one are not even read.
  bounds.newest_known_segment = 3;
  ReplayOutcome fine = ReplayAll(fs_.get(), kDir, bounds);
  ASSERT_TRUE(fine.status.ok()) << fine.status.ToString();
  EXPECT_EQ(fine.payloads(), Records(6, 9));
}

TEST_F(CommitLogReplayTest, EarlierSegmentWithoutItsSealIsCorruption) {
  Write(3, 1);
  const std::string path1 = SegmentPath(kDir, 1);
  std::string bytes = ReadAll(fs_.get(), path1);
  Write(3, 2, 1000, 3);
  // Cut exactly at a frame boundary: every frame left is intact, but the
  // segment lost its end.
  WriteAll(fs_.get(), path1,
           std::string_view(bytes).substr(0, bytes.size() - kCommitLogMarkerSize));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(r.status.message().find("without its seal marker"), std::string::npos)
      << r.status.message();
}

TEST_F(CommitLogReplayTest, ZeroedTailIsTorn) {
  std::vector<CommitLogPosition> pos = Write(3);
  const std::string path = SegmentPath(kDir, 1);
  WriteAll(fs_.get(), path, ReadAll(fs_.get(), path) + std::string(4096, '\0'));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.payloads(), Records(0, 3));
  EXPECT_TRUE(r.stats.torn_tail);
  EXPECT_EQ(r.stats.discarded_bytes, 4096u);
}

TEST_F(CommitLogReplayTest, SealKeepsTheLogReplayableAfterNewSegments) {
  std::vector<CommitLogPosition> pos = Write(5);
  const std::string path = SegmentPath(kDir, 1);
  std::string bytes = ReadAll(fs_.get(), path);
  // Torn inside the last record: its seal and part of it never made it.
  WriteAll(fs_.get(), path, bytes.substr(0, pos[4].offset - 3));

  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok());
  ASSERT_TRUE(r.stats.torn_tail);
  ASSERT_TRUE(SealCommitLogTail(fs_.get(), kDir, r.stats).ok());
  std::string sealed = bytes.substr(0, pos[3].offset);
  EncodeCommitLogMarker({pos[3].offset, 4, CommitLogMarkerKind::kSeal}, &sealed);
  EXPECT_EQ(ReadAll(fs_.get(), path), sealed);

  // A new segment after the repaired one: the old one is no longer last,
  // and replays without complaint. The repair survives a crash.
  Write(2, 2, 1000, 100);
  ReplayOutcome again = ReplayAll(fs_->CrashClone(0, 5).get(), kDir);
  ASSERT_TRUE(again.status.ok()) << again.status.ToString();
  std::vector<std::string> want = Records(0, 4);
  want.push_back(TestRecord(100));
  want.push_back(TestRecord(101));
  EXPECT_EQ(again.payloads(), want);
  EXPECT_FALSE(again.stats.torn_tail);
}

TEST_F(CommitLogReplayTest, WithoutSealATornSegmentBecomesCorruptionOnceNotLast) {
  std::vector<CommitLogPosition> pos = Write(5);
  const std::string path = SegmentPath(kDir, 1);
  std::string bytes = ReadAll(fs_.get(), path);
  WriteAll(fs_.get(), path, bytes.substr(0, pos[4].offset - 3));
  Write(1, 2);
  EXPECT_TRUE(ReplayAll(fs_.get(), kDir).status.IsCorruption());
}

TEST_F(CommitLogReplayTest, SealDeletesSegmentWithTornHeader) {
  Write(2);
  WriteAll(fs_.get(), SegmentPath(kDir, 2), "CSC");
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok());
  ASSERT_TRUE(r.stats.torn_tail);
  ASSERT_TRUE(SealCommitLogTail(fs_.get(), kDir, r.stats).ok());
  auto ids = ListCommitLogSegments(fs_->CrashClone(0, 1).get(), kDir);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, std::vector<uint64_t>{1});
}

TEST_F(CommitLogReplayTest, SealOfASealedIntactSegmentDoesNothing) {
  Write(2);
  const std::string before = ReadAll(fs_.get(), SegmentPath(kDir, 1));
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_FALSE(r.stats.torn_tail);
  ASSERT_TRUE(r.stats.last_sealed);
  ASSERT_TRUE(SealCommitLogTail(fs_.get(), kDir, r.stats).ok());
  EXPECT_EQ(ReadAll(fs_.get(), SegmentPath(kDir, 1)), before);
}

}  // namespace
}  // namespace cassette
