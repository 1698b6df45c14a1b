// Compressed commit logs (segment format 3, FORMAT.md "Blocks"): what
// they write, when a record reaches the OS in each sync mode, positions,
// damage, a full disk, and logs that mix formats 2 and 3.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/clock.h"
#include "engine/commitlog/commit_log.h"
#include "engine/commitlog/commit_log_block.h"
#include "engine/util/coding.h"
#include "tests/commitlog/commit_log_test_util.h"
#include "tests/support/fault_injection_file_system.h"

namespace cassette {
namespace {

constexpr char kDir[] = "/db/commitlog";

CommitLogOptions Compressed(CommitLogSync sync, uint64_t segment_size = 1 << 20,
                            uint64_t block_size = 4096) {
  CommitLogOptions o;
  o.dir = kDir;
  o.segment_size = segment_size;
  o.sync = sync;
  o.compression = CommitLogCompression::kZstd;
  o.block_size = block_size;
  return o;
}

// A time-series-like record: the same key and column layout each time, a
// value that changes a little.
std::string SensorRecord(int i) {
  return "sensor-0042|temperature=" + std::to_string(20000 + i % 97) +
         "|humidity=" + std::to_string(40000 + i % 13) + "|tag=building-7/floor-3/room-12";
}

std::string CompressedSegmentPath(uint64_t id) {
  return std::string(kDir) + "/" + CommitLogSegmentFileName(kCompressedCommitLogFormatVersion, id);
}

class CommitLogCompressionTest : public ::testing::Test {
 protected:
  std::unique_ptr<CommitLog> Open(CommitLogOptions o, uint64_t first_id = 1) {
    auto log = CommitLog::Open(fs_.get(), &clock_, std::move(o), first_id);
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    return log.ok() ? std::move(log).value() : nullptr;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  ManualClock clock_{kTestStartMicros};
};

TEST_F(CommitLogCompressionTest, RoundTripsAcrossSegmentsWithOrdinalPositions) {
  auto log = Open(Compressed(CommitLogSync::kBatch, 2048, 512));
  std::vector<CommitLogPosition> positions;
  for (int i = 0; i < 200; ++i) {
    auto pos = log->Append(TestRecord(i));
    ASSERT_TRUE(pos.ok()) << pos.status().ToString();
    if (!positions.empty() && positions.back().segment_id == pos->segment_id) {
      // A record's position in format 3 is its ordinal in its segment.
      EXPECT_EQ(pos->offset, positions.back().offset + 1);
    } else {
      EXPECT_EQ(pos->offset, 1u);
    }
    EXPECT_EQ(log->CurrentPosition(), *pos);
    positions.push_back(*pos);
  }
  EXPECT_GT(positions.back().segment_id, 2u);
  ASSERT_TRUE(log->Close().ok());
  EXPECT_TRUE(fs_->FileExists(CompressedSegmentPath(1)));

  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.records.size(), 200u);
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(r.records[i].payload, TestRecord(i));
    EXPECT_EQ(r.records[i].position, positions[i]);
  }
  EXPECT_FALSE(r.stats.torn_tail);
  EXPECT_TRUE(r.stats.last_sealed);
}

TEST_F(CommitLogCompressionTest, WritesAFractionOfTheUncompressedLog) {
  auto measure = [&](CommitLogCompression compression) {
    auto fs = NewMemFileSystem();
    CommitLogOptions o = Compressed(CommitLogSync::kPeriodic, 8 << 20, 64 << 10);
    o.compression = compression;
    auto log = CommitLog::Open(fs.get(), &clock_, o, 1);
    EXPECT_TRUE(log.ok());
    for (int i = 0; i < 5000; ++i) EXPECT_TRUE((*log)->Append(SensorRecord(i)).ok());
    EXPECT_TRUE((*log)->Close().ok());
    EXPECT_EQ(ReplayAll(fs.get(), kDir).records.size(), 5000u);
    return (*log)->bytes_written();
  };
  const uint64_t plain = measure(CommitLogCompression::kNone);
  const uint64_t zstd = measure(CommitLogCompression::kZstd);
  // Records this alike shrink to well under a fifth.
  EXPECT_LT(zstd * 5, plain) << zstd << " compressed bytes against " << plain;
}

TEST_F(CommitLogCompressionTest, PeriodicModeHoldsRecordsInTheOpenBlockUntilItFillsOrSyncs) {
  auto log = Open(Compressed(CommitLogSync::kPeriodic, 1 << 20, 1024));
  auto in_the_os = [&] { return ReplayAll(fs_->CrashClone(100, 1).get(), kDir).records.size(); };
  auto durable = [&] { return ReplayAll(fs_->CrashClone(0, 1).get(), kDir).records.size(); };
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->Append(TestRecord(i)).ok());
  // Acknowledged, but still in memory: a crash of the process loses them,
  // as a power loss would lose them in the OS's cache.
  EXPECT_EQ(in_the_os(), 0u);
  // A block is written once its records reach block_size.
  int written = 3;
  while (in_the_os() == 0) {
    ASSERT_TRUE(log->Append(TestRecord(written++)).ok());
    ASSERT_LT(written, 100);
  }
  EXPECT_EQ(in_the_os(), static_cast<size_t>(written));
  EXPECT_EQ(durable(), 0u);
  ASSERT_TRUE(log->Append(TestRecord(written++)).ok());
  EXPECT_EQ(in_the_os(), static_cast<size_t>(written - 1));
  // A sync writes the open block, then its marker, then fsyncs.
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(durable(), static_cast<size_t>(written));
  // So does the period's sync on the next Append.
  ASSERT_TRUE(log->Append(TestRecord(written++)).ok());
  ASSERT_TRUE(clock_.Advance(20 * 1000 * 1000).ok());
  ASSERT_TRUE(log->Append(TestRecord(written++)).ok());
  EXPECT_EQ(durable(), static_cast<size_t>(written));
}

TEST_F(CommitLogCompressionTest, BatchAndGroupModesWriteEachGroupsBlockBeforeAcknowledging) {
  for (CommitLogSync sync : {CommitLogSync::kBatch, CommitLogSync::kGroup}) {
    fs_ = NewMemFileSystem();
    auto log = Open(Compressed(sync));
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(log->Append(TestRecord(i)).ok());
      // Acknowledged means fsynced: a power loss right now keeps it.
      EXPECT_EQ(ReplayAll(fs_->CrashClone(0, 1).get(), kDir).payloads().back(), TestRecord(i));
    }
  }
}

TEST_F(CommitLogCompressionTest, AFailedBlockWriteKeepsTheAcknowledgedRecordsForTheNextOne) {
  auto faulty = std::make_shared<FaultInjectionFileSystem>(fs_);
  auto opened =
      CommitLog::Open(faulty.get(), &clock_, Compressed(CommitLogSync::kPeriodic, 1 << 20, 64), 1);
  ASSERT_TRUE(opened.ok());
  auto& log = *opened;
  // Held in the open block (under 64 bytes of records): acknowledged.
  ASSERT_TRUE(log->Append("first").ok());
  ASSERT_TRUE(log->Append("second").ok());
  // This one fills the block; its write fails (a full disk).
  auto rule = ParseFaultRule("op=write path=*.log nth=1");
  ASSERT_TRUE(rule.ok());
  faulty->AddRule(*rule);
  EXPECT_TRUE(log->Append(std::string(80, 'x')).status().IsIOError());
  faulty->ClearRules();
  // The log goes on; the acknowledged records were kept and are written
  // with the next block, the refused one is gone.
  ASSERT_TRUE(log->Append("after").ok());
  ASSERT_TRUE(log->Sync().ok());
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{"first", "second", "after"}));
  EXPECT_EQ(r.records.back().position.offset, 3u);
}

// Damage in a block that a marker follows was fsynced: corruption, with
// what the damage cost; ignore replays past it, and the records after it
// keep their positions (ordinals, which the marker's record count restores).
TEST_F(CommitLogCompressionTest, DamagedBlockBeforeAMarkerIsCorruptionAndIgnoreKeepsPositions) {
  auto log = Open(Compressed(CommitLogSync::kBatch));
  std::vector<CommitLogPosition> positions;
  for (int i = 0; i < 6; ++i) {
    auto pos = log->Append(SensorRecord(i));
    ASSERT_TRUE(pos.ok());
    positions.push_back(*pos);
  }
  ASSERT_TRUE(log->Close().ok());
  const std::string path = CompressedSegmentPath(1);
  std::string bytes = ReadAll(fs_.get(), path);
  // Each batch-mode Append wrote one block and one marker: the second
  // block starts after the first block and its marker.
  uint32_t first_length = DecodeFixed32(bytes.data() + kCommitLogSegmentHeaderSize);
  const uint64_t second_block =
      kCommitLogSegmentHeaderSize + kCommitLogRecordOverhead + first_length + kCommitLogMarkerSize;
  bytes[second_block + kCommitLogRecordHeaderSize + 3] ^= 0x10;
  WriteAll(fs_.get(), path, bytes);

  ReplayOutcome stop = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(stop.status.IsCorruption()) << stop.status.ToString();
  const std::string& m = stop.status.message();
  EXPECT_NE(m.find(path), std::string::npos) << m;
  EXPECT_NE(m.find("at offset " + std::to_string(second_block)), std::string::npos) << m;
  EXPECT_NE(m.find("The damage holds 1 records and 4 intact records follow"), std::string::npos)
      << m;

  ReplayOptions ignore;
  ignore.skip_damage = true;
  ReplayOutcome skipped = ReplayAll(fs_.get(), kDir, ignore);
  ASSERT_TRUE(skipped.status.ok()) << skipped.status.ToString();
  EXPECT_EQ(skipped.stats.records_lost, 1u);
  ASSERT_EQ(skipped.records.size(), 5u);
  EXPECT_EQ(skipped.records[0].position, positions[0]);
  for (int i = 1; i < 5; ++i) {
    EXPECT_EQ(skipped.records[i].payload, SensorRecord(i + 1));
    EXPECT_EQ(skipped.records[i].position, positions[i + 1]);
  }
}

TEST_F(CommitLogCompressionTest, TornLastBlockIsATornTail) {
  auto log = Open(Compressed(CommitLogSync::kBatch));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->Append(SensorRecord(i)).ok());
  log.reset();  // sealed by Close
  const std::string path = CompressedSegmentPath(1);
  std::string bytes = ReadAll(fs_.get(), path);
  // Cut inside the last block's frame (before its marker and the seal): what
  // a crash during its write leaves.
  uint64_t offset = kCommitLogSegmentHeaderSize;
  uint64_t last_block = offset;
  for (int i = 0; i < 3; ++i) {
    last_block = offset;
    offset +=
        kCommitLogRecordOverhead + DecodeFixed32(bytes.data() + offset) + kCommitLogMarkerSize;
  }
  bytes.resize(last_block + 15);
  WriteAll(fs_.get(), path, bytes);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{SensorRecord(0), SensorRecord(1)}));
  EXPECT_TRUE(r.stats.torn_tail);
  EXPECT_EQ(r.stats.torn_at.offset, last_block);
  EXPECT_EQ(r.stats.last_records, 2u);

  // Sealing the tail cuts it and seals the segment; a second replay is clean.
  ASSERT_TRUE(SealCommitLogTail(fs_.get(), kDir, r.stats).ok());
  ReplayOutcome again = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(again.status.ok()) << again.status.ToString();
  EXPECT_EQ(again.records.size(), 2u);
  EXPECT_TRUE(again.stats.last_sealed);
}

TEST_F(CommitLogCompressionTest, ALogMayMixFormatsAcrossRestarts) {
  CommitLogOptions plain = Compressed(CommitLogSync::kBatch);
  plain.compression = CommitLogCompression::kNone;
  auto first = Open(plain, 1);
  ASSERT_TRUE(first->Append("plain-1").ok());
  ASSERT_TRUE(first->Close().ok());
  auto second = Open(Compressed(CommitLogSync::kBatch), 2);
  ASSERT_TRUE(second->Append("zstd-2").ok());
  ASSERT_TRUE(second->Close().ok());
  auto third = Open(plain, 3);
  ASSERT_TRUE(third->Append("plain-3").ok());
  ASSERT_TRUE(third->Close().ok());
  auto files = ListCommitLogSegmentFiles(fs_.get(), kDir);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[1].version, kCompressedCommitLogFormatVersion);
  ReplayOutcome r = ReplayAll(fs_.get(), kDir);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.payloads(), (std::vector<std::string>{"plain-1", "zstd-2", "plain-3"}));
}

// An adopted format-3 segment's records end cannot be bounded by its size
// (positions are ordinals): it is kept until the position moves past it.
TEST_F(CommitLogCompressionTest, AdoptedCompressedSegmentIsKeptUntilThePositionPassesIt) {
  auto old_log = Open(Compressed(CommitLogSync::kBatch), 1);
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(old_log->Append(SensorRecord(i)).ok());
  ASSERT_TRUE(old_log->Close().ok());
  auto files = ListCommitLogSegmentFiles(fs_.get(), kDir);
  ASSERT_TRUE(files.ok());
  auto log = Open(Compressed(CommitLogSync::kBatch), 2);
  log->AdoptSegments(*files);
  // A table that flushed only its first 10 records of segment 1.
  ASSERT_TRUE(log->DiscardSegmentsBefore(CommitLogPosition{1, 10}).ok());
  EXPECT_TRUE(fs_->FileExists(CompressedSegmentPath(1)));
  ASSERT_TRUE(log->DiscardSegmentsBefore(log->CurrentPosition()).ok());
  EXPECT_FALSE(fs_->FileExists(CompressedSegmentPath(1)));
}

TEST_F(CommitLogCompressionTest, RollIfOnlyBeforeComparesOrdinals) {
  auto log = Open(Compressed(CommitLogSync::kPeriodic));
  ASSERT_TRUE(log->Append("a").ok());
  const CommitLogPosition pos = log->CurrentPosition();
  ASSERT_TRUE(log->Append("b").ok());
  auto rolled = log->RollIfOnlyBefore(pos);
  ASSERT_TRUE(rolled.ok());
  EXPECT_FALSE(*rolled);  // "b" is past pos, though still in the open block
  rolled = log->RollIfOnlyBefore(log->CurrentPosition());
  ASSERT_TRUE(rolled.ok());
  EXPECT_TRUE(*rolled);
  EXPECT_EQ(log->CurrentPosition(), (CommitLogPosition{2, 0}));
  ASSERT_TRUE(log->Close().ok());
  EXPECT_EQ(ReplayAll(fs_.get(), kDir).payloads(), (std::vector<std::string>{"a", "b"}));
}

TEST(CommitLogBlockTest, StoredBlockGoldenBytes) {
  // Content that zstd cannot shrink is stored: codec 0, the content size,
  // then each record as varint length + payload.
  CommitLogBlockBuilder builder(1);
  builder.Add("ab");
  builder.Add("c");
  std::string framed;
  builder.FrameTo(&framed);
  const std::string block =
      framed.substr(kCommitLogRecordHeaderSize, framed.size() - kCommitLogRecordOverhead);
  EXPECT_EQ(ToHex(block),
            "0005"
            "026162"
            "0163");
  std::string content;
  uint64_t records = 0;
  ASSERT_EQ(DecodeCommitLogBlock(block, &content, &records), RecordFrameError::kNone);
  EXPECT_EQ(records, 2u);
  std::string_view rest = content;
  EXPECT_EQ(NextCommitLogBlockRecord(&rest), "ab");
  EXPECT_EQ(NextCommitLogBlockRecord(&rest), "c");
  EXPECT_TRUE(rest.empty());
}

TEST(CommitLogBlockTest, UndecodableBlocksAreRefused) {
  std::string content;
  uint64_t records = 0;
  auto decode = [&](std::string_view hex) {
    return DecodeCommitLogBlock(FromHex(hex), &content, &records);
  };
  EXPECT_EQ(decode(""), RecordFrameError::kBadBlock);
  EXPECT_EQ(decode("0200"), RecordFrameError::kBadBlock);        // unknown codec
  EXPECT_EQ(decode("0000"), RecordFrameError::kBadBlock);        // empty content
  EXPECT_EQ(decode("0004026162"), RecordFrameError::kBadBlock);  // size 4, 3 bytes follow
  EXPECT_EQ(decode("00020361"), RecordFrameError::kBadBlock);    // a record past the content
  EXPECT_EQ(decode("0103026162"), RecordFrameError::kBadBlock);  // not a zstd frame
  EXPECT_EQ(decode("0003026162"), RecordFrameError::kNone);      // the same, well formed
  EXPECT_EQ(records, 1u);
  // A zstd frame whose size is not the stated one.
  CommitLogBlockBuilder builder(1);
  builder.Add(std::string(1000, 'z'));
  std::string framed;
  builder.FrameTo(&framed);
  std::string block =
      framed.substr(kCommitLogRecordHeaderSize, framed.size() - kCommitLogRecordOverhead);
  ASSERT_EQ(static_cast<uint8_t>(block[0]), 1);  // compressed
  ASSERT_EQ(DecodeCommitLogBlock(block, &content, &records), RecordFrameError::kNone);
  std::string wrong_size = block;
  wrong_size[1] = static_cast<char>(static_cast<uint8_t>(wrong_size[1]) ^ 1);
  EXPECT_EQ(DecodeCommitLogBlock(wrong_size, &content, &records), RecordFrameError::kBadBlock);
}

}  // namespace
}  // namespace cassette
