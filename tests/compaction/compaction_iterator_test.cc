#include "engine/compaction/compaction_iterator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/mutation/reconcile.h"
#include "engine/util/random.h"
#include "tests/compaction/compaction_data_test_util.h"
#include "tests/support/file_contents.h"

namespace cassette {
namespace {

using namespace compaction_data_test;  // NOLINT: test builders

constexpr int64_t kGcGrace = 864000;
constexpr int64_t kNoGc = std::numeric_limits<int64_t>::min();

// What a read at `now_sec` sees of a partition: live cells and markers not
// shadowed by any deletion. A compaction with nothing outside it must never
// change this, whatever it purges.
std::string VisibleText(const PartitionUpdate& p, int64_t now_sec) {
  auto visible_row = [&](const Row& row, DeletionTime active) -> std::string {
    if (row.deletion.Supersedes(active)) active = row.deletion;
    std::string out;
    if (row.marker.IsLive(now_sec) && !active.Deletes(row.marker.timestamp)) {
      out += " m@" + std::to_string(row.marker.timestamp);
    }
    for (const ColumnData& col : row.columns) {
      for (const Cell& c : col.cells) {
        if (!c.IsLive(now_sec) || active.Deletes(c.timestamp) ||
            col.complex_deletion.Deletes(c.timestamp)) {
          continue;
        }
        out += " c" + std::to_string(col.column_id) + c.path + "=" + c.value + "@" +
               std::to_string(c.timestamp);
      }
    }
    return out;
  };
  std::string out;
  std::string s = visible_row(p.static_row, p.partition_deletion);
  if (!s.empty()) out += " static{" + s + "}";
  for (const Row& row : p.rows) {
    DeletionTime active = p.partition_deletion;
    for (const RangeTombstone& rt : p.range_tombstones) {
      if (rt.range.Contains(row.clustering) && rt.deletion.Supersedes(active)) active = rt.deletion;
    }
    std::string r = visible_row(row, active);
    if (!r.empty()) out += " " + CkText(row.clustering) + "{" + r + "}";
  }
  return out.empty() ? "" : p.key.key + out + "\n";
}

// Merges every partition of `parts` by key (a key may come from several
// inputs, or from several window outputs) and renders what reads see.
std::string VisibleText(const std::vector<PartitionUpdate>& parts, int64_t now_sec) {
  std::map<std::string, PartitionUpdate> by_key;
  for (const PartitionUpdate& p : parts) {
    auto [it, inserted] = by_key.try_emplace(p.key.key, p);
    if (!inserted) MergePartition(&it->second, p);
  }
  std::string out;
  for (const auto& [key, p] : by_key) out += VisibleText(p, now_sec);
  return out;
}

// Random partitions over small domains, so that ties and shadowing are common.
class RandomData {
 public:
  explicit RandomData(uint64_t seed) : rnd_(seed) {}

  int64_t Ts() { return rnd_.Range(1, 20); }
  DeletionTime Deletion() { return Del(Ts(), rnd_.Range(90, 110)); }
  Cell RandomCell(std::string path = {}) {
    switch (rnd_.Uniform(4)) {
      case 0:
        return Cell::Tombstone(Ts(), rnd_.Range(90, 110), std::move(path));
      case 1: {
        const int32_t ttl = static_cast<int32_t>(rnd_.Range(1, 20));
        return Cell::Expiring(Ts(), ttl, rnd_.Range(80, 100), Value(), std::move(path));
      }
      default:
        return Cell::Live(Ts(), Value(), std::move(path));
    }
  }
  std::string Value() { return std::string(1, static_cast<char>('a' + rnd_.Uniform(3))); }

  Row RandomRow(int32_t ck) {
    Row row;
    row.clustering = Ck(ck);
    switch (rnd_.Uniform(3)) {
      case 0:
        row.marker = Marker(Ts());
        break;
      case 1: {
        const int32_t ttl = static_cast<int32_t>(rnd_.Range(1, 20));
        row.marker = LivenessInfo{Ts(), ttl, rnd_.Range(90, 110)};
        break;
      }
      default:
        break;
    }
    if (rnd_.OneIn(5)) row.deletion = Deletion();
    for (uint32_t id = 1; id <= 3; ++id) {
      if (rnd_.OneIn(2)) row.columns.push_back(Simple(id, RandomCell()));
    }
    if (rnd_.OneIn(3)) {
      CellVector cells;
      for (const char* path : {"a", "b", "c"}) {
        if (rnd_.OneIn(2)) cells.push_back(RandomCell(path));
      }
      row.columns.push_back(
          Complex(4, std::move(cells), rnd_.OneIn(3) ? Deletion() : DeletionTime{}));
    }
    return row;
  }

  std::vector<PartitionUpdate> Input() {
    std::vector<PartitionUpdate> out;
    for (const char* key : {"k0", "k1", "k2", "k3", "k4", "k5"}) {
      if (!rnd_.OneIn(2)) continue;
      PartitionUpdate p = Partition(key);
      if (rnd_.OneIn(6)) p.partition_deletion = Deletion();
      if (rnd_.OneIn(3)) p.static_row.columns.push_back(Simple(5, RandomCell()));
      const int rts = rnd_.OneIn(2) ? 0 : static_cast<int>(rnd_.Range(1, 3));
      for (int i = 0; i < rts; ++i) {
        const int32_t lo = static_cast<int32_t>(rnd_.Range(0, 9));
        p.range_tombstones.push_back(
            Rt(lo, lo + static_cast<int32_t>(rnd_.Range(0, 3)), Deletion(), rnd_.OneIn(2)));
      }
      for (int32_t ck = 0; ck < 10; ++ck) {
        if (rnd_.OneIn(3)) p.rows.push_back(RandomRow(ck));
      }
      out.push_back(std::move(p));
    }
    return out;
  }

  Random& rnd() { return rnd_; }

 private:
  Random rnd_;
};

class CompactionIteratorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs_->CreateDirs("/db").ok());
    ASSERT_TRUE(fs_->CreateDirs("/db2").ok());
  }

  std::shared_ptr<SSTableReader> Input(std::vector<PartitionUpdate> partitions) {
    auto r = WriteSSTable(fs_.get(), "/db/in" + std::to_string(next_input_++) + ".sst",
                          std::move(partitions));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  // Compacts with nothing outside the compaction.
  CompactionRun Compact(const std::vector<std::shared_ptr<SSTableReader>>& inputs,
                        int64_t gc_before, int64_t now_sec) {
    CompactionController controller(gc_before, {});
    return Compact(inputs, controller, now_sec);
  }
  CompactionRun Compact(const std::vector<std::shared_ptr<SSTableReader>>& inputs,
                        const CompactionController& controller, int64_t now_sec) {
    auto run = RunCompaction(fs_.get(), "/db", inputs, controller, now_sec);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? std::move(run).value() : CompactionRun{};
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
  int next_input_ = 1;
};

TEST_F(CompactionIteratorTest, LastWriteWinsAcrossInputs) {
  auto a = Input(
      {Partition("k", {MakeRow(1, {Simple(1, Cell::Live(10, "a")), Simple(2, Cell::Live(10, "b"))}),
                       MakeRow(3, {Simple(1, Cell::Live(30, "a"))})})});
  auto b = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Live(20, "z"))}),
                                  MakeRow(2, {Simple(2, Cell::Live(5, "q"))}),
                                  // Equal timestamps: the larger value wins.
                                  MakeRow(3, {Simple(1, Cell::Live(30, "b"))})})});
  CompactionRun run = Compact({a, b}, kNoGc, 1000);
  EXPECT_EQ(run.dump, "k | 1{c1=z@20 c2=b@10} 2{c2=q@5} 3{c1=b@30}\n");
  EXPECT_EQ(run.stats.partitions_read, 2u);
  EXPECT_EQ(run.stats.partitions_merged, 1u);
  EXPECT_EQ(run.stats.partitions_written, 1u);
  EXPECT_EQ(run.stats.rows_read, 5u);
  EXPECT_EQ(run.stats.rows_merged, 3u);
  EXPECT_EQ(run.stats.rows_written, 3u);
  ASSERT_EQ(run.result.outputs.size(), 1u);
  EXPECT_EQ(run.result.outputs[0].stats.row_count, 3u);
}

TEST_F(CompactionIteratorTest, PartitionDeletionShadowsOlderRowsAndStatics) {
  PartitionUpdate data = Partition("k", {MakeRow(1, {Simple(1, Cell::Live(10, "a"))}, Marker(10)),
                                         MakeRow(2, {Simple(1, Cell::Live(30, "b"))})});
  data.static_row.columns.push_back(Simple(5, Cell::Live(10, "s")));
  PartitionUpdate deletion = Partition("k");
  deletion.partition_deletion = Del(20, 1000);
  CompactionRun run = Compact({Input({data}), Input({deletion})}, 2000 - kGcGrace, 2000);
  EXPECT_EQ(run.dump, "k pdel=20/1000 | 2{c1=b@30}\n");
  EXPECT_EQ(run.stats.cells_shadowed, 2u);
  EXPECT_EQ(run.stats.tombstones_purged(), 0u);
}

TEST_F(CompactionIteratorTest, RangeTombstoneShadowsCoveredRowsOnly) {
  std::vector<Row> rows;
  for (int i = 1; i <= 5; ++i) rows.push_back(MakeRow(i, {Simple(1, Cell::Live(10, "a"))}));
  rows[2].columns.push_back(Simple(2, Cell::Live(25, "n")));  // newer than the deletion
  PartitionUpdate deletion = Partition("k");
  deletion.range_tombstones.push_back(Rt(2, 4, Del(20, 1000)));
  // An exclusive end leaves its bound's rows alone.
  PartitionUpdate other = Partition("j");
  other.range_tombstones.push_back(Rt(1, 2, Del(20, 1000), /*hi_inclusive=*/false));
  CompactionRun run =
      Compact({Input({Partition("k", rows), Partition("j", rows)}), Input({deletion, other})},
              2000 - kGcGrace, 2000);
  EXPECT_EQ(SortedLines(run.dump),
            SortedLines("k rt[2,4]=20/1000 | 1{c1=a@10} 3{c2=n@25} 5{c1=a@10}\n"
                        "j rt[1,2)=20/1000 | 2{c1=a@10} 3{c1=a@10 c2=n@25} 4{c1=a@10} "
                        "5{c1=a@10}\n"));
}

TEST_F(CompactionIteratorTest, RowDeletionShadowsOlderCellsTiesIncluded) {
  auto a = Input({Partition("k", {MakeRow(1, {}, {}, Del(20, 1000))})});
  auto b = Input(
      {Partition("k", {MakeRow(1,
                               {Simple(1, Cell::Live(10, "a")), Simple(2, Cell::Live(30, "b")),
                                Simple(3, Cell::Live(20, "t"))},
                               Marker(10))})});
  CompactionRun run = Compact({a, b}, 2000 - kGcGrace, 2000);
  EXPECT_EQ(run.dump, "k | 1{del=20/1000 c2=b@30}\n");
  EXPECT_EQ(run.stats.cells_shadowed, 2u);
}

TEST_F(CompactionIteratorTest, CollectionDeletionShadowsOlderElements) {
  auto a = Input({Partition(
      "k", {MakeRow(1, {Complex(3, {Cell::Live(10, "x", "a"), Cell::Live(10, "y", "b")})})})});
  auto b = Input(
      {Partition("k", {MakeRow(1, {Complex(3, {Cell::Live(30, "z", "b")}, Del(20, 1000))})})});
  CompactionRun run = Compact({a, b}, 2000 - kGcGrace, 2000);
  EXPECT_EQ(run.dump, "k | 1{c3{del=20/1000 b=z@30}}\n");
  // b@10 lost to b@30 in the merge; only a@10 is shadowed.
  EXPECT_EQ(run.stats.cells_shadowed, 1u);
}

TEST_F(CompactionIteratorTest, RedundantRangeTombstonesAreDropped) {
  PartitionUpdate a = Partition("k");
  a.range_tombstones = {Rt(1, 10, Del(20, 1000)), Rt(3, 4, Del(15, 1000)), Rt(5, 6, Del(25, 1000))};
  PartitionUpdate b = Partition("k");
  b.partition_deletion = Del(10, 1000);
  b.range_tombstones = {Rt(12, 14, Del(5, 1000)),   // the partition deletion is stronger
                        Rt(1, 10, Del(20, 1000)),   // the same delete, flushed twice
                        Rt(8, 20, Del(21, 1000))};  // overlaps, stronger: kept
  CompactionRun run = Compact({Input({a}), Input({b})}, 2000 - kGcGrace, 2000);
  EXPECT_EQ(run.dump, "k pdel=10/1000 rt[1,10]=20/1000 rt[5,6]=25/1000 rt[8,20]=21/1000\n");
  EXPECT_EQ(run.stats.range_tombstones_shadowed, 3u);
}

TEST_F(CompactionIteratorTest, ExpiredCellBecomesTombstoneAtItsWriteSecond) {
  // Written at second 1000: c1 with TTL 100 expires at 1100, c2 at 2000.
  auto in =
      Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Expiring(100, 100, 1000, "v")),
                                         Simple(2, Cell::Expiring(100, 1000, 1000, "w"))})})});
  EXPECT_EQ(Compact({in}, 1099 - kGcGrace, 1099).dump,
            "k | 1{c1=v@100~100/1100 c2=w@100~1000/2000}\n");
  CompactionRun run = Compact({in}, 1100 - kGcGrace, 1100);
  EXPECT_EQ(run.dump, "k | 1{c1=X@100/1000 c2=w@100~1000/2000}\n");
  EXPECT_EQ(run.stats.expired_cells_converted, 1u);
  EXPECT_EQ(run.stats.cells_purged, 0u);
}

// Rows that need no change are handed on as the merge built them, rows that
// do are rewritten: interleaved in one partition, each keeps its own form.
TEST_F(CompactionIteratorTest, UnchangedRowsAndRewrittenRowsInterleave) {
  auto a = Input(
      {Partition("k", {MakeRow(1, {Simple(1, Cell::Expiring(100, 5000, 1000, "a"))}, Marker(100)),
                       MakeRow(2, {Simple(1, Cell::Expiring(100, 100, 1000, "b"))}, Marker(100)),
                       MakeRow(3, {Simple(1, Cell::Live(100, "c"))}),
                       MakeRow(4, {}, LivenessInfo{100, 100, 1100}),
                       MakeRow(5, {Simple(1, Cell::Live(100, "e"))}, {}, Del(50, 900))})});
  auto b = Input({Partition("k", {MakeRow(3, {Simple(1, Cell::Live(200, "C"))}),
                                  MakeRow(6, {Simple(1, Cell::Tombstone(100, 1000))})})});
  CompactionRun run = Compact({a, b}, 2000 - kGcGrace, 2000);
  EXPECT_EQ(run.dump,
            "k | 1{m=100 c1=a@100~5000/6000} 2{m=100 c1=X@100/1000} 3{c1=C@200} "
            "4{m=100~100/1100} 5{del=50/900 c1=e@100} 6{c1=X@100/1000}\n");
  EXPECT_EQ(run.stats.rows_written, 6u);
  EXPECT_EQ(run.stats.expired_cells_converted, 1u);
  // Past gc_grace, the deletions go and the rows left empty with them.
  run = Compact({a, b}, 1999, 2000);
  EXPECT_EQ(run.dump, "k | 1{m=100 c1=a@100~5000/6000} 2{m=100} 3{c1=C@200} 5{c1=e@100}\n");
  EXPECT_EQ(run.stats.rows_written, 4u);
  EXPECT_EQ(run.stats.expired_markers_purged, 1u);
  EXPECT_EQ(run.stats.row_deletions_purged, 1u);
}

TEST_F(CompactionIteratorTest, ExpiredCellIsPurgedOnceItsWriteSecondPassesGcBefore) {
  auto in = Input({Partition(
      "k", {MakeRow(1, {Simple(1, Cell::Expiring(100, 100, 1000, "v"))}, Marker(100))})});
  // gc_before is compared with the write second (1000), strictly.
  CompactionRun kept = Compact({in}, 1000, 2000);
  EXPECT_EQ(kept.dump, "k | 1{m=100 c1=X@100/1000}\n");
  CompactionRun purged = Compact({in}, 1001, 2000);
  EXPECT_EQ(purged.dump, "k | 1{m=100}\n");
  EXPECT_EQ(purged.stats.cells_purged, 1u);
  EXPECT_EQ(purged.stats.expired_cells_purged, 1u);
  EXPECT_EQ(purged.stats.expired_cells_converted, 0u);
}

TEST_F(CompactionIteratorTest, ExpiredMarkerIsKeptUntilItsExpirationPassesGcBefore) {
  auto in = Input({Partition("k", {MakeRow(1, {}, LivenessInfo{100, 100, 1100})})});
  EXPECT_EQ(Compact({in}, 1100, 5000).dump, "k | 1{m=100~100/1100}\n");
  CompactionRun purged = Compact({in}, 1101, 5000);
  EXPECT_EQ(purged.dump, "");
  EXPECT_TRUE(purged.result.outputs.empty());
  EXPECT_EQ(purged.stats.expired_markers_purged, 1u);
  EXPECT_EQ(purged.stats.partitions_written, 0u);
  // A live (unexpired) marker is never purged, however old.
  EXPECT_EQ(Compact({in}, 1101, 1099).dump, "k | 1{m=100~100/1100}\n");
}

TEST_F(CompactionIteratorTest, EveryDeletionKindIsPurgedOnlyPastGcBefore) {
  PartitionUpdate p = Partition(
      "k", {MakeRow(3, {}, {}, Del(80, 1000)),
            MakeRow(4, {Simple(1, Cell::Tombstone(90, 1000)), Complex(3, {}, Del(95, 1000))})});
  p.partition_deletion = Del(50, 1000);
  p.static_row.columns.push_back(Simple(5, Cell::Tombstone(60, 1000)));
  p.range_tombstones.push_back(Rt(1, 2, Del(70, 1000)));
  auto in = Input({p});
  const std::string all =
      "k pdel=50/1000 static{c5=X@60/1000} rt[1,2]=70/1000 | 3{del=80/1000} "
      "4{c1=X@90/1000 c3{del=95/1000}}\n";
  CompactionRun kept = Compact({in}, 1000, 5000);
  EXPECT_EQ(kept.dump, all);
  EXPECT_EQ(kept.stats.tombstones_purged(), 0u);

  auto files_before = fs_->GetChildren("/db");
  CompactionRun purged = Compact({in}, 1001, 5000);
  EXPECT_EQ(purged.dump, "");
  EXPECT_TRUE(purged.result.outputs.empty());
  // An empty result writes no file.
  auto files_after = fs_->GetChildren("/db");
  ASSERT_TRUE(files_before.ok() && files_after.ok());
  EXPECT_EQ(*files_after, *files_before);
  EXPECT_EQ(purged.stats.partition_deletions_purged, 1u);
  EXPECT_EQ(purged.stats.range_tombstones_purged, 1u);
  EXPECT_EQ(purged.stats.row_deletions_purged, 1u);
  EXPECT_EQ(purged.stats.complex_deletions_purged, 1u);
  EXPECT_EQ(purged.stats.cells_purged, 2u);
  EXPECT_EQ(purged.stats.tombstones_purged(), 6u);
  EXPECT_EQ(purged.stats.rows_merged, 2u);
  EXPECT_EQ(purged.stats.rows_written, 0u);
}

TEST_F(CompactionIteratorTest, GcGraceZeroPurgesTheNextSecond) {
  // A tombstone written in second 5000 with gc_grace_seconds = 0.
  auto in = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Tombstone(10, 5000))})})});
  EXPECT_EQ(Compact({in}, /*gc_before=*/5000 - 0, 5000).dump, "k | 1{c1=X@10/5000}\n");
  EXPECT_EQ(Compact({in}, /*gc_before=*/5001 - 0, 5001).dump, "");
}

TEST_F(CompactionIteratorTest, ShadowedDataGoesEvenWhenItsTombstoneIsPurged) {
  auto data = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Live(10, "a"))})})});
  PartitionUpdate deletion = Partition("k");
  deletion.partition_deletion = Del(20, 1000);
  CompactionRun run = Compact({data, Input({deletion})}, 2000, 3000);
  EXPECT_EQ(run.dump, "");
  EXPECT_EQ(run.stats.cells_shadowed, 1u);
  EXPECT_EQ(run.stats.partition_deletions_purged, 1u);
}

TEST_F(CompactionIteratorTest, OverlappingSSTableWithOlderDataBlocksThePurge) {
  // Deletes k and j at ts 20; k also has older data in a file outside.
  auto tombstones = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000))})}),
                           Partition("j", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000))})})});
  auto older = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Live(5, "old"))})})});
  ASSERT_TRUE(older->MayContainKey(Key("k")));
  ASSERT_FALSE(older->MayContainKey(Key("j")));
  CompactionController blocked(2000, {older});
  CompactionRun run = Compact({tombstones}, blocked, 3000);
  EXPECT_EQ(run.dump, "k | 1{c1=X@20/1000}\n");
  EXPECT_EQ(run.stats.cells_purged, 1u);  // j's

  // Newer data outside does not block: the tombstone shadows nothing there.
  auto newer = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Live(50, "new"))})})});
  CompactionController not_blocked(2000, {newer});
  EXPECT_EQ(Compact({tombstones}, not_blocked, 3000).dump, "");
  // Equal timestamps block (the rule is strict: T < min timestamp).
  auto same = Input({Partition("k", {MakeRow(2, {Simple(1, Cell::Live(20, "same"))})})});
  CompactionController tie(2000, {same});
  EXPECT_EQ(Compact({tombstones}, tie, 3000).dump, "k | 1{c1=X@20/1000}\n");
}

TEST_F(CompactionIteratorTest, SSTableThatCannotHoldTheKeyDoesNotBlock) {
  auto tombstone = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000))})})});
  // Old data under many other keys: k is inside their token range for some
  // of them, but the bloom filter rules it out.
  std::vector<PartitionUpdate> others;
  for (int i = 0; i < 50; ++i) {
    others.push_back(
        Partition("other" + std::to_string(i), {MakeRow(1, {Simple(1, Cell::Live(1, "x"))})}));
  }
  auto unrelated = Input(others);
  ASSERT_TRUE(unrelated->stats().first_key < Key("k") && Key("k") < unrelated->stats().last_key);
  ASSERT_FALSE(unrelated->MayContainKey(Key("k")));
  CompactionController controller(2000, {unrelated});
  EXPECT_EQ(Compact({tombstone}, controller, 3000).dump, "");
}

TEST_F(CompactionIteratorTest, MemtableHoldingOlderDataBlocksThePurge) {
  auto in = Input({Partition("k", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000))})}),
                   Partition("j", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000))})})});
  int calls = 0;
  CompactionController controller(2000, {}, [&calls](const DecoratedKey& key) {
    ++calls;
    return key.key == "k" ? std::optional<int64_t>(5) : std::nullopt;
  });
  CompactionRun run = Compact({in}, controller, 3000);
  EXPECT_EQ(run.dump, "k | 1{c1=X@20/1000}\n");
  EXPECT_EQ(calls, 2);  // once per partition

  CompactionController newer(2000, {},
                             [](const DecoratedKey&) { return std::optional<int64_t>(30); });
  EXPECT_EQ(Compact({in}, newer, 3000).dump, "");
}

TEST_F(CompactionIteratorTest, OverlapsAreOnlyCheckedForDeletionsOldEnough) {
  auto in = Input({Partition(
      "k", {MakeRow(1, {Simple(1, Cell::Tombstone(20, 1000)), Simple(2, Cell::Live(20, "v"))})})});
  int calls = 0;
  CompactionController controller(1000, {}, [&calls](const DecoratedKey&) {
    ++calls;
    return std::optional<int64_t>();
  });
  EXPECT_EQ(Compact({in}, controller, 3000).dump, "k | 1{c1=X@20/1000 c2=v@20}\n");
  EXPECT_EQ(calls, 0);
}

TEST_F(CompactionIteratorTest, StaticRowIsCompactedLikeARow) {
  PartitionUpdate a = Partition("k");
  a.static_row.columns = {Simple(5, Cell::Live(10, "s")),
                          Simple(6, Cell::Expiring(10, 10, 100, "e"))};
  PartitionUpdate b = Partition("k");
  b.static_row.columns = {Simple(5, Cell::Live(30, "t"))};
  CompactionRun run = Compact({Input({a}), Input({b})}, 200 - kGcGrace, 200);
  EXPECT_EQ(run.dump, "k static{c5=t@30 c6=X@10/100}\n");
}

TEST_F(CompactionIteratorTest, ManyPartitionsFromManyInputs) {
  std::vector<std::vector<PartitionUpdate>> inputs(3);
  std::string expected;
  for (int k = 0; k < 60; ++k) {
    const std::string key = "key" + std::to_string(k);
    // Every third key is deleted as a whole in the last input, after its data.
    for (int i = 0; i < 3; ++i) {
      if (k % 3 == 0 && i == 2) {
        PartitionUpdate del = Partition(key);
        del.partition_deletion = Del(100, 1000);
        inputs[i].push_back(del);
      } else {
        inputs[i].push_back(
            Partition(key, {MakeRow(i, {Simple(1, Cell::Live(10 + i, "v" + std::to_string(i)))})}));
      }
    }
    if (k % 3 == 0) {
      expected += key + " pdel=100/1000\n";
    } else {
      expected += key + " | 0{c1=v0@10} 1{c1=v1@11} 2{c1=v2@12}\n";
    }
  }
  std::vector<std::shared_ptr<SSTableReader>> readers;
  for (auto& in : inputs) readers.push_back(Input(in));
  CompactionRun run = Compact(readers, 2000 - kGcGrace, 2000);
  EXPECT_EQ(SortedLines(run.dump), SortedLines(expected));
  EXPECT_EQ(run.stats.partitions_read, 180u);
  EXPECT_EQ(run.stats.partitions_merged, 60u);
  EXPECT_EQ(run.stats.partitions_written, 60u);
  EXPECT_EQ(run.stats.rows_read, 160u);  // 40 keys x 3 + 20 keys x 2
  EXPECT_EQ(run.stats.rows_merged, 160u);
  EXPECT_EQ(run.stats.rows_written, 120u);
}

TEST_F(CompactionIteratorTest, CompactionNeverChangesWhatReadsSee) {
  const uint64_t seed = std::getenv("CASSETTE_SEED") != nullptr
                            ? std::strtoull(std::getenv("CASSETTE_SEED"), nullptr, 10)
                            : 20240101;
  constexpr int64_t kNow = 100;
  for (int iteration = 0; iteration < 150; ++iteration) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " iteration " + std::to_string(iteration));
    RandomData gen(seed + static_cast<uint64_t>(iteration));
    std::vector<PartitionUpdate> all;
    std::vector<std::shared_ptr<SSTableReader>> inputs;
    const int n = static_cast<int>(gen.rnd().Range(1, 4));
    for (int i = 0; i < n; ++i) {
      std::vector<PartitionUpdate> in = gen.Input();
      all.insert(all.end(), in.begin(), in.end());
      inputs.push_back(Input(in));
      ASSERT_NE(inputs.back(), nullptr);
    }
    const int64_t gc_befores[] = {kNoGc, 90, 95, 100};
    const int64_t gc_before = gc_befores[gen.rnd().Uniform(4)];
    CompactionOutputShape shape;
    if (gen.rnd().OneIn(2)) shape.split_window_micros = gen.rnd().Range(1, 8);
    if (gen.rnd().OneIn(3)) shape.max_output_bytes = 200;
    if (gen.rnd().OneIn(3)) shape.shard_boundaries = {0};
    CompactionController controller(gc_before, {});
    auto run = RunCompaction(fs_.get(), "/db", inputs, controller, kNow, shape);
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    std::vector<PartitionUpdate> compacted;
    std::vector<std::shared_ptr<SSTableReader>> outputs;
    for (const CompactionOutput& out : run->result.outputs) {
      auto read = ReadSSTable(fs_.get(), out.path);
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      compacted.insert(compacted.end(), read->begin(), read->end());
      auto reader = SSTableReader::Open(fs_.get(), out.path);
      ASSERT_TRUE(reader.ok());
      outputs.push_back(*reader);
    }
    for (int64_t at : {kNow, kNow + 5, kNow + 20}) {
      EXPECT_EQ(VisibleText(compacted, at), VisibleText(all, at)) << "at " << at;
    }
    // Compacting the outputs again (one output per window, as TWCS would
    // not, but nothing forbids it) changes nothing either.
    if (!outputs.empty()) {
      auto second = RunCompaction(fs_.get(), "/db2", outputs, controller, kNow);
      ASSERT_TRUE(second.ok()) << second.status().ToString();
      std::vector<PartitionUpdate> recompacted;
      for (const CompactionOutput& out : second->result.outputs) {
        auto read = ReadSSTable(fs_.get(), out.path);
        ASSERT_TRUE(read.ok()) << read.status().ToString();
        recompacted.insert(recompacted.end(), read->begin(), read->end());
        ASSERT_TRUE(fs_->DeleteFile(out.path).ok());
      }
      EXPECT_EQ(VisibleText(recompacted, kNow), VisibleText(all, kNow));
      // Nothing was left to purge: everything purgeable went the first time.
      EXPECT_EQ(second->stats.tombstones_purged(), 0u);
      EXPECT_EQ(second->stats.cells_shadowed, 0u);
      EXPECT_EQ(second->stats.expired_cells_converted, 0u);
    }
    for (const auto& r : outputs) ASSERT_TRUE(fs_->DeleteFile(r->path()).ok());
    for (const auto& r : inputs) ASSERT_TRUE(fs_->DeleteFile(r->path()).ok());
  }
}

// Hides that an input's rows come encoded: the compaction then decodes
// and re-encodes every row, as it did before rows could pass through
// encoded.
class DecodedRowsOnly final : public RowIterator {
 public:
  explicit DecodedRowsOnly(std::unique_ptr<RowIterator> input) : input_(std::move(input)) {}
  bool Valid() const override { return input_->Valid(); }
  const Row& row() const override { return input_->row(); }
  void Next() override { input_->Next(); }
  Status status() const override { return input_->status(); }

 private:
  std::unique_ptr<RowIterator> input_;
};

class DecodedPartitionsOnly final : public PartitionIterator {
 public:
  explicit DecodedPartitionsOnly(std::unique_ptr<PartitionIterator> input)
      : input_(std::move(input)) {}
  bool Valid() const override { return input_->Valid(); }
  PartitionContent& partition() override {
    PartitionContent& content = input_->partition();
    if (!wrapped_ && content.rows != nullptr) {
      content.rows = std::make_unique<DecodedRowsOnly>(std::move(content.rows));
    }
    wrapped_ = true;
    return content;
  }
  void Next() override {
    input_->Next();
    wrapped_ = false;
  }
  Status status() const override { return input_->status(); }

 private:
  std::unique_ptr<PartitionIterator> input_;
  bool wrapped_ = false;
};

// Rows passing through a compaction still encoded (copied, or re-based
// when the output's encoding bases differ from their input's) give the
// same output files, byte for byte, as rows decoded and encoded again.
TEST_F(CompactionIteratorTest, EncodedPassThroughWritesTheSameBytes) {
  constexpr int64_t kNow = 100;
  for (int iteration = 0; iteration < 60; ++iteration) {
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    RandomData gen(777 + static_cast<uint64_t>(iteration));
    std::vector<std::shared_ptr<SSTableReader>> inputs;
    const int n = static_cast<int>(gen.rnd().Range(1, 4));
    for (int i = 0; i < n; ++i) inputs.push_back(Input(gen.Input()));
    const int64_t gc_befores[] = {kNoGc, 90, 100};
    CompactionController controller(gc_befores[gen.rnd().Uniform(3)], {});
    CompactionOutputShape shape;
    if (gen.rnd().OneIn(2)) shape.split_window_micros = gen.rnd().Range(1, 8);
    std::vector<const SSTableStats*> stats;
    for (const auto& r : inputs) stats.push_back(&r->stats());
    std::vector<std::string> bytes[2];
    std::vector<SSTableStats> out_stats[2];
    CompactionIteratorStats it_stats[2];
    for (int decoded = 0; decoded < 2; ++decoded) {
      std::vector<std::unique_ptr<PartitionIterator>> scanners = Scanners(inputs);
      if (decoded) {
        for (auto& s : scanners) s = std::make_unique<DecodedPartitionsOnly>(std::move(s));
      }
      CompactionIterator it(std::move(scanners), &controller, kNow);
      CompactionOutputOptions options;
      options.fs = fs_.get();
      options.new_output = PathAllocator(decoded ? "/db2" : "/db", 1000);
      options.writer_options = CompactionWriterOptions({}, stats, kNow * 1000000);
      options.shape = shape;
      CompactionOutputWriter writer(std::move(options));
      auto result = writer.Write(&it);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      it_stats[decoded] = it.stats();
      for (const CompactionOutput& out : result->outputs) {
        auto contents = ReadFileToString(*fs_, out.path);
        ASSERT_TRUE(contents.ok());
        bytes[decoded].push_back(*contents);
        out_stats[decoded].push_back(out.stats);
        ASSERT_TRUE(fs_->DeleteFile(out.path).ok());
      }
    }
    EXPECT_TRUE(bytes[0] == bytes[1]);
    EXPECT_TRUE(out_stats[0] == out_stats[1]);
    EXPECT_EQ(it_stats[0].rows_written, it_stats[1].rows_written);
    EXPECT_EQ(it_stats[0].tombstones_purged(), it_stats[1].tombstones_purged());
    for (const auto& r : inputs) ASSERT_TRUE(fs_->DeleteFile(r->path()).ok());
  }
}

TEST_F(CompactionIteratorTest, InputErrorEndsTheIteration) {
  std::vector<std::unique_ptr<PartitionIterator>> inputs;
  inputs.push_back(std::make_unique<VectorPartitionIterator>(
      std::vector<PartitionUpdate>{Partition("k", {MakeRow(1, {Simple(1, Cell::Live(1, "a"))})})},
      Status::IOError("disk on fire")));
  CompactionController controller(kNoGc, {});
  CompactionIterator it(std::move(inputs), &controller, 100);
  auto drained = Drain(&it);
  ASSERT_FALSE(drained.ok());
  EXPECT_TRUE(drained.status().IsIOError());
}

}  // namespace
}  // namespace cassette
