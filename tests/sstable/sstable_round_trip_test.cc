// Write/read round trips of random partitions, slices forward and reversed
// against a brute-force filter of the input, and token-range scans.
#include <gtest/gtest.h>

#include "cassette/query.h"
#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Drain;
using sstable_test::Filter;
using sstable_test::Generator;
using sstable_test::ReadWhole;
using sstable_test::TestSeed;
using sstable_test::WriteTable;

struct Config {
  const char* name;
  SSTableWriterOptions options;
  size_t partitions;
  size_t max_rows;
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

SSTableWriterOptions Opts(bool compress, uint32_t chunk, uint32_t interval) {
  SSTableWriterOptions o;
  o.compress = compress;
  o.chunk_length = chunk;
  o.row_index_interval = interval;
  o.encoding_stats = {sstable_test::kBaseTs, sstable_test::kNow - 100000, 1};
  return o;
}

class RoundTrip : public ::testing::TestWithParam<Config> {
 protected:
  void SetUp() override {
    fs_ = NewMemFileSystem();
    ASSERT_TRUE(fs_->CreateDirs("/t").ok());
    Generator gen(TestSeed());
    partitions_ = gen.RandomPartitions(GetParam().partitions, GetParam().max_rows);
    auto stats = WriteTable(fs_.get(), "/t/1.sst", partitions_, GetParam().options);
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    auto reader = SSTableReader::Open(fs_.get(), "/t/1.sst", nullptr);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    reader_ = *reader;
  }

  std::shared_ptr<MemFileSystem> fs_;
  std::vector<PartitionUpdate> partitions_;
  std::shared_ptr<SSTableReader> reader_;
};

TEST_P(RoundTrip, WholePartitionsReadBackEqual) {
  SCOPED_TRACE("seed " + std::to_string(TestSeed()));
  for (const PartitionUpdate& p : partitions_) {
    auto got = ReadWhole(*reader_, p.key);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(got->has_value());
    EXPECT_EQ(**got, p);
  }
  EXPECT_TRUE(reader_->VerifyChecksums().ok());
}

TEST_P(RoundTrip, AbsentKeysAreNotFound) {
  Generator gen(TestSeed() + 1);
  int checked = 0;
  for (int i = 0; i < 200; ++i) {
    DecoratedKey key = DecoratedKey::FromKey("absent-" + std::to_string(i));
    auto got = reader_->ReadPartition(key, ClusteringRange::All(), false, nullptr);
    ASSERT_TRUE(got.ok());
    if (std::any_of(partitions_.begin(), partitions_.end(),
                    [&](const PartitionUpdate& p) { return p.key == key; })) {
      continue;
    }
    EXPECT_FALSE(got->has_value());
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST_P(RoundTrip, SlicesMatchBruteForce) {
  SCOPED_TRACE("seed " + std::to_string(TestSeed()));
  Generator gen(TestSeed() + 2);
  for (const PartitionUpdate& p : partitions_) {
    for (int i = 0; i < 6; ++i) {
      const ClusteringRange range = gen.RandomRange();
      const bool reversed = gen.rnd().OneIn(2);
      int64_t blocks_read = 0;
      auto content = reader_->ReadPartition(p.key, range, reversed, &blocks_read);
      ASSERT_TRUE(content.ok()) << content.status().ToString();
      ASSERT_TRUE(content->has_value());
      PartitionContent& c = **content;
      EXPECT_EQ(c.key, p.key);
      EXPECT_EQ(c.partition_deletion, p.partition_deletion);
      EXPECT_EQ(c.static_row, p.static_row);
      std::vector<RangeTombstone> want_rts;
      for (const RangeTombstone& rt : p.range_tombstones) {
        if (rt.range.Overlaps(range)) want_rts.push_back(rt);
      }
      EXPECT_EQ(c.range_tombstones, want_rts);
      std::vector<Row> got = Drain(c.rows.get());
      ASSERT_TRUE(c.rows->status().ok()) << c.rows->status().ToString();
      EXPECT_EQ(got, Filter(p.rows, range, reversed))
          << "reversed=" << reversed << " rows=" << p.rows.size();
      EXPECT_GE(blocks_read, 1);
    }
  }
}

TEST_P(RoundTrip, FullScanYieldsEveryPartitionInOrder) {
  int64_t blocks_read = 0;
  auto scanner = reader_->NewScanner(TokenInterval::All(), &blocks_read);
  size_t i = 0;
  for (; scanner->Valid(); scanner->Next(), ++i) {
    ASSERT_LT(i, partitions_.size());
    auto got = Materialize(scanner->partition());
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, partitions_[i]);
  }
  ASSERT_TRUE(scanner->status().ok()) << scanner->status().ToString();
  EXPECT_EQ(i, partitions_.size());
  // Chunks are loaded once each by a sequential scan.
  EXPECT_LE(blocks_read, static_cast<int64_t>(reader_->fetcher().chunks().chunks.size()));
}

TEST_P(RoundTrip, ScansOfTokenRanges) {
  Generator gen(TestSeed() + 3);
  std::vector<int64_t> tokens;
  for (const PartitionUpdate& p : partitions_) tokens.push_back(p.key.token);
  for (int i = 0; i < 40; ++i) {
    TokenRange range;
    auto pick = [&]() -> int64_t {
      if (!tokens.empty() && gen.rnd().OneIn(2)) return tokens[gen.rnd().Uniform(tokens.size())];
      return static_cast<int64_t>(gen.rnd().Next());
    };
    range.start = pick();
    range.end = pick();
    if (gen.rnd().OneIn(8)) range.start = INT64_MIN;
    if (gen.rnd().OneIn(8)) range.end = INT64_MAX;
    if (range.start > range.end && gen.rnd().OneIn(2)) std::swap(range.start, range.end);
    range.start_inclusive = gen.rnd().OneIn(2);
    range.end_inclusive = gen.rnd().OneIn(2);
    std::vector<DecoratedKey> want;
    for (const PartitionUpdate& p : partitions_) {
      const int64_t t = p.key.token;
      const bool after = range.start_inclusive ? t >= range.start : t > range.start;
      const bool before = range.end_inclusive ? t <= range.end : t < range.end;
      if (after && before) want.push_back(p.key);
    }
    std::vector<DecoratedKey> got;
    const std::optional<TokenInterval> tokens =
        TokenInterval::Of(range.start, range.start_inclusive, range.end, range.end_inclusive);
    if (tokens) {
      auto scanner = reader_->NewScanner(*tokens, nullptr);
      for (; scanner->Valid(); scanner->Next()) got.push_back(scanner->partition().key);
      ASSERT_TRUE(scanner->status().ok());
    }
    EXPECT_EQ(got, want) << "range [" << range.start << ", " << range.end << "]";
  }
}

TEST_P(RoundTrip, BlockCacheServesRepeatedReads) {
  BlockCache cache(8 << 20);
  auto reader = SSTableReader::Open(fs_.get(), "/t/1.sst", &cache);
  ASSERT_TRUE(reader.ok());
  for (int pass = 0; pass < 2; ++pass) {
    for (const PartitionUpdate& p : partitions_) {
      auto got = ReadWhole(**reader, p.key);
      ASSERT_TRUE(got.ok() && got->has_value());
      EXPECT_EQ(**got, p);
    }
  }
  EXPECT_GT(cache.hits(), 0u);
  EXPECT_LE(cache.usage(), cache.capacity());
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, RoundTrip,
    ::testing::Values(Config{"default", Opts(true, 16384, 16384), 60, 30},
                      Config{"small_chunks", Opts(true, 512, 256), 40, 120},
                      Config{"raw_tiny_blocks", Opts(false, 512, 1), 25, 200},
                      Config{"deep_row_index", Opts(true, 1024, 1), 4, 1500},
                      Config{"one_partition", Opts(true, 4096, 64), 1, 400},
                      Config{"blocks_span_chunks", Opts(true, 512, 4096), 8, 600},
                      Config{"many_small", Opts(true, 2048, 16384), 3000, 2}),
    [](const ::testing::TestParamInfo<Config>& info) { return std::string(info.param.name); });

TEST(SSTableEmpty, EmptyTableOpensAndScansNothing) {
  auto fs = NewMemFileSystem();
  auto stats = WriteTable(fs.get(), "/e.sst", {});
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->partition_count, 0u);
  auto reader = SSTableReader::Open(fs.get(), "/e.sst", nullptr);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_FALSE((*reader)->MayContainKey(DecoratedKey::FromKey("x")));
  auto got =
      (*reader)->ReadPartition(DecoratedKey::FromKey("x"), ClusteringRange::All(), false, nullptr);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  auto scanner = (*reader)->NewScanner(TokenInterval::All(), nullptr);
  EXPECT_FALSE(scanner->Valid());
  EXPECT_TRUE(scanner->status().ok());
  EXPECT_TRUE((*reader)->VerifyChecksums().ok());
}

}  // namespace
}  // namespace cassette
