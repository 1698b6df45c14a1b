// Element and slice selection on sets and maps, and WRITETIME / TTL /
// MAXWRITETIME of collections, their elements and slices, as Cassandra 5
// answers them. Expected values after Cassandra 5.0's
// test/unit/org/apache/cassandra/cql3/validation/entities/
// WritetimeOrTTLTest.java (testList, testSet, testFrozenSet) and
// CollectionsTest.java (testMapOperationOnPartKey, testElementAccessOnList).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class CollectionSelectionTest : public CqlSessionTest {};

TEST_F(CollectionSelectionTest, WritetimeAndTtlOfAListAreOnePerElement) {
  Run("CREATE TABLE t (k int PRIMARY KEY, l list<int>)");
  Run("INSERT INTO t (k) VALUES (1) USING TIMESTAMP 1 AND TTL 10000");
  EXPECT_EQ(Row("SELECT writetime(l), ttl(l) FROM t"), "null | null");
  Run("INSERT INTO t (k, l) VALUES (1, [1]) USING TIMESTAMP 1");
  Run("UPDATE t USING TIMESTAMP 2 AND TTL 20000 SET l = l + [2] WHERE k = 1");
  EXPECT_EQ(Row("SELECT writetime(l), ttl(l), maxwritetime(l) FROM t"),
            "[1, 2] | [null, 20000] | 2");
  EXPECT_EQ(Error("SELECT writetime(l[0]) FROM t"),
            "Element selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(Error("SELECT ttl(l[1..2]) FROM t"),
            "Slice selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(Error("SELECT l[0] FROM t"),
            "Element selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(Error("SELECT l[1..3] FROM t"),
            "Slice selection is only allowed on sets and maps, but l is a list");
  EXPECT_EQ(Error("SELECT writetime(k) FROM t"),
            "Cannot use selection function writetime on PRIMARY KEY part k");
}

TEST_F(CollectionSelectionTest, WritetimeOfSetElementsAndSlices) {
  Run("CREATE TABLE t (k int PRIMARY KEY, s set<int>)");
  Run("INSERT INTO t (k, s) VALUES (1, {1}) USING TIMESTAMP 1");
  Run("UPDATE t USING TIMESTAMP 2 AND TTL 20000 SET s = s + {2} WHERE k = 1");
  EXPECT_EQ(Row("SELECT writetime(s), ttl(s) FROM t"), "[1, 2] | [null, 20000]");
  EXPECT_EQ(Row("SELECT writetime(s[0]), writetime(s[1]), writetime(s[2]), ttl(s[2]) FROM t"),
            "null | 1 | 2 | 20000");
  EXPECT_EQ(Row("SELECT writetime(s[..0]), writetime(s[..1]), writetime(s[0..]) FROM t"),
            "null | [1] | [1, 2]");
  EXPECT_EQ(Row("SELECT writetime(s[2..]), ttl(s[1..2]), writetime(s[3..4]) FROM t"),
            "[2] | [null, 20000] | null");
  EXPECT_EQ(Row("SELECT maxwritetime(s[0..1]), maxwritetime(s) FROM t"), "1 | 2");
  EXPECT_EQ(Row("SELECT writetime(s[2]), writetime(s[1]) FROM t"), "2 | 1");
}

TEST_F(CollectionSelectionTest, AFrozenSetIsOneCell) {
  Run("CREATE TABLE t (k int PRIMARY KEY, s frozen<set<int>>)");
  Run("INSERT INTO t (k, s) VALUES (1, {1, 2}) USING TIMESTAMP 2 AND TTL 20000");
  EXPECT_EQ(Row("SELECT writetime(s), ttl(s), writetime(s[1]), writetime(s[0]) FROM t"),
            "2 | 20000 | 2 | null");
  EXPECT_EQ(Row("SELECT writetime(s[..1]), ttl(s[2..]), writetime(s[3..4]) FROM t"),
            "2 | 20000 | null");
}

TEST_F(CollectionSelectionTest, MapAndSetSlices) {
  Run("CREATE TABLE t (k frozen<map<text, text>> PRIMARY KEY, l text, o int)");
  Run("INSERT INTO t (k, l, o) VALUES ({'1': 'value1', '22': 'value22', '333': 'value333'}, "
      "'foobar', 42)");
  const std::string where = " FROM t WHERE k = {'1': 'value1', '22': 'value22', '333': 'value333'}";
  EXPECT_EQ(Row("SELECT l, k['1'], o" + where), "foobar | value1 | 42");
  EXPECT_EQ(Row("SELECT k['foobar']" + where), "null");
  EXPECT_EQ(Row("SELECT k['1'..'22']" + where), "{'1': 'value1', '22': 'value22'}");
  EXPECT_EQ(Row("SELECT k[''..'23']" + where), "{'1': 'value1', '22': 'value22'}");
  EXPECT_EQ(Row("SELECT k['2'..'3']" + where), "{'22': 'value22'}");
  EXPECT_EQ(Row("SELECT k['22'..]" + where), "{'22': 'value22', '333': 'value333'}");
  EXPECT_EQ(Row("SELECT k[..'22']" + where), "{'1': 'value1', '22': 'value22'}");

  Run("CREATE TABLE s (k int PRIMARY KEY, s set<int>, m map<int, text>)");
  Run("INSERT INTO s (k, s, m) VALUES (0, {1, 5, 9}, {1: 'a', 22: 'b', 333: 'c'})");
  EXPECT_EQ(Row("SELECT s[2..9], s[..4], s[5], m[20 .. 25], m[22] FROM s WHERE k = 0"),
            "{5, 9} | {1} | 5 | {22: 'b'} | b");
}

}  // namespace
}  // namespace cassette::cql
