#include "engine/sstable/sstable_format.h"

#include <gtest/gtest.h>

#include "engine/sstable/chunk_codec.h"
#include "engine/sstable/chunk_offsets.h"
#include "engine/sstable/index_summary.h"
#include "engine/sstable/partition_index_entry.h"
#include "engine/sstable/row_index.h"
#include "engine/util/random.h"

namespace cassette {
namespace {

Footer SampleFooter() {
  Footer f;
  f.sections[0] = {SectionType::kChunkOffsets, 0x1234, 100, 20};
  f.sections[1] = {SectionType::kIndexSummary, 0x5678, 120, 30};
  f.sections[2] = {SectionType::kBloomFilter, 0x9abc, 150, 40};
  f.sections[3] = {SectionType::kStatistics, 0xdef0, 190, 50};
  return f;
}

TEST(SSTableFormat, FooterRoundTrip) {
  std::string bytes;
  EncodeFooter(SampleFooter(), &bytes);
  ASSERT_EQ(bytes.size(), kFooterSize);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), "CSTSST01");
  Footer back;
  ASSERT_TRUE(DecodeFooter(bytes, "/f", 240, &back).ok());
  EXPECT_EQ(back.sections, SampleFooter().sections);
  EXPECT_EQ(back.Find(SectionType::kBloomFilter)->offset, 150u);
  EXPECT_EQ(back.Find(SectionType::kNone), &back.sections[4]);
}

TEST(SSTableFormat, FooterRejectsDamage) {
  std::string bytes;
  EncodeFooter(SampleFooter(), &bytes);
  Footer back;
  // Every single-byte change is caught (checksum, version or magic).
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 1);
    Status s = DecodeFooter(bad, "/f", 240, &back);
    EXPECT_TRUE(s.IsCorruption()) << i;
    EXPECT_NE(s.message().find("/f"), std::string::npos);
  }
  // Sections must lie before the footer.
  EXPECT_TRUE(DecodeFooter(bytes, "/f", 200, &back).IsCorruption());
  EXPECT_TRUE(DecodeFooter(bytes.substr(1), "/f", 240, &back).IsCorruption());
}

TEST(SSTableFormat, BlockTrailerDetectsEveryFlip) {
  std::string block = "payload bytes";
  AppendBlockTrailer(block, BlockType::kRaw, &block);
  ASSERT_EQ(block.size(), 13 + kBlockTrailerSize);
  std::string_view payload;
  BlockType type;
  ASSERT_TRUE(CheckBlock(block, "/f", 0, "block", &payload, &type).ok());
  EXPECT_EQ(payload, "payload bytes");
  EXPECT_EQ(type, BlockType::kRaw);
  for (size_t i = 0; i < block.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = block;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      EXPECT_TRUE(CheckBlock(bad, "/f", 77, "block", &payload, &type).IsCorruption());
    }
  }
  EXPECT_TRUE(CheckBlock("abc", "/f", 0, "block", &payload, &type).IsCorruption());
}

TEST(SSTableFormat, ChunksCompressOnlyWhenItHelps) {
  ChunkCompressor zstd(true, 3);
  std::string compressible(4096, 'a');
  std::string stored;
  EXPECT_EQ(zstd.Compress(compressible, &stored), BlockType::kZstd);
  EXPECT_LT(stored.size(), 200u);
  std::string back;
  ASSERT_TRUE(DecompressChunk(stored, 4096, "/f", 0, &back).ok());
  EXPECT_EQ(back, compressible);
  EXPECT_TRUE(DecompressChunk(stored, 4095, "/f", 0, &back).IsCorruption());

  Random rnd(1);
  const std::string noise = rnd.Bytes(4096);
  stored.clear();
  EXPECT_EQ(zstd.Compress(noise, &stored), BlockType::kRaw);
  EXPECT_EQ(stored.size(), noise.size() + kBlockTrailerSize);
  ASSERT_TRUE(DecompressChunk(stored, 4096, "/f", 0, &back).ok());
  EXPECT_EQ(back, noise);

  ChunkCompressor raw(false, 3);
  stored.clear();
  EXPECT_EQ(raw.Compress(compressible, &stored), BlockType::kRaw);
}

TEST(SSTableFormat, ChunkOffsetsRoundTripAndBounds) {
  ChunkOffsets c;
  c.chunk_length = 100;
  c.data_size = 250;
  c.chunks = {{0, 50}, {70, 60}, {200, 30}};
  EXPECT_EQ(c.ChunkSize(2), 50u);
  std::string bytes;
  EncodeChunkOffsets(c, &bytes);
  ChunkOffsets back;
  ASSERT_TRUE(DecodeChunkOffsets(bytes, 230, &back));
  EXPECT_EQ(back.chunks, c.chunks);
  EXPECT_FALSE(DecodeChunkOffsets(bytes, 229, &back));  // last chunk past the blocks
  c.data_size = 350;                                    // needs 4 chunks
  bytes.clear();
  EncodeChunkOffsets(c, &bytes);
  EXPECT_FALSE(DecodeChunkOffsets(bytes, 1000, &back));
}

TEST(SSTableFormat, IndexSummaryLookups) {
  IndexSummary s({{"b", {0, 10}}, {"d", {10, 10}}, {"f", {20, 10}}});
  EXPECT_EQ(s.BlockFor("a"), 3u);  // before every block
  EXPECT_EQ(s.BlockFor("b"), 0u);
  EXPECT_EQ(s.BlockFor("c"), 0u);
  EXPECT_EQ(s.BlockFor("d"), 1u);
  EXPECT_EQ(s.BlockFor("z"), 2u);
  EXPECT_EQ(s.FirstBlockAtOrAfter("a"), 0u);
  EXPECT_EQ(s.FirstBlockAtOrAfter("d"), 0u);  // "d" itself may follow keys of block 0
  EXPECT_EQ(s.FirstBlockAtOrAfter("e"), 1u);
  std::string bytes;
  s.EncodeTo(&bytes);
  IndexSummary back;
  ASSERT_TRUE(IndexSummary::DecodeFrom(bytes, 30, &back));
  EXPECT_EQ(back.size(), 3u);
  EXPECT_FALSE(IndexSummary::DecodeFrom(bytes, 29, &back));
  IndexSummary unsorted({{"d", {0, 10}}, {"b", {10, 10}}});
  bytes.clear();
  unsorted.EncodeTo(&bytes);
  EXPECT_FALSE(IndexSummary::DecodeFrom(bytes, 100, &back));
}

TEST(SSTableFormat, PartitionIndexEntryAndTokens) {
  const std::string sk = TokenSortKeyPrefix(-5) + "key";
  int64_t token;
  ASSERT_TRUE(SortKeyToken(sk, &token));
  EXPECT_EQ(token, -5);
  EXPECT_LT(TokenSortKeyPrefix(-1), TokenSortKeyPrefix(0));
  EXPECT_LT(TokenSortKeyPrefix(INT64_MIN), TokenSortKeyPrefix(INT64_MAX));
  PartitionIndexEntry e{sk, 12345, 678, "root"};
  std::string bytes;
  EncodePartitionIndexEntry(e, &bytes);
  std::string_view in(bytes);
  PartitionIndexEntry back;
  ASSERT_TRUE(DecodePartitionIndexEntry(&in, &back));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(back.sort_key, sk);
  EXPECT_EQ(back.data_position, 12345u);
  EXPECT_EQ(back.partition_length, 678u);
  EXPECT_EQ(back.row_index, "root");
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::string_view cut = std::string_view(bytes).substr(0, n);
    EXPECT_FALSE(DecodePartitionIndexEntry(&cut, &back));
  }
}

TEST(SSTableFormat, RowIndexTreeBuildsLevelsUntilTheRootFits) {
  std::vector<RowIndexEntry> blocks;
  for (uint64_t i = 0; i < 50000; ++i) {
    blocks.push_back({"first" + std::to_string(i), "last" + std::to_string(i), i * 100, 100});
  }
  std::vector<std::string> nodes;
  auto built = BuildRowIndex(blocks, [&](std::string_view payload) -> Result<BlockHandle> {
    nodes.emplace_back(payload);
    return BlockHandle{nodes.size() - 1, payload.size()};
  });
  ASSERT_TRUE(built.ok());
  RowIndexRoot root;
  ASSERT_TRUE(DecodeRowIndexRoot(*built, &root));
  EXPECT_LE(built->size(), kRowIndexInlineRootBytes + 64);
  EXPECT_GE(root.depth, 2u);
  // Walking the tree from the root yields every block in order.
  std::vector<RowIndexEntry> leaves;
  std::function<void(const std::vector<RowIndexEntry>&, uint32_t)> walk =
      [&](const std::vector<RowIndexEntry>& entries, uint32_t depth) {
        for (const RowIndexEntry& e : entries) {
          if (depth == 0) {
            leaves.push_back(e);
            continue;
          }
          ASSERT_LT(e.offset, nodes.size());
          EXPECT_LE(nodes[e.offset].size(), kRowIndexNodeBytes + 64);
          std::string_view in(nodes[e.offset]);
          std::vector<RowIndexEntry> children;
          ASSERT_TRUE(DecodeRowIndexEntries(&in, &children));
          EXPECT_EQ(children.front().first, e.first);
          EXPECT_EQ(children.back().last, e.last);
          walk(children, depth - 1);
        }
      };
  walk(root.entries, root.depth);
  EXPECT_EQ(leaves, blocks);
}

TEST(SSTableFormat, SmallRowIndexStaysInline) {
  std::vector<RowIndexEntry> blocks = {{"a", "b", 0, 10}, {"c", "d", 10, 10}};
  int writes = 0;
  auto built = BuildRowIndex(blocks, [&](std::string_view) -> Result<BlockHandle> {
    ++writes;
    return BlockHandle{};
  });
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(writes, 0);
  RowIndexRoot root;
  ASSERT_TRUE(DecodeRowIndexRoot(*built, &root));
  EXPECT_EQ(root.depth, 0u);
  EXPECT_EQ(root.entries, blocks);
}

}  // namespace
}  // namespace cassette
