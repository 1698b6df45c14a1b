#include "engine/read/execute_read.h"

#include <gtest/gtest.h>

#include "engine/types/type_codec.h"
#include "tests/read/read_fixture.h"

namespace cassette {
namespace {

using read_test::Int;
using read_test::kL;
using read_test::kM;
using read_test::kS;
using read_test::kSt;
using read_test::kV;
using read_test::kW;
using read_test::PartitionMaker;
using read_test::RowMaker;
using read_test::RowStrings;

using ExecuteReadTest = read_test::ReadFixture;
using Rows = read_test::Rows;

TEST_F(ExecuteReadTest, MergesThreeSourcesWithEveryReconciliationRule) {
  source_.AddSource({P(1).Add(RowMaker(C(1))
                                  .Marker(10)
                                  .Set(kV, Cell::Live(10, Int(1)))
                                  .Set(kW, Cell::Live(10, Int(1))))
                         .Add(RowMaker(C(2)).Set(kV, Cell::Live(20, Int(2))))
                         .Add(RowMaker(C(3)).Marker(5).Set(kV, Cell::Live(5, Int(3))))
                         .Add(RowMaker(C(4)).Set(kV, Cell::Live(30, Int(-1))))
                         .Add(RowMaker(C(5)).Set(kV, Cell::Live(40, Int(5))))
                         .Add(RowMaker(C(7)).Marker(55).Set(kV, Cell::Live(55, Int(7)))),
                     P(2).Static(RowMaker().Set(kS, Cell::Live(5, Int(5))))
                         .Add(RowMaker(C(1)).Marker(5))
                         .Add(RowMaker(C(2)).Marker(15).Set(kV, Cell::Live(15, Int(15))))});
  source_.AddSource(
      {// Newer timestamp wins.
       P(1).Add(RowMaker(C(1)).Set(kV, Cell::Live(11, Int(11))))
           // Equal timestamps: the tombstone wins; the UPDATE-only row vanishes.
           .Add(RowMaker(C(2)).Set(kV, Cell::Tombstone(20, 900)))
           // Equal timestamps, both live: the larger unsigned bytes win (-1 > 1).
           .Add(RowMaker(C(4)).Set(kV, Cell::Live(30, Int(1))))
           // Equal timestamps: an expiring cell beats a live one.
           .Add(RowMaker(C(5)).Set(kV, Cell::Expiring(40, 100, 950, Int(50)))),
       // Partition deletion: shadows everything at or before ts 10.
       P(2).DeletePartition(10, 900)},
      /*is_sstable=*/true);
  source_.AddSource(
      {// A range tombstone over ck 3 (ts 6) hides the older row; a newer write stays.
       P(1).DeleteRange(Bound{C(3), true}, Bound{C(3), true}, 6, 900)
           .Add(RowMaker(C(3)).Set(kW, Cell::Live(7, Int(33))))
           // A row deletion hides the row INSERTed earlier.
           .Add(RowMaker(C(7)).Delete(60, 900)),
       P(2).Static(RowMaker().Set(kS, Cell::Live(12, Int(7))))},
      true);

  ResultSet rs = Run(Cmd({1, 2}));
  EXPECT_EQ(RowStrings(rs),
            (Rows{"(1, 1, null, 11, 1)", "(1, 3, null, null, 33)", "(1, 4, null, -1, null)",
                  "(1, 5, null, 50, null)", "(2, 2, 7, 15, null)"}));
  EXPECT_EQ(rs.stats.partitions_read, 2);
  EXPECT_EQ(rs.stats.memtables_read, 2);
  EXPECT_EQ(rs.stats.sstables_read, 4);
  // Live rows: 5 regular rows and the live static row of partition 2.
  EXPECT_EQ(rs.stats.live_rows, 6);
  // The cell tombstone of (1, 2), the row deletion of (1, 7) and the two
  // bounds of the range tombstone.
  EXPECT_EQ(rs.stats.tombstone_cells, 4);
  ASSERT_EQ(rs.columns.size(), 5u);
  EXPECT_EQ(rs.columns[0].name, "pk");
  EXPECT_EQ(rs.columns[4].name, "w");
}

TEST_F(ExecuteReadTest, TtlExpiresAtItsDeadlineSecond) {
  // UPDATE t USING TTL 100 SET v = 1 at second 900: expires at 1000.
  source_.AddSource({P(1).Add(RowMaker(C(1)).Set(kV, Cell::Expiring(1, 100, 900, Int(1))))});
  ReadCommand cmd = Cmd({1});
  cmd.with_cell_metadata = true;
  cmd.now_sec = 999;
  ResultSet before = Run(cmd);
  ASSERT_EQ(RowStrings(before), (Rows{"(1, 1, null, 1, null)"}));
  EXPECT_EQ(before.rows[0].ttls[3], 1);
  EXPECT_EQ(before.rows[0].writetimes[3], 1);
  EXPECT_EQ(before.stats.tombstone_cells, 0);

  cmd.now_sec = 1000;
  ResultSet after = Run(cmd);
  EXPECT_TRUE(after.rows.empty());
  EXPECT_EQ(after.stats.tombstone_cells, 1);
  EXPECT_EQ(after.stats.live_rows, 0);
}

TEST_F(ExecuteReadTest, InsertedRowsOutliveTheirCellsUpdatedRowsDoNot) {
  source_.AddSource({P(1)
                         // INSERT (v) then DELETE v: stays with nulls.
                         .Add(RowMaker(C(1)).Marker(1).Set(kV, Cell::Tombstone(2, 990)))
                         // UPDATE v then DELETE v: gone.
                         .Add(RowMaker(C(2)).Set(kV, Cell::Tombstone(2, 990)))
                         // INSERT USING TTL 10 at 990 + UPDATE w (no TTL): only w remains.
                         .Add(RowMaker(C(3))
                                  .ExpiringMarker(1, 10, 1000)
                                  .Set(kV, Cell::Expiring(1, 10, 990, Int(3)))
                                  .Set(kW, Cell::Live(2, Int(33))))
                         // INSERT (no TTL) + UPDATE v USING TTL: v null after expiry.
                         .Add(RowMaker(C(4)).Marker(1).Set(kV, Cell::Expiring(2, 10, 990, Int(4))))
                         // UPDATE-only with TTL: the whole row goes.
                         .Add(RowMaker(C(5)).Set(kV, Cell::Expiring(2, 10, 990, Int(5))))
                         // INSERT with only the primary key: a row of nulls.
                         .Add(RowMaker(C(6)).Marker(3))});
  EXPECT_EQ(Read(Cmd({1})), (Rows{"(1, 1, null, null, null)", "(1, 3, null, null, 33)",
                                  "(1, 4, null, null, null)", "(1, 6, null, null, null)"}));
  ReadCommand earlier = Cmd({1});
  earlier.now_sec = 999;
  EXPECT_EQ(Read(earlier),
            (Rows{"(1, 1, null, null, null)", "(1, 3, null, 3, 33)", "(1, 4, null, 4, null)",
                  "(1, 5, null, 5, null)", "(1, 6, null, null, null)"}));
}

TEST_F(ExecuteReadTest, StaticOnlyPartitionYieldsOneRowUnlessRowsAreRestricted) {
  source_.AddSource({P(3).Static(RowMaker().Set(kS, Cell::Live(1, Int(9)))),
                     P(4).Static(RowMaker().Set(kS, Cell::Live(1, Int(8))))
                         .Add(RowMaker(C(1)).Marker(1))
                         .Add(RowMaker(C(2)).Set(kV, Cell::Live(1, Int(2))))});
  EXPECT_EQ(Read(Cmd({3, 4})),
            (Rows{"(3, null, 9, null, null)", "(4, 1, 8, null, null)", "(4, 2, 8, 2, null)"}));
  ReadCommand restricted = Cmd({3, 4});
  restricted.restricts_rows = true;
  EXPECT_EQ(Read(restricted), (Rows{"(4, 1, 8, null, null)", "(4, 2, 8, 2, null)"}));
  // A slice that misses partition 4's rows: only when unrestricted would the
  // static row show, and the query restricts the clustering.
  restricted.range = ClusteringRange{Bound{C(5), true}, Bound{}};
  EXPECT_TRUE(Read(restricted).empty());
  // SELECT s: still one row per regular row.
  ReadCommand statics = Cmd({3, 4});
  statics.selection = Select({"s"});
  EXPECT_EQ(Read(statics), (Rows{"(9)", "(8)", "(8)"}));
}

TEST_F(ExecuteReadTest, DeletedStaticRowDoesNotMakeARow) {
  source_.AddSource({P(3).Static(RowMaker().Set(kS, Cell::Live(1, Int(9)))),
                     P(5).Static(RowMaker().Set(kS, Cell::Live(1, Int(9))))});
  source_.AddSource(
      {P(3).Static(RowMaker().Set(kS, Cell::Tombstone(2, 900))), P(5).DeletePartition(3, 900)},
      true);
  ResultSet rs = Run(Cmd({3, 5}));
  EXPECT_TRUE(rs.rows.empty());
  EXPECT_EQ(rs.stats.tombstone_cells,
            1);  // the static cell tombstone; partition deletions are free
}

TEST_F(ExecuteReadTest, DistinctReturnsOneRowPerPartitionWithLiveData) {
  source_.AddSource(
      {P(3).Static(RowMaker().Set(kS, Cell::Live(1, Int(9)))),
       P(4).Add(RowMaker(C(1)).Delete(5, 900)).Add(RowMaker(C(2)).Marker(1)),
       P(5).Add(RowMaker(C(1)).Delete(5, 900)),
       P(6).Static(RowMaker().Set(kS, Cell::Live(1, Int(6)))).Add(RowMaker(C(1)).Marker(1))});
  ReadCommand cmd = Cmd({3, 4, 5, 6});
  cmd.distinct = true;
  cmd.selection = Select({"pk", "s"});
  ResultSet rs = Run(cmd);
  EXPECT_EQ(RowStrings(rs), (Rows{"(3, 9)", "(4, null)", "(6, 6)"}));
  // Partition 4 was read up to its first live row, partition 5 to its end;
  // partition 6's rows were not needed.
  EXPECT_EQ(rs.stats.tombstone_cells, 2);
}

TEST_F(ExecuteReadTest, ReversedReadsRowsBackwardsAndPartitionsForwards) {
  source_.AddSource({P(1).Static(RowMaker().Set(kS, Cell::Live(1, Int(7))))
                         .Add(RowMaker(C(1)).Marker(1))
                         .Add(RowMaker(C(2)).Marker(1))
                         .Add(RowMaker(C(3)).Marker(1)),
                     P(2).Add(RowMaker(C(1)).Marker(1)).Add(RowMaker(C(2)).Marker(1))});
  source_.AddSource({P(1).Add(RowMaker(C(2)).Delete(2, 900)).Add(RowMaker(C(4)).Marker(1))}, true);
  ReadCommand cmd = Cmd({1, 2});
  cmd.reversed = true;
  EXPECT_EQ(Read(cmd),
            (Rows{"(1, 4, 7, null, null)", "(1, 3, 7, null, null)", "(1, 1, 7, null, null)",
                  "(2, 2, null, null, null)", "(2, 1, null, null, null)"}));
  cmd.range = ClusteringRange{Bound{C(2), true}, Bound{C(3), true}};
  EXPECT_EQ(Read(cmd), (Rows{"(1, 3, 7, null, null)", "(2, 2, null, null, null)"}));
}

TEST_F(ExecuteReadTest, LimitAndPerPartitionLimit) {
  std::vector<PartitionUpdate> data;
  for (int pk = 1; pk <= 3; ++pk) {
    PartitionMaker p = P(pk);
    for (int ck = 1; ck <= 3; ++ck) p.Add(RowMaker(C(ck)).Marker(1));
    data.push_back(p);
  }
  source_.AddSource(data);
  ReadCommand cmd = Cmd({1, 2, 3});
  cmd.selection = Select({"pk", "ck"});
  cmd.limit = 4;
  EXPECT_EQ(Read(cmd), (Rows{"(1, 1)", "(1, 2)", "(1, 3)", "(2, 1)"}));
  cmd.limit = 0;
  cmd.per_partition_limit = 2;
  EXPECT_EQ(Read(cmd), (Rows{"(1, 1)", "(1, 2)", "(2, 1)", "(2, 2)", "(3, 1)", "(3, 2)"}));
  cmd.limit = 5;
  EXPECT_EQ(Read(cmd), (Rows{"(1, 1)", "(1, 2)", "(2, 1)", "(2, 2)", "(3, 1)"}));
  cmd.reversed = true;
  cmd.per_partition_limit = 1;
  EXPECT_EQ(Read(cmd), (Rows{"(1, 3)", "(2, 3)", "(3, 3)"}));
}

TEST_F(ExecuteReadTest, ScanFollowsTokenOrderAndTokenRanges) {
  std::vector<PartitionUpdate> a, b;
  for (int pk = 0; pk <= 5; ++pk) {
    (pk % 2 == 0 ? a : b).push_back(P(pk).Add(RowMaker(C(1)).Marker(1)));
  }
  b.push_back(P(0).Add(RowMaker(C(2)).Marker(1)));
  source_.AddSource(a);
  source_.AddSource(b, true);
  ReadCommand cmd = ScanCmd();
  cmd.selection = Select({"pk", "ck"});
  // Tokens (docs/SEMANTICS.md §8): 5 < 1 < 0 < 2 < 4 < 3.
  EXPECT_EQ(Read(cmd),
            (Rows{"(5, 1)", "(1, 1)", "(0, 1)", "(0, 2)", "(2, 1)", "(4, 1)", "(3, 1)"}));
  cmd.token_range = TokenRange{K(1).token, false, K(4).token, true};
  EXPECT_EQ(Read(cmd), (Rows{"(0, 1)", "(0, 2)", "(2, 1)", "(4, 1)"}));
  cmd.token_range = TokenRange{K(4).token, false, K(4).token, true};
  EXPECT_TRUE(Read(cmd).empty());
}

TEST_F(ExecuteReadTest, WritetimeAndTtl) {
  source_.AddSource({P(1).Static(RowMaker().Set(kS, Cell::Live(7, Int(1))))
                         .Add(RowMaker(C(1))
                                  .Set(kV, Cell::Live(5, Int(1)))
                                  .Set(kW, Cell::Expiring(6, 100, 950, Int(2)))
                                  .Element(kL, Cell::Live(3, Int(10), "\x01"))
                                  .Element(kL, Cell::Expiring(8, 100, 960, Int(11), "\x02")))});
  ReadCommand cmd = Cmd({1});
  cmd.selection = Select({"pk", "ck", "s", "v", "w", "l"});
  cmd.with_cell_metadata = true;
  ResultSet rs = Run(cmd);
  ASSERT_EQ(rs.rows.size(), 1u);
  const ResultRow& row = rs.rows[0];
  using Ts = std::vector<std::optional<int64_t>>;
  using Ttl = std::vector<std::optional<int32_t>>;
  EXPECT_EQ(row.writetimes, (Ts{std::nullopt, std::nullopt, 7, 5, 6, 8}));
  EXPECT_EQ(row.ttls, (Ttl{std::nullopt, std::nullopt, std::nullopt, std::nullopt, 50, 60}));
}

TEST_F(ExecuteReadTest, CollectionsReturnTheirLiveElements) {
  DataType text = DataType::Text();
  source_.AddSource(
      {P(1).Add(RowMaker(C(1))
                    .Marker(1)
                    .Element(kL, Cell::Live(1, Int(1), "\x01"))
                    .Element(kL, Cell::Live(1, Int(2), "\x03"))
                    .Element(kSt, Cell::Live(1, "", read_test::Path(text, "a")))
                    .Element(kSt, Cell::Live(1, "", read_test::Path(text, "b")))
                    .Element(kM, Cell::Live(1, Int(1), read_test::Path(text, "k1")))
                    .Element(kM, Cell::Expiring(1, 10, 900, Int(2), read_test::Path(text, "k2"))))
           .Add(RowMaker(C(2)).Marker(1).Element(kL, Cell::Live(1, Int(5), "\x01")))});
  source_.AddSource(
      {P(1).Add(RowMaker(C(1))
                    .Element(kL, Cell::Tombstone(2, 900, "\x01"))
                    .Element(kL, Cell::Live(2, Int(3), "\x02"))
                    .Element(kSt, Cell::Tombstone(2, 900, read_test::Path(text, "b"))))
           // l = [] (collection overwrite) removes every older element.
           .Add(RowMaker(C(2)).CollectionDeletion(kL, 2, 900))},
      true);
  ReadCommand cmd = Cmd({1});
  cmd.selection = Select({"l", "st", "m"});
  ResultSet rs = Run(cmd);
  ASSERT_EQ(rs.rows.size(), 2u);
  EXPECT_EQ(rs.rows[0].values[0], Value::FromBytes(DataType::List(DataType::Int()),
                                                   SerializeCollection({Int(3), Int(2)})));
  EXPECT_EQ(rs.rows[0].values[1],
            Value::FromBytes(DataType::Set(text), SerializeCollection({"a"})));
  EXPECT_EQ(rs.rows[0].values[2],
            Value::FromBytes(DataType::Map(text, DataType::Int()), SerializeMap({{"k1", Int(1)}})));
  EXPECT_EQ(rs.rows[1].values[0], Value::Null(DataType::List(DataType::Int())));
  EXPECT_TRUE(rs.rows[1].values[1].is_null());
  // Two element tombstones and one expired element; the collection deletion
  // of a live row is not a tombstone of its own.
  EXPECT_EQ(rs.stats.tombstone_cells, 3);
}

TEST_F(ExecuteReadTest, CountsTombstonesAndWarns) {
  source_.AddSource(
      {P(1).Static(RowMaker().Set(kS, Cell::Tombstone(1, 900)))
           .Add(RowMaker(C(1)).Set(kV, Cell::Tombstone(1, 900)).Set(kW, Cell::Live(1, Int(1))))
           .Add(RowMaker(C(2)).Set(kV, Cell::Tombstone(1, 900)).Set(kW, Cell::Tombstone(1, 900)))
           .Add(RowMaker(C(3)).Delete(1, 900))
           .DeleteRange(Bound{C(5), true}, Bound{C(6), true}, 1, 900)
           .Add(RowMaker(C(7)).Set(kV, Cell::Tombstone(1, 900)))});
  ReadCommand cmd = Cmd({1});
  ResultSet rs = Run(cmd);
  EXPECT_EQ(RowStrings(rs), (Rows{"(1, 1, null, null, 1)"}));
  // static 1 + row 1: 1 + row 2: 2 + row 3: 1 + range bounds: 2 + row 7: 1.
  EXPECT_EQ(rs.stats.tombstone_cells, 8);
  EXPECT_EQ(rs.stats.live_rows, 1);
  EXPECT_TRUE(rs.warnings.empty());

  cmd.tombstone_warn_threshold = 7;
  rs = Run(cmd);
  ASSERT_EQ(rs.warnings.size(), 1u);
  EXPECT_EQ(rs.warnings[0],
            "Read 1 live rows and 8 tombstone cells for query SELECT pk, ck, s, "
            "v, w FROM ks.t WHERE pk = 1; token " +
                std::to_string(K(1).token) + " (see tombstone_warn_threshold)");
  cmd.tombstone_warn_threshold = 8;
  EXPECT_TRUE(Run(cmd).warnings.empty());

  // A limit stops the scan, and the count, early.
  cmd.limit = 1;
  EXPECT_EQ(Run(cmd).stats.tombstone_cells, 2);
  // Purgeable tombstones (gc_grace 0, written before now) are not counted.
  TableSchema no_grace = schema_;
  no_grace.mutable_options().gc_grace_seconds = 0;
  ReadCommand purged = Cmd({1});
  purged.schema = &no_grace;
  rs = Run(purged);
  EXPECT_EQ(rs.stats.tombstone_cells, 0);
  EXPECT_EQ(RowStrings(rs), (Rows{"(1, 1, null, null, 1)"}));
}

TEST_F(ExecuteReadTest, FailsPastTheFailureThreshold) {
  source_.AddSource(
      {P(1).Static(RowMaker().Set(kS, Cell::Tombstone(1, 900)))
           .Add(RowMaker(C(1)).Set(kV, Cell::Tombstone(1, 900)).Set(kW, Cell::Live(1, Int(1))))
           .Add(RowMaker(C(2)).Set(kV, Cell::Tombstone(1, 900)).Set(kW, Cell::Tombstone(1, 900)))
           .Add(RowMaker(C(3)).Delete(1, 900))
           .DeleteRange(Bound{C(5), true}, Bound{C(6), true}, 1, 900)
           .Add(RowMaker(C(7)).Set(kV, Cell::Tombstone(1, 900)))});
  ReadCommand cmd = Cmd({1});
  cmd.tombstone_failure_threshold = 5;
  Result<ResultSet> rs = ExecuteRead(cmd, &source_);
  ASSERT_FALSE(rs.ok());
  EXPECT_EQ(rs.status().code(), Status::Code::kReadFailure);
  // 5 tombstones up to row 3; the range bounds before row 7 tip it over.
  EXPECT_EQ(rs.status().message(),
            "Scanned over 6 tombstones during query 'SELECT pk, ck, s, v, w FROM ks.t WHERE pk = "
            "1' (last scanned row token was " +
                std::to_string(K(1).token) + " and partion key was ((1), 7)); query aborted");
  cmd.tombstone_failure_threshold = 8;
  EXPECT_TRUE(ExecuteRead(cmd, &source_).ok());
  cmd.tombstone_failure_threshold = 0;  // the static row's tombstone is already too many
  rs = ExecuteRead(cmd, &source_);
  ASSERT_FALSE(rs.ok());
  EXPECT_NE(rs.status().message().find("partion key was (1))"), std::string::npos);
}

TEST_F(ExecuteReadTest, RejectsBadCommandsAndPagingStates) {
  source_.AddSource({P(1).Add(RowMaker(C(1)).Marker(1)).Add(RowMaker(C(2)).Marker(1))});
  ReadCommand cmd = Cmd({1});
  cmd.selection = {99};
  EXPECT_TRUE(ExecuteRead(cmd, &source_).status().IsInvalidArgument());
  cmd = Cmd({1});
  cmd.schema = nullptr;
  EXPECT_TRUE(ExecuteRead(cmd, &source_).status().IsInvalidArgument());

  cmd = Cmd({1});
  cmd.paging_state = "garbage";
  EXPECT_TRUE(ExecuteRead(cmd, &source_).status().IsInvalidRequest());
  // A paging state of another read.
  cmd.page_size = 1;
  cmd.paging_state.clear();
  ResultSet first = Run(cmd);
  ASSERT_FALSE(first.paging_state.empty());
  ReadCommand other = Cmd({2});
  other.page_size = 1;
  other.paging_state = first.paging_state;
  EXPECT_TRUE(ExecuteRead(other, &source_).status().IsInvalidRequest());
}

TEST_F(ExecuteReadTest, SelectStarOrderAndMissingPartitions) {
  source_.AddSource({P(1).Add(RowMaker(C(1)).Set(kV, Cell::Live(1, Int(5))))});
  ReadCommand cmd = Cmd({7, 1, 8});
  cmd.selection.clear();
  ResultSet rs = Run(cmd);
  std::vector<std::string> names;
  for (const ColumnSpec& c : rs.columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"pk", "ck", "s", "l", "m", "st", "v", "w"}));
  EXPECT_EQ(RowStrings(rs), (Rows{"(1, 1, null, null, null, null, 5, null)"}));
  EXPECT_EQ(rs.stats.partitions_read, 1);
}

TEST_F(ExecuteReadTest, DroppedColumnsAreInvisible) {
  source_.AddSource({P(1).Add(RowMaker(C(1)).Set(kW, Cell::Live(1, Int(1))))
                         .Add(RowMaker(C(2)).Set(kW, Cell::Tombstone(1, 900)))
                         .Add(RowMaker(C(3)).Set(kV, Cell::Live(1, Int(3))))});
  TableSchema altered = schema_;
  ASSERT_TRUE(altered.DropColumn("w", 100).ok());
  ReadCommand cmd = Cmd({1});
  cmd.schema = &altered;
  cmd.selection.clear();
  ResultSet rs = Run(cmd);
  EXPECT_EQ(RowStrings(rs), (Rows{"(1, 3, null, null, null, null, 3)"}));
  EXPECT_EQ(rs.stats.tombstone_cells, 0);
}

TEST_F(ExecuteReadTest, OnlyRowsOfTheRangeAreRead) {
  source_.AddSource({P(1).Static(RowMaker().Set(kS, Cell::Live(1, Int(1))))
                         .Add(RowMaker(C(1)).Set(kV, Cell::Tombstone(1, 900)))
                         .Add(RowMaker(C(2)).Marker(1))
                         .Add(RowMaker(C(3)).Set(kV, Cell::Tombstone(1, 900)))});
  ReadCommand cmd = Cmd({1});
  cmd.restricts_rows = true;
  cmd.range = ClusteringRange{Bound{C(2), true}, Bound{C(2), true}};
  ResultSet rs = Run(cmd);
  EXPECT_EQ(RowStrings(rs), (Rows{"(1, 2, 1, null, null)"}));
  // The source is asked for the range (and returns only its rows): the
  // tombstones outside it are neither read nor counted.
  ASSERT_EQ(source_.ranges_requested.size(), 1u);
  EXPECT_EQ(source_.ranges_requested[0], cmd.range);
  EXPECT_EQ(rs.stats.tombstone_cells, 0);
  // A contradictory slice reads nothing at all.
  cmd.range = ClusteringRange{Bound{C(5), false}, Bound{C(3), false}};
  source_.read_partition_calls = 0;
  rs = Run(cmd);
  EXPECT_TRUE(rs.rows.empty());
  EXPECT_EQ(source_.read_partition_calls, 0);
}

}  // namespace
}  // namespace cassette
