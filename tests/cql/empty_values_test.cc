// The empty value of an int, a timestamp, ... (zero bytes, as blobAsInt(0x)
// makes it): stored as a live cell distinct from null, read back as null by
// drivers (cqlsh prints nothing), taken as null by functions. Mirrors
// ScyllaDB's test/cqlpy/test_empty.py (test_empty_int), Cassandra 5.0's
// TimeFctsTest (testTimestampToDateWithEmptyInput,
// testTimestampToUnixTimestampWithEmptyInput), TypeTest.testDateCompatibility
// (a timestamp's bytes into a varint column) and the serializers' "Expected 4
// or 0 byte int" rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cql/select_test_util.h"

namespace cassette::cql {
namespace {

using RowList = std::vector<std::string>;

class EmptyValuesTest : public SelectTest {
 protected:
  void Run(const std::string& cql) {
    auto result = Execute(cql);
    ASSERT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
  }

  std::string Error(const std::string& cql) {
    auto result = Execute(cql);
    EXPECT_FALSE(result.ok()) << cql;
    return result.ok() ? std::string() : result.status().message();
  }

  // The one row of a SELECT holds `count` values, each the empty value.
  void ExpectAllEmpty(const std::string& cql, size_t count) {
    auto result = Execute(cql);
    ASSERT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    ASSERT_EQ(result->rows.size(), 1u) << cql;
    ASSERT_EQ(result->rows[0].size(), count) << cql;
    for (const Value& v : result->rows[0]) {
      EXPECT_FALSE(v.is_null()) << cql << ": " << v.type().ToString();
      EXPECT_TRUE(v.bytes().empty()) << cql << ": " << v.type().ToString();
      EXPECT_EQ(v.ToString(), "") << cql;
    }
  }

  // The only value of the only row of a SELECT.
  Value Single(const std::string& cql) {
    auto result = Execute(cql);
    EXPECT_TRUE(result.ok()) << cql << "\n" << result.status().ToString();
    if (!result.ok() || result->rows.size() != 1 || result->rows[0].size() != 1) {
      ADD_FAILURE() << cql << ": not one row of one value";
      return Value::Text("<none>");
    }
    return result->rows[0][0];
  }
};

// test_empty.py test_empty_int: the driver reads the empty int back as None.
TEST_F(EmptyValuesTest, EmptyIntIsALiveCellThatReadsAsNull) {
  Run("CREATE TABLE ks.t (p text PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (p, v) VALUES ('empty', blobAsInt(0x))");
  Run("INSERT INTO ks.t (p, v) VALUES ('null', null)");
  for (bool flushed : {false, true}) {
    SCOPED_TRACE(flushed ? "from an sstable" : "from the memtable");
    if (flushed) {
      ASSERT_TRUE(db_->Flush().ok());
    }
    const Value empty = Single("SELECT v FROM ks.t WHERE p = 'empty'");
    EXPECT_FALSE(empty.is_null());
    EXPECT_TRUE(empty.bytes().empty());
    EXPECT_EQ(empty.ToString(), "");  // cqlsh prints nothing
    EXPECT_EQ(empty.ToJson(), "null");
    EXPECT_TRUE(Single("SELECT v FROM ks.t WHERE p = 'null'").is_null());
    // Unlike a null, the empty value is a cell, with a write time.
    EXPECT_FALSE(Single("SELECT writetime(v) FROM ks.t WHERE p = 'empty'").is_null());
    EXPECT_TRUE(Single("SELECT writetime(v) FROM ks.t WHERE p = 'null'").is_null());
  }
  // SELECT JSON and to_json write null (ToJsonFct: an empty value of a type
  // whose empty value is meaningless is null).
  EXPECT_EQ(Rows("SELECT JSON v FROM ks.t WHERE p = 'empty'"), (RowList{"{\"v\": null}"}));
  EXPECT_EQ(Rows("SELECT to_json(v) FROM ks.t WHERE p = 'empty'"), (RowList{"null"}));
  // Functions take it as null; <type>_as_blob hands the bytes over as they are.
  EXPECT_TRUE(Single("SELECT CAST(v AS text) FROM ks.t WHERE p = 'empty'").is_null());
  EXPECT_TRUE(Single("SELECT abs(v) FROM ks.t WHERE p = 'empty'").is_null());
  EXPECT_EQ(Single("SELECT int_as_blob(v) FROM ks.t WHERE p = 'empty'").ToString(), "0x");
  // UPDATE writes it too.
  Run("UPDATE ks.t SET v = blob_as_int(0x) WHERE p = 'null'");
  EXPECT_TRUE(Single("SELECT v FROM ks.t WHERE p = 'null'").bytes().empty());
}

// TimeFctsTest.testTimestampToDateWithEmptyInput and
// testTimestampToUnixTimestampWithEmptyInput.
TEST_F(EmptyValuesTest, TimeFunctionsOfAnEmptyTimestampAreNull) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, ts timestamp)");
  Run("INSERT INTO ks.t (k, ts) VALUES (0, blobAsTimestamp(0x))");
  for (const char* function : {"to_date", "to_unix_timestamp", "toDate", "toUnixTimestamp"}) {
    EXPECT_TRUE(Single(std::string("SELECT ") + function + "(ts) FROM ks.t").is_null()) << function;
  }
  EXPECT_TRUE(Single("SELECT min_timeuuid(ts) FROM ks.t").is_null());
}

// Aggregates and arithmetic over a column holding an empty value: no
// failure, and the non-empty values still count.
TEST_F(EmptyValuesTest, AggregatesAndArithmeticOverEmptyValues) {
  Run("CREATE TABLE ks.t (k int, c int, i int, b bigint, d double, f float, vi varint, "
      "de decimal, ts timestamp, u uuid, bo boolean, ip inet, PRIMARY KEY (k, c))");
  Run("INSERT INTO ks.t (k, c, i, b, d, f, vi, de, ts, u, bo, ip) VALUES (0, 1, 5, 5, 5, 5, 5, "
      "5, 5, uuid(), true, '127.0.0.1')");
  Run("INSERT INTO ks.t (k, c, i, b, d, f, vi, de, ts, u, bo, ip) VALUES (0, 2, blobAsInt(0x), "
      "blobAsBigint(0x), blobAsDouble(0x), blobAsFloat(0x), blobAsVarint(0x), "
      "blobAsDecimal(0x), blobAsTimestamp(0x), blobAsUuid(0x), blobAsBoolean(0x), "
      "blobAsInet(0x))");
  // sum and avg skip it (AggregateFcts reads null), count counts the cell.
  EXPECT_EQ(Rows("SELECT sum(i), sum(b), sum(d), sum(f), sum(vi), sum(de) FROM ks.t WHERE k = 0"),
            (RowList{"5, 5, 5, 5, 5, 5"}));
  EXPECT_EQ(Rows("SELECT avg(i), avg(d), avg(vi), avg(de), count(i) FROM ks.t WHERE k = 0"),
            (RowList{"5, 5, 5, 5, 2"}));
  EXPECT_EQ(Rows("SELECT max(i), max(ts), max(bo) FROM ks.t WHERE k = 0"),
            (RowList{"5, 1970-01-01 00:00:00.005000+0000, True"}));
  // The empty value sorts first (AbstractType.compare: empty before
  // anything), and every column of the empty row holds it.
  ExpectAllEmpty("SELECT min(i), min(vi), min(de), min(ip) FROM ks.t WHERE k = 0", 4);
  ExpectAllEmpty("SELECT i, b, d, f, vi, de, ts, u, bo, ip FROM ks.t WHERE k = 0 AND c = 2", 10);
  EXPECT_EQ(Rows("SELECT JSON i, ts, u, bo, ip FROM ks.t WHERE k = 0 AND c = 2"),
            (RowList{"{\"i\": null, \"ts\": null, \"u\": null, \"bo\": null, \"ip\": null}"}));
  // Arithmetic, CAST and functions of the empty value are null.
  EXPECT_EQ(Rows("SELECT i + 1, d * 2, vi - 1, de / 2, ts + 1d FROM ks.t WHERE k = 0 AND c = 2"),
            (RowList{"null, null, null, null, null"}));
  EXPECT_EQ(Rows("SELECT CAST(de AS int), CAST(vi AS text), CAST(u AS text), to_json(bo), "
                 "exp(de), round(d) FROM ks.t WHERE k = 0 AND c = 2"),
            (RowList{"null, null, null, null, null, null"}));
}

// Where the empty value goes and where it does not.
TEST_F(EmptyValuesTest, KeysAndTypesWithoutAnEmptyValue) {
  // A one-column partition key may not be empty, as Cassandra says; a part
  // of a compound one may.
  Run("CREATE TABLE ks.single (p int PRIMARY KEY, v int)");
  EXPECT_EQ(Error("INSERT INTO ks.single (p, v) VALUES (blobAsInt(0x), 1)"),
            "Key may not be empty");
  Run("CREATE TABLE ks.compound (p1 int, p2 int, v int, PRIMARY KEY ((p1, p2)))");
  Run("INSERT INTO ks.compound (p1, p2, v) VALUES (1, blobAsInt(0x), 7)");
  EXPECT_EQ(Rows("SELECT v FROM ks.compound WHERE p1 = 1 AND p2 = blobAsInt(0x)"), (RowList{"7"}));
  // A clustering column is stored through its comparable encoding, which
  // has no empty value: cassette refuses it (Cassandra sorts it first).
  Run("CREATE TABLE ks.clustered (p int, c int, v int, PRIMARY KEY (p, c))");
  EXPECT_EQ(Error("INSERT INTO ks.clustered (p, c, v) VALUES (1, blobAsInt(0x), 1)"),
            "Invalid value for clustering key part c: Invalid empty value for type int");
  // tinyint, smallint, date and time have no empty value in Cassandra either.
  Run("CREATE TABLE ks.small (p int PRIMARY KEY, t tinyint, s smallint, d date, ti time)");
  EXPECT_EQ(Error("INSERT INTO ks.small (p, t) VALUES (1, blobAsTinyint(0x))"),
            "In call to function system.blobastinyint, value 0x is not a valid binary "
            "representation for type tinyint");
  EXPECT_EQ(Error("INSERT INTO ks.small (p, d) VALUES (1, blob_as_date(0x))"),
            "In call to function system.blob_as_date, value 0x is not a valid binary "
            "representation for type date");
}

// TypeTest.testDateCompatibility: a timestamp (8 bytes, maybe with leading
// zero bytes) is a valid varint, read as the same number.
TEST_F(EmptyValuesTest, TimestampBytesIntoAVarint) {
  Run("CREATE TABLE ks.t (a int, b timestamp, c bigint, d varint, PRIMARY KEY (a, b, c, d))");
  Run("INSERT INTO ks.t (a, b, c, d) VALUES (0, '2024-01-15', toTimestamp(now()), "
      "toTimestamp(now()))");
  EXPECT_EQ(Rows("SELECT c, d FROM ks.t WHERE a = 0"), (RowList{"1704067200000, 1704067200000"}));
  // A varint with redundant sign bytes is the same clustering key as its
  // minimal form.
  Run("INSERT INTO ks.t (a, b, c, d) VALUES (1, 0, 0, blobAsVarint(0x0000000000000001))");
  Run("INSERT INTO ks.t (a, b, c, d) VALUES (1, 0, 0, 1)");
  EXPECT_EQ(Rows("SELECT d FROM ks.t WHERE a = 1"), (RowList{"1"}));
  EXPECT_EQ(Rows("SELECT d FROM ks.t WHERE a = 1 AND b = 0 AND c = 0 AND d = 1"), (RowList{"1"}));
}

}  // namespace
}  // namespace cassette::cql
