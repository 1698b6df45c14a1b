#include "engine/mutation/row.h"

#include <gtest/gtest.h>

#include "tests/mutation/mutation_test_util.h"

namespace cassette {
namespace {

using testing::Simple;

TEST(RowTest, FindByColumnId) {
  Row row;
  EXPECT_EQ(row.Find(1), nullptr);
  for (uint32_t id : {1u, 4u, 9u, 10u, 4000000000u}) {
    row.columns.push_back(Simple(id, Cell::Live(1, std::to_string(id))));
  }
  for (uint32_t id : {1u, 4u, 9u, 10u, 4000000000u}) {
    const Row& crow = row;
    ASSERT_NE(crow.Find(id), nullptr);
    EXPECT_EQ(crow.Find(id)->column_id, id);
    EXPECT_EQ(crow.Find(id)->cells[0].value, std::to_string(id));
  }
  for (uint32_t id : {0u, 2u, 5u, 11u, 4000000001u}) EXPECT_EQ(row.Find(id), nullptr);
  row.Find(9)->cells[0].value = "nine";
  EXPECT_EQ(row.columns[2].cells[0].value, "nine");
}

TEST(RowTest, IsEmpty) {
  Row row;
  EXPECT_TRUE(row.IsEmpty());
  row.clustering = "c";  // a clustering alone is no data
  EXPECT_TRUE(row.IsEmpty());
  row.deletion = DeletionTime{1, 1};
  EXPECT_FALSE(row.IsEmpty());
}

}  // namespace
}  // namespace cassette
