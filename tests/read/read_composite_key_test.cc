// Reads of a table with a composite partition key and a DESC clustering
// column: key decoding, storage order, prefix deletions and messages.
#include <gtest/gtest.h>

#include "engine/read/execute_read.h"
#include "tests/read/read_test_util.h"

namespace cassette {
namespace {

using read_test::FakeReadSource;
using read_test::Int;
using read_test::PartitionMaker;
using read_test::RowMaker;
using read_test::RowStrings;
using Rows = std::vector<std::string>;

constexpr uint32_t kValue = 4;  // column id of v

// CREATE TABLE ks.ts (a int, b text, c1 int, c2 int, v int,
//   PRIMARY KEY ((a, b), c1, c2)) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)
class ReadCompositeKeyTest : public ::testing::Test {
 protected:
  ReadCompositeKeyTest() {
    schema_.AddPartitionKey("a", DataType::Int())
        .AddPartitionKey("b", DataType::Text())
        .AddClustering("c1", DataType::Int())
        .AddClustering("c2", DataType::Int(), ClusteringOrder::kDesc)
        .AddRegular("v", DataType::Int());
  }

  DecoratedKey Key(int32_t a, std::string b) const {
    Result<std::string> key = SerializePartitionKey(schema_, {Int(a), std::move(b)});
    EXPECT_TRUE(key.ok());
    return DecoratedKey::FromKey(key.ok() ? *key : std::string());
  }
  std::string C(std::vector<int32_t> values) const { return read_test::Ck(schema_, values); }

  ReadCommand Cmd() const {
    ReadCommand cmd;
    cmd.schema = &schema_;
    cmd.keys = {Key(1, "x")};
    cmd.now_sec = 1000;
    return cmd;
  }
  Rows Read(const ReadCommand& cmd) {
    Result<ResultSet> rs = ExecuteRead(cmd, &source_);
    EXPECT_TRUE(rs.ok()) << rs.status().ToString();
    return rs.ok() ? RowStrings(*rs) : Rows{};
  }

  TableSchema schema_{"ks", "ts"};
  FakeReadSource source_;
};

TEST_F(ReadCompositeKeyTest, RowsComeInDeclaredClusteringOrder) {
  PartitionMaker p(Key(1, "x"));
  for (auto [c1, c2] : std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {1, 3}, {2, 1}}) {
    p.Add(RowMaker(C({c1, c2})).Marker(1).Set(kValue, Cell::Live(1, Int(c1 * 10 + c2))));
  }
  source_.AddSource({p, PartitionMaker(Key(1, "y")).Add(RowMaker(C({9, 9})).Marker(1))});
  ReadCommand cmd = Cmd();
  EXPECT_EQ(Read(cmd),
            (Rows{"(1, x, 1, 3, 13)", "(1, x, 1, 2, 12)", "(1, x, 1, 1, 11)", "(1, x, 2, 1, 21)"}));
  cmd.reversed = true;
  EXPECT_EQ(Read(cmd),
            (Rows{"(1, x, 2, 1, 21)", "(1, x, 1, 1, 11)", "(1, x, 1, 2, 12)", "(1, x, 1, 3, 13)"}));
  // WHERE c1 = 1 AND c2 > 1: with c2 DESC the slice ends before (1, 1).
  cmd.reversed = false;
  cmd.range = ClusteringRange{Bound{C({1}), true}, Bound{C({1, 1}), false}};
  EXPECT_EQ(Read(cmd), (Rows{"(1, x, 1, 3, 13)", "(1, x, 1, 2, 12)"}));
}

TEST_F(ReadCompositeKeyTest, PrefixDeletionCoversEveryRowOfThePrefix) {
  PartitionMaker p(Key(1, "x"));
  for (auto [c1, c2] : std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {2, 1}}) {
    p.Add(RowMaker(C({c1, c2})).Marker(1));
  }
  source_.AddSource({p});
  // DELETE WHERE c1 = 1 at ts 5, then (1, 2) written again at ts 6.
  source_.AddSource({PartitionMaker(Key(1, "x"))
                         .DeleteRange(Bound{C({1}), true}, Bound{C({1}), true}, 5, 900)
                         .Add(RowMaker(C({1, 2})).Set(kValue, Cell::Live(6, Int(7))))},
                    true);
  Result<ResultSet> rs = ExecuteRead(Cmd(), &source_);
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(RowStrings(*rs), (Rows{"(1, x, 1, 2, 7)", "(1, x, 2, 1, null)"}));
  EXPECT_EQ(rs->stats.tombstone_cells, 2);
}

TEST_F(ReadCompositeKeyTest, MessagesRenderTheCompositeKey) {
  source_.AddSource({PartitionMaker(Key(1, "x"))
                         .Add(RowMaker(C({1, 2})).Set(kValue, Cell::Tombstone(1, 900)))
                         .Add(RowMaker(C({1, 1})).Set(kValue, Cell::Tombstone(1, 900)))});
  ReadCommand cmd = Cmd();
  cmd.tombstone_failure_threshold = 1;
  Result<ResultSet> rs = ExecuteRead(cmd, &source_);
  ASSERT_FALSE(rs.ok());
  EXPECT_EQ(rs.status().message(),
            "Scanned over 2 tombstones during query 'SELECT * FROM ks.ts WHERE (a, b) = (1, x)' "
            "(last scanned row token was " +
                std::to_string(Key(1, "x").token) +
                " and partion key was ((1, x), 1, 1)); query aborted");
}

TEST_F(ReadCompositeKeyTest, ManyRangeTombstonesAreCountedAndWarned) {
  PartitionMaker p(Key(1, "x"));
  for (int32_t i = 0; i < 2000; ++i) {
    // DELETE WHERE c1 >= i AND c1 < i + 1, alternating timestamps.
    p.DeleteRange(Bound{C({i}), true}, Bound{C({i + 1}), false}, 1 + i % 2, 900);
  }
  p.Add(RowMaker(C({5000, 1})).Marker(3));
  source_.AddSource({p});
  Result<ResultSet> rs = ExecuteRead(Cmd(), &source_);
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(rs->rows.size(), 1u);
  // Adjacent slices with alternating deletions: one open bound, 1999
  // boundaries and one close bound.
  EXPECT_EQ(rs->stats.tombstone_cells, 2001);
  ASSERT_EQ(rs->warnings.size(), 1u);
  EXPECT_EQ(rs->warnings[0].rfind("Read 1 live rows and 2001 tombstone cells for query ", 0), 0u);

  // Ranges that merely touch by their prefixes (c1 = i) are not adjacent:
  // each keeps its two bounds.
  PartitionMaker q(Key(2, "y"));
  for (int32_t i = 0; i < 100; ++i) q.DeleteRange(Bound{C({i}), true}, Bound{C({i}), true}, 1, 900);
  source_.AddSource({q});
  ReadCommand cmd = Cmd();
  cmd.keys = {Key(2, "y")};
  rs = ExecuteRead(cmd, &source_);
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(rs->stats.tombstone_cells, 200);
}

}  // namespace
}  // namespace cassette
