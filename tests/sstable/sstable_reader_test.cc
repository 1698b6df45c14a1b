// Reader behaviour beyond round trips: key filtering, concurrent readers,
// the metadata dump.
#include "engine/sstable/sstable_reader.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Generator;

TEST(SSTableReader, MayContainKeyHasNoFalseNegativesAndFewFalsePositives) {
  auto fs = NewMemFileSystem();
  std::vector<PartitionUpdate> partitions;
  std::map<DecoratedKey, bool> keys;
  for (int i = 0; i < 5000; ++i) keys[DecoratedKey::FromKey("in-" + std::to_string(i))] = true;
  for (const auto& [key, unused] : keys) {
    PartitionUpdate p;
    p.key = key;
    partitions.push_back(std::move(p));
  }
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/b.sst", partitions).ok());
  auto reader = SSTableReader::Open(fs.get(), "/b.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  for (const auto& [key, unused] : keys) ASSERT_TRUE((*reader)->MayContainKey(key));
  int positives = 0;
  const int probes = 20000;
  for (int i = 0; i < probes; ++i) {
    positives += (*reader)->MayContainKey(DecoratedKey::FromKey("out-" + std::to_string(i)));
  }
  // Keys outside [first, last] are ruled out without the filter, so the
  // rate is at most the filter's.
  EXPECT_LT(positives, probes * 0.02) << positives;
  // A key below the first token is out of range.
  EXPECT_FALSE((*reader)->MayContainKey(DecoratedKey{INT64_MIN, "x"}));
}

TEST(SSTableReader, ConcurrentReadsFromManyThreads) {
  auto fs = NewMemFileSystem();
  Generator gen(sstable_test::TestSeed());
  const std::vector<PartitionUpdate> partitions = gen.RandomPartitions(200, 80);
  SSTableWriterOptions options;
  options.chunk_length = 1024;
  options.row_index_interval = 256;
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/c.sst", partitions, options).ok());
  BlockCache cache(64 * 1024);  // small: forces evictions while threads read
  auto reader = SSTableReader::Open(fs.get(), "/c.sst", &cache);
  ASSERT_TRUE(reader.ok());
  std::shared_ptr<SSTableReader> r = *reader;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); i < partitions.size() * 3; i += 4) {
        const PartitionUpdate& p = partitions[i % partitions.size()];
        const bool reversed = (i / partitions.size()) % 2 == 1;
        auto content = r->ReadPartition(p.key, ClusteringRange::All(), reversed, nullptr);
        if (!content.ok() || !content->has_value()) {
          ++mismatches;
          continue;
        }
        if (sstable_test::Drain((*content)->rows.get()) !=
            sstable_test::Filter(p.rows, ClusteringRange::All(), reversed)) {
          ++mismatches;
        }
      }
      auto scanner = r->NewScanner(TokenInterval::All(), nullptr);
      size_t n = 0;
      for (; scanner->Valid(); scanner->Next()) ++n;
      if (n != partitions.size()) ++mismatches;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(cache.hits(), 0u);
}

TEST(SSTableReader, RowIteratorOutlivesItsReaderHandle) {
  auto fs = NewMemFileSystem();
  Generator gen(5);
  const std::vector<PartitionUpdate> partitions = gen.RandomPartitions(3, 200);
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/o.sst", partitions).ok());
  std::unique_ptr<RowIterator> rows;
  {
    auto reader = SSTableReader::Open(fs.get(), "/o.sst", nullptr);
    ASSERT_TRUE(reader.ok());
    auto content =
        (*reader)->ReadPartition(partitions[0].key, ClusteringRange::All(), false, nullptr);
    ASSERT_TRUE(content.ok() && content->has_value());
    rows = std::move((*content)->rows);
  }
  EXPECT_EQ(sstable_test::Drain(rows.get()), partitions[0].rows);
}

TEST(SSTableReader, DescribeListsTheMetadata) {
  auto fs = NewMemFileSystem();
  Generator gen(6);
  SSTableWriterOptions options;
  options.creation_time_micros = 424242;
  ASSERT_TRUE(
      sstable_test::WriteTable(fs.get(), "/d.sst", gen.RandomPartitions(10, 10), options).ok());
  auto reader = SSTableReader::Open(fs.get(), "/d.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  const std::string text = (*reader)->Describe();
  for (const char* want :
       {"path: /d.sst", "format version: 3", "partitions: 10", "section chunk offsets",
        "section index summary", "section bloom filter", "section statistics",
        "compression: zstd level 3", "creation time (micros): 424242", "first key: token",
        "tombstone drop times:", "bloom filter: "}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  }
  EXPECT_EQ((*reader)->file_size(), *fs->GetFileSize("/d.sst"));
  EXPECT_EQ((*reader)->path(), "/d.sst");
}

TEST(SSTableReader, EmptyRangeReadsNoRows) {
  auto fs = NewMemFileSystem();
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.static_row.columns.push_back(sstable_test::SimpleColumn(3, Cell::Live(1, "s")));
  for (uint32_t i = 0; i < 100; ++i) {
    Row r;
    r.clustering = sstable_test::Ck(i, 0);
    r.marker = LivenessInfo{1, 0, kNoDeletionTime};
    p.rows.push_back(r);
  }
  ASSERT_TRUE(sstable_test::WriteTable(fs.get(), "/r.sst", {p}).ok());
  auto reader = SSTableReader::Open(fs.get(), "/r.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  const ClusteringRange empty{Bound{sstable_test::Ck(5, 0), true},
                              Bound{sstable_test::Ck(4, 0), true}};
  auto content = (*reader)->ReadPartition(p.key, empty, false, nullptr);
  ASSERT_TRUE(content.ok() && content->has_value());
  EXPECT_FALSE((*content)->rows->Valid());
  EXPECT_EQ((*content)->static_row, p.static_row);  // the static row still comes back
}

}  // namespace
}  // namespace cassette
