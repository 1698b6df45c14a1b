// Rows read from SSTables take the read path's in-place route when they are
// plain (an INSERT's or an UPDATE's, live as they are: ReadPlainRow), and
// the decoding one otherwise. Both must return what the memtable, whose
// rows always take the decoding route, returned for the same data: values,
// WRITETIME and TTL, before and after the rows expire, across a dropped
// column, with limits, paging and reversed order.
#include <gtest/gtest.h>

#include <random>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

std::string Rendered(const ResultSet& result) {
  std::string out;
  for (const ResultRow& row : result.rows) {
    for (size_t i = 0; i < row.values.size(); ++i) {
      out += row.values[i].ToString();
      if (i < row.writetimes.size()) {
        out += "@" + (row.writetimes[i] ? std::to_string(*row.writetimes[i]) : "-");
        out += "/" + (row.ttls[i] ? std::to_string(*row.ttls[i]) : "-");
      }
      out += ",";
    }
    out += ";";
  }
  return out + " live=" + std::to_string(result.stats.live_rows) +
         " tombstones=" + std::to_string(result.stats.tombstone_cells);
}

class PlainRowReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(t_.Open());
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(SimpleTable()));
  }
  Database& db() { return *t_.db; }

  // Every query shape, rendered: compared before and after a flush.
  std::vector<std::string> ReadAll() {
    std::vector<std::string> out;
    for (int32_t pk = 0; pk < 3; ++pk) {
      for (bool metadata : {false, true}) {
        for (bool reversed : {false, true}) {
          for (int64_t limit : {0, 1, 7}) {
            // Without metadata, {"ck", "v"}, {"pk", "ck", "v"} and {"pk"}
            // are selected straight from plain bodies (SelectPlainBody);
            // {"v", "s"} (a static) and {"v", "ck", "v"} (v twice) go
            // through ReadPlainRow; {} (a set) is always decoded.
            for (const std::vector<std::string>& columns :
                 {std::vector<std::string>{}, std::vector<std::string>{"ck", "v"},
                  std::vector<std::string>{"v", "s"}, std::vector<std::string>{"pk", "ck", "v"},
                  std::vector<std::string>{"pk"}, std::vector<std::string>{"v", "ck", "v"}}) {
              ReadQuery query = ReadPartition(pk, columns);
              query.with_cell_metadata = metadata;
              query.reversed = reversed;
              query.limit = limit;
              auto result = db().Read(query);
              EXPECT_TRUE(result.ok()) << result.status().ToString();
              out.push_back(result.ok() ? Rendered(*result) : result.status().ToString());
              // The same read streamed, and paged by 3.
              auto streamed = ReadEachCollected(db(), query);
              EXPECT_TRUE(streamed.ok());
              if (streamed.ok()) {
                EXPECT_EQ(Rendered(*streamed), out.back());
              }
              query.page_size = 3;
              std::string pages;
              for (int page = 0; page < 100; ++page) {
                auto r = db().Read(query);
                EXPECT_TRUE(r.ok());
                if (!r.ok()) break;
                for (const ResultRow& row : r->rows) pages += row.values.front().ToString() + " ";
                if (r->paging_state.empty()) break;
                query.paging_state = r->paging_state;
              }
              out.push_back(pages);
            }
          }
        }
      }
    }
    return out;
  }

  TestDb t_;
};

TEST_F(PlainRowReadTest, SSTableRowsReadAsTheMemtableReadThem) {
  std::mt19937 rng(20261122);
  for (int i = 0; i < 200; ++i) {
    const int32_t pk = static_cast<int32_t>(rng() % 3);
    const int32_t ck = static_cast<int32_t>(rng() % 20);
    Mutation m("ks", "t", {Value::Int(pk)});
    switch (rng() % 6) {
      case 0:  // INSERT with a TTL
        m.UsingTtl(static_cast<int32_t>(50 + rng() % 100));
        m.Insert({Value::Int(ck)}).Set("v", Value::Int(i));
        break;
      case 1:  // UPDATE of v alone (no marker)
        m.Update({Value::Int(ck)}).Set("v", Value::Int(i));
        break;
      case 2:  // a null: a cell tombstone, not a plain row
        m.Insert({Value::Int(ck)}).SetNull("v");
        break;
      case 3:
        m.DeleteRow({Value::Int(ck)});
        break;
      case 4:
        m.Update({}).Set("s", Value::Int(i));
        break;
      default:
        m.Insert({Value::Int(ck)}).Set("v", Value::Int(i));
        break;
    }
    ASSERT_OK(db().Apply(m));
    t_.Advance(1);
  }
  for (int64_t later : {0, 60, 120, 400}) {
    t_.Advance(later);
    const std::vector<std::string> from_memtable = ReadAll();
    ASSERT_OK(db().Flush());
    const std::vector<std::string> from_sstable = ReadAll();
    ASSERT_EQ(from_memtable.size(), from_sstable.size());
    for (size_t q = 0; q < from_memtable.size(); ++q) {
      ASSERT_EQ(from_sstable[q], from_memtable[q]) << "query " << q << " after " << later << " s";
    }
    // Rows written after the flush land in a new memtable, over the file.
    Mutation m("ks", "t", {Value::Int(static_cast<int32_t>(later % 3))});
    m.Insert({Value::Int(static_cast<int32_t>(later % 20))}).Set("v", Value::Int(-1));
    ASSERT_OK(db().Apply(m));
  }
}

TEST_F(PlainRowReadTest, DroppedColumnsAreNotReturnedFromPlainRows) {
  for (int32_t ck = 0; ck < 5; ++ck) {
    Mutation m("ks", "t", {Value::Int(1)});
    m.Insert({Value::Int(ck)}).Set("v", Value::Int(ck));
    ASSERT_OK(db().Apply(m));
  }
  // A row that only v keeps alive (an UPDATE: no marker).
  Mutation update("ks", "t", {Value::Int(1)});
  update.Update({Value::Int(5)}).Set("v", Value::Int(5));
  ASSERT_OK(db().Apply(update));
  ASSERT_OK(db().Flush());
  t_.Advance(1);
  ASSERT_OK(db().DropColumns("ks", "t", {"v"}, kStartMicros + 1'000'000));
  auto result = db().Read(ReadPartition(1));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  // The rows stay (their markers are live), without v; the updated one is
  // gone.
  EXPECT_EQ(Render(*result),
            "1,0,null,null;1,1,null,null;1,2,null,null;1,3,null,null;1,4,null,null");
  // The same when only key columns are selected, which plain bodies are
  // otherwise read for straight into the result: v's cells make each row
  // go the filtering way.
  result = db().Read(ReadPartition(1, {"ck", "pk"}));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(Render(*result), "0,1;1,1;2,1;3,1;4,1");
}

}  // namespace
}  // namespace cassette::testing
