// The SELECT clause: result column names as Cassandra gives them, and one
// SelectorNode per selector (columns, WRITETIME/TTL, token(), scalar
// functions, CAST, constants, element selection m['k'], aggregates) over
// the columns the query reads from the engine.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/selector_node.h"

namespace cassette::cql {

// The columns read from the engine (ReadQuery::columns), each at a slot of
// the rows handed to SelectorNode::AddInput.
class ColumnSlots {
 public:
  // The slot of `name`, added when new.
  size_t Require(const std::string& name);
  std::optional<size_t> Find(const std::string& name) const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

struct SelectionContext {
  const TableSchema* schema = nullptr;
  ColumnSlots* slots = nullptr;
  const ExecutionContext* context = nullptr;
  // Set when a selector needs WRITETIME or TTL from the engine.
  bool needs_cell_metadata = false;
};

Result<SelectorNodePtr> BuildSelector(const Selector& selector, SelectionContext* selection);

// A selector giving `value` on every row.
SelectorNodePtr BuildConstantSelector(Value value);

// Cassandra's name for the selector's result column: its alias, else e.g.
// "v", "writetime(v)", "ttl(v)", "count" for COUNT(*), or the function call
// as written.
std::string ResultColumnName(const Selector& selector);

// The same, for a selector built into `node`: a CAST that changes nothing
// keeps its argument's name ("p", not "cast(p as int)").
std::string ResultColumnName(const Selector& selector, const SelectorNode& node);

// The table columns a selector reads (in the order met; repeats possible).
// Undefined names are skipped (BuildSelector reports them).
void ColumnsOfSelector(const Selector& selector, const TableSchema& schema,
                       std::vector<const ColumnDefinition*>* columns);

// Whether the selector (or an argument of it) is an aggregate.
bool SelectorAggregates(const Selector& selector);

}  // namespace cassette::cql
