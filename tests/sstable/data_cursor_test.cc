// DataCursor against the data stream it reads: views and copies across
// chunk boundaries, varints that straddle chunks, Peek's bounds, the chunks
// a retained span keeps loaded (and counted once), and reads past the end.
#include "engine/sstable/data_cursor.h"

#include <gtest/gtest.h>

#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Ck;
using sstable_test::kBaseTs;
using sstable_test::SimpleColumn;

class DataCursorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = NewMemFileSystem();
    PartitionUpdate p;
    p.key = DecoratedKey::FromKey("p");
    for (uint32_t i = 0; i < 1000; ++i) {
      Row row;
      row.clustering = Ck(i, i * 7);
      row.columns.push_back(SimpleColumn(1, Cell::Live(kBaseTs + i, std::string(i % 23, 'v'))));
      p.rows.push_back(std::move(row));
    }
    SSTableWriterOptions options;
    options.chunk_length = 512;
    options.compress = Compress();
    auto written = sstable_test::WriteTable(fs_.get(), "/c.sst", {p}, options);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    auto reader = SSTableReader::Open(fs_.get(), "/c.sst", &cache_);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    reader_ = *reader;
    // The whole stream, chunk by chunk, to check the cursor against.
    const BlockFetcher& f = reader_->fetcher();
    for (uint64_t i = 0; i < f.chunks().chunks.size(); ++i) {
      auto chunk = f.Chunk(i);
      ASSERT_TRUE(chunk.ok());
      stream_ += **chunk;
    }
    ASSERT_EQ(stream_.size(), f.data_size());
    ASSERT_GT(f.chunks().chunks.size(), 15u);
  }
  virtual bool Compress() const { return false; }

  const BlockFetcher* fetcher() const { return &reader_->fetcher(); }
  uint64_t chunk() const { return fetcher()->chunk_length(); }

  BlockCache cache_{1 << 20};
  std::shared_ptr<MemFileSystem> fs_;
  std::shared_ptr<SSTableReader> reader_;
  std::string stream_;
};

TEST_F(DataCursorTest, ReadBytesMatchesTheStreamAcrossChunks) {
  int64_t blocks_read = 0;
  DataCursor cursor(fetcher(), &blocks_read);
  for (uint64_t at : {uint64_t{0}, chunk() - 3, chunk() - 1, 3 * chunk(), 5 * chunk() + 17}) {
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{3}, uint64_t{40}, 2 * chunk() + 5}) {
      cursor.Seek(at);
      std::string_view got;
      ASSERT_TRUE(cursor.ReadBytes(n, &got).ok()) << at << "+" << n;
      EXPECT_EQ(got, std::string_view(stream_).substr(at, n)) << at << "+" << n;
      EXPECT_EQ(cursor.position(), at + n);
      std::string appended = "x";
      cursor.Seek(at);
      ASSERT_TRUE(cursor.AppendBytes(n, &appended).ok());
      EXPECT_EQ(appended, "x" + stream_.substr(at, n));
    }
  }
}

TEST_F(DataCursorTest, ReadsVarintsThatStraddleChunks) {
  // Every position whose bytes parse as a varint, the cursor parses the
  // same way, including those that run into the next chunk.
  DataCursor cursor(fetcher(), nullptr);
  int straddling = 0;
  for (uint64_t at = 0; at + 10 < stream_.size(); ++at) {
    std::string_view in = std::string_view(stream_).substr(at);
    uint64_t want;
    const bool ok = GetVarint64(&in, &want);
    cursor.Seek(at);
    uint64_t got;
    Status s = cursor.ReadVarint(&got);
    ASSERT_EQ(s.ok(), ok) << "at " << at << ": " << s.ToString();
    if (!ok) continue;
    EXPECT_EQ(got, want);
    EXPECT_EQ(cursor.position(), stream_.size() - in.size());
    if (at / chunk() != (cursor.position() - 1) / chunk()) ++straddling;
  }
  EXPECT_GT(straddling, 0);
}

TEST_F(DataCursorTest, PeekStopsAtTheChunkEndAndTheLimit) {
  DataCursor cursor(fetcher(), nullptr);
  std::string_view got;
  cursor.Seek(chunk() + 10);
  ASSERT_TRUE(cursor.Peek(1'000'000, &got).ok());
  EXPECT_EQ(got, std::string_view(stream_).substr(chunk() + 10, chunk() - 10));
  ASSERT_TRUE(cursor.Peek(4, &got).ok());
  EXPECT_EQ(got, std::string_view(stream_).substr(chunk() + 10, 4));
  EXPECT_EQ(cursor.position(), chunk() + 10);
  ASSERT_TRUE(cursor.Peek(0, &got).ok());
  EXPECT_TRUE(got.empty());
}

TEST_F(DataCursorTest, RetainedSpanIsLoadedOnce) {
  int64_t blocks_read = 0;
  DataCursor cursor(fetcher(), &blocks_read);
  // Five chunks, walked back to front byte by byte, then front to back.
  const uint64_t start = 2 * chunk() + 100, end = 6 * chunk() + 50;
  ASSERT_TRUE(cursor.Retain(start, end).ok());
  EXPECT_EQ(blocks_read, 5);
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t i = 0; i < end - start; ++i) {
      const uint64_t at = pass == 0 ? end - 1 - i : start + i;
      cursor.Seek(at);
      std::string_view got;
      ASSERT_TRUE(cursor.ReadBytes(1, &got).ok());
      ASSERT_EQ(got[0], stream_[at]);
    }
  }
  EXPECT_EQ(blocks_read, 5);
  // The previous span overlapping the old one: only its new chunks load.
  ASSERT_TRUE(cursor.Retain(chunk() + 1, 2 * chunk() + 200).ok());
  EXPECT_EQ(blocks_read, 6);
  // Chunks outside the span come and go, the span stays.
  for (uint64_t c : {9u, 10u, 11u, 12u}) {
    cursor.Seek(c * chunk());
    std::string_view got;
    ASSERT_TRUE(cursor.ReadBytes(3, &got).ok());
  }
  EXPECT_EQ(blocks_read, 10);
  cursor.Seek(chunk() + 1);
  std::string_view got;
  ASSERT_TRUE(cursor.ReadBytes(chunk() + 199, &got).ok());
  EXPECT_EQ(got, std::string_view(stream_).substr(chunk() + 1, chunk() + 199));
  EXPECT_EQ(blocks_read, 10);
  // Without a retained span, only the last two chunks used stay loaded.
  ASSERT_TRUE(cursor.Retain(0, 0).ok());
  for (uint64_t c : {13u, 14u, 1u}) {
    cursor.Seek(c * chunk());
    ASSERT_TRUE(cursor.ReadBytes(1, &got).ok());
  }
  EXPECT_EQ(blocks_read, 13);
}

TEST_F(DataCursorTest, ReadsPastTheEndAreCorruption) {
  DataCursor cursor(fetcher(), nullptr);
  const uint64_t size = stream_.size();
  std::string_view got;
  cursor.Seek(size - 2);
  Status s = cursor.ReadBytes(3, &got);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("/c.sst"), std::string::npos) << s.message();
  cursor.Seek(size);
  uint64_t v;
  EXPECT_TRUE(cursor.ReadVarint(&v).IsCorruption());
  EXPECT_TRUE(cursor.Peek(1, &got).IsCorruption());
  cursor.Seek(size - 1);
  EXPECT_TRUE(cursor.Skip(2).IsCorruption());
  EXPECT_TRUE(cursor.Retain(size - 5, size + 1).IsCorruption());
  std::string out;
  cursor.Seek(size - 1);
  EXPECT_TRUE(cursor.AppendBytes(2, &out).IsCorruption());
}

// The same over zstd chunks (the cache holds their decompressed bytes).
class CompressedDataCursorTest : public DataCursorTest {
 protected:
  bool Compress() const override { return true; }
};

TEST_F(CompressedDataCursorTest, ReadBytesMatchesTheStreamAcrossChunks) {
  DataCursor cursor(fetcher(), nullptr);
  for (uint64_t at = 0; at < stream_.size(); at += 97) {
    const uint64_t n = std::min<uint64_t>(300, stream_.size() - at);
    cursor.Seek(at);
    std::string_view got;
    ASSERT_TRUE(cursor.ReadBytes(n, &got).ok());
    ASSERT_EQ(got, std::string_view(stream_).substr(at, n));
  }
}

}  // namespace
}  // namespace cassette
