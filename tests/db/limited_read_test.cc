// A read that stops at its limit opens only the SSTables holding the rows
// it returns (ViewReadSource defers the others until the merge reaches
// their clustering bounds), and still returns what reading every file
// would.
#include <gtest/gtest.h>

#include "cassette/db.h"
#include "tests/db/db_test_util.h"

namespace cassette::testing {
namespace {

class LimitedReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(t_.Open());
    ASSERT_OK(t_.db->CreateKeyspace({.name = "ks"}));
    ASSERT_OK(t_.db->CreateTable(SimpleTable()));
  }
  Database& db() { return *t_.db; }

  // Rows ck in [first, last] of partitions 1 and 2 (v = ck), then a flush:
  // one SSTable whose clustering bounds are [first, last].
  void WriteFile(int32_t first, int32_t last) {
    for (int32_t pk : {1, 2}) {
      Mutation m("ks", "t", {Value::Int(pk)});
      for (int32_t ck = first; ck <= last; ++ck) {
        m.Insert({Value::Int(ck)}).Set("v", Value::Int(ck));
      }
      ASSERT_OK(db().Apply(m));
    }
    ASSERT_OK(db().Flush());
  }

  ResultSet Read(int64_t limit, bool reversed) {
    ReadQuery query = ReadPartition(1, {"ck", "v"});
    query.limit = limit;
    query.reversed = reversed;
    auto result = db().Read(query);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? std::move(result).value() : ResultSet{};
  }

  static std::string Cks(int32_t first, int32_t last) {
    std::string out;
    const int32_t step = first <= last ? 1 : -1;
    for (int32_t ck = first;; ck += step) {
      if (!out.empty()) out += ";";
      out += std::to_string(ck) + "," + std::to_string(ck);
      if (ck == last) break;
    }
    return out;
  }

  TestDb t_;
};

TEST_F(LimitedReadTest, ReadsOnlyTheFilesHoldingTheRowsReturned) {
  WriteFile(0, 99);
  WriteFile(100, 199);
  WriteFile(200, 299);

  ResultSet first = Read(50, /*reversed=*/false);
  EXPECT_EQ(Render(first), Cks(0, 49));
  EXPECT_EQ(first.stats.sstables_read, 1);
  EXPECT_EQ(first.stats.sstables_skipped, 2);

  // The newest rows first: only the newest file.
  ResultSet newest = Read(100, /*reversed=*/true);
  EXPECT_EQ(Render(newest), Cks(299, 200));
  EXPECT_EQ(newest.stats.sstables_read, 1);

  ResultSet spanning = Read(150, /*reversed=*/true);
  EXPECT_EQ(Render(spanning), Cks(299, 150));
  EXPECT_EQ(spanning.stats.sstables_read, 2);
  EXPECT_EQ(spanning.stats.sstables_skipped, 1);

  ResultSet all = Read(0, /*reversed=*/false);
  EXPECT_EQ(Render(all), Cks(0, 299));
  EXPECT_EQ(all.stats.sstables_read, 3);
  EXPECT_EQ(all.stats.sstables_skipped, 0);
}

TEST_F(LimitedReadTest, DeletionInANewerFileIsAppliedToAnOlderFilesRows) {
  WriteFile(0, 99);
  WriteFile(100, 199);
  // A newer file holding only a row deletion at ck 5, and an update of
  // ck 7: its bounds [5, 7] lie inside the oldest file's, so the merge
  // opens it before returning ck 5.
  Mutation m("ks", "t", {Value::Int(1)});
  m.DeleteRow({Value::Int(5)});
  m.Update({Value::Int(7)}).Set("v", Value::Int(700));
  ASSERT_OK(db().Apply(m));
  ASSERT_OK(db().Flush());

  ResultSet rows = Read(10, /*reversed=*/false);
  EXPECT_EQ(Render(rows), "0,0;1,1;2,2;3,3;4,4;6,6;7,700;8,8;9,9;10,10");
  EXPECT_EQ(rows.stats.sstables_read, 2);
  EXPECT_EQ(rows.stats.sstables_skipped, 1);
}

TEST_F(LimitedReadTest, FilesWithPartitionLevelDataAreAlwaysRead) {
  WriteFile(0, 99);
  WriteFile(100, 199);
  // A range tombstone over [150, 160] and a static value: both lie outside
  // what clustering bounds describe, so this file is read up front.
  Mutation m("ks", "t", {Value::Int(1)});
  m.DeleteRange(ClusteringBound{{Value::Int(150)}, true}, ClusteringBound{{Value::Int(160)}, true});
  m.Update({}).Set("s", Value::Int(9));
  ASSERT_OK(db().Apply(m));
  ASSERT_OK(db().Flush());

  ResultSet rows = Read(45, /*reversed=*/true);
  EXPECT_EQ(Render(rows), Cks(199, 161) + ";" + Cks(149, 144));
  EXPECT_EQ(rows.stats.sstables_read, 2);  // the tombstone's file and the newer rows'
  EXPECT_EQ(rows.stats.sstables_skipped, 1);
}

TEST_F(LimitedReadTest, PagesReadOnlyTheFilesTheyReach) {
  WriteFile(0, 99);
  WriteFile(100, 199);
  WriteFile(200, 299);
  ReadQuery query = ReadPartition(1, {"ck", "v"});
  query.page_size = 60;
  std::string rendered;
  std::vector<int64_t> files_per_page;
  for (;;) {
    auto page = db().Read(query);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    if (!rendered.empty() && !page->rows.empty()) rendered += ";";
    rendered += Render(*page);
    files_per_page.push_back(page->stats.sstables_read);
    if (page->paging_state.empty()) break;
    query.paging_state = page->paging_state;
  }
  EXPECT_EQ(rendered, Cks(0, 299));
  // Pages 0-59, 60-119, 120-179, 180-239, 240-299: each resumes after its
  // predecessor's last row, so a file ending before it is skipped, and
  // stops at its last row, so the next file is not opened. The last page
  // came out full, so a sixth one (empty, no file read) is asked for.
  EXPECT_EQ(files_per_page, (std::vector<int64_t>{1, 2, 1, 2, 1, 0}));
}

}  // namespace
}  // namespace cassette::testing
