#include "engine/sstable/sstable_stats.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "tests/sstable/sstable_test_util.h"

namespace cassette {
namespace {

using sstable_test::Ck;
using sstable_test::SimpleColumn;
using sstable_test::WriteTable;

Row RowWith(std::string ck, std::vector<ColumnData> columns, LivenessInfo marker = {}) {
  Row r;
  r.clustering = std::move(ck);
  r.marker = marker;
  r.columns = std::move(columns);
  return r;
}

std::vector<PartitionUpdate> Sorted(std::vector<PartitionUpdate> ps) {
  std::sort(ps.begin(), ps.end(),
            [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
  return ps;
}

TEST(SSTableStats, OnlyExpiringAndDeletedDataHasFiniteMaxLocalDeletionTime) {
  auto fs = NewMemFileSystem();
  PartitionUpdate a;
  a.key = DecoratedKey::FromKey("a");
  a.partition_deletion = DeletionTime{100, 5000};
  a.rows.push_back(RowWith(Ck(1, 1), {SimpleColumn(1, Cell::Expiring(200, 60, 1000, "x"))},
                           LivenessInfo{150, 60, 1060}));
  a.rows.push_back(RowWith(Ck(1, 2), {SimpleColumn(1, Cell::Tombstone(50, 2000))}));
  PartitionUpdate b;
  b.key = DecoratedKey::FromKey("b");
  b.range_tombstones.push_back(
      {ClusteringRange{Bound{Ck(0, 0), true}, Bound{Ck(9, 9), false}}, DeletionTime{300, 7000}});
  Row deleted;
  deleted.clustering = Ck(2, 0);
  deleted.deletion = DeletionTime{20, 3000};
  b.rows.push_back(deleted);
  auto stats = WriteTable(fs.get(), "/s.sst", Sorted({a, b}));
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();

  EXPECT_EQ(stats->partition_count, 2u);
  EXPECT_EQ(stats->row_count, 3u);
  EXPECT_EQ(stats->cell_count, 2u);
  EXPECT_EQ(stats->tombstone_cell_count, 1u);
  EXPECT_EQ(stats->expiring_cell_count, 1u);
  EXPECT_EQ(stats->row_deletion_count, 1u);
  EXPECT_EQ(stats->partition_deletion_count, 1u);
  EXPECT_TRUE(stats->has_partition_deletions);
  EXPECT_EQ(stats->range_tombstone_count, 1u);
  EXPECT_EQ(stats->min_timestamp, 20);
  EXPECT_EQ(stats->max_timestamp, 300);
  EXPECT_EQ(stats->min_local_deletion_time, 1060);
  EXPECT_EQ(stats->max_local_deletion_time, 7000);
  EXPECT_EQ(stats->min_ttl, 0);  // the tombstone cell
  EXPECT_EQ(stats->max_ttl, 60);
  EXPECT_EQ(stats->min_clustering, Ck(1, 1));
  EXPECT_EQ(stats->max_clustering, Ck(2, 0));
  const auto& first = a.key < b.key ? a.key : b.key;
  const auto& last = a.key < b.key ? b.key : a.key;
  EXPECT_EQ(stats->first_key, first);
  EXPECT_EQ(stats->last_key, last);
  // ldts 5000, 1060 (marker), 1060 (cell), 2000, 7000, 3000, rounded up
  // to minutes.
  const std::vector<std::pair<int64_t, uint64_t>> bins = {
      {1080, 2}, {2040, 1}, {3000, 1}, {5040, 1}, {7020, 1}};
  EXPECT_EQ(stats->tombstone_drop_times.bins(), bins);
  EXPECT_EQ(stats->partition_sizes.Count(), 2u);
  EXPECT_EQ(stats->cells_per_partition.Count(), 2u);
  EXPECT_GT(stats->uncompressed_size, 0u);
  EXPECT_GT(stats->compressed_size, 0u);

  auto reader = SSTableReader::Open(fs.get(), "/s.sst", nullptr);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->stats(), *stats);
}

TEST(SSTableStats, OneLiveCellMakesMaxLocalDeletionTimeNone) {
  auto fs = NewMemFileSystem();
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(RowWith(Ck(1, 1), {SimpleColumn(1, Cell::Tombstone(10, 100))}));
  p.rows.push_back(RowWith(Ck(1, 2), {SimpleColumn(1, Cell::Live(11, "v"))}));
  auto stats = WriteTable(fs.get(), "/l.sst", {p});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->max_local_deletion_time, kNoDeletionTime);
  EXPECT_EQ(stats->min_local_deletion_time, 100);
  // Live data adds nothing to the drop-time histogram.
  EXPECT_EQ(stats->tombstone_drop_times.TotalCount(), 1u);
}

TEST(SSTableStats, LiveMarkerAloneCountsAsNoDeletionTime) {
  auto fs = NewMemFileSystem();
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(RowWith(Ck(1, 1), {}, LivenessInfo{42, 0, kNoDeletionTime}));
  auto stats = WriteTable(fs.get(), "/m.sst", {p});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->max_local_deletion_time, kNoDeletionTime);
  EXPECT_EQ(stats->min_timestamp, 42);
  EXPECT_EQ(stats->max_timestamp, 42);
}

TEST(SSTableStats, EmptyTableKeepsSentinels) {
  auto fs = NewMemFileSystem();
  SSTableWriterOptions options;
  options.creation_time_micros = 1234;
  options.bloom_fp_chance = 0.1;
  auto stats = WriteTable(fs.get(), "/e.sst", {}, options);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->min_timestamp, INT64_MAX);
  EXPECT_EQ(stats->max_timestamp, INT64_MIN);
  EXPECT_EQ(stats->max_local_deletion_time, INT64_MIN);
  EXPECT_EQ(stats->creation_time_micros, 1234);
  EXPECT_EQ(stats->bloom_fp_chance, 0.1);
}

TEST(SSTableStats, WriterOptionsAreRecorded) {
  auto fs = NewMemFileSystem();
  SSTableWriterOptions options;
  options.compression_level = 7;
  options.chunk_length = 4096;
  options.creation_time_micros = 99;
  options.encoding_stats = {1000, 2000, 3};
  PartitionUpdate p;
  p.key = DecoratedKey::FromKey("k");
  p.rows.push_back(RowWith(Ck(1, 1), {SimpleColumn(1, Cell::Live(1500, "v"))}));
  auto stats = WriteTable(fs.get(), "/o.sst", {p}, options);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->compression_level, 7);
  EXPECT_EQ(stats->chunk_length, 4096u);
  EXPECT_EQ(stats->creation_time_micros, 99);
  EXPECT_EQ(stats->encoding_stats, (EncodingStats{1000, 2000, 3}));
  options.compress = false;
  stats = WriteTable(fs.get(), "/o2.sst", {p}, options);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->compression_level, 0);
}

TEST(SSTableStats, PartitionSizeAndCellHistograms) {
  auto fs = NewMemFileSystem();
  std::vector<PartitionUpdate> ps;
  for (int i = 0; i < 10; ++i) {
    PartitionUpdate p;
    p.key = DecoratedKey::FromKey("k" + std::to_string(i));
    for (int r = 0; r <= i; ++r) {
      p.rows.push_back(
          RowWith(Ck(0, static_cast<uint32_t>(r)),
                  {SimpleColumn(1, Cell::Live(5, "v")), SimpleColumn(2, Cell::Live(5, "w"))}));
    }
    ps.push_back(std::move(p));
  }
  auto stats = WriteTable(fs.get(), "/h.sst", Sorted(ps));
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->cells_per_partition.Count(), 10u);
  EXPECT_EQ(stats->cells_per_partition.Max(), 20u);  // 20 is a bucket bound
  EXPECT_EQ(stats->cells_per_partition.Min(), 2u);
  EXPECT_EQ(stats->partition_sizes.Count(), 10u);
  EXPECT_GT(stats->partition_sizes.Max(), stats->partition_sizes.Min());
}

TEST(SSTableStats, DroppableTombstoneRatio) {
  SSTableStats s;
  EXPECT_EQ(s.DroppableTombstoneRatio(1000), 0.0);
  for (int i = 0; i < 4; ++i) s.cells_per_partition.Add(10);  // 40 cells
  s.tombstone_drop_times.Update(600, 10);
  s.tombstone_drop_times.Update(6000, 10);
  EXPECT_DOUBLE_EQ(s.DroppableTombstoneRatio(100000), 20.0 / 40.0);
  EXPECT_DOUBLE_EQ(s.DroppableTombstoneRatio(0), 0.0);
}

TEST(SSTableStats, PurgeableBytesByLagShareTheFileByDropTimePoint) {
  SSTableStats s;
  std::map<int64_t, uint64_t> by_lag;
  s.AddPurgeableBytesByLag(100000, 1000, &by_lag);
  EXPECT_TRUE(by_lag.empty()) << "an empty file has nothing purgeable";
  // 30 cells, 10 of them expiring, plus 10 row markers expiring with them
  // and 10 more points of deletions: 50 things, 20 with a drop time at 600
  // and 10 at 6000 (a minute multiple: kept as is).
  s.cell_count = 30;
  s.expiring_cell_count = 10;
  s.tombstone_drop_times.Update(600, 20);
  s.tombstone_drop_times.Update(6000, 10);
  s.AddPurgeableBytesByLag(6000, 1000, &by_lag);
  EXPECT_EQ(by_lag, (std::map<int64_t, uint64_t>{{0, 200}, {5400, 400}}));
  EXPECT_EQ(s.PurgeablePoints(6000), 30u);
  EXPECT_EQ(s.PurgeablePoints(5999), 20u);
  by_lag.clear();
  s.AddPurgeableBytesByLag(599, 1000, &by_lag);
  EXPECT_TRUE(by_lag.empty()) << "nothing is purgeable before its drop time";
  s.AddPurgeableBytesByLag(std::numeric_limits<int64_t>::min(), 1000, &by_lag);
  EXPECT_TRUE(by_lag.empty()) << "INT64_MIN: data out of the view, nothing purgeable";
  EXPECT_EQ(s.PurgeablePoints(std::numeric_limits<int64_t>::min()), 0u);
}

TEST(SSTableStats, EncodeDecodeRoundTrip) {
  SSTableStats s;
  s.partition_count = 3;
  s.row_count = 10;
  s.min_timestamp = -5;
  s.max_timestamp = INT64_MAX;
  s.min_ttl = 1;
  s.max_ttl = 100;
  s.min_clustering = "a";
  s.max_clustering = std::string("\xff\x00", 2);
  s.first_key = DecoratedKey::FromKey("x");
  s.last_key = DecoratedKey::FromKey("y");
  s.tombstone_drop_times.Update(12345);
  s.partition_sizes.Add(1 << 20);
  s.cells_per_partition.Add(7);
  s.encoding_stats = {1, 2, 3};
  s.bloom_fp_chance = 0.001;
  s.has_partition_deletions = true;
  std::string bytes;
  EncodeSSTableStats(s, &bytes);
  SSTableStats back;
  ASSERT_TRUE(DecodeSSTableStats(bytes, &back));
  EXPECT_EQ(back, s);
  // Every truncation and a trailing byte are rejected.
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeSSTableStats(std::string_view(bytes).substr(0, n), &back)) << n;
  }
  EXPECT_FALSE(DecodeSSTableStats(bytes + "x", &back));
}

}  // namespace
}  // namespace cassette
