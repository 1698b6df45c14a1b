// User-defined types through CqlSession: CREATE / ALTER / DROP TYPE,
// frozen and non-frozen columns (one cell per field), field selection,
// update and deletion, literals, JSON and DESCRIBE. Expected values and
// messages are Cassandra 5.0's, from its UserTypesTest.java
// (test/unit/org/apache/cassandra/cql3/validation/entities) and the
// statements' sources (CreateTypeStatement, AlterTypeStatement,
// DropTypeStatement, Operation.SetField / FieldDeletion).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/cql/cql_session_fixture.h"

namespace cassette::cql {
namespace {

class UdtTest : public CqlSessionTest {};

using Strings = std::vector<std::string>;

TEST_F(UdtTest, FrozenValuesInKeysCollectionsAndFields) {
  Run("CREATE TYPE point (x double, y double)");
  // UserTypesTest.testFor7684: a frozen UDT clustering column, field selection.
  Run("CREATE TABLE t (k int, v frozen<point>, b boolean static, PRIMARY KEY (k, v))");
  Run("INSERT INTO t (k, v) VALUES (1, {x: -104.99251})");
  Run("UPDATE t SET b = true WHERE k = 1");
  EXPECT_EQ(Rows("SELECT v.x FROM t WHERE k = 1 AND v = {x: -104.99251}"), Strings{"-104.99251"});
  EXPECT_EQ(Rows("SELECT v FROM t WHERE k = 1"), Strings{"{x: -104.99251, y: null}"});
  ASSERT_TRUE(db_->Flush().ok());
  EXPECT_EQ(Rows("SELECT v.x, v.y FROM t WHERE k = 1 AND v = {x: -104.99251}"),
            Strings{"-104.99251 | null"});

  // Nested types in collections (UserTypesTest.testCassandra8105).
  Run("CREATE TYPE inner_t (a int, b int)");
  Run("CREATE TYPE outer_t (j frozen<inner_t>, k int)");
  Run("CREATE TABLE c (x int PRIMARY KEY, s set<frozen<outer_t>>, l list<frozen<outer_t>>)");
  Run("INSERT INTO c (x, s, l) VALUES (1, {{k: 1}}, [{j: {a: 1, b: 2}, k: 3}])");
  EXPECT_EQ(Rows("SELECT s, l FROM c WHERE x = 1"),
            Strings{"{{j: null, k: 1}} | [{j: {a: 1, b: 2}, k: 3}]"});
  EXPECT_EQ(Rows("SELECT JSON l FROM c WHERE x = 1"),
            Strings{"{\"l\": [{\"j\": {\"a\": 1, \"b\": 2}, \"k\": 3}]}"});
}

TEST_F(UdtTest, NonFrozenColumnsWriteOneFieldAtATime) {
  // UserTypesTest.testAlterNonFrozenUDT.
  Run("CREATE TYPE mt (a int, b text)");
  Run("CREATE TABLE t (k int PRIMARY KEY, v mt)");
  Run("INSERT INTO t (k, v) VALUES (0, {a: 1, b: 'abc'})");
  EXPECT_EQ(Rows("SELECT v, v.a, v.b FROM t"), Strings{"{a: 1, b: 'abc'} | 1 | abc"});
  Run("ALTER TYPE mt RENAME b TO foo");
  Run("UPDATE t SET v.foo = 'def' WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v, v.foo FROM t"), Strings{"{a: 1, foo: 'def'} | def"});
  ASSERT_TRUE(db_->Flush().ok());
  Run("ALTER TYPE mt ADD c int");
  EXPECT_EQ(Rows("SELECT v, v.c FROM t"), Strings{"{a: 1, foo: 'def', c: null} | null"});
  Run("UPDATE t SET v.c = 7 WHERE k = 0");
  Run("DELETE v.a FROM t WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v FROM t"), Strings{"{a: null, foo: 'def', c: 7}"});
  // A whole value replaces every field; deleting every field leaves null.
  Run("UPDATE t SET v = {c: 1} WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v FROM t"), Strings{"{a: null, foo: null, c: 1}"});
  Run("DELETE v.c FROM t WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v FROM t"), Strings{"null"});
  // A field written before the whole value's replacement stays shadowed by it.
  Run("UPDATE t USING TIMESTAMP 5 SET v.a = 3 WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v.a FROM t"), Strings{"null"});
  Run("UPDATE t SET v.a = 3 WHERE k = 0");
  EXPECT_EQ(Rows("SELECT v FROM t"), Strings{"{a: 3, foo: null, c: null}"});
}

TEST_F(UdtTest, WritetimeAndTtlOfAField) {
  // ScyllaDB's test/cqlpy/test_udt.py (test_writetime_udt_field,
  // test_ttl_udt_field, test_writetime_field_on_frozen_udt, the refusals),
  // whose answers are Cassandra 5's: a non-frozen field is a cell of its
  // own; a frozen value is one cell.
  Run("CREATE TYPE typ (a int, b int)");
  Run("CREATE TABLE t (p int PRIMARY KEY, x typ, f frozen<typ>, i int, u tuple<int, int>)");
  Run("UPDATE t USING TIMESTAMP 100 AND TTL 3600 SET x.a = 42 WHERE p = 1");
  Run("UPDATE t USING TIMESTAMP 200 SET x.b = 17 WHERE p = 1");
  Run("INSERT INTO t (p, f) VALUES (1, {a: 1}) USING TIMESTAMP 300 AND TTL 7200");
  EXPECT_EQ(Rows("SELECT writetime(x.a), writetime(x.b), ttl(x.a), ttl(x.b) FROM t"),
            Strings{"100 | 200 | 3600 | null"});
  EXPECT_EQ(Rows("SELECT writetime(f.a), ttl(f.a), writetime(f.b), maxwritetime(x.b) FROM t"),
            Strings{"300 | 7200 | null | 200"});
  // A field not set has no cell; neither has a row without the column.
  Run("DELETE x.a FROM t WHERE p = 1");
  EXPECT_EQ(Rows("SELECT writetime(x.a), writetime(x.b) FROM t"), Strings{"null | 200"});
  Run("INSERT INTO t (p, i) VALUES (2, 0)");
  EXPECT_EQ(Rows("SELECT writetime(x.a), ttl(f.b) FROM t WHERE p = 2"), Strings{"null | null"});

  EXPECT_EQ(Error("SELECT writetime(i.a) FROM t"),
            "Invalid field selection: i of type int is not a user type");
  EXPECT_EQ(Error("SELECT ttl(u.a) FROM t"),
            "Invalid field selection: u of type frozen<tuple<int, int>> is not a user type");
  EXPECT_EQ(Error("SELECT writetime(x.c) FROM t"), "x of type typ has no field c");
  EXPECT_EQ(Error("SELECT writetime(p.a) FROM t"),
            "Cannot use selection function writetime on PRIMARY KEY part p");
}

TEST_F(UdtTest, ErrorsAreCassandras) {
  Run("CREATE TYPE mt (a int)");
  EXPECT_EQ(Error("CREATE TYPE mt (a int)"), "A user type with name 'mt' already exists");
  Run("CREATE TYPE IF NOT EXISTS mt (a int)");
  EXPECT_EQ(Error("CREATE TYPE d (a int, a text)"), "Duplicate field name 'a' in type 'd'");
  EXPECT_EQ(Error("CREATE TYPE d (a counter)"), "A user type cannot contain counters");
  EXPECT_EQ(Error("CREATE TYPE d (a int, b mt)"), "A user type cannot contain non-frozen UDTs");
  EXPECT_EQ(Error("CREATE TYPE d (a int, b list<mt>)"),
            "Non-frozen UDTs are not allowed inside collections: list<mt>");
  EXPECT_EQ(Error("CREATE TABLE w (k mt PRIMARY KEY, v int)"),
            "Invalid non-frozen user-defined type for PRIMARY KEY component k");
  EXPECT_EQ(Error("CREATE TABLE w (k int PRIMARY KEY, v frozen<ks.unknowntype>)"),
            "Unknown type ks.unknowntype");
  EXPECT_EQ(Error("CREATE TABLE w (k int PRIMARY KEY, v frozen<otherkeyspace.mytype>)"),
            "Statement on keyspace ks cannot refer to a user type in keyspace otherkeyspace; "
            "user types can only be used in the keyspace they are defined in");
  Run("CREATE TYPE withlist (bar int, foo list<int>)");
  EXPECT_EQ(Error("CREATE TABLE w (k int PRIMARY KEY, v withlist)"),
            "Non-frozen UDTs with nested non-frozen collections are not supported");

  Run("CREATE TABLE f (a int PRIMARY KEY, b frozen<mt>, c int)");
  EXPECT_EQ(Error("DELETE b.a FROM f WHERE a = 0"),
            "Frozen UDT column b does not support field deletions");
  EXPECT_EQ(Error("DELETE c.a FROM f WHERE a = 0"),
            "Invalid field deletion operation for non-UDT column c");
  EXPECT_EQ(Error("UPDATE f SET b.a = 0 WHERE a = 0"),
            "Invalid operation (b.a = 0) for frozen UDT column b");
  EXPECT_EQ(Error("UPDATE f SET c.a = 0 WHERE a = 0"),
            "Invalid operation (c.a = 0) for non-UDT column c");
  EXPECT_EQ(Error("INSERT INTO f (a, b) VALUES (0, {s: 1})"),
            "Unknown field 's' in value of user defined type mt");
  EXPECT_EQ(Error("INSERT INTO f (a, b) VALUES (0, {a: 'x'})"),
            "Invalid user type literal for b: field a is not of type int");
  Run("CREATE TABLE n (a int PRIMARY KEY, b mt)");
  EXPECT_EQ(Error("DELETE b.foo FROM n WHERE a = 0"),
            "UDT column b does not have a field named foo");
  EXPECT_EQ(Error("UPDATE n SET b.foo = 0 WHERE a = 0"),
            "UDT column b does not have a field named foo");

  EXPECT_EQ(Error("ALTER TYPE mt ADD a int"),
            "Cannot add field a to type ks.mt: a field with name a already exists");
  EXPECT_EQ(Error("ALTER TYPE mt RENAME nope TO b"), "Unkown field nope in user type ks.mt");
  EXPECT_EQ(Error("ALTER TYPE mt ALTER a TYPE bigint"),
            "Altering field types is no longer supported");
  EXPECT_EQ(Error("ALTER TYPE nope ADD a int"), "Type ks.nope doesn't exist");
  EXPECT_EQ(Error("DROP TYPE mt"),
            "Cannot drop user type 'ks.mt' as it is still used by tables f, n");
  EXPECT_EQ(Error("DROP TYPE nope"), "Type 'ks.nope' doesn't exist");
  Run("DROP TYPE IF EXISTS nope");
}

TEST_F(UdtTest, DescribeListsTypesBeforeTables) {
  EXPECT_EQ(Error("CREATE TYPE b_type (x frozen<z_type>)"), "Unknown type ks.z_type");
  Run("CREATE TYPE z_type (street text, zip int)");
  Run("CREATE TYPE b_type (home frozen<z_type>, tags list<text>)");
  Run("CREATE TABLE t (k int PRIMARY KEY, who frozen<b_type>)");
  CqlResult keyspace = Run("DESCRIBE KEYSPACE ks");
  ASSERT_EQ(keyspace.rows.size(), 4u);
  // Each type after the types it uses, then the tables.
  EXPECT_EQ(keyspace.rows[1][2].ToString(), "z_type");
  EXPECT_EQ(keyspace.rows[2][2].ToString(), "b_type");
  EXPECT_EQ(keyspace.rows[3][1].ToString(), "table");
  EXPECT_EQ(std::string(keyspace.rows[2][3].AsString()),
            "CREATE TYPE ks.b_type (\n    home frozen<z_type>,\n    tags list<text>\n);");
  EXPECT_NE(std::string(keyspace.rows[3][3].AsString()).find("    who frozen<b_type>\n"),
            std::string::npos);
  EXPECT_EQ(Rows("DESCRIBE TYPES"), (Strings{"ks | type | z_type", "ks | type | b_type"}));
  EXPECT_EQ(Rows("DESCRIBE TYPE z_type").size(), 1u);
  EXPECT_EQ(Error("DESCRIBE TYPE nope"), "User defined type 'nope' not found in 'ks'");
}

}  // namespace
}  // namespace cassette::cql
