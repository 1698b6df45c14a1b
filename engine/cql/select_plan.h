// SelectPlan: a SELECT checked against its table and turned into what its
// execution needs, in the order Cassandra checks (SelectStatement.prepare):
// the selection, the restrictions, DISTINCT, GROUP BY and aggregates,
// ORDER BY, filtering, LIMIT and PER PARTITION LIMIT. Errors carry
// Cassandra's messages (docs/CQL.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cassette/query.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/select_restrictions.h"
#include "engine/cql/selection.h"

namespace cassette::cql {

struct SelectPlan {
  TableSchema schema;
  SelectRestrictions restrictions;

  ColumnSlots slots;  // the columns read from the engine
  std::vector<SelectorNodePtr> selectors;
  std::vector<ColumnSpec> columns;  // result columns (before JSON)
  bool needs_cell_metadata = false;
  bool json = false;
  bool distinct = false;

  // Slots of the partition key columns (every row carries them).
  std::vector<size_t> partition_key_slots;
  // Per filter of `restrictions.filters`, the slots of its columns.
  std::vector<std::vector<size_t>> filter_slots;

  // Aggregation: every row one group (neither), all rows one group
  // (aggregate without GROUP BY), or groups by partition and a clustering prefix.
  bool aggregate_everything = false;
  bool group_by = false;
  size_t group_clustering_prefix = 0;  // clustering columns in the group key
  std::vector<size_t> group_clustering_slots;
  SelectorNodePtr group_function;  // floor(c, 1h) on the last group column

  bool reversed = false;
  // IN on the partition key with ORDER BY: rows are sorted across partitions.
  bool post_sort = false;
  std::vector<size_t> sort_slots;
  std::vector<const ColumnDefinition*> sort_columns;

  int64_t limit = 0;                // 0: none
  int64_t per_partition_limit = 0;  // 0: none

  bool Grouping() const { return aggregate_everything || group_by; }
};

Result<SelectPlan> PlanSelect(const SelectStatement& statement, TableSchema schema,
                              const ExecutionContext& context);

}  // namespace cassette::cql
