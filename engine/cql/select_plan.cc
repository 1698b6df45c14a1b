#include "engine/cql/select_plan.h"

#include <algorithm>
#include <map>
#include <utility>

#include "engine/cql/aggregates.h"
#include "engine/cql/term_evaluator.h"
#include "engine/schema/select_star_order.h"

namespace cassette::cql {
namespace {

Result<const ColumnDefinition*> FindColumn(const TableSchema& schema, const std::string& name) {
  const ColumnDefinition* column = schema.Find(name);
  if (column == nullptr) {
    return Status::InvalidRequest("Undefined column name " + QuoteColumnName(name) + " in table " +
                                  schema.keyspace() + "." + schema.name());
  }
  return column;
}

size_t ClusteringPosition(const TableSchema& schema, const ColumnDefinition* column) {
  const std::vector<size_t>& clustering = schema.clustering();
  const size_t index = static_cast<size_t>(column - schema.columns().data());
  return static_cast<size_t>(std::find(clustering.begin(), clustering.end(), index) -
                             clustering.begin());
}

// The selectors of SELECT *: every column in Cassandra's order.
std::vector<Selector> StarSelectors(const TableSchema& schema) {
  std::vector<Selector> selectors;
  for (size_t index : SelectStarOrder(schema)) {
    Selector selector;
    selector.kind = Selector::Kind::kColumn;
    selector.column = schema.columns()[index].name;
    selectors.push_back(std::move(selector));
  }
  return selectors;
}

bool SelectsOnlyStatics(const TableSchema& schema, const SelectStatement& statement) {
  if (statement.star || !schema.has_statics()) return false;
  std::vector<const ColumnDefinition*> columns;
  for (const Selector& selector : statement.selectors) {
    ColumnsOfSelector(selector, schema, &columns);
  }
  bool any_static = false;
  for (const ColumnDefinition* column : columns) {
    if (column->kind == ColumnKind::kStatic) any_static = true;
    if (column->kind == ColumnKind::kClustering || column->kind == ColumnKind::kRegular) {
      return false;
    }
  }
  return any_static;
}

Status CheckDistinct(const SelectPlan& plan, const SelectStatement& statement,
                     const std::vector<Selector>& selectors) {
  const TableSchema& schema = plan.schema;
  if (statement.per_partition_limit) {
    return Status::InvalidRequest(
        "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
  }
  if (plan.restrictions.has_clustering_restrictions || plan.restrictions.has_regular_restrictions) {
    return Status::InvalidRequest(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
        "static columns.");
  }
  std::vector<const ColumnDefinition*> requested;
  for (const Selector& selector : selectors) ColumnsOfSelector(selector, schema, &requested);
  for (const ColumnDefinition* column : requested) {
    if (column->kind != ColumnKind::kPartitionKey && column->kind != ColumnKind::kStatic) {
      return Status::InvalidRequest(
          "SELECT DISTINCT queries must only request partition key columns and/or static columns "
          "(not " +
          column->name + ")");
    }
  }
  if (!plan.restrictions.IsKeyRange()) return Status::OK();
  for (size_t index : schema.partition_key()) {
    const ColumnDefinition* key = &schema.columns()[index];
    if (std::find(requested.begin(), requested.end(), key) == requested.end()) {
      return Status::InvalidRequest(
          "SELECT DISTINCT queries must request all the partition key columns (missing " +
          key->name + ")");
    }
  }
  return Status::OK();
}

Status PlanGroupBy(const SelectStatement& statement, SelectionContext* selection,
                   SelectPlan* plan) {
  const TableSchema& schema = plan->schema;
  std::vector<size_t> primary_key = schema.partition_key();
  primary_key.insert(primary_key.end(), schema.clustering().begin(), schema.clustering().end());
  size_t next = 0;
  size_t clustering_prefix = 0;
  bool function_seen = false;
  const char* kOrderMessage =
      "Group by currently only support groups of columns following their declared order in the "
      "PRIMARY KEY";
  for (const Selector& item : statement.group_by) {
    const ColumnDefinition* column = nullptr;
    if (item.kind == Selector::Kind::kFunction) {
      if (IsAggregateFunction(item.function)) {
        return Status::InvalidRequest(
            "Aggregate functions are not supported within the GROUP BY clause, got: system." +
            item.function);
      }
      std::vector<const ColumnDefinition*> columns;
      ColumnsOfSelector(item, schema, &columns);
      if (columns.empty()) {
        return Status::InvalidRequest(
            "GROUP BY functions must have one clustering column name as parameter");
      }
      if (columns.size() > 1) {
        std::string names;
        for (const ColumnDefinition* c : columns) names += (names.empty() ? "" : ",") + c->name;
        return Status::InvalidRequest(
            "GROUP BY functions accept only one clustering column as parameter, got: " + names);
      }
      column = columns[0];
      if (column->kind != ColumnKind::kClustering) {
        return Status::InvalidRequest(
            "Group by functions are only supported on clustering columns, got " + column->name);
      }
      CASSETTE_ASSIGN_OR_RETURN(plan->group_function, BuildSelector(item, selection));
      function_seen = true;
    } else if (item.kind == Selector::Kind::kColumn) {
      CASSETTE_ASSIGN_OR_RETURN(column, FindColumn(schema, item.column));
      if (column->kind != ColumnKind::kPartitionKey && column->kind != ColumnKind::kClustering) {
        return Status::InvalidRequest(
            "Group by is currently only supported on the columns of the PRIMARY KEY, got " +
            column->name);
      }
      if (function_seen) {
        return Status::InvalidRequest(
            "Functions are only supported on the last element of the GROUP BY clause");
      }
    } else {
      return Status::InvalidRequest(
          "Group by is currently only supported on the columns of the PRIMARY KEY, got " +
          ResultColumnName(item));
    }
    const size_t index = static_cast<size_t>(column - schema.columns().data());
    while (true) {
      if (next >= primary_key.size()) return Status::InvalidRequest(kOrderMessage);
      const size_t pk_column = primary_key[next++];
      if (schema.columns()[pk_column].kind == ColumnKind::kClustering) ++clustering_prefix;
      if (pk_column == index) break;
      if (plan->restrictions.eq_columns.count(pk_column) == 0) {
        return Status::InvalidRequest(kOrderMessage);
      }
    }
  }
  if (next < primary_key.size() &&
      schema.columns()[primary_key[next]].kind == ColumnKind::kPartitionKey) {
    return Status::InvalidRequest("Group by is not supported on only a part of the partition key");
  }
  if (clustering_prefix > 0 && statement.distinct) {
    return Status::InvalidRequest(
        "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
  }
  plan->group_by = true;
  plan->group_clustering_prefix = clustering_prefix;
  for (size_t i = 0; i < clustering_prefix; ++i) {
    plan->group_clustering_slots.push_back(
        plan->slots.Require(schema.columns()[schema.clustering()[i]].name));
  }
  return Status::OK();
}

Status PlanOrdering(const SelectStatement& statement, SelectPlan* plan) {
  if (statement.order_by.empty()) return Status::OK();
  const TableSchema& schema = plan->schema;
  std::vector<const ColumnDefinition*> columns;
  for (const auto& [name, descending] : statement.order_by) {
    CASSETTE_ASSIGN_OR_RETURN(const ColumnDefinition* column, FindColumn(schema, name));
    columns.push_back(column);
  }
  if (plan->restrictions.IsKeyRange()) {
    return Status::InvalidRequest(
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  }
  std::map<size_t, bool> reversed_by_position;
  size_t i = 0;
  for (size_t n = 0; n < columns.size(); ++n) {
    const ColumnDefinition* column = columns[n];
    if (column->kind != ColumnKind::kClustering) {
      return Status::InvalidRequest(
          "Order by is currently only supported on the clustered columns of the PRIMARY KEY, "
          "got " +
          column->name);
    }
    const size_t position = ClusteringPosition(schema, column);
    while (i != position) {
      if (i > position || plan->restrictions.eq_columns.count(schema.clustering()[i]) == 0) {
        return Status::InvalidRequest(
            "Order by currently only supports the ordering of columns following their declared "
            "order in the PRIMARY KEY");
      }
      ++i;
    }
    ++i;
    reversed_by_position[position] =
        statement.order_by[n].second != (column->order == ClusteringOrder::kDesc);
  }
  std::optional<bool> reversed;
  for (const auto& [position, r] : reversed_by_position) {
    if (reversed && *reversed != r) return Status::InvalidRequest("Unsupported order by relation");
    reversed = r;
  }
  plan->reversed = reversed.value_or(false);
  if (plan->restrictions.key_is_in) {
    plan->post_sort = true;
    for (const ColumnDefinition* column : columns) {
      plan->sort_columns.push_back(column);
      plan->sort_slots.push_back(plan->slots.Require(column->name));
    }
  }
  return Status::OK();
}

Result<int64_t> EvaluateLimit(const Term& term, const char* receiver, const char* null_name,
                              const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTerm(term, DataType::Int(), receiver, context));
  if (value.is_null()) {
    return Status::InvalidRequest(std::string("Invalid null value of ") + null_name);
  }
  if (value.bytes().size() != 4) return Status::InvalidRequest("Invalid limit value");
  const int64_t limit = value.AsInt64();
  if (limit <= 0) return Status::InvalidRequest("LIMIT must be strictly positive");
  return limit;
}

}  // namespace

Result<SelectPlan> PlanSelect(const SelectStatement& statement, TableSchema schema,
                              const ExecutionContext& context) {
  SelectPlan plan;
  plan.schema = std::move(schema);
  plan.json = statement.json;
  plan.distinct = statement.distinct;
  const TableSchema& table = plan.schema;
  const std::vector<Selector> selectors =
      statement.star ? StarSelectors(table) : statement.selectors;

  // Selected columns must exist before anything else is looked at.
  for (const Selector& selector : selectors) {
    std::vector<const ColumnDefinition*> unused;
    if (selector.kind == Selector::Kind::kColumn || selector.kind == Selector::Kind::kWritetime ||
        selector.kind == Selector::Kind::kTtl) {
      CASSETTE_RETURN_IF_ERROR(FindColumn(table, selector.column).status());
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(plan.restrictions,
                            AnalyzeRestrictions(table, statement.where, statement.allow_filtering,
                                                SelectsOnlyStatics(table, statement), context));

  // Partition key columns first: every row carries them (partition
  // identity for PER PARTITION LIMIT and GROUP BY).
  for (size_t index : table.partition_key()) {
    plan.partition_key_slots.push_back(plan.slots.Require(table.columns()[index].name));
  }
  SelectionContext selection{&table, &plan.slots, &context, false};
  bool any_aggregate = false;
  for (const Selector& selector : selectors) {
    CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr node, BuildSelector(selector, &selection));
    any_aggregate = any_aggregate || node->IsAggregate();
    plan.columns.push_back(ColumnSpec{ResultColumnName(selector, *node), node->type()});
    plan.selectors.push_back(std::move(node));
  }
  for (const RowFilter& filter : plan.restrictions.filters) {
    std::vector<size_t> slots;
    for (size_t column : filter.columns) {
      slots.push_back(plan.slots.Require(table.columns()[column].name));
    }
    plan.filter_slots.push_back(std::move(slots));
  }

  if (statement.distinct) CASSETTE_RETURN_IF_ERROR(CheckDistinct(plan, statement, selectors));
  if (!statement.group_by.empty()) {
    CASSETTE_RETURN_IF_ERROR(PlanGroupBy(statement, &selection, &plan));
  } else if (any_aggregate) {
    plan.aggregate_everything = true;
    if (statement.per_partition_limit) {
      return Status::InvalidRequest("PER PARTITION LIMIT is not allowed with aggregate queries.");
    }
  }
  plan.needs_cell_metadata = selection.needs_cell_metadata;
  CASSETTE_RETURN_IF_ERROR(PlanOrdering(statement, &plan));

  const SelectRestrictions& r = plan.restrictions;
  if (!statement.allow_filtering && r.IsKeyRange() && r.has_clustering_restrictions) {
    return Status::InvalidRequest(kFilteringMessage);
  }
  if (statement.limit) {
    CASSETTE_ASSIGN_OR_RETURN(plan.limit,
                              EvaluateLimit(*statement.limit, "[limit]", "limit", context));
  }
  if (statement.per_partition_limit) {
    CASSETTE_ASSIGN_OR_RETURN(plan.per_partition_limit,
                              EvaluateLimit(*statement.per_partition_limit, "[per_partition_limit]",
                                            "per partition limit", context));
  }
  return plan;
}

}  // namespace cassette::cql
