// Big partitions: a slice of a million-row partition reads a bounded number
// of data chunks and index blocks, forward and reversed; deep row index
// trees; key-only scans do not read rows.
#include <gtest/gtest.h>

#include <atomic>

#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Ck;
using sstable_test::Drain;
using sstable_test::kBaseTs;

// Counts reads of the files it opens (the honest I/O cost of a lookup,
// index blocks included).
class CountingFileSystem final : public FileSystem {
 public:
  explicit CountingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}

  int64_t reads() const { return reads_.load(); }
  int64_t bytes() const { return bytes_.load(); }
  void Reset() {
    reads_ = 0;
    bytes_ = 0;
  }

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& p) override {
    return base_->NewWritableFile(p);
  }
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& p) override {
    return base_->NewAppendableFile(p);
  }
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& p) override {
    CASSETTE_ASSIGN_OR_RETURN(auto file, base_->NewRandomAccessFile(p));
    return std::unique_ptr<RandomAccessFile>(new CountingFile(std::move(file), this));
  }
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& p) override {
    return base_->NewSequentialFile(p);
  }
  bool FileExists(const std::string& p) override { return base_->FileExists(p); }
  Result<std::vector<std::string>> GetChildren(const std::string& d) override {
    return base_->GetChildren(d);
  }
  Result<uint64_t> GetFileSize(const std::string& p) override { return base_->GetFileSize(p); }
  Status DeleteFile(const std::string& p) override { return base_->DeleteFile(p); }
  Status CreateDirs(const std::string& d) override { return base_->CreateDirs(d); }
  Status DeleteDir(const std::string& d) override { return base_->DeleteDir(d); }
  Status RenameFile(const std::string& a, const std::string& b) override {
    return base_->RenameFile(a, b);
  }
  Status SyncDir(const std::string& d) override { return base_->SyncDir(d); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& p) override {
    return base_->LockFile(p);
  }
  Result<uint64_t> GetFreeSpace(const std::string& d) override { return base_->GetFreeSpace(d); }

 private:
  class CountingFile final : public RandomAccessFile {
   public:
    CountingFile(std::unique_ptr<RandomAccessFile> f, CountingFileSystem* fs)
        : f_(std::move(f)), fs_(fs) {}
    Status Read(uint64_t offset, size_t n, std::string* out) const override {
      ++fs_->reads_;
      fs_->bytes_ += static_cast<int64_t>(n);
      return f_->Read(offset, n, out);
    }
    uint64_t Size() const override { return f_->Size(); }

   private:
    std::unique_ptr<RandomAccessFile> f_;
    CountingFileSystem* fs_;
  };

  std::shared_ptr<FileSystem> base_;
  std::atomic<int64_t> reads_{0};
  std::atomic<int64_t> bytes_{0};
};

Row SensorRow(uint32_t i) {
  Row row;
  row.clustering = Ck(i / 1000, i % 1000);
  row.marker = LivenessInfo{kBaseTs + i, 0, kNoDeletionTime};
  row.columns.push_back(sstable_test::SimpleColumn(
      1, Cell::Live(kBaseTs + i, std::string(reinterpret_cast<const char*>(&i), 4))));
  return row;
}

ClusteringRange Between(uint32_t from, uint32_t to) {
  return ClusteringRange{Bound{Ck(from / 1000, from % 1000), true},
                         Bound{Ck(to / 1000, to % 1000), true}};
}

class MillionRows : public ::testing::Test {
 protected:
  static constexpr uint32_t kRows = 1'000'000;

  static void SetUpTestSuite() {
    fs_ = new CountingFileSystem(NewMemFileSystem());
    SSTableWriterOptions options;
    options.compression_level = 1;
    options.encoding_stats.min_timestamp = kBaseTs;
    auto writer = SSTableWriter::Create(fs_, "/big.sst", options);
    ASSERT_TRUE(writer.ok());
    // The big partition and a small neighbour, in partition order.
    const DecoratedKey big = DecoratedKey::FromKey("sensor-1");
    const DecoratedKey small = DecoratedKey::FromKey("sensor-2");
    auto write_big = [&] {
      ASSERT_TRUE((*writer)->BeginPartition(big, {}, {}, {}).ok());
      for (uint32_t i = 0; i < kRows; ++i) ASSERT_TRUE((*writer)->AddRow(SensorRow(i)).ok());
      ASSERT_TRUE((*writer)->EndPartition().ok());
    };
    auto write_small = [&] {
      ASSERT_TRUE((*writer)->BeginPartition(small, {}, {}, {}).ok());
      ASSERT_TRUE((*writer)->AddRow(SensorRow(7)).ok());
      ASSERT_TRUE((*writer)->EndPartition().ok());
    };
    if (big < small) {
      write_big();
      write_small();
    } else {
      write_small();
      write_big();
    }
    auto stats = (*writer)->Finish();
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    ASSERT_EQ(stats->row_count, kRows + 1);
    ASSERT_EQ(stats->partition_count, 2u);
  }
  static void TearDownTestSuite() { delete fs_; }

  static CountingFileSystem* fs_;
};

CountingFileSystem* MillionRows::fs_ = nullptr;

TEST_F(MillionRows, HundredRowSliceReadsFewBlocks) {
  auto reader = SSTableReader::Open(fs_, "/big.sst", nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const DecoratedKey key = DecoratedKey::FromKey("sensor-1");
  for (uint32_t from : {0u, 123'456u, 500'000u, 999'900u}) {
    for (bool reversed : {false, true}) {
      fs_->Reset();
      int64_t blocks_read = 0;
      auto content =
          (*reader)->ReadPartition(key, Between(from, from + 99), reversed, &blocks_read);
      ASSERT_TRUE(content.ok()) << content.status().ToString();
      ASSERT_TRUE(content->has_value());
      std::vector<Row> rows = Drain((*content)->rows.get());
      ASSERT_TRUE((*content)->rows->status().ok());
      ASSERT_EQ(rows.size(), 100u);
      EXPECT_EQ(rows.front(), SensorRow(reversed ? from + 99 : from));
      EXPECT_EQ(rows.back(), SensorRow(reversed ? from : from + 99));
      // Header chunk + at most three chunks around a 16 KiB row block.
      EXPECT_LE(blocks_read, 4) << "from " << from << " reversed " << reversed;
      // Every file read, index included: one partition index block, at
      // most two row index nodes per level walked, and the data chunks.
      EXPECT_LE(fs_->reads(), 8) << "from " << from << " reversed " << reversed;
      EXPECT_LE(fs_->bytes(), 128 * 1024);
    }
  }
}

TEST_F(MillionRows, NewestHundredRowsReversed) {
  BlockCache cache(4 << 20);
  auto reader = SSTableReader::Open(fs_, "/big.sst", &cache);
  ASSERT_TRUE(reader.ok());
  int64_t blocks_read = 0;
  auto content = (*reader)->ReadPartition(DecoratedKey::FromKey("sensor-1"), ClusteringRange::All(),
                                          true, &blocks_read);
  ASSERT_TRUE(content.ok() && content->has_value());
  RowIterator* it = (*content)->rows.get();
  for (uint32_t n = 0; n < 100; ++n, it->Next()) {
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->row(), SensorRow(kRows - 1 - n));
  }
  EXPECT_LE(blocks_read, 4);
}

TEST_F(MillionRows, VerifyChecksumsWalksTheRowIndex) {
  auto reader = SSTableReader::Open(fs_, "/big.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE((*reader)->VerifyChecksums().ok());
}

TEST(DeepRowIndex, TwoLevelTreeServesEverySlice) {
  // One row per row-index block: 30000 leaf entries need two levels of
  // nodes under the inline root.
  auto fs = NewMemFileSystem();
  SSTableWriterOptions options;
  options.row_index_interval = 1;
  options.chunk_length = 4096;
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("deep");
  for (uint32_t i = 0; i < 30000; ++i) p.rows.push_back(SensorRow(i));
  auto stats = sstable_test::WriteTable(fs.get(), "/deep.sst", {p}, options);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  auto reader = SSTableReader::Open(fs.get(), "/deep.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->VerifyChecksums().ok());
  Random rnd(sstable_test::TestSeed());
  for (int i = 0; i < 50; ++i) {
    const uint32_t from = static_cast<uint32_t>(rnd.Uniform(30000));
    const uint32_t to = std::min<uint32_t>(29999, from + static_cast<uint32_t>(rnd.Uniform(300)));
    for (bool reversed : {false, true}) {
      int64_t blocks_read = 0;
      auto content = (*reader)->ReadPartition(p.key, Between(from, to), reversed, &blocks_read);
      ASSERT_TRUE(content.ok() && content->has_value());
      std::vector<Row> rows = Drain((*content)->rows.get());
      ASSERT_TRUE((*content)->rows->status().ok()) << (*content)->rows->status().ToString();
      EXPECT_EQ(rows, sstable_test::Filter(p.rows, Between(from, to), reversed));
      EXPECT_LE(blocks_read, 2 + static_cast<int64_t>((to - from + 1) * 40 / 4096 + 2));
    }
  }
  // The whole partition, both directions, walks every leaf across nodes.
  for (bool reversed : {false, true}) {
    auto content = (*reader)->ReadPartition(p.key, ClusteringRange::All(), reversed, nullptr);
    ASSERT_TRUE(content.ok() && content->has_value());
    std::vector<Row> rows = Drain((*content)->rows.get());
    EXPECT_EQ(rows, sstable_test::Filter(p.rows, ClusteringRange::All(), reversed));
  }
}

TEST(WideRowIndexBlocks, EachChunkLoadsOnceInEitherDirection) {
  // Row-index blocks of 8 KiB over 512-byte chunks: a reversed read keeps
  // every chunk of the block it walks back through, so no chunk is loaded
  // twice (the partition header's chunk aside, which is read first).
  auto fs = NewMemFileSystem();
  SSTableWriterOptions options;
  options.chunk_length = 512;
  options.row_index_interval = 8192;
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("wide");
  for (uint32_t i = 0; i < 20000; ++i) p.rows.push_back(SensorRow(i));
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/w.sst", {p}, options).ok());
  BlockCache cache(64 << 20);
  auto reader = SSTableReader::Open(fs.get(), "/w.sst", &cache);
  ASSERT_TRUE(reader.ok());
  const auto chunks = static_cast<int64_t>((*reader)->fetcher().chunks().chunks.size());
  ASSERT_GT(chunks, 100);
  for (bool reversed : {false, true}) {
    int64_t blocks_read = 0;
    auto content = (*reader)->ReadPartition(p.key, ClusteringRange::All(), reversed, &blocks_read);
    ASSERT_TRUE(content.ok() && content->has_value());
    std::vector<Row> rows = Drain((*content)->rows.get());
    ASSERT_TRUE((*content)->rows->status().ok()) << (*content)->rows->status().ToString();
    EXPECT_EQ(rows, sstable_test::Filter(p.rows, ClusteringRange::All(), reversed));
    EXPECT_GE(blocks_read, chunks);
    EXPECT_LE(blocks_read, chunks + (reversed ? 1 : 0)) << "reversed " << reversed;
  }
  // A reversed slice inside one block reads only that block's chunks.
  int64_t blocks_read = 0;
  auto content = (*reader)->ReadPartition(p.key, Between(10'000, 10'099), true, &blocks_read);
  ASSERT_TRUE(content.ok() && content->has_value());
  std::vector<Row> rows = Drain((*content)->rows.get());
  ASSERT_EQ(rows.size(), 100u);
  EXPECT_EQ(rows.front(), SensorRow(10'099));
  // Header chunk + up to two 8 KiB blocks of 512-byte chunks.
  EXPECT_LE(blocks_read, 1 + 2 * (8192 / 512 + 2));
}

TEST(KeyOnlyScan, ReadsOnlyPartitionHeaders) {
  auto fs = NewMemFileSystem();
  std::vector<PartitionUpdate> partitions;
  std::map<DecoratedKey, bool> keys;
  for (int i = 0; i < 20; ++i) keys[DecoratedKey::FromKey("p" + std::to_string(i))] = true;
  for (const auto& [key, unused] : keys) {
    PartitionUpdate p;
    p.key = key;
    for (uint32_t i = 0; i < 6000; ++i) p.rows.push_back(SensorRow(i));
    partitions.push_back(std::move(p));
  }
  SSTableWriterOptions options;
  options.compress = false;
  options.chunk_length = 4096;
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/k.sst", partitions, options).ok());
  auto reader = SSTableReader::Open(fs.get(), "/k.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  const int64_t chunks = static_cast<int64_t>((*reader)->fetcher().chunks().chunks.size());

  int64_t keys_only_blocks = 0;
  size_t n = 0;
  auto scanner = (*reader)->NewScanner(TokenInterval::All(), &keys_only_blocks);
  for (; scanner->Valid(); scanner->Next()) ++n;
  ASSERT_TRUE(scanner->status().ok());
  EXPECT_EQ(n, partitions.size());
  EXPECT_LE(keys_only_blocks, 2 * static_cast<int64_t>(partitions.size()));

  int64_t full_blocks = 0;
  scanner = (*reader)->NewScanner(TokenInterval::All(), &full_blocks);
  for (; scanner->Valid(); scanner->Next()) Drain(scanner->partition().rows.get());
  EXPECT_EQ(full_blocks, chunks);
  EXPECT_LT(keys_only_blocks * 10, full_blocks);
}

}  // namespace
}  // namespace cassette
