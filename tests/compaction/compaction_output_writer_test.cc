#include "engine/compaction/compaction_output_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "engine/util/random.h"
#include "tests/compaction/compaction_data_test_util.h"
#include "tests/support/fault_injection_file_system.h"

namespace cassette {
namespace {

using namespace compaction_data_test;  // NOLINT: test builders

CompactionOutputShape Shape(uint64_t max_output_bytes, std::vector<int64_t> boundaries = {},
                            int64_t window = 0) {
  CompactionOutputShape shape;
  shape.max_output_bytes = max_output_bytes;
  shape.shard_boundaries = std::move(boundaries);
  shape.split_window_micros = window;
  return shape;
}

// Records what the writer asks for; never waits.
class CountingRateLimiter final : public RateLimiter {
 public:
  void Request(uint64_t bytes) override {
    total += bytes;
    ++calls;
  }
  void SetBytesPerSecond(uint64_t) override {}
  uint64_t bytes_per_second() const override { return 0; }
  int64_t total_wait_nanos() const override { return 0; }

  uint64_t total = 0;
  int calls = 0;
};

class CompactionOutputWriterTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(base_->CreateDirs("/db").ok()); }

  CompactionOutputOptions Options(CompactionOutputShape shape = {}) {
    CompactionOutputOptions o;
    o.fs = fs_;
    o.new_output = [this]() -> Result<std::pair<uint64_t, std::string>> {
      ++allocations_;
      const uint64_t g = next_generation_++;
      return std::make_pair(g, "/db/" + std::to_string(g) + ".sst");
    };
    o.shape = std::move(shape);
    return o;
  }

  Result<CompactionOutputResult> Write(std::vector<PartitionUpdate> partitions,
                                       CompactionOutputOptions options) {
    VectorPartitionIterator input(std::move(partitions));
    return CompactionOutputWriter(std::move(options)).Write(&input);
  }

  std::vector<std::string> Files() {
    auto children = base_->GetChildren("/db");
    EXPECT_TRUE(children.ok());
    return children.ok() ? *children : std::vector<std::string>{};
  }

  std::shared_ptr<MemFileSystem> base_ = NewMemFileSystem();
  FileSystem* fs_ = base_.get();
  int allocations_ = 0;
  uint64_t next_generation_ = 1;
};

// `n` partitions of one row each, with incompressible values of `value_size` bytes.
std::vector<PartitionUpdate> RandomPartitions(int n, size_t value_size, uint64_t seed = 7) {
  Random rnd(seed);
  std::vector<PartitionUpdate> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(Partition("key" + std::to_string(i),
                            {MakeRow(1, {Simple(1, Cell::Live(100 + i, rnd.Bytes(value_size)))})}));
  }
  std::sort(out.begin(), out.end(),
            [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
  return out;
}

TEST_F(CompactionOutputWriterTest, EmptyStreamWritesNoFile) {
  auto result = Write({}, Options());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(result->outputs.empty());
  EXPECT_EQ(result->bytes_written, 0u);
  EXPECT_EQ(allocations_, 0);
  EXPECT_TRUE(Files().empty());
}

TEST_F(CompactionOutputWriterTest, PartitionsWithNothingInThemAreSkipped) {
  PartitionUpdate empty = Partition("k", {Row{Ck(1), {}, {}, {}}});
  auto result = Write({empty}, Options());
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->outputs.empty());
  EXPECT_TRUE(Files().empty());
}

TEST_F(CompactionOutputWriterTest, WritesTheStreamAsGiven) {
  // A memtable's stream at flush: nothing is purged or shadowed here.
  PartitionUpdate p =
      Partition("k", {MakeRow(1, {Simple(1, Cell::Live(10, "a"))}, Marker(10)),
                      MakeRow(2, {Simple(1, Cell::Tombstone(30, 1000))}, {}, Del(20, 1000))});
  p.partition_deletion = Del(15, 1000);
  p.static_row.columns.push_back(Simple(5, Cell::Live(40, "s")));
  p.range_tombstones.push_back(Rt(1, 3, Del(12, 1000)));
  CountingRateLimiter limiter;
  CompactionOutputOptions options = Options();
  options.rate_limiter = &limiter;
  auto result = Write({p}, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->outputs.size(), 1u);
  const CompactionOutput& out = result->outputs[0];
  EXPECT_EQ(out.generation, 1u);
  EXPECT_EQ(out.path, "/db/1.sst");
  EXPECT_EQ(DumpSSTable(fs_, out.path), Dump({p}));
  EXPECT_EQ(out.stats.partition_count, 1u);
  EXPECT_EQ(out.stats.row_count, 2u);
  auto size = fs_->GetFileSize(out.path);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(out.file_size, *size);
  EXPECT_EQ(result->bytes_written, *size);
  EXPECT_GE(limiter.total, result->bytes_written);
  EXPECT_GT(limiter.calls, 0);
}

TEST_F(CompactionOutputWriterTest, SplitsBySizeAtPartitionBoundaries) {
  std::vector<PartitionUpdate> partitions = RandomPartitions(200, 200);
  CompactionOutputOptions options = Options(Shape(8192));
  options.writer_options.compress = false;
  options.writer_options.expected_partitions = 200;
  options.input_bytes = 200 * 230;
  CountingRateLimiter limiter;
  options.rate_limiter = &limiter;
  auto result = Write(partitions, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_GE(result->outputs.size(), 4u);
  std::vector<PartitionUpdate> all;
  uint64_t bytes = 0;
  for (size_t i = 0; i < result->outputs.size(); ++i) {
    const CompactionOutput& out = result->outputs[i];
    auto read = ReadSSTable(fs_, out.path);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_FALSE(read->empty());
    // Each output but the last was closed once it reached the limit.
    if (i + 1 < result->outputs.size()) {
      EXPECT_GE(out.file_size, 8192u * 9 / 10) << i;
    }
    EXPECT_LT(out.file_size, 8192u + 2048) << i;
    all.insert(all.end(), read->begin(), read->end());
    bytes += out.file_size;
  }
  // Outputs hold consecutive, disjoint runs of the stream.
  EXPECT_EQ(Dump(all), Dump(partitions));
  EXPECT_EQ(result->bytes_written, bytes);
  EXPECT_GE(limiter.total, bytes);
  EXPECT_EQ(Files().size(), result->outputs.size());
}

TEST_F(CompactionOutputWriterTest, SplitsAtShardBoundaries) {
  std::vector<PartitionUpdate> partitions = RandomPartitions(100, 10);
  const std::vector<int64_t> boundaries = {std::numeric_limits<int64_t>::min() / 2, 0,
                                           std::numeric_limits<int64_t>::max() / 2};
  auto result = Write(partitions, Options(Shape(0, boundaries)));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->outputs.size(), 4u);  // 100 random tokens fill every quarter
  std::vector<PartitionUpdate> all;
  for (size_t i = 0; i < result->outputs.size(); ++i) {
    auto read = ReadSSTable(fs_, result->outputs[i].path);
    ASSERT_TRUE(read.ok());
    for (const PartitionUpdate& p : *read) {
      if (i > 0) {
        EXPECT_GE(p.key.token, boundaries[i - 1]);
      }
      if (i < boundaries.size()) {
        EXPECT_LT(p.key.token, boundaries[i]);
      }
    }
    all.insert(all.end(), read->begin(), read->end());
  }
  EXPECT_EQ(Dump(all), Dump(partitions));
}

TEST_F(CompactionOutputWriterTest, SplitsRowsAndDeletionsByTimeWindow) {
  constexpr int64_t kWindow = 1000;
  PartitionUpdate k = Partition(
      "k", {MakeRow(1, {Simple(1, Cell::Live(100, "a"))}),
            MakeRow(2, {Simple(1, Cell::Live(1500, "b"))}),
            MakeRow(3, {Simple(1, Cell::Live(2500, "c"))}),
            // Newest timestamp decides: 1200.
            MakeRow(4, {Simple(1, Cell::Live(200, "d")), Simple(2, Cell::Live(1200, "e"))}),
            // A late write, far older than its neighbours.
            MakeRow(5, {Simple(1, Cell::Live(50, "late"))}),
            MakeRow(6, {}, Marker(2999), Del(2001, 1000))});
  k.partition_deletion = Del(40, 1000);
  k.static_row.columns.push_back(Simple(5, Cell::Live(300, "s")));
  k.range_tombstones.push_back(Rt(10, 11, Del(2100, 1000)));
  PartitionUpdate j = Partition("j", {MakeRow(1, {Simple(1, Cell::Live(1999, "x"))})});
  CompactionOutputOptions options = Options(Shape(0, {}, kWindow));
  auto result = Write({k, j}, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->outputs.size(), 3u);

  std::map<int64_t, std::string> by_window;
  for (const CompactionOutput& out : result->outputs) {
    // A row's newest timestamp decides its window, so an output's max
    // timestamp is in its window (row 4 brings an older one into window 1).
    by_window[out.stats.max_timestamp / kWindow] = DumpSSTable(fs_, out.path);
  }
  EXPECT_EQ(by_window[0], "k pdel=40/1000 static{c5=s@300} | 1{c1=a@100} 5{c1=late@50}\n");
  EXPECT_EQ(SortedLines(by_window[1]),
            SortedLines("k | 2{c1=b@1500} 4{c1=d@200 c2=e@1200}\nj | 1{c1=x@1999}\n"));
  EXPECT_EQ(by_window[2], "k rt[10,11]=2100/1000 | 3{c1=c@2500} 6{m=2999 del=2001/1000}\n");
}

TEST_F(CompactionOutputWriterTest, WindowsAreEpochAlignedForNegativeTimestamps) {
  PartitionUpdate p = Partition("k", {MakeRow(1, {Simple(1, Cell::Live(-1, "a"))}),
                                      MakeRow(2, {Simple(1, Cell::Live(0, "b"))}),
                                      MakeRow(3, {Simple(1, Cell::Live(-1000, "c"))}),
                                      MakeRow(4, {Simple(1, Cell::Live(-1001, "d"))})});
  auto result = Write({p}, Options(Shape(0, {}, 1000)));
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->outputs.size(), 3u);
  EXPECT_EQ(DumpSSTable(fs_, result->outputs[0].path), "k | 1{c1=a@-1} 3{c1=c@-1000}\n");
  EXPECT_EQ(DumpSSTable(fs_, result->outputs[1].path), "k | 2{c1=b@0}\n");
  EXPECT_EQ(DumpSSTable(fs_, result->outputs[2].path), "k | 4{c1=d@-1001}\n");
}

TEST_F(CompactionOutputWriterTest, WindowOutputsAlsoSplitBySize) {
  std::vector<PartitionUpdate> partitions = RandomPartitions(120, 200);
  // Odd generations of rows in window 0, even ones in window 1.
  for (size_t i = 0; i < partitions.size(); ++i) {
    partitions[i].rows[0].columns[0].cells[0].timestamp = (i % 2 == 0) ? 10 : 1010;
  }
  CompactionOutputOptions options = Options(Shape(8192, {}, 1000));
  options.writer_options.compress = false;
  auto result = Write(partitions, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_GE(result->outputs.size(), 4u);
  size_t rows = 0;
  for (const CompactionOutput& out : result->outputs) {
    EXPECT_EQ(out.stats.min_timestamp / 1000, out.stats.max_timestamp / 1000);
    EXPECT_LT(out.file_size, 8192u + 2048);
    rows += out.stats.row_count;
  }
  EXPECT_EQ(rows, partitions.size());
}

TEST_F(CompactionOutputWriterTest, FailedWriteLeavesNoOutputBehind) {
  FaultInjectionFileSystem faulty(base_);
  fs_ = &faulty;
  std::vector<PartitionUpdate> partitions = RandomPartitions(200, 200);
  CompactionOutputOptions options = Options(Shape(8192));
  options.writer_options.compress = false;
  // The third output fails on its first append, after two finished ones.
  FaultRule rule;
  rule.op = FaultOp::kWrite;
  rule.glob = "/db/3.sst";
  faulty.AddRule(rule);
  auto result = Write(partitions, options);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsIOError()) << result.status().ToString();
  EXPECT_EQ(faulty.injected(), 1);
  EXPECT_TRUE(Files().empty());
}

TEST_F(CompactionOutputWriterTest, FailedSyncLeavesNoOutputBehind) {
  FaultInjectionFileSystem faulty(base_);
  fs_ = &faulty;
  FaultRule rule;
  rule.op = FaultOp::kSync;
  rule.glob = "/db/2.sst";
  faulty.AddRule(rule);
  CompactionOutputOptions options = Options(Shape(8192));
  options.writer_options.compress = false;
  auto result = Write(RandomPartitions(200, 200), options);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsIOError());
  EXPECT_TRUE(Files().empty());
}

TEST_F(CompactionOutputWriterTest, FailedAllocationOrInputLeavesNoOutputBehind) {
  CompactionOutputOptions options = Options(Shape(8192));
  options.writer_options.compress = false;
  auto allocate = options.new_output;
  options.new_output = [&, calls = 0]() mutable -> Result<std::pair<uint64_t, std::string>> {
    if (++calls == 3) return Status::IOError("no generation for you");
    return allocate();
  };
  auto result = Write(RandomPartitions(200, 200), options);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(Files().empty());

  VectorPartitionIterator failing(RandomPartitions(20, 10), Status::Corruption("bad input"));
  auto failed = CompactionOutputWriter(Options()).Write(&failing);
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(failed.status().IsCorruption());
  EXPECT_TRUE(Files().empty());
}

TEST_F(CompactionOutputWriterTest, WriterOptionsFromInputs) {
  SSTableStats a;
  a.partition_count = 10;
  a.min_timestamp = 500;
  a.min_local_deletion_time = 7000;
  a.min_ttl = 0;  // mixes expiring and non-expiring cells
  a.max_ttl = 3600;
  a.encoding_stats.min_ttl = 60;
  SSTableStats b;
  b.partition_count = 5;
  b.min_timestamp = 300;
  b.min_ttl = 120;
  b.max_ttl = 120;
  SSTableStats empty;  // no data at all
  SSTableWriterOptions table;
  table.compression_level = 5;
  table.bloom_fp_chance = 0.1;
  SSTableWriterOptions o = CompactionWriterOptions(table, {&a, &b, &empty}, 123456);
  EXPECT_EQ(o.compression_level, 5);
  EXPECT_EQ(o.bloom_fp_chance, 0.1);
  EXPECT_EQ(o.expected_partitions, 15u);
  EXPECT_EQ(o.creation_time_micros, 123456);
  EXPECT_EQ(o.encoding_stats.min_timestamp, 300);
  EXPECT_EQ(o.encoding_stats.min_local_deletion_time, 7000);
  EXPECT_EQ(o.encoding_stats.min_ttl, 60);

  SSTableWriterOptions none = CompactionWriterOptions(table, {}, 1);
  EXPECT_EQ(none.expected_partitions, 1u);
  EXPECT_EQ(none.encoding_stats, EncodingStats{});
}

TEST_F(CompactionOutputWriterTest, CompactionSplitByWindowEndToEnd) {
  // Two flushes of hour 2 data, the second with a late write for hour 1:
  // the compaction merges the versions of row 2 and gives the late row an
  // output of its own window instead of pinning hour 1 to hour 2.
  constexpr int64_t kHour = 3'600'000'000;
  auto first =
      WriteSSTable(fs_, "/db/in1.sst",
                   {Partition("k", {MakeRow(1, {Simple(1, Cell::Live(2 * kHour + 1, "a"))}),
                                    MakeRow(2, {Simple(1, Cell::Live(2 * kHour + 1, "b"))})})});
  auto second =
      WriteSSTable(fs_, "/db/in2.sst",
                   {Partition("k", {MakeRow(2, {Simple(1, Cell::Live(2 * kHour + 2, "c"))}),
                                    MakeRow(3, {Simple(1, Cell::Live(kHour + 5, "late"))})})});
  ASSERT_TRUE(first.ok() && second.ok());
  CompactionController controller = CompactionController::NoPurge();
  auto run = RunCompaction(fs_, "/db", {*first, *second}, controller, 0, Shape(0, {}, kHour));
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->result.outputs.size(), 2u);
  EXPECT_EQ(DumpSSTable(fs_, run->result.outputs[0].path),
            "k | 1{c1=a@7200000001} 2{c1=c@7200000002}\n");
  EXPECT_EQ(DumpSSTable(fs_, run->result.outputs[1].path), "k | 3{c1=late@3600000005}\n");
  EXPECT_EQ(run->result.outputs[1].stats.max_timestamp, kHour + 5);
  EXPECT_EQ(run->stats.rows_merged, 3u);
}

}  // namespace
}  // namespace cassette
