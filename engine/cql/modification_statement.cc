// INSERT, UPDATE, DELETE and BATCH: each statement becomes a WritePlan
// (validated, terms evaluated), then mutations applied in one atomic
// Database::ApplyBatch. Conditional statements, counters and list
// operations that need the current value run under the serial mutex.
#include "engine/cql/modification_statement.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "engine/cql/batch_inserts.h"
#include "engine/cql/batch_size.h"
#include "engine/cql/conditions.h"
#include "engine/cql/json_insert.h"
#include "engine/cql/mutation_builder.h"
#include "engine/cql/plan_cache.h"
#include "engine/cql/term_evaluator.h"
#include "engine/cql/write_operations.h"
#include "engine/cql/write_restrictions.h"
#include "engine/schema/ttl_limit.h"

namespace cassette::cql {

namespace {

// The statement's table, from the prepared statement's cache while the
// schema has not changed.
Result<std::shared_ptr<const CachedPlan>> LookupTable(const QualifiedName& name,
                                                      const ExecutionContext& context) {
  return ResolveCachedTable(name, context);
}

// The statement's context with its table: token() in a term takes that
// table's partition key types (ExecutionContext::table).
ExecutionContext WithTable(const ExecutionContext& context, const CachedPlan& cached) {
  ExecutionContext out = context;
  out.table = cached.schema.get();
  return out;
}

bool IsCounterTable(const TableSchema& schema) {
  return std::any_of(schema.columns().begin(), schema.columns().end(),
                     [](const ColumnDefinition& c) { return c.type.kind() == TypeKind::kCounter; });
}

// USING TIMESTAMP / TTL, checked as Cassandra's Attributes checks them.
Status EvaluateUsing(const UsingClause& using_clause, const ExecutionContext& context,
                     std::optional<int64_t>* timestamp, std::optional<int32_t>* ttl_seconds) {
  if (using_clause.timestamp) {
    CASSETTE_ASSIGN_OR_RETURN(Value ts, EvaluateTerm(*using_clause.timestamp, DataType::Bigint(),
                                                     "[timestamp]", context));
    if (ts.is_null()) return Status::InvalidRequest("Invalid null value of timestamp");
    if (ts.AsInt64() == INT64_MIN) {
      return Status::InvalidRequest(
          "Out of bound timestamp, must be in [-9223372036854775807, 9223372036854775807]");
    }
    *timestamp = ts.AsInt64();
  }
  if (using_clause.ttl) {
    CASSETTE_ASSIGN_OR_RETURN(Value ttl,
                              EvaluateTerm(*using_clause.ttl, DataType::Int(), "[ttl]", context));
    // A null TTL means no expiry (it does not fall back to the table default).
    const int64_t seconds = ttl.is_null() ? 0 : ttl.AsInt64();
    CASSETTE_RETURN_IF_ERROR(CheckTtl(seconds));
    *ttl_seconds = static_cast<int32_t>(seconds);
  }
  return Status::OK();
}

Status EvaluateUsing(const UsingClause& using_clause, const ExecutionContext& context,
                     WritePlan* plan) {
  return EvaluateUsing(using_clause, context, &plan->timestamp, &plan->ttl);
}

// The checks every modification shares (Cassandra's ModificationStatement
// constructor and validate()), once the plan is complete.
Status ValidatePlan(const WritePlan& plan) {
  if (plan.is_counter && plan.timestamp) {
    return Status::InvalidRequest("Cannot provide custom timestamp for counter updates");
  }
  if (plan.is_counter && plan.ttl) {
    return Status::InvalidRequest("Cannot provide custom TTL for counter updates");
  }
  if (plan.condition_kind == ConditionKind::kNone) return Status::OK();
  const char* what = plan.kind == WriteKind::kDelete ? "deletions" : "updates";
  if (plan.targets.partition_key_in) {
    return Status::InvalidRequest(
        std::string("IN on the partition key is not supported with conditional ") + what);
  }
  if (plan.targets.clustering_in) {
    return Status::InvalidRequest(
        std::string("IN on the clustering key columns is not supported with conditional ") + what);
  }
  return Status::OK();
}

// Checks that only depend on the statement's shape, before its WHERE.
Status ValidateConditionShape(const WritePlan& plan, bool timestamp_given) {
  if (plan.condition_kind == ConditionKind::kNone) return Status::OK();
  if (plan.is_counter) {
    return Status::InvalidRequest("Conditional updates are not supported on counter tables");
  }
  if (timestamp_given) {
    return Status::InvalidRequest("Cannot provide custom timestamp for conditional updates");
  }
  return Status::OK();
}

bool AnyRegular(const std::vector<ColumnWrite>& writes) {
  return std::any_of(writes.begin(), writes.end(),
                     [](const ColumnWrite& w) { return !w.is_static; });
}
bool AnyStatic(const std::vector<ColumnWrite>& writes) {
  return std::any_of(writes.begin(), writes.end(),
                     [](const ColumnWrite& w) { return w.is_static; });
}
bool AnyRegular(const std::vector<ColumnCondition>& conditions) {
  return std::any_of(conditions.begin(), conditions.end(),
                     [](const ColumnCondition& c) { return !c.is_static; });
}
bool AnyStatic(const std::vector<ColumnCondition>& conditions) {
  return std::any_of(conditions.begin(), conditions.end(),
                     [](const ColumnCondition& c) { return c.is_static; });
}

// Cassandra's Operations.appliesToRegularColumns: a DELETE naming no column
// deletes the whole row, regular columns included.
bool WritesRegular(const WritePlan& plan) {
  return AnyRegular(plan.writes) || (plan.kind == WriteKind::kDelete && plan.writes.empty());
}

// Cassandra's appliesOnlyToStaticColumns: no regular column is written or
// conditioned, and some static one is.
bool AppliesOnlyToStatics(const WritePlan& plan) {
  return !WritesRegular(plan) && !AnyRegular(plan.conditions) &&
         (AnyStatic(plan.writes) || AnyStatic(plan.conditions));
}

Status PrepareConditionsOf(const std::vector<Relation>& conditions, bool if_exists,
                           const ExecutionContext& context, WritePlan* plan) {
  if (if_exists) {
    plan->condition_kind = ConditionKind::kIfExists;
  } else if (!conditions.empty()) {
    plan->condition_kind = ConditionKind::kColumns;
    CASSETTE_ASSIGN_OR_RETURN(plan->conditions,
                              PrepareConditions(plan->schema(), conditions, context));
  }
  return Status::OK();
}

// A prepared INSERT ... VALUES whose layout is cached, evaluated with the
// checks of the general path below, in its order and with its messages
// (the schema-only ones passed when the layout was built), without
// re-resolving the columns or building WHERE restrictions.
struct EvaluatedInsert {
  std::vector<Value> values;  // the non-key columns', in the statement's order
  std::vector<Value> partition_key;
  std::vector<Value> clustering;  // empty for a static-only insert
  std::optional<int64_t> timestamp;
  std::optional<int32_t> ttl;
};

Status EvaluateInsert(const InsertStatement& statement, const InsertLayout& layout,
                      const TableSchema& schema, const ExecutionContext& context,
                      EvaluatedInsert* out) {
  out->values.reserve(layout.columns.size());
  for (size_t i = 0; i < layout.columns.size(); ++i) {
    const InsertLayout::Column& entry = layout.columns[i];
    if (entry.role != InsertLayout::Role::kValue) continue;
    const ColumnDefinition& column = *entry.definition;
    CASSETTE_ASSIGN_OR_RETURN(Value value,
                              EvaluateTerm(statement.values[i], column.type, column.name, context));
    out->values.push_back(std::move(value));
  }
  // ValidateConditionShape: the layout exists for non-counter tables only.
  if (statement.if_not_exists && statement.using_clause.timestamp) {
    return Status::InvalidRequest("Cannot provide custom timestamp for conditional updates");
  }
  // The key columns, evaluated in the statement's order (as the WHERE
  // equalities they stand for), then checked for nulls in key order.
  out->partition_key.resize(schema.partition_key().size());
  out->clustering.resize(layout.clustering_given);
  for (size_t i = 0; i < layout.columns.size(); ++i) {
    const InsertLayout::Column& entry = layout.columns[i];
    if (entry.role == InsertLayout::Role::kValue) continue;
    const ColumnDefinition& column = *entry.definition;
    CASSETTE_ASSIGN_OR_RETURN(Value value,
                              EvaluateTerm(statement.values[i], column.type, column.name, context));
    const bool partition = entry.role == InsertLayout::Role::kPartitionKey;
    (partition ? out->partition_key : out->clustering)[entry.key_index] = std::move(value);
  }
  for (size_t k = 0; k < out->partition_key.size(); ++k) {
    if (out->partition_key[k].is_null()) {
      return Status::InvalidRequest("Invalid null value for partition key part " +
                                    schema.columns()[schema.partition_key()[k]].name);
    }
  }
  for (size_t k = 0; k < out->clustering.size(); ++k) {
    if (out->clustering[k].is_null()) {
      return Status::InvalidRequest("Invalid null value for clustering key part " +
                                    schema.columns()[schema.clustering()[k]].name);
    }
  }
  // ValidatePlan has nothing left to refuse: no counter, no IN.
  return EvaluateUsing(statement.using_clause, context, &out->timestamp, &out->ttl);
}

// IF NOT EXISTS: the plan the conditional path needs.
Result<WritePlan> PrepareInsertWithLayout(const InsertStatement& statement,
                                          const InsertLayout& layout,
                                          const ExecutionContext& context, WritePlan plan) {
  EvaluatedInsert evaluated;
  CASSETTE_RETURN_IF_ERROR(EvaluateInsert(statement, layout, plan.schema(), context, &evaluated));
  if (statement.if_not_exists) plan.condition_kind = ConditionKind::kIfNotExists;
  size_t next_value = 0;
  for (const InsertLayout::Column& entry : layout.columns) {
    if (entry.role != InsertLayout::Role::kValue) continue;
    plan.writes.push_back(
        SetColumnValue(*entry.definition, std::move(evaluated.values[next_value++])));
  }
  plan.static_only = layout.static_only;
  plan.targets.partition_keys.push_back(std::move(evaluated.partition_key));
  plan.targets.prefix_size = evaluated.clustering.size();
  plan.targets.clustering_prefixes[0] = std::move(evaluated.clustering);
  plan.timestamp = evaluated.timestamp;
  plan.ttl = evaluated.ttl;
  return plan;
}

// An unconditional one: straight to its mutation (what MutationBuilder
// makes of the plan above: the row with its liveness, or the static row;
// non-frozen collections replaced, a null one deleted).
Result<CqlResult> ExecuteInsertWithLayout(const InsertStatement& statement,
                                          const InsertLayout& layout, const TableSchema& schema,
                                          const ExecutionContext& context) {
  EvaluatedInsert evaluated;
  CASSETTE_RETURN_IF_ERROR(EvaluateInsert(statement, layout, schema, context, &evaluated));
  std::vector<Mutation> batch;
  batch.emplace_back(schema.keyspace(), schema.name(), std::move(evaluated.partition_key));
  Mutation& m = batch.back();
  if (evaluated.timestamp) m.UsingTimestamp(*evaluated.timestamp);
  if (evaluated.ttl) m.UsingTtl(*evaluated.ttl);
  RowBuilder row = layout.static_only ? m.Update({}) : m.Insert(std::move(evaluated.clustering));
  size_t next_value = 0;
  for (const InsertLayout::Column& entry : layout.columns) {
    if (entry.role != InsertLayout::Role::kValue) continue;
    const ColumnDefinition& column = *entry.definition;
    Value& value = evaluated.values[next_value++];
    if (!column.type.IsMultiCell()) {
      row.Set(column.name, std::move(value));
    } else if (value.is_null()) {
      row.SetNull(column.name);
    } else {
      row.ReplaceCollection(column.name, value.Elements());
    }
  }
  // ApplyBatch of the one mutation: Apply would copy it.
  CASSETTE_RETURN_IF_ERROR(context.db->ApplyBatch(batch));
  return CqlResult{};
}

// The cached layout of a prepared INSERT ... VALUES (built on first use
// after each schema change); null when there is no cache or the statement
// does not qualify (the general path then runs, and reports any error).
std::shared_ptr<const InsertLayout> CachedInsertLayout(const InsertStatement& statement,
                                                       const CachedPlan& cached,
                                                       const ExecutionContext& context) {
  if (context.plan_cache == nullptr || statement.json) return nullptr;
  if (cached.insert != nullptr) return cached.insert;
  std::shared_ptr<const InsertLayout> layout = BuildInsertLayout(statement, *cached.schema);
  if (layout != nullptr) {
    auto with_layout = std::make_shared<CachedPlan>(cached);
    with_layout->insert = layout;
    context.plan_cache->Put(std::move(with_layout));
  }
  return layout;
}

Result<WritePlan> PrepareInsert(const InsertStatement& statement, const CachedPlan& cached,
                                const ExecutionContext& context) {
  WritePlan plan;
  plan.kind = WriteKind::kInsert;
  plan.insert_marker = true;
  plan.table = cached.schema;
  std::shared_ptr<const InsertLayout> layout = CachedInsertLayout(statement, cached, context);
  if (layout != nullptr) {
    return PrepareInsertWithLayout(statement, *layout, context, std::move(plan));
  }
  const TableSchema& schema = plan.schema();
  plan.is_counter = IsCounterTable(schema);
  if (plan.is_counter) {
    return Status::InvalidRequest(
        "INSERT statements are not allowed on counter tables, use UPDATE instead");
  }
  if (statement.if_not_exists) plan.condition_kind = ConditionKind::kIfNotExists;

  // Key columns become equalities of a WHERE clause; JSON values are bound
  // as markers of a context of their own.
  std::vector<Relation> where;
  std::vector<Value> json_values;
  ExecutionContext json_context = context;
  bool clustering_given = false;
  auto add_key = [&](const ColumnDefinition& column, Term term) {
    Relation relation;
    relation.columns = {column.name};
    relation.op = Operator::kEq;
    relation.value = std::move(term);
    where.push_back(std::move(relation));
    if (column.kind == ColumnKind::kClustering) clustering_given = true;
  };
  if (statement.json) {
    if (!statement.json_value) return Status::InvalidRequest("Got null for INSERT JSON values");
    CASSETTE_ASSIGN_OR_RETURN(
        Value json, EvaluateTerm(*statement.json_value, DataType::Text(), "[json]", context));
    if (json.is_null()) return Status::InvalidRequest("Got null for INSERT JSON values");
    using ColumnValues = std::map<std::string, Value>;
    CASSETTE_ASSIGN_OR_RETURN(ColumnValues values, ParseInsertJson(json.AsString(), schema));
    for (const ColumnDefinition& column : schema.columns()) {
      auto it = values.find(column.name);
      const bool is_key =
          column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
      if (is_key) {
        Term marker;
        marker.kind = Term::Kind::kBindMarker;
        marker.bind_index = static_cast<int>(json_values.size());
        json_values.push_back(it == values.end() ? Value::Null(column.type) : it->second);
        add_key(column, std::move(marker));
        continue;
      }
      if (it == values.end()) {
        if (statement.json_default_unset) continue;
        plan.writes.push_back(SetColumnValue(column, Value::Null(column.type)));
        continue;
      }
      plan.writes.push_back(SetColumnValue(column, it->second));
    }
    json_context.values = &json_values;
  } else {
    if (statement.columns.empty()) return Status::InvalidRequest("No columns provided to INSERT");
    if (statement.columns.size() != statement.values.size()) {
      return Status::InvalidRequest("Unmatched column names/values");
    }
    for (size_t i = 0; i < statement.columns.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (statement.columns[i] == statement.columns[j]) {
          return Status::InvalidRequest("The column names contains duplicates");
        }
      }
    }
    for (size_t i = 0; i < statement.columns.size(); ++i) {
      const ColumnDefinition* column = schema.Find(statement.columns[i]);
      if (column == nullptr) {
        return Status::InvalidRequest("Undefined column name " + statement.columns[i] +
                                      " in table " + schema.keyspace() + "." + schema.name());
      }
      if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
        add_key(*column, statement.values[i]);
        continue;
      }
      CASSETTE_ASSIGN_OR_RETURN(
          Value value, EvaluateTerm(statement.values[i], column->type, column->name, context));
      plan.writes.push_back(SetColumnValue(*column, std::move(value)));
    }
  }
  plan.static_only = !clustering_given && AppliesOnlyToStatics(plan);
  CASSETTE_RETURN_IF_ERROR(
      ValidateConditionShape(plan, statement.using_clause.timestamp.has_value()));
  CASSETTE_ASSIGN_OR_RETURN(
      plan.targets,
      ResolveWriteTargets(schema, WriteKind::kInsert, plan.static_only, where, json_context));
  CASSETTE_RETURN_IF_ERROR(EvaluateUsing(statement.using_clause, context, &plan));
  CASSETTE_RETURN_IF_ERROR(ValidatePlan(plan));
  return plan;
}

Result<WritePlan> PrepareInsert(const InsertStatement& statement, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<const CachedPlan> cached,
                            LookupTable(statement.table, context));
  return PrepareInsert(statement, *cached, WithTable(context, *cached));
}

Result<WritePlan> PrepareUpdate(const UpdateStatement& statement,
                                const ExecutionContext& statement_context) {
  WritePlan plan;
  plan.kind = WriteKind::kUpdate;
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<const CachedPlan> cached,
                            LookupTable(statement.table, statement_context));
  const ExecutionContext context = WithTable(statement_context, *cached);
  plan.table = cached->schema;
  plan.is_counter = IsCounterTable(plan.schema());
  CASSETTE_RETURN_IF_ERROR(
      PrepareConditionsOf(statement.conditions, statement.if_exists, context, &plan));
  CASSETTE_RETURN_IF_ERROR(
      ValidateConditionShape(plan, statement.using_clause.timestamp.has_value()));
  CASSETTE_ASSIGN_OR_RETURN(plan.writes,
                            PrepareAssignments(plan.schema(), statement.assignments, context));
  plan.static_only = AppliesOnlyToStatics(plan);
  CASSETTE_ASSIGN_OR_RETURN(plan.targets,
                            ResolveWriteTargets(plan.schema(), WriteKind::kUpdate, plan.static_only,
                                                statement.where, context));
  CASSETTE_RETURN_IF_ERROR(EvaluateUsing(statement.using_clause, context, &plan));
  CASSETTE_RETURN_IF_ERROR(ValidatePlan(plan));
  return plan;
}

Result<WritePlan> PrepareDelete(const DeleteStatement& statement,
                                const ExecutionContext& statement_context) {
  WritePlan plan;
  plan.kind = WriteKind::kDelete;
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<const CachedPlan> cached,
                            LookupTable(statement.table, statement_context));
  const ExecutionContext context = WithTable(statement_context, *cached);
  plan.table = cached->schema;
  const TableSchema& schema = plan.schema();
  plan.is_counter = IsCounterTable(schema);
  CASSETTE_RETURN_IF_ERROR(
      PrepareConditionsOf(statement.conditions, statement.if_exists, context, &plan));
  CASSETTE_RETURN_IF_ERROR(
      ValidateConditionShape(plan, statement.using_clause.timestamp.has_value()));
  CASSETTE_ASSIGN_OR_RETURN(plan.writes, PrepareDeletions(schema, statement.targets, context));
  plan.static_only = AppliesOnlyToStatics(plan);
  CASSETTE_ASSIGN_OR_RETURN(
      plan.targets,
      ResolveWriteTargets(schema, WriteKind::kDelete, plan.static_only, statement.where, context));
  const bool full_row =
      !plan.targets.has_slice && plan.targets.prefix_size == schema.clustering().size();
  if (!full_row) {
    // Cassandra words these two for conditional deletes only; an
    // unconditional one is refused as a range deletion below.
    const bool conditional = plan.condition_kind != ConditionKind::kNone;
    if (conditional && WritesRegular(plan)) {
      return Status::InvalidRequest(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to delete non static columns");
    }
    if (conditional && AnyRegular(plan.conditions)) {
      return Status::InvalidRequest(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to use IF condition on non static columns");
    }
    if (!plan.writes.empty() && !plan.static_only) {
      return Status::InvalidRequest("Range deletions are not supported for specific columns");
    }
  }
  CASSETTE_RETURN_IF_ERROR(EvaluateUsing(statement.using_clause, context, &plan));
  CASSETTE_RETURN_IF_ERROR(ValidatePlan(plan));
  return plan;
}

Status ApplyMutations(Database* db, const std::vector<Mutation>& mutations) {
  if (mutations.empty()) return Status::OK();
  // One mutation too: Apply(m) is ApplyBatch of {m}, and taking the vector
  // we already hold spares copying the mutation into a new one.
  return db->ApplyBatch(mutations);
}

// The row a conditional plan tests (its only partition and row).
Result<CurrentRow> ReadConditionRow(Database* db, const WritePlan& plan) {
  const std::vector<Value> none;
  const std::vector<Value>& key =
      plan.targets.partition_keys.empty() ? none : plan.targets.partition_keys[0];
  const std::vector<Value>& clustering =
      plan.targets.clustering_prefixes.empty() ? none : plan.targets.clustering_prefixes[0];
  return ReadCurrentRow(db, plan.schema(), key, clustering, plan.static_only);
}

// In a batch, conditions on static columns only read the partition's first
// row with its statics: Cassandra 4.1+ reports that row beside
// [applied]=false (InsertUpdateIfConditionTest.testStaticColumnsCas).
Result<CurrentRow> ReadBatchConditionRow(Database* db, const WritePlan& plan) {
  if (!plan.static_only || plan.condition_kind != ConditionKind::kColumns ||
      plan.targets.partition_keys.empty()) {
    return ReadConditionRow(db, plan);
  }
  return ReadCurrentRow(db, plan.schema(), plan.targets.partition_keys[0], {},
                        /*static_only=*/false);
}

Result<CqlResult> ExecutePlan(WritePlan plan, const ExecutionContext& context) {
  const bool conditional = plan.condition_kind != ConditionKind::kNone;
  std::unique_lock<std::mutex> lock;
  if ((conditional || plan.NeedsRead()) && context.serial_mutex != nullptr) {
    lock = std::unique_lock<std::mutex>(*context.serial_mutex);
  }
  CurrentRow row;
  if (conditional) {
    CASSETTE_ASSIGN_OR_RETURN(row, ReadConditionRow(context.db, plan));
    CASSETTE_ASSIGN_OR_RETURN(bool holds, ConditionHolds(plan, row));
    if (!holds) return AppliedResult(false, plan, row);
  }
  MutationBuilder builder(context.db);
  std::vector<Mutation> mutations;
  if (conditional) {
    CASSETTE_RETURN_IF_ERROR(builder.Build(plan, &mutations));
  } else {
    CASSETTE_RETURN_IF_ERROR(builder.Build(std::move(plan), &mutations));  // not used after
  }
  CASSETTE_RETURN_IF_ERROR(ApplyMutations(context.db, mutations));
  if (conditional) return AppliedResult(true, plan, row);
  return CqlResult{};
}

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

Result<WritePlan> PrepareBatchStatement(
    const std::variant<InsertStatement, UpdateStatement, DeleteStatement>& statement,
    const ExecutionContext& context) {
  return std::visit(Overloaded{
                        [&](const InsertStatement& s) { return PrepareInsert(s, context); },
                        [&](const UpdateStatement& s) { return PrepareUpdate(s, context); },
                        [&](const DeleteStatement& s) { return PrepareDelete(s, context); },
                    },
                    statement);
}

// Cassandra's BatchStatement.validate, in its order.
// Each row a conditional batch names carries one kind of condition: IF
// EXISTS, IF NOT EXISTS or column conditions, static conditions naming the
// static row (Cassandra's CQL3CasRequest.addExistsCondition and
// addConditions, with their messages; InsertUpdateIfConditionTest
// testMultiExistConditionOnSameRowClustering / ...NoClustering).
Status CheckBatchConditionKinds(const std::vector<WritePlan>& plans) {
  struct RowConditions {
    bool is_static = false;
    std::vector<Value> clustering;
    ConditionKind kind = ConditionKind::kNone;
  };
  std::vector<RowConditions> rows;
  auto add = [&rows](bool is_static, const std::vector<Value>& clustering,
                     ConditionKind kind) -> Status {
    for (const RowConditions& row : rows) {
      if (row.is_static != is_static || (!is_static && row.clustering != clustering)) continue;
      if (row.kind == kind) return Status::OK();
      if (kind == ConditionKind::kColumns) {
        return Status::InvalidRequest(
            "Cannot mix IF conditions and IF NOT EXISTS for the same row");
      }
      if (row.kind != ConditionKind::kColumns) {
        return Status::InvalidRequest(
            "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
      }
      return Status::InvalidRequest(std::string("Cannot mix IF conditions and IF ") +
                                    (kind == ConditionKind::kIfNotExists ? "NOT " : "") +
                                    "EXISTS for the same row");
    }
    rows.push_back({is_static, clustering, kind});
    return Status::OK();
  };
  const std::vector<Value> none;
  for (const WritePlan& plan : plans) {
    const std::vector<Value>& clustering =
        plan.targets.clustering_prefixes.empty() ? none : plan.targets.clustering_prefixes[0];
    switch (plan.condition_kind) {
      case ConditionKind::kNone:
        break;
      case ConditionKind::kIfExists:
      case ConditionKind::kIfNotExists:
        CASSETTE_RETURN_IF_ERROR(add(plan.static_only, clustering, plan.condition_kind));
        break;
      case ConditionKind::kColumns:
        if (AnyRegular(plan.conditions)) {
          CASSETTE_RETURN_IF_ERROR(add(false, clustering, ConditionKind::kColumns));
        }
        if (AnyStatic(plan.conditions)) {
          CASSETTE_RETURN_IF_ERROR(add(true, none, ConditionKind::kColumns));
        }
        break;
    }
  }
  return Status::OK();
}

Status ValidateBatch(const BatchStatement& batch, const std::vector<WritePlan>& plans,
                     bool batch_timestamp) {
  const bool has_conditions = std::any_of(plans.begin(), plans.end(), [](const WritePlan& p) {
    return p.condition_kind != ConditionKind::kNone;
  });
  const bool counter_batch = batch.type == BatchStatement::Type::kCounter;
  if (batch_timestamp) {
    if (has_conditions) {
      return Status::InvalidRequest("Cannot provide custom timestamp for conditional BATCH");
    }
    if (counter_batch) {
      return Status::InvalidRequest("Cannot provide custom timestamp for counter BATCH");
    }
  }
  bool has_counters = false;
  bool has_non_counters = false;
  for (const WritePlan& plan : plans) {
    if (batch_timestamp && plan.timestamp) {
      return Status::InvalidRequest(
          "Timestamp must be set either on BATCH or individual statements");
    }
    (plan.is_counter ? has_counters : has_non_counters) = true;
  }
  if (batch_timestamp && has_counters) {
    return Status::InvalidRequest(
        "Cannot provide custom timestamp for a BATCH containing counters");
  }
  if (counter_batch && has_non_counters) {
    return Status::InvalidRequest("Cannot include non-counter statement in a counter batch");
  }
  if (has_counters && has_non_counters) {
    return Status::InvalidRequest(
        "Counter and non-counter mutations cannot exist in the same batch");
  }
  if (batch.type == BatchStatement::Type::kLogged && has_counters) {
    return Status::InvalidRequest("Cannot include a counter statement in a logged batch");
  }
  if (!has_conditions) return Status::OK();
  for (const WritePlan& plan : plans) {
    if (plan.schema().keyspace() != plans[0].schema().keyspace() ||
        plan.schema().name() != plans[0].schema().name()) {
      return Status::InvalidRequest("Batch with conditions cannot span multiple tables");
    }
  }
  for (const WritePlan& plan : plans) {
    if (plan.targets.partition_keys.size() != 1 ||
        plan.targets.partition_keys[0] != plans[0].targets.partition_keys[0]) {
      return Status::InvalidRequest("Batch with conditions cannot span multiple partitions");
    }
  }
  return CheckBatchConditionKinds(plans);
}

}  // namespace

Result<CqlResult> ExecuteInsert(const InsertStatement& statement,
                                const ExecutionContext& statement_context) {
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<const CachedPlan> cached,
                            LookupTable(statement.table, statement_context));
  const ExecutionContext context = WithTable(statement_context, *cached);
  if (!statement.if_not_exists) {
    std::shared_ptr<const InsertLayout> layout = CachedInsertLayout(statement, *cached, context);
    if (layout != nullptr) {
      return ExecuteInsertWithLayout(statement, *layout, *cached->schema, context);
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(WritePlan plan, PrepareInsert(statement, *cached, context));
  return ExecutePlan(std::move(plan), context);
}

Result<CqlResult> ExecuteUpdate(const UpdateStatement& statement, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(WritePlan plan, PrepareUpdate(statement, context));
  return ExecutePlan(std::move(plan), context);
}

Result<CqlResult> ExecuteDelete(const DeleteStatement& statement, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(WritePlan plan, PrepareDelete(statement, context));
  return ExecutePlan(std::move(plan), context);
}

Result<CqlResult> ExecuteBatch(const BatchStatement& statement,
                               const ExecutionContext& batch_context) {
  // Each statement inside resolves its table through its own cache (a
  // prepared batch made one per statement), never the batch's.
  ExecutionContext context = batch_context;
  context.plan_cache = nullptr;
  if (statement.using_clause.ttl) {
    return Status::InvalidRequest("Global TTL on the BATCH statement is not supported.");
  }
  WritePlan batch_attributes;
  CASSETTE_RETURN_IF_ERROR(EvaluateUsing(statement.using_clause, context, &batch_attributes));
  std::vector<WritePlan> plans;
  plans.reserve(statement.statements.size());
  for (size_t i = 0; i < statement.statements.size(); ++i) {
    ExecutionContext inner_context = context;
    if (batch_context.plan_cache != nullptr) {
      inner_context.plan_cache = batch_context.plan_cache->statement_cache(i);
    }
    CASSETTE_ASSIGN_OR_RETURN(WritePlan plan,
                              PrepareBatchStatement(statement.statements[i], inner_context));
    plans.push_back(std::move(plan));
  }
  CASSETTE_RETURN_IF_ERROR(ValidateBatch(statement, plans, batch_attributes.timestamp.has_value()));

  bool conditional = false;
  bool needs_lock = false;
  for (WritePlan& plan : plans) {
    if (!plan.timestamp) plan.timestamp = batch_attributes.timestamp;
    conditional = conditional || plan.condition_kind != ConditionKind::kNone;
    needs_lock = needs_lock || plan.NeedsRead();
  }
  std::unique_lock<std::mutex> lock;
  if ((conditional || needs_lock) && context.serial_mutex != nullptr) {
    lock = std::unique_lock<std::mutex>(*context.serial_mutex);
  }
  if (conditional) {
    std::vector<const WritePlan*> conditioned;
    std::vector<CurrentRow> rows;
    bool holds = true;
    for (const WritePlan& plan : plans) {
      if (plan.condition_kind == ConditionKind::kNone) continue;
      CASSETTE_ASSIGN_OR_RETURN(CurrentRow row, ReadBatchConditionRow(context.db, plan));
      CASSETTE_ASSIGN_OR_RETURN(bool ok, ConditionHolds(plan, row));
      holds = holds && ok;
      conditioned.push_back(&plan);
      rows.push_back(std::move(row));
    }
    if (!holds) return BatchNotAppliedResult(conditioned, rows);
  }
  if (!conditional && !needs_lock) {
    // An ingest batch (rows of the same columns): written as the mutations
    // below would be, without building them.
    if (std::optional<InsertBatch> inserts = TakeInsertBatch(plans)) {
      CASSETTE_ASSIGN_OR_RETURN(TableSchema schema,
                                context.db->GetTable(inserts->keyspace(), inserts->table()));
      CqlResult result;
      CASSETTE_RETURN_IF_ERROR(
          CheckBatchSize(MeasureBatch(*inserts, schema), context.db->options(), &result.warnings));
      CASSETTE_RETURN_IF_ERROR(context.db->ApplyInserts(*inserts));
      return result;
    }
  }
  MutationBuilder builder(context.db);
  std::vector<Mutation> mutations;
  for (const WritePlan& plan : plans) CASSETTE_RETURN_IF_ERROR(builder.Build(plan, &mutations));
  MutationBuilder::DropSupersededCounterWrites(&mutations);
  CqlResult result;
  if (!conditional) {
    // Refused whole before anything is written; Cassandra does not check
    // conditional batches, which hold one partition.
    CASSETTE_RETURN_IF_ERROR(
        CheckBatchSize(MeasureBatch(mutations), context.db->options(), &result.warnings));
  }
  // Logged or not, the batch goes to the engine as one atomic unit (one
  // commit-log record): stronger than Cassandra's unlogged batches, never weaker.
  if (!mutations.empty()) CASSETTE_RETURN_IF_ERROR(context.db->ApplyBatch(mutations));
  if (!conditional) return result;
  result.kind = CqlResult::Kind::kRows;
  result.columns.push_back({"[applied]", DataType::Boolean()});
  result.rows.push_back({Value::Boolean(true)});
  return result;
}

}  // namespace cassette::cql
