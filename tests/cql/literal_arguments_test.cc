// Literal arguments whose type comes from where they stand: a boolean
// constant as a selector function's argument (ReplaceMaskingFunctionTest
// testMaskingOnNative), a type hint on mask_replace's replacement
// (ReplaceMaskingFunctionTest testReplaceWithDifferentType), and token()
// of a literal in a written value, typed by the table's partition key
// (ScyllaDB cqlpy test_cast.py test_cast_bigint_token_to_blobl).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

class LiteralArgumentsTest : public SelectTest {
 protected:
  void Run(const std::string& cql) {
    auto result = Execute(cql);
    ASSERT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
  }
};

TEST_F(LiteralArgumentsTest, BooleanConstantIsNotAColumnName) {
  Run("CREATE TABLE ks.t (pk boolean, ck boolean, s boolean static, v boolean, "
      "PRIMARY KEY (pk, ck))");
  Run("INSERT INTO ks.t (pk, ck, s, v) VALUES (true, true, true, true)");
  EXPECT_EQ(Columns("SELECT mask_replace(pk, false), mask_replace(v, FALSE) FROM ks.t"),
            (RowList{"system.mask_replace(pk, false)", "system.mask_replace(v, FALSE)"}));
  EXPECT_EQ(Rows("SELECT mask_replace(pk, false), mask_replace(ck, false), mask_replace(s, false), "
                 "mask_replace(v, false) FROM ks.t"),
            (RowList{"False, False, False, False"}));
  EXPECT_EQ(Rows("SELECT true, false FROM ks.t"), (RowList{"True, False"}));
}

TEST_F(LiteralArgumentsTest, QuotedBooleanWordIsStillAColumn) {
  Run("CREATE TABLE ks.q (k int PRIMARY KEY, \"false\" int)");
  Run("INSERT INTO ks.q (k, \"false\") VALUES (1, 7)");
  EXPECT_EQ(Rows("SELECT \"false\", mask_replace(\"false\", 3) FROM ks.q"), (RowList{"7, 3"}));
}

TEST_F(LiteralArgumentsTest, TypeHintedReplacementTakesTheColumnsType) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v varint)");
  Run("INSERT INTO ks.t (k) VALUES (0)");
  EXPECT_EQ(Rows("SELECT mask_replace(v, 1), mask_replace(v, (int) 1), "
                 "mask_replace(v, (bigint) 1), mask_replace(v, (varint) 1) FROM ks.t"),
            (RowList{"1, 1, 1, 1"}));
  EXPECT_EQ(Columns("SELECT mask_replace(v, (int) 1) FROM ks.t"),
            (RowList{"system.mask_replace(v, (int) 1)"}));
  EXPECT_EQ(Error("SELECT mask_replace(v, 1.2) FROM ks.t"),
            "InvalidRequest: Type error: 1.2 cannot be passed as argument 1 of function "
            "system.mask_replace of type varint");
}

TEST_F(LiteralArgumentsTest, TokenOfALiteralHashesItAsThePartitionKeysType) {
  Run("CREATE TABLE ks.t (pk int PRIMARY KEY, blob_col blob, bigint_col bigint)");
  // Murmur3 of the int 1234's four bytes, as the test expects.
  Run("INSERT INTO ks.t (pk, blob_col) VALUES (1, token(1234))");
  EXPECT_EQ(Rows("SELECT blob_col FROM ks.t WHERE pk = 1"), (RowList{"0x7a6aa63253b662e5"}));
  // An UPDATE's value and a BATCH's statement too; the same hash as the
  // token of the row keyed 1234.
  Run("UPDATE ks.t SET bigint_col = token(1234) WHERE pk = 1");
  Run("BEGIN BATCH INSERT INTO ks.t (pk, bigint_col) VALUES (2, token(1234)); APPLY BATCH");
  Run("INSERT INTO ks.t (pk) VALUES (1234)");
  EXPECT_EQ(Rows("SELECT token(pk) FROM ks.t WHERE pk = 1234"), (RowList{"8821045555241575141"}));
  EXPECT_EQ(Rows("SELECT bigint_col FROM ks.t WHERE pk IN (1, 2)"),
            (RowList{"8821045555241575141", "8821045555241575141"}));
  EXPECT_EQ(Error("INSERT INTO ks.t (pk, bigint_col) VALUES (2, token(1, 2))"),
            "InvalidRequest: Invalid number of arguments in call to function system.token: 1 "
            "required but 2 provided");
  EXPECT_EQ(Error("INSERT INTO ks.t (pk, bigint_col) VALUES (2, token('a'))"),
            "InvalidRequest: Type error: 'a' cannot be passed as argument 0 of function "
            "system.token of type int");
}

}  // namespace
}  // namespace cassette::cql
