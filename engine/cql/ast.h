// The CQL abstract syntax tree: what the parser produces from statement
// text and what the executors consume. Plain values with no behaviour;
// names are already case-folded (unquoted identifiers lower-cased, quoted
// ones kept as written), so executors compare them as they are.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cassette::cql {

// `ks.name` or `name` (keyspace empty: the session's current keyspace).
struct QualifiedName {
  std::string keyspace;
  std::string name;
};

// A value expression: a constant, a bind marker, a collection or tuple
// literal, a function call, a cast or a type hint. Its CQL type is known
// only from its receiver (the column it is assigned to or compared with),
// so literals keep their text and are typed at execution.
struct Term {
  enum class Kind : uint8_t {
    kConstant,     // literal_type + text
    kNull,         // NULL
    kBindMarker,   // ? or :name
    kList,         // [a, b]: elements
    kSet,          // {a, b}: elements
    kMap,          // {k: v, ...}: elements alternate key, value
    kEmptyBraces,  // {}: an empty set or map, decided by the receiver
    kTuple,        // (a, b): elements
    kFunction,     // name(args): elements are the arguments
    kCast,         // CAST(elements[0] AS type)
    kTypeHint,     // (type) elements[0]
    kNegate,       // -elements[0] where elements[0] is not a number constant
    // elements[0] <op> elements[1], op in text: "+", "-", "*", "/", "%"
    // (Cassandra 4's term arithmetic, e.g. toTimestamp(now()) - 1h).
    kArithmetic,
    kUserType,  // {f: a, g: b}: field_names, elements their values
  };
  // Constants as the lexer saw them.
  enum class Literal : uint8_t {
    kString,    // 'text' or $$text$$: text is the unquoted content
    kInteger,   // 42, -7: text as written
    kFloat,     // 1.5, -2e10, NaN, Infinity, -Infinity
    kBoolean,   // true/false: text lower-cased
    kUuid,      // text as written
    kHex,       // 0x0102: text as written (with 0x)
    kDuration,  // 1h30m, P1D, ...: text as written
  };

  Kind kind = Kind::kNull;
  Literal literal = Literal::kString;
  std::string text;       // constant text; function name (lower-cased); cast/hint type
  int bind_index = -1;    // kBindMarker: position among the statement's markers
  std::string bind_name;  // kBindMarker: :name (empty for ?)
  std::vector<Term> elements;
  std::vector<std::string> field_names;  // kUserType, parallel to elements
};

// One item of a SELECT clause.
struct Selector {
  enum class Kind : uint8_t {
    kColumn,     // column
    kWritetime,  // WRITETIME(column)
    kTtl,        // TTL(column)
    kFunction,   // name(args...): scalar functions, aggregates, token(...)
    kCountStar,  // COUNT(*) (also COUNT(1))
    kCast,       // CAST(args[0] AS cast_type)
    kTerm,       // a constant or bind marker selected as a value
    kElement,    // args[0][term]: a map's value by key, a list's or set's element
    kSlice,      // args[0][term..slice_end]: a set's elements or a map's entries in a
                 // key range (either bound may be absent)
    kField,      // args[0].field: a user type's field
    kOperation,  // args[0] function args[1] with function one of + - * / %, or
                 // -args[0] (function "-", one argument)
    kTypeHint,   // (cast_type) args[0] over a selector that is not a term
  };
  Kind kind = Kind::kColumn;
  // kColumn, kWritetime, kTtl; WRITETIME(s[k]) and TTL(m[a..b]) also
  // hold the element or slice selector over the column in args[0].
  std::string column;
  std::string function;  // kFunction (lower-cased)
  std::vector<Selector> args;
  std::string cast_type;  // kCast
  std::string field;      // kField
  std::optional<Term> term;
  std::optional<Term> slice_end;  // kSlice's upper bound (term is its lower)
  std::string alias;              // AS alias (empty: none)
  // Superseded by kElement (the parser produces kElement; never set).
  std::optional<Term> element;
  // The selector as Cassandra names its result column when unaliased
  // ("writetime(v)", "system.count(*)" is shown as "count", ...), filled
  // by the parser from the source text (lower-cased where CQL folds it).
  std::string source_text;
};

enum class Operator : uint8_t {
  kEq,
  kNeq,
  kLt,
  kLe,
  kGt,
  kGe,
  kIn,
  kContains,
  kContainsKey,
  kLike,
  kIsNotNull,
};

// One restriction of a WHERE clause (or an IF condition of an update).
struct Relation {
  enum class Target : uint8_t {
    kColumn,   // c op value
    kTuple,    // (c1, c2) op (v1, v2) / IN ((..), (..)) / op ?
    kToken,    // token(k1, k2) op value
    kElement,  // c[key] op value (conditions, filtering on map elements)
  };
  Target target = Target::kColumn;
  std::vector<std::string> columns;  // one for kColumn/kElement; several otherwise
  Operator op = Operator::kEq;
  // The right-hand side for every operator but an IN with a literal list;
  // a whole-list bind marker (`IN ?`) is here too. kTuple: a kTuple term or
  // a bind marker.
  std::optional<Term> value;
  std::vector<Term> in_values;      // IN (a, b, c) / IN ((1, 2), (3, 4))
  std::optional<Term> element_key;  // kElement: the key or index
};

// USING TTL / TIMESTAMP of a write (a term: a constant or a bind marker).
struct UsingClause {
  std::optional<Term> ttl;
  std::optional<Term> timestamp;
};

struct SelectStatement {
  QualifiedName table;
  bool json = false;
  bool distinct = false;
  bool star = false;                // SELECT *
  std::vector<Selector> selectors;  // empty when star
  std::vector<Relation> where;
  // GROUP BY items: columns, or floor(column, duration[, start]) on the last one.
  std::vector<Selector> group_by;
  // ORDER BY column [ASC|DESC], ... (true: DESC).
  std::vector<std::pair<std::string, bool>> order_by;
  std::optional<Term> per_partition_limit;
  std::optional<Term> limit;
  bool allow_filtering = false;
};

struct InsertStatement {
  QualifiedName table;
  // VALUES form: columns and values, same length.
  std::vector<std::string> columns;
  std::vector<Term> values;
  // JSON form: INSERT INTO t JSON '<object>' [DEFAULT NULL | DEFAULT UNSET].
  bool json = false;
  std::optional<Term> json_value;
  bool json_default_unset = false;
  bool if_not_exists = false;
  UsingClause using_clause;
};

// One assignment of UPDATE ... SET.
struct Assignment {
  enum class Kind : uint8_t {
    kSet,         // c = value
    kSetElement,  // c[key] = value (map key, or list index)
    kAdd,         // c = c + value (collections: append/union; counters: increment)
    kSubtract,    // c = c - value (collections: remove; counters: decrement)
    kPrepend,     // c = value + c (lists)
    kSetField,    // c.field = value (user types)
  };
  Kind kind = Kind::kSet;
  std::string column;
  std::string field;  // kSetField
  Term value;
  std::optional<Term> key;  // kSetElement
};

struct UpdateStatement {
  QualifiedName table;
  UsingClause using_clause;
  std::vector<Assignment> assignments;
  std::vector<Relation> where;
  std::vector<Relation> conditions;  // IF c = v AND ...
  bool if_exists = false;
};

// One target of DELETE: a column, or one element of a collection (c[key]).
struct DeleteTarget {
  std::string column;
  std::optional<Term> element;
  std::string field;  // DELETE c.field (user types)
};

struct DeleteStatement {
  QualifiedName table;
  std::vector<DeleteTarget> targets;  // empty: the rows (or partition) WHERE selects
  UsingClause using_clause;           // TIMESTAMP only (TTL is a syntax error)
  std::vector<Relation> where;
  std::vector<Relation> conditions;
  bool if_exists = false;
};

struct BatchStatement {
  enum class Type : uint8_t { kLogged, kUnlogged, kCounter };
  Type type = Type::kLogged;
  UsingClause using_clause;  // TIMESTAMP only
  std::vector<std::variant<InsertStatement, UpdateStatement, DeleteStatement>> statements;
};

// A WITH property: `name = constant` or `name = {map}`.
struct Property {
  std::string name;  // lower-cased
  // Constants keep their text (strings unquoted; numbers and booleans as written).
  std::string value;
  bool is_map = false;
  // Map properties in the order written (keys are strings, values constants' text).
  std::vector<std::pair<std::string, std::string>> map;
};

struct ColumnDeclaration {
  std::string name;
  std::string type;  // CQL type text as written, e.g. "frozen<map<text, int>>"
  bool is_static = false;
};

struct CreateKeyspaceStatement {
  std::string keyspace;
  bool if_not_exists = false;
  std::vector<Property> properties;  // replication, durable_writes
};

struct CreateTableStatement {
  QualifiedName table;
  bool if_not_exists = false;
  std::vector<ColumnDeclaration> columns;
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering;
  // WITH CLUSTERING ORDER BY (c DESC, ...) (true: DESC).
  std::vector<std::pair<std::string, bool>> clustering_order;
  bool compact_storage = false;
  std::vector<Property> properties;
};

struct AlterTableStatement {
  enum class Kind : uint8_t { kAdd, kDrop, kWith, kRename, kAlterType };
  QualifiedName table;
  Kind kind = Kind::kWith;
  std::vector<ColumnDeclaration> add;  // ALTER TABLE t ADD c int / ADD (c int, d text)
  std::vector<std::string> drop;       // ALTER TABLE t DROP c / DROP (c, d)
  std::vector<std::pair<std::string, std::string>> rename;  // RENAME a TO b AND ...
  std::vector<Property> properties;                         // WITH ...
  std::optional<UsingClause> using_clause;                  // DROP ... USING TIMESTAMP t
};

// CREATE TYPE, ALTER TYPE, DROP TYPE.
struct UserTypeStatement {
  enum class Kind : uint8_t { kCreate, kAddField, kRenameFields, kAlterField, kDrop };
  Kind kind = Kind::kCreate;
  QualifiedName type;
  bool if_not_exists = false;  // CREATE TYPE IF NOT EXISTS
  bool if_exists = false;      // ALTER / DROP TYPE IF EXISTS
  // ALTER TYPE ... ADD IF NOT EXISTS / RENAME IF EXISTS
  bool if_field_not_exists = false;
  bool if_field_exists = false;
  std::vector<ColumnDeclaration> fields;  // kCreate: every field; kAddField: the new one
  std::vector<std::pair<std::string, std::string>> renames;  // kRenameFields
};

struct AlterKeyspaceStatement {
  std::string keyspace;
  std::vector<Property> properties;
};

struct DropKeyspaceStatement {
  std::string keyspace;
  bool if_exists = false;
};

struct DropTableStatement {
  QualifiedName table;
  bool if_exists = false;
};

struct TruncateStatement {
  QualifiedName table;
};

struct UseStatement {
  std::string keyspace;
};

// DESCRIBE (cqlsh's and Cassandra 4's server-side DESCRIBE).
struct DescribeStatement {
  enum class Kind : uint8_t { kKeyspaces, kKeyspace, kTables, kTable, kSchema, kTypes, kType };
  Kind kind = Kind::kKeyspaces;
  std::string keyspace;  // kKeyspace (empty: the current one)
  QualifiedName table;   // kTable; kType: the type's name
  // kTable from `DESCRIBE <name>` (no KEYSPACE/TABLE word): cqlsh describes
  // the keyspace of that name if there is one, else the table.
  bool keyspace_or_table = false;
};

using Statement =
    std::variant<SelectStatement, InsertStatement, UpdateStatement, DeleteStatement, BatchStatement,
                 CreateKeyspaceStatement, AlterKeyspaceStatement, DropKeyspaceStatement,
                 CreateTableStatement, AlterTableStatement, DropTableStatement, TruncateStatement,
                 UseStatement, DescribeStatement, UserTypeStatement>;

// A parsed statement with what binding needs: its markers in order.
struct ParsedStatement {
  Statement statement;
  int bind_marker_count = 0;
  // Per marker index, its :name (empty for ?).
  std::vector<std::string> bind_names;
  std::string text;  // the statement's source text (without the trailing ';')
};

}  // namespace cassette::cql
