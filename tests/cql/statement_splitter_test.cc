#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cassette/cql.h"

namespace cassette {
namespace {

using Statements = std::vector<std::string>;

Statements Split(std::string_view script, std::string* rest = nullptr) {
  std::string ignored;
  return SplitCqlStatements(script, rest != nullptr ? rest : &ignored);
}

TEST(StatementSplitterTest, SplitsOnTopLevelSemicolons) {
  std::string rest = "stale";
  EXPECT_EQ(Split("SELECT 1 FROM t;  INSERT INTO t (k) VALUES (1) ;\n", &rest),
            (Statements{"SELECT 1 FROM t", "INSERT INTO t (k) VALUES (1)"}));
  EXPECT_EQ(rest, "");
}

TEST(StatementSplitterTest, SemicolonsInStringsAndNamesDoNotSplit) {
  EXPECT_EQ(Split("INSERT INTO t (k) VALUES ('a;b''c;');SELECT \"x;y\" FROM t;"),
            (Statements{"INSERT INTO t (k) VALUES ('a;b''c;')", "SELECT \"x;y\" FROM t"}));
  EXPECT_EQ(Split("INSERT INTO t (k) VALUES ($$a;'b$$);"),
            (Statements{"INSERT INTO t (k) VALUES ($$a;'b$$)"}));
}

TEST(StatementSplitterTest, CommentsAreDropped) {
  EXPECT_EQ(Split("-- heading; with semicolon\nSELECT * -- trailing;\nFROM t; // x;\n"
                  "/* block; */ USE ks;"),
            (Statements{"SELECT * \nFROM t", "USE ks"}));
  // Comment markers inside strings are text.
  EXPECT_EQ(Split("INSERT INTO t (k) VALUES ('--not a comment', '/*x*/');"),
            (Statements{"INSERT INTO t (k) VALUES ('--not a comment', '/*x*/')"}));
}

TEST(StatementSplitterTest, BatchIsOneStatement) {
  std::string rest;
  Statements statements = Split(
      "BEGIN UNLOGGED BATCH\n  INSERT INTO t (k) VALUES (1);\n  INSERT INTO t (k) VALUES (2);\n"
      "APPLY BATCH;\nSELECT * FROM t;",
      &rest);
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0],
            "BEGIN UNLOGGED BATCH\n  INSERT INTO t (k) VALUES (1);\n  INSERT INTO t (k) VALUES "
            "(2);\nAPPLY BATCH");
  EXPECT_EQ(statements[1], "SELECT * FROM t");
  EXPECT_EQ(Split("begin batch insert into t (k) values (1); apply batch; use ks;"),
            (Statements{"begin batch insert into t (k) values (1); apply batch", "use ks"}));
  EXPECT_EQ(Split("BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1; APPLY BATCH;").size(),
            1u);
}

TEST(StatementSplitterTest, UnfinishedBatchIsRest) {
  std::string rest;
  EXPECT_TRUE(Split("BEGIN BATCH INSERT INTO t (k) VALUES (1);", &rest).empty());
  EXPECT_EQ(rest, "BEGIN BATCH INSERT INTO t (k) VALUES (1);");
}

TEST(StatementSplitterTest, TextAfterTheLastSemicolonIsRest) {
  std::string rest;
  EXPECT_EQ(Split("USE ks; SELECT * FROM t\n  WHERE k = 1", &rest), (Statements{"USE ks"}));
  EXPECT_EQ(rest, "SELECT * FROM t\n  WHERE k = 1");
  // Only blanks and comments: nothing is pending.
  EXPECT_EQ(Split("USE ks; -- done\n /* really */ \n", &rest), (Statements{"USE ks"}));
  EXPECT_EQ(rest, "");
  // An open string or comment keeps the statement pending, raw.
  EXPECT_TRUE(Split("INSERT INTO t (k) VALUES ('a;", &rest).empty());
  EXPECT_EQ(rest, "INSERT INTO t (k) VALUES ('a;");
  EXPECT_TRUE(Split("/* open; ", &rest).empty());
  EXPECT_EQ(rest, "/* open;");
}

TEST(StatementSplitterTest, EmptyStatementsAreSkipped) {
  std::string rest;
  EXPECT_EQ(Split(";;  ; USE ks;;", &rest), (Statements{"USE ks"}));
  EXPECT_EQ(rest, "");
  EXPECT_TRUE(Split("", &rest).empty());
}

TEST(StatementSplitterTest, ShellDirectivesAreJustText) {
  EXPECT_EQ(Split("CLOCK SET '2024-01-15T12:00:00Z';\nFLUSH iot.t;\nCLOCK ADVANCE 2 DAYS;\n"
                  "COMPACT MAJOR t; TRACING ON;"),
            (Statements{"CLOCK SET '2024-01-15T12:00:00Z'", "FLUSH iot.t", "CLOCK ADVANCE 2 DAYS",
                        "COMPACT MAJOR t", "TRACING ON"}));
}

TEST(StatementSplitterTest, NullRestIsAllowed) {
  EXPECT_EQ(SplitCqlStatements("USE ks; SELECT", nullptr), (Statements{"USE ks"}));
}

}  // namespace
}  // namespace cassette
