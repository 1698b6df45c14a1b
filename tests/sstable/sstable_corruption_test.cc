// Damaged files: a flipped byte anywhere (footer, each section, index
// blocks, row index nodes, data chunks) or a truncated file is reported as
// Corruption naming the file, at open or on the read that reaches it;
// never a crash, never wrong data.
#include <gtest/gtest.h>

#include "engine/sstable/partition_codec.h"
#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/row_index.h"
#include "engine/sstable/sstable_format.h"
#include "engine/util/checksum.h"
#include "engine/util/coding.h"
#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Drain;
using sstable_test::Generator;

std::string ReadAll(FileSystem* fs, const std::string& path) {
  auto file = fs->NewRandomAccessFile(path);
  EXPECT_TRUE(file.ok());
  std::string out;
  EXPECT_TRUE((*file)->Read(0, (*file)->Size(), &out).ok());
  return out;
}

void WriteAll(FileSystem* fs, const std::string& path, std::string_view bytes) {
  auto file = fs->NewWritableFile(path);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Append(bytes).ok());
  ASSERT_TRUE((*file)->Close().ok());
}

class Corruption : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = NewMemFileSystem();
    Generator gen(sstable_test::TestSeed());
    partitions_ = gen.RandomPartitions(30, 60);
    // One big partition so the file has row index nodes.
    PartitionUpdate big = gen.RandomPartition(DecoratedKey::FromKey("big"), 0);
    for (uint32_t i = 0; i < 3000; ++i) big.rows.push_back(gen.RandomRow(sstable_test::Ck(i, i)));
    auto pos = std::lower_bound(
        partitions_.begin(), partitions_.end(), big,
        [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
    partitions_.insert(pos, std::move(big));
    SSTableWriterOptions options;
    options.chunk_length = 2048;
    options.row_index_interval = 64;
    ASSERT_TRUE(sstable_test::WriteTable(fs_.get(), "/good.sst", partitions_, options).ok());
    good_ = ReadAll(fs_.get(), "/good.sst");
    auto reader = SSTableReader::Open(fs_.get(), "/good.sst", nullptr);
    ASSERT_TRUE(reader.ok());
    reader_ = *reader;
  }

  // Every read a client could make: whole partitions forward and reversed,
  // and a full scan. The first error, or OK.
  Status ReadEverything(const SSTableReader& r) {
    for (const PartitionUpdate& p : partitions_) {
      for (bool reversed : {false, true}) {
        auto content = r.ReadPartition(p.key, ClusteringRange::All(), reversed, nullptr);
        if (!content.ok()) return content.status();
        if (!content->has_value()) continue;  // a damaged bloom filter may say so
        Drain((*content)->rows.get());
        CASSETTE_RETURN_IF_ERROR((*content)->rows->status());
      }
    }
    auto scanner = r.NewScanner(TokenInterval::All(), nullptr);
    for (; scanner->Valid(); scanner->Next()) {
      Drain(scanner->partition().rows.get());
      CASSETTE_RETURN_IF_ERROR(scanner->partition().rows->status());
    }
    return scanner->status();
  }

  // Flips one byte at `offset` and checks the damage is caught.
  void ExpectCaught(uint64_t offset, const std::string& what) {
    SCOPED_TRACE(what + " offset " + std::to_string(offset));
    std::string bad = good_;
    bad[offset] = static_cast<char>(bad[offset] ^ 0x5a);
    const std::string path = "/bad-" + std::to_string(offset) + ".sst";
    WriteAll(fs_.get(), path, bad);
    auto reader = SSTableReader::Open(fs_.get(), path, nullptr);
    if (!reader.ok()) {
      ExpectCorruptionOf(reader.status(), path);
      return;
    }
    Status verify = (*reader)->VerifyChecksums();
    ExpectCorruptionOf(verify, path);
    // Reads either fail with Corruption or, when they never touch the
    // damaged byte (a bloom filter bit), still return the right data.
    Status read = ReadEverything(**reader);
    if (!read.ok()) ExpectCorruptionOf(read, path);
  }

  static void ExpectCorruptionOf(const Status& s, const std::string& path) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("offset"), std::string::npos) << s.ToString();
  }

  std::shared_ptr<MemFileSystem> fs_;
  std::vector<PartitionUpdate> partitions_;
  std::string good_;
  std::shared_ptr<SSTableReader> reader_;
};

TEST_F(Corruption, GoodFileReadsBack) {
  EXPECT_TRUE(reader_->VerifyChecksums().ok());
  EXPECT_TRUE(ReadEverything(*reader_).ok());
}

TEST_F(Corruption, FlipInEveryRegionIsCaught) {
  const Footer& footer = reader_->footer();
  const uint64_t footer_offset = good_.size() - kFooterSize;
  for (uint64_t at : {footer_offset, footer_offset + 100, good_.size() - 12,
                      static_cast<uint64_t>(good_.size() - 1)}) {
    ExpectCaught(at, "footer");
  }
  for (const SectionEntry& e : footer.sections) {
    if (e.type == SectionType::kNone) continue;
    ExpectCaught(e.offset, "section start");
    ExpectCaught(e.offset + e.length / 2, "section middle");
    ExpectCaught(e.offset + e.length - 1, "section end");
  }
  const auto& chunks = reader_->fetcher().chunks().chunks;
  ASSERT_GT(chunks.size(), 3u);
  for (size_t i : {size_t{0}, chunks.size() / 2, chunks.size() - 1}) {
    ExpectCaught(chunks[i].offset, "chunk start");
    ExpectCaught(chunks[i].offset + chunks[i].size / 2, "chunk middle");
    ExpectCaught(chunks[i].offset + chunks[i].size - 5, "chunk type byte");
    ExpectCaught(chunks[i].offset + chunks[i].size - 1, "chunk checksum");
  }
  const IndexSummary& summary = reader_->summary();
  ASSERT_GT(summary.size(), 0u);
  for (size_t i : {size_t{0}, summary.size() - 1}) {
    const BlockHandle& h = summary[i].handle;
    ExpectCaught(h.offset, "index block start");
    ExpectCaught(h.offset + h.size / 2, "index block middle");
  }
  // Row index nodes, reached from the big partition's root.
  int nodes = 0;
  for (size_t i = 0; i < summary.size(); ++i) {
    std::string payload;
    ASSERT_TRUE(reader_->fetcher()
                    .LoadIndexBlock(summary[i].handle, "partition index block", &payload)
                    .ok());
    std::string_view in(payload);
    PartitionIndexEntry entry;
    while (!in.empty() && DecodePartitionIndexEntry(&in, &entry)) {
      RowIndexRoot root;
      if (entry.row_index.empty() || !DecodeRowIndexRoot(entry.row_index, &root)) continue;
      if (root.depth == 0) continue;
      for (const RowIndexEntry& child : {root.entries.front(), root.entries.back()}) {
        ExpectCaught(child.offset + child.size / 2, "row index node");
        ++nodes;
      }
    }
  }
  EXPECT_GT(nodes, 0);
}

TEST_F(Corruption, RandomFlipsAreCaught) {
  Random rnd(sstable_test::TestSeed());
  for (int i = 0; i < 60; ++i) ExpectCaught(rnd.Uniform(good_.size()), "random");
}

TEST_F(Corruption, TruncatedFilesAreCorruption) {
  for (uint64_t n :
       {uint64_t{0}, uint64_t{1}, uint64_t{100}, uint64_t{kFooterSize},
        static_cast<uint64_t>(good_.size() / 2), static_cast<uint64_t>(good_.size() - kFooterSize),
        static_cast<uint64_t>(good_.size() - 1)}) {
    SCOPED_TRACE(n);
    const std::string path = "/trunc.sst";
    WriteAll(fs_.get(), path, std::string_view(good_).substr(0, n));
    auto reader = SSTableReader::Open(fs_.get(), path, nullptr);
    ASSERT_FALSE(reader.ok());
    ExpectCorruptionOf(reader.status(), path);
  }
}

TEST_F(Corruption, GarbageIsNotAnSSTable) {
  Random rnd(7);
  const std::string path = "/garbage.sst";
  WriteAll(fs_.get(), path, rnd.Bytes(5000));
  auto reader = SSTableReader::Open(fs_.get(), path, nullptr);
  ASSERT_FALSE(reader.ok());
  ExpectCorruptionOf(reader.status(), path);
  EXPECT_NE(reader.status().message().find("bad magic"), std::string::npos);
}

// Version 3: a row block's timestamp steps that run past the block, or
// that outnumber its rows, are Corruption, forward and reversed. The file
// is written raw (its data in one chunk at offset 0) and only the steps'
// length is rewritten, with the chunk's checksum made good again, so
// nothing but the steps check can catch it.
class TimestampStepsCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
    // Rows "a" then "bb": prefix-form clusterings, so the second row's
    // entry also reads as a block's first.
    PartitionUpdate p;
    p.key = DecoratedKey::FromKey("k");
    for (const char* ck : {"a", "bb"}) {
      Row r;
      r.clustering = ck;
      r.marker = LivenessInfo{sstable_test::kBaseTs, 0, kNoDeletionTime};
      r.columns.push_back(sstable_test::SimpleColumn(1, Cell::Live(sstable_test::kBaseTs, "v")));
      p.rows.push_back(std::move(r));
    }
    key_ = p.key;
    SSTableWriterOptions o;
    o.compress = false;
    o.chunk_length = 1 << 16;
    // Both rows' timestamp steps are then 0: one byte each.
    o.encoding_stats = {sstable_test::kBaseTs, 0, 0};
    ASSERT_TRUE(sstable_test::WriteTable(fs_.get(), "/t.sst", {p}, o).ok());
    file_ = ReadAll(fs_.get(), "/t.sst");
    // The stream: varint header length, header, steps length, steps, the
    // two row entries, the end-of-partition byte.
    std::string_view in = file_;
    uint64_t header_length;
    ASSERT_TRUE(GetVarint64(&in, &header_length));
    steps_at_ = file_.size() - in.size() + header_length;
    ASSERT_EQ(file_.substr(steps_at_, 3), std::string("\x02\x00\x00", 3));
    RowEntryHeadInput rows{std::string_view(file_).substr(steps_at_ + 3)};
    std::string_view steps("\x00\x00", 2);
    std::string clustering;
    EncodingStats bases = o.encoding_stats;
    for (int i = 0; i < 2; ++i) {
      uint64_t body_length = 0;
      ASSERT_EQ(ParseRowEntryHead(rows, 3, &clustering, &bases, &body_length, &steps), nullptr);
      std::string_view body;
      ASSERT_TRUE(rows.Bytes(body_length, &body));
      if (i == 0) first_row_length_ = file_.size() - steps_at_ - 3 - rows.in.size();
    }
    ASSERT_EQ(rows.in.substr(0, 1), std::string_view("\x00", 1));
    chunk_length_ = file_.size() - rows.in.size() + 1;
  }

  // The file with the steps' length byte set to `length`.
  void RewriteStepsLength(uint8_t length) {
    std::string chunk = file_.substr(0, chunk_length_);
    chunk[steps_at_] = static_cast<char>(length);
    std::string block = chunk;
    AppendBlockTrailer(chunk, BlockType::kRaw, &block);
    std::string damaged = file_;
    damaged.replace(0, block.size(), block);
    WriteAll(fs_.get(), "/t.sst", damaged);
  }

  // What a forward and a reversed read of the partition report.
  std::vector<Status> ReadBothWays() {
    std::vector<Status> out;
    auto reader = SSTableReader::Open(fs_.get(), "/t.sst", nullptr);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return out;
    for (bool reversed : {false, true}) {
      auto content = (*reader)->ReadPartition(key_, ClusteringRange::All(), reversed, nullptr);
      if (!content.ok()) {
        out.push_back(content.status());
        continue;
      }
      EXPECT_TRUE(content->has_value());
      if (!content->has_value()) continue;
      Drain((*content)->rows.get());
      out.push_back((*content)->rows->status());
    }
    return out;
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  DecoratedKey key_;
  std::string file_;
  size_t steps_at_ = 0;
  size_t first_row_length_ = 0;
  size_t chunk_length_ = 0;
};

TEST_F(TimestampStepsCorruption, TheUntouchedFileReadsBothWays) {
  for (const Status& s : ReadBothWays()) EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(TimestampStepsCorruption, StepsRunningPastTheBlock) {
  RewriteStepsLength(0x7f);
  const std::vector<Status> got = ReadBothWays();
  ASSERT_EQ(got.size(), 2u);
  for (const Status& s : got) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find("timestamp steps run past their row block"), std::string::npos)
        << s.ToString();
  }
}

TEST_F(TimestampStepsCorruption, MoreStepsThanRows) {
  // The steps swallow the first row's entry: the block then reads as the
  // second row alone, well formed, with steps left over.
  ASSERT_LT(2 + first_row_length_, 0x80u);
  RewriteStepsLength(static_cast<uint8_t>(2 + first_row_length_));
  const std::vector<Status> got = ReadBothWays();
  ASSERT_EQ(got.size(), 2u);
  for (const Status& s : got) {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find("row block has more timestamp steps than rows"), std::string::npos)
        << s.ToString();
  }
}

TEST_F(Corruption, FutureVersionIsRejected) {
  std::string bad = good_;
  const uint64_t version_at = good_.size() - kFooterSize + kMaxSections * kSectionEntrySize;
  bad[version_at] = static_cast<char>(kSSTableFormatVersion + 1);
  // Re-seal the footer so only the version is wrong.
  const size_t footer_at = good_.size() - kFooterSize;
  const size_t checked = kMaxSections * kSectionEntrySize + 4;
  std::string sum;
  PutFixed32(&sum, Checksum32(std::string_view(bad).substr(footer_at, checked)));
  bad.replace(footer_at + checked, 4, sum);
  WriteAll(fs_.get(), "/future.sst", bad);
  auto reader = SSTableReader::Open(fs_.get(), "/future.sst", nullptr);
  ASSERT_FALSE(reader.ok());
  ExpectCorruptionOf(reader.status(), "/future.sst");
  EXPECT_NE(reader.status().message().find("unsupported format version " +
                                           std::to_string(kSSTableFormatVersion + 1)),
            std::string::npos)
      << reader.status().ToString();
}

TEST_F(Corruption, MissingFileIsNotFound) {
  auto reader = SSTableReader::Open(fs_.get(), "/nope.sst", nullptr);
  ASSERT_FALSE(reader.ok());
  EXPECT_FALSE(reader.status().IsCorruption());
}

}  // namespace
}  // namespace cassette
