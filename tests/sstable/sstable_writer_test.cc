#include "engine/sstable/sstable_writer.h"

#include <gtest/gtest.h>

#include "tests/sstable/sstable_test_util.h"
#include "tests/support/fault_injection_file_system.h"
#include "tests/support/file_contents.h"

namespace cassette {
namespace {

using sstable_test::Ck;

Row SimpleRow(std::string ck) {
  Row r;
  r.clustering = std::move(ck);
  r.marker = LivenessInfo{1, 0, kNoDeletionTime};
  return r;
}

std::pair<DecoratedKey, DecoratedKey> TwoKeysInOrder() {
  DecoratedKey a = DecoratedKey::FromKey("a"), b = DecoratedKey::FromKey("b");
  if (b < a) std::swap(a, b);
  return {a, b};
}

TEST(SSTableWriter, RefusesOutOfOrderPartitions) {
  auto fs = NewMemFileSystem();
  auto writer = SSTableWriter::Create(fs.get(), "/w.sst", {});
  ASSERT_TRUE(writer.ok());
  auto [first, second] = TwoKeysInOrder();
  ASSERT_TRUE((*writer)->BeginPartition(second, {}, {}, {}).ok());
  ASSERT_TRUE((*writer)->EndPartition().ok());
  EXPECT_TRUE((*writer)->BeginPartition(first, {}, {}, {}).IsInvalidArgument());
  EXPECT_TRUE((*writer)->BeginPartition(second, {}, {}, {}).IsInvalidArgument());  // duplicate
  // Same token, key bytes decide.
  DecoratedKey same_token_lower{second.token, ""};
  EXPECT_TRUE((*writer)->BeginPartition(same_token_lower, {}, {}, {}).IsInvalidArgument());
  DecoratedKey same_token_higher{second.token, second.key + "z"};
  EXPECT_TRUE((*writer)->BeginPartition(same_token_higher, {}, {}, {}).ok());
  EXPECT_TRUE((*writer)->EndPartition().ok());
  EXPECT_TRUE((*writer)->Finish().ok());
}

TEST(SSTableWriter, RefusesOutOfOrderRows) {
  auto fs = NewMemFileSystem();
  auto writer = SSTableWriter::Create(fs.get(), "/w.sst", {});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->BeginPartition(DecoratedKey::FromKey("k"), {}, {}, {}).ok());
  ASSERT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 5))).ok());
  EXPECT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 5))).IsInvalidArgument());
  EXPECT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 4))).IsInvalidArgument());
  EXPECT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 6))).ok());
  ASSERT_TRUE((*writer)->EndPartition().ok());
  auto stats = (*writer)->Finish();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->row_count, 2u);
}

TEST(SSTableWriter, RowWithEmptyClusteringIsAllowedFirst) {
  auto fs = NewMemFileSystem();
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(SimpleRow(""));
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/e.sst", {p}).ok());
  auto reader = SSTableReader::Open(fs.get(), "/e.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  auto got = sstable_test::ReadWhole(**reader, p.key);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ(**got, p);
}

TEST(SSTableWriter, RefusesCallsOutOfSequence) {
  auto fs = NewMemFileSystem();
  auto writer = SSTableWriter::Create(fs.get(), "/w.sst", {});
  ASSERT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 1))).IsInvalidArgument());
  EXPECT_TRUE((*writer)->EndPartition().IsInvalidArgument());
  ASSERT_TRUE((*writer)->BeginPartition(DecoratedKey::FromKey("k"), {}, {}, {}).ok());
  EXPECT_TRUE(
      (*writer)->BeginPartition(DecoratedKey::FromKey("l"), {}, {}, {}).IsInvalidArgument());
  EXPECT_TRUE((*writer)->Finish().status().IsInvalidArgument());
  ASSERT_TRUE((*writer)->EndPartition().ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_TRUE((*writer)->Finish().status().IsInvalidArgument());
  EXPECT_TRUE(fs->FileExists("/w.sst"));
}

TEST(SSTableWriter, ValidatesOptions) {
  auto fs = NewMemFileSystem();
  SSTableWriterOptions o;
  o.chunk_length = 10;
  o.row_index_interval = 0;
  o.bloom_fp_chance = 0;
  o.compression_level = 1000;
  auto writer = SSTableWriter::Create(fs.get(), "/w.sst", o);
  ASSERT_FALSE(writer.ok());
  EXPECT_TRUE(writer.status().IsInvalidArgument());
  const std::string& m = writer.status().message();
  for (const char* word :
       {"chunk_length", "row_index_interval", "bloom_fp_chance", "compression_level"}) {
    EXPECT_NE(m.find(word), std::string::npos) << m;
  }
  EXPECT_FALSE(fs->FileExists("/w.sst"));
}

TEST(SSTableWriter, AbandonAndDestructorDeleteThePartialFile) {
  auto fs = NewMemFileSystem();
  {
    auto writer = SSTableWriter::Create(fs.get(), "/a.sst", {});
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->BeginPartition(DecoratedKey::FromKey("k"), {}, {}, {}).ok());
    EXPECT_TRUE(fs->FileExists("/a.sst"));
    (*writer)->Abandon();
    EXPECT_FALSE(fs->FileExists("/a.sst"));
    EXPECT_TRUE((*writer)->AddRow(SimpleRow(Ck(1, 1))).IsInvalidArgument());
    (*writer)->Abandon();  // twice is fine
  }
  {
    auto writer = SSTableWriter::Create(fs.get(), "/b.sst", {});
    ASSERT_TRUE(writer.ok());
  }
  EXPECT_FALSE(fs->FileExists("/b.sst"));
}

TEST(SSTableWriter, EstimatedFileSizeTracksTheFile) {
  auto fs = NewMemFileSystem();
  SSTableWriterOptions o;
  o.compress = false;
  auto writer = SSTableWriter::Create(fs.get(), "/s.sst", o);
  ASSERT_TRUE(writer.ok());
  const uint64_t empty = (*writer)->EstimatedFileSize();
  sstable_test::Generator gen(1);
  for (const PartitionUpdate& p : gen.RandomPartitions(200, 20)) {
    ASSERT_TRUE((*writer)->Add(p).ok());
  }
  const uint64_t estimate = (*writer)->EstimatedFileSize();
  EXPECT_GT(estimate, empty);
  ASSERT_TRUE((*writer)->Finish().ok());
  auto size = fs->GetFileSize("/s.sst");
  ASSERT_TRUE(size.ok());
  // Within 10% (the open chunk and sections are approximated).
  EXPECT_GT(estimate, *size * 9 / 10);
  EXPECT_LT(estimate, *size * 11 / 10 + 2048);
}

TEST(SSTableWriter, IoErrorsAreStickyAndReturned) {
  auto fault = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  SSTableWriterOptions o;
  o.chunk_length = 512;
  auto writer = SSTableWriter::Create(fault.get(), "/f.sst", o);
  ASSERT_TRUE(writer.ok());
  FaultRule rule;
  rule.op = FaultOp::kWrite;
  fault->AddRule(rule);
  sstable_test::Generator gen(2);
  Status s;
  for (const PartitionUpdate& p : gen.RandomPartitions(100, 20)) {
    s = (*writer)->Add(p);
    if (!s.ok()) break;
  }
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE((*writer)->Finish().status().IsIOError());
  fault->ClearRules();
  (*writer)->Abandon();
  EXPECT_FALSE(fault->FileExists("/f.sst"));
}

TEST(SSTableWriter, SyncFailureFailsFinish) {
  auto fault = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  auto writer = SSTableWriter::Create(fault.get(), "/f.sst", {});
  ASSERT_TRUE(writer.ok());
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(SimpleRow(Ck(1, 1)));
  ASSERT_TRUE((*writer)->Add(p).ok());
  FaultRule rule;
  rule.op = FaultOp::kSync;
  fault->AddRule(rule);
  EXPECT_TRUE((*writer)->Finish().status().IsIOError());
}

TEST(SSTableWriter, FinishedFileIsDurable) {
  auto fs = NewMemFileSystem();
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(SimpleRow(Ck(1, 1)));
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/d.sst", {p}).ok());
  ASSERT_TRUE(fs->SyncDir("/").ok());
  auto crashed = fs->CrashClone(0, 1);
  auto reader = SSTableReader::Open(crashed.get(), "/d.sst", nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_TRUE((*reader)->VerifyChecksums().ok());
}

// A row added still encoded (compaction's pass-through) makes the same
// SSTable as the row added decoded, byte for byte and statistic for
// statistic: copied when its bases are the file's, re-based when not.
TEST(SSTableWriter, EncodedRowsMakeTheSameFile) {
  const uint64_t seed = sstable_test::TestSeed();
  SCOPED_TRACE("CASSETTE_SEED=" + std::to_string(seed));
  sstable_test::Generator gen(seed);
  const std::vector<PartitionUpdate> partitions = gen.RandomPartitions(40, 30);
  auto fs = NewMemFileSystem();
  SSTableWriterOptions options;
  options.encoding_stats = {sstable_test::kBaseTs, sstable_test::kNow, 3600};
  auto decoded = sstable_test::WriteTable(fs.get(), "/decoded.sst", partitions, options);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();

  options.expected_partitions = partitions.size();
  auto writer = SSTableWriter::Create(fs.get(), "/encoded.sst", options);
  ASSERT_TRUE(writer.ok());
  for (const PartitionUpdate& p : partitions) {
    ASSERT_TRUE((*writer)
                    ->BeginPartition(p.key, p.partition_deletion, p.static_row, p.range_tombstones)
                    .ok());
    for (const Row& row : p.rows) {
      EncodedRow encoded;
      encoded.encoding =
          gen.rnd().OneIn(2) ? options.encoding_stats : EncodingStats{gen.Ts(), gen.Ldt(), 7};
      std::string body;
      EncodeRowBody(row, encoded.encoding, &body);
      encoded.body = body;
      ASSERT_TRUE(ScanRowBody(body, encoded.encoding, &encoded.scan).ok());
      ASSERT_TRUE((*writer)->AddEncodedRow(row.clustering, encoded).ok());
    }
    ASSERT_TRUE((*writer)->EndPartition().ok());
  }
  auto encoded = (*writer)->Finish();
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  EXPECT_EQ(*encoded, *decoded);
  auto a = ReadFileToString(*fs, "/decoded.sst");
  auto b = ReadFileToString(*fs, "/encoded.sst");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(*a == *b);
}

}  // namespace
}  // namespace cassette
