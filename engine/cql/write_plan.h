// A write statement (INSERT, UPDATE or DELETE) checked against its table
// and with every term evaluated: which partitions and rows it touches, what
// it does to each column, its IF conditions and its USING attributes. Plans
// are built without touching data; the operations that need the current
// value (counters, list index and list removal) are resolved when the plan
// becomes mutations, under the serial lock. Plain values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/schema.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

enum class WriteKind : uint8_t { kInsert, kUpdate, kDelete };

// "INSERT", "UPDATE", "DELETE": as Cassandra names the statement type in errors.
const char* WriteKindName(WriteKind kind);

// What the WHERE clause (or INSERT's key values) selects.
struct WriteTargets {
  // Every partition key, the cartesian product of the EQ/IN values.
  std::vector<std::vector<Value>> partition_keys;
  bool partition_key_in = false;
  // The EQ/IN restrictions on the leading clustering columns, expanded:
  // each entry holds `prefix_size` values. With no clustering restriction
  // it holds one empty prefix.
  std::vector<std::vector<Value>> clustering_prefixes = {{}};
  size_t prefix_size = 0;
  bool clustering_in = false;
  // DELETE only: a slice on the columns after the prefix (values start at
  // column prefix_size; an absent end is unbounded).
  bool has_slice = false;
  std::optional<std::vector<Value>> slice_start;
  bool slice_start_inclusive = true;
  std::optional<std::vector<Value>> slice_end;
  bool slice_end_inclusive = true;

  bool HasClusteringRestrictions() const { return prefix_size > 0 || has_slice; }
};

// One effect on one column of the rows a write targets.
struct ColumnWrite {
  enum class Kind : uint8_t {
    kSet,                // value (null: tombstone)
    kDelete,             // DELETE c / whole-collection removal
    kReplaceCollection,  // c = [..] / {..} on a non-frozen collection (elements)
    kAdd,                // append / union / map entries (elements, maps as k, v pairs)
    kPrepend,            // [..] + list
    kRemove,             // set elements or map keys (elements)
    kMapPut,             // m[key] = value (null value removes the key)
    kListSetIndex,       // l[index] = value: needs the current list
    kListDeleteIndex,    // DELETE l[index]: needs the current list
    kListRemoveValues,   // l = l - [..]: needs the current list
    kCounterAdd,         // c = c + delta: needs the current value
  };
  std::string column;
  DataType type;
  bool is_static = false;
  Kind kind = Kind::kSet;
  Value value;
  Value key;
  int32_t index = 0;
  std::vector<Value> elements;
  int64_t delta = 0;

  bool NeedsRead() const {
    return kind == Kind::kListSetIndex || kind == Kind::kListDeleteIndex ||
           kind == Kind::kListRemoveValues || kind == Kind::kCounterAdd;
  }
};

// One evaluated IF condition: `column op values` or `column[element] op values`.
struct ColumnCondition {
  std::string column;
  DataType type;
  bool is_static = false;
  Operator op = Operator::kEq;
  std::optional<Value> element;  // map key or list index of c[element]
  // The right-hand side: one value, or the IN list (null allowed).
  std::vector<Value> values;
};

enum class ConditionKind : uint8_t { kNone, kIfNotExists, kIfExists, kColumns };

struct WritePlan {
  WriteKind kind = WriteKind::kUpdate;
  // Shared with the prepared statement's cache (never null once planned).
  std::shared_ptr<const TableSchema> table;
  const TableSchema& schema() const { return *table; }
  WriteTargets targets;
  // The writes apply to the static row only (no clustering given).
  bool static_only = false;
  // INSERT: the row gets primary-key liveness.
  bool insert_marker = false;
  std::vector<ColumnWrite> writes;
  std::optional<int64_t> timestamp;
  std::optional<int32_t> ttl;
  bool is_counter = false;  // a counter table
  ConditionKind condition_kind = ConditionKind::kNone;
  std::vector<ColumnCondition> conditions;

  bool NeedsRead() const {
    for (const ColumnWrite& write : writes) {
      if (write.NeedsRead()) return true;
    }
    return false;
  }
};

}  // namespace cassette::cql
