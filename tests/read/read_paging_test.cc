// Paging: for many shapes of read, the pages at every page size concatenate
// to the unpaged result (docs/SEMANTICS.md §7).
#include <gtest/gtest.h>

#include "tests/read/read_fixture.h"

namespace cassette {
namespace {

using read_test::Int;
using read_test::kS;
using read_test::kV;
using read_test::RowMaker;
using read_test::Rows;

class ReadPagingTest : public read_test::ReadFixture {
 protected:
  void SetUp() override {
    source_.AddSource(
        {P(1).Static(RowMaker().Set(kS, Cell::Live(1, Int(1))))
             .Add(RowMaker(C(1)).Marker(1))
             .Add(RowMaker(C(2)).Marker(1))
             .Add(RowMaker(C(3)).Marker(1).Set(kV, Cell::Live(1, Int(3))))
             .Add(RowMaker(C(4)).Marker(1))
             .Add(RowMaker(C(5)).Marker(1)),
         P(2).Static(RowMaker().Set(kS, Cell::Live(1, Int(2)))),
         P(3).Add(RowMaker(C(1)).Set(kV, Cell::Live(1, Int(1))))
             .Add(RowMaker(C(2)).Set(kV, Cell::Live(1, Int(2))))
             .Add(RowMaker(C(3)).Set(kV, Cell::Live(1, Int(3)))),
         P(4).Static(RowMaker().Set(kS, Cell::Tombstone(1, 900))).Add(RowMaker(C(1)).Marker(1)),
         P(5).Static(RowMaker().Set(kS, Cell::Live(1, Int(5))))
             .Add(RowMaker(C(1)).Marker(1))
             .Add(RowMaker(C(2)).Marker(1)),
         P(6).Add(RowMaker(C(1)).Marker(1)).Add(RowMaker(C(3)).Marker(1))});
    source_.AddSource(
        {P(1).Add(RowMaker(C(3)).Delete(2, 900))
             .DeleteRange(Bound{C(4), true}, Bound{C(4), true}, 2, 900),
         P(4).Add(RowMaker(C(1)).Delete(2, 900)),
         P(6).Add(RowMaker(C(2)).Marker(2)).Add(RowMaker(C(3)).Set(kV, Cell::Live(2, Int(33)))),
         P(7).Add(RowMaker(C(1)).Set(kV, Cell::Tombstone(2, 900)))},
        /*is_sstable=*/true);
  }
};

TEST_F(ReadPagingTest, UnpagedBaseline) {
  EXPECT_EQ(
      Read(Cmd({1, 2, 3, 4, 5, 6, 7})),
      (Rows{"(1, 1, 1, null, null)", "(1, 2, 1, null, null)", "(1, 5, 1, null, null)",
            "(2, null, 2, null, null)", "(3, 1, null, 1, null)", "(3, 2, null, 2, null)",
            "(3, 3, null, 3, null)", "(5, 1, 5, null, null)", "(5, 2, 5, null, null)",
            "(6, 1, null, null, null)", "(6, 2, null, null, null)", "(6, 3, null, 33, null)"}));
}

TEST_F(ReadPagingTest, EveryPageSizeMatchesTheUnpagedResult) {
  const std::vector<std::vector<int32_t>> key_sets = {{1, 2, 3, 4, 5, 6, 7}, {6, 2, 1, 5}, {}};
  int variants = 0;
  for (const auto& keys : key_sets) {
    for (bool reversed : {false, true}) {
      for (int64_t limit : {0, 4, 7}) {
        for (int64_t per_partition : {0, 2}) {
          for (bool restricts : {false, true}) {
            for (bool distinct : {false, true}) {
              for (bool sliced : {false, true}) {
                if (distinct && (per_partition > 0 || sliced || reversed)) continue;
                ReadCommand cmd = Cmd(keys);
                cmd.reversed = reversed;
                cmd.limit = limit;
                cmd.per_partition_limit = per_partition;
                cmd.restricts_rows = restricts;
                cmd.distinct = distinct;
                if (distinct) cmd.selection = Select({"pk", "s"});
                if (sliced) cmd.range = ClusteringRange{Bound{C(2), true}, Bound{C(3), true}};
                SCOPED_TRACE(testing::Message()
                             << "keys=" << keys.size() << " reversed=" << reversed << " limit="
                             << limit << " ppl=" << per_partition << " restricts=" << restricts
                             << " distinct=" << distinct << " sliced=" << sliced);
                Rows unpaged = Read(cmd);
                for (int32_t page = 1; page <= static_cast<int32_t>(unpaged.size()) + 1; ++page) {
                  SCOPED_TRACE(testing::Message() << "page_size=" << page);
                  ASSERT_EQ(ReadPaged(cmd, page), unpaged);
                }
                ++variants;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(variants, 100);
}

TEST_F(ReadPagingTest, PagesCarryLimitsAcrossCalls) {
  ReadCommand cmd = Cmd({1, 3});
  cmd.selection = Select({"pk", "ck"});
  cmd.limit = 4;
  cmd.per_partition_limit = 2;
  cmd.page_size = 3;
  ResultSet first = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(first), (Rows{"(1, 1)", "(1, 2)", "(3, 1)"}));
  ASSERT_FALSE(first.paging_state.empty());
  cmd.paging_state = first.paging_state;
  ResultSet second = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(second), (Rows{"(3, 2)"}));
  EXPECT_TRUE(second.paging_state.empty());  // LIMIT reached: nothing more
  EXPECT_EQ(second.columns.size(), 2u);
}

TEST_F(ReadPagingTest, ResumedPartitionIsReadAfterTheLastRow) {
  ReadCommand cmd = Cmd({3});
  cmd.page_size = 1;
  ResultSet first = Run(cmd);
  ASSERT_FALSE(first.paging_state.empty());
  source_.ranges_requested.clear();
  cmd.paging_state = first.paging_state;
  ResultSet second = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(second), (Rows{"(3, 2, null, 2, null)"}));
  ASSERT_EQ(source_.ranges_requested.size(), 1u);
  EXPECT_EQ(source_.ranges_requested[0].start, (Bound{C(1), false}));

  cmd.reversed = true;
  cmd.paging_state.clear();
  first = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(first), (Rows{"(3, 3, null, 3, null)"}));
  source_.ranges_requested.clear();
  cmd.paging_state = first.paging_state;
  second = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(second), (Rows{"(3, 2, null, 2, null)"}));
  EXPECT_EQ(source_.ranges_requested[0].end, (Bound{C(3), false}));
}

TEST_F(ReadPagingTest, ScanResumesFromTheLastPartitionToken) {
  ReadCommand cmd = ScanCmd();
  cmd.selection = Select({"pk", "ck"});
  Rows unpaged = Read(cmd);
  ASSERT_EQ(unpaged.size(), 12u);
  cmd.page_size = 5;
  ResultSet first = Run(cmd);
  ASSERT_FALSE(first.paging_state.empty());
  cmd.paging_state = first.paging_state;
  source_.keys_requested.clear();
  ResultSet second = Run(cmd);
  EXPECT_EQ(read_test::RowStrings(second), Rows(unpaged.begin() + 5, unpaged.begin() + 10));
  // The second page starts at the partition the first one stopped in.
  ASSERT_FALSE(source_.keys_requested.empty());
  int32_t last_pk = static_cast<int32_t>(first.rows.back().values[0].AsInt64());
  EXPECT_EQ(source_.keys_requested.front(), K(last_pk));
  for (const DecoratedKey& key : source_.keys_requested) {
    EXPECT_FALSE(key < source_.keys_requested.front());
  }
}

}  // namespace
}  // namespace cassette
