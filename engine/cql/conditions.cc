#include "engine/cql/conditions.h"

#include <algorithm>
#include <utility>

#include "engine/cql/operator_text.h"
#include "engine/cql/term_evaluator.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {

namespace {

// An empty non-frozen collection does not exist: it reads as null.
bool IsNullish(const Value& v, const DataType& type) {
  if (v.is_null()) return true;
  return type.IsMultiCell() && v.Elements().empty();
}

// Cassandra's ColumnCondition comparison: `current op expected`.
Result<bool> Compare(Operator op, const DataType& type, const Value& current,
                     const Value& expected) {
  if (IsNullish(expected, type)) {
    switch (op) {
      case Operator::kEq:
        return IsNullish(current, type);
      case Operator::kNeq:
        return !IsNullish(current, type);
      default:
        return Status::InvalidRequest(std::string("Invalid comparison with null for operator \"") +
                                      OperatorText(op) + "\"");
    }
  }
  if (IsNullish(current, type)) {
    // A null non-frozen collection is the empty one, below every non-empty
    // value (InsertUpdateIfConditionCollectionsTest.testNonFrozenEmptyCollection).
    if (type.IsMultiCell()) {
      return op == Operator::kNeq || op == Operator::kLt || op == Operator::kLe;
    }
    return op == Operator::kNeq;
  }
  const int c = CompareValues(type, current.bytes(), expected.bytes());
  switch (op) {
    case Operator::kEq:
      return c == 0;
    case Operator::kNeq:
      return c != 0;
    case Operator::kLt:
      return c < 0;
    case Operator::kLe:
      return c <= 0;
    case Operator::kGt:
      return c > 0;
    case Operator::kGe:
      return c >= 0;
    default:
      break;
  }
  return Status::InvalidRequest(std::string("Unsupported operator \"") + OperatorText(op) +
                                "\" in a condition");
}

// The element c[element] of a collection value (null when absent).
Value ElementOf(const Value& collection, const DataType& type, const Value& element) {
  const std::vector<Value> items = collection.Elements();
  if (type.kind() == TypeKind::kMap) {
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
      if (CompareValues(type.params()[0], items[i].bytes(), element.bytes()) == 0) {
        return items[i + 1];
      }
    }
    return Value::Null(type.params()[1]);
  }
  const int64_t index = element.AsInt64();
  if (index < 0 || index >= static_cast<int64_t>(items.size())) {
    return Value::Null(type.params()[0]);
  }
  return items[static_cast<size_t>(index)];
}

Result<bool> Holds(const ColumnCondition& condition, const Value& current) {
  DataType type = condition.type;
  Value value = current;
  if (condition.element) {
    const DataType element_type =
        type.kind() == TypeKind::kMap ? type.params()[1] : type.params()[0];
    value = current.is_null() ? Value::Null(element_type)
                              : ElementOf(current, type, *condition.element);
    type = element_type;
  }
  switch (condition.op) {
    case Operator::kIn:
      for (const Value& expected : condition.values) {
        CASSETTE_ASSIGN_OR_RETURN(bool equal, Compare(Operator::kEq, type, value, expected));
        if (equal) return true;
      }
      return false;
    case Operator::kContains:
    case Operator::kContainsKey: {
      // testNonFrozenEmptyCollection: a null operand is refused, whatever the column holds.
      if (condition.values.empty() || condition.values[0].is_null()) {
        return Status::InvalidRequest(std::string("Invalid comparison with null for operator \"") +
                                      OperatorText(condition.op) + "\"");
      }
      if (value.is_null()) return false;
      const std::vector<Value> items = value.Elements();
      const bool is_map = type.kind() == TypeKind::kMap;
      const bool keys = condition.op == Operator::kContainsKey;
      for (size_t i = 0; i < items.size(); ++i) {
        if (is_map && (i % 2 == 0) != keys) continue;
        const DataType& element_type = is_map && !keys ? type.params()[1] : type.params()[0];
        if (CompareValues(element_type, items[i].bytes(), condition.values[0].bytes()) == 0) {
          return true;
        }
      }
      return false;
    }
    default:
      return Compare(condition.op, type, value,
                     condition.values.empty() ? Value::Null(type) : condition.values[0]);
  }
}

}  // namespace

const Value* CurrentRow::Find(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return &values[i];
  }
  return nullptr;
}

Result<std::vector<ColumnCondition>> PrepareConditions(const TableSchema& schema,
                                                       const std::vector<Relation>& relations,
                                                       const ExecutionContext& context) {
  std::vector<ColumnCondition> conditions;
  for (const Relation& relation : relations) {
    if (relation.columns.size() != 1 || (relation.target != Relation::Target::kColumn &&
                                         relation.target != Relation::Target::kElement)) {
      return Status::InvalidRequest(
          "Invalid condition: only columns and collection elements "
          "can be compared in IF conditions");
    }
    const std::string& name = relation.columns[0];
    const ColumnDefinition* column = schema.Find(name);
    if (column == nullptr) {
      return Status::InvalidRequest("Undefined column name " + name + " in table " +
                                    schema.keyspace() + "." + schema.name());
    }
    if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
      return Status::InvalidRequest("PRIMARY KEY column '" + name + "' cannot have IF conditions");
    }
    ColumnCondition condition;
    condition.column = name;
    condition.type = column->type;
    condition.is_static = column->kind == ColumnKind::kStatic;
    condition.op = relation.op;
    DataType receiver = column->type;
    std::string receiver_name = name;
    if (relation.target == Relation::Target::kElement) {
      const TypeKind kind = column->type.kind();
      if (kind != TypeKind::kMap && kind != TypeKind::kList) {
        return Status::InvalidRequest(
            "Invalid element access syntax for " +
            std::string(kind == TypeKind::kSet ? "set" : "non-collection") + " column " + name);
      }
      if (!relation.element_key) return Status::InvalidRequest("Missing element of " + name);
      const bool is_map = kind == TypeKind::kMap;
      CASSETTE_ASSIGN_OR_RETURN(
          Value element,
          EvaluateTerm(*relation.element_key, is_map ? column->type.params()[0] : DataType::Int(),
                       (is_map ? "key(" : "idx(") + name + ")", context));
      if (element.is_null()) {
        return Status::InvalidRequest(std::string("Invalid null value for ") +
                                      (is_map ? "map key" : "list index"));
      }
      condition.element = std::move(element);
      receiver = is_map ? column->type.params()[1] : column->type.params()[0];
      receiver_name = "value(" + name + ")";
    }
    switch (relation.op) {
      case Operator::kIn: {
        CASSETTE_ASSIGN_OR_RETURN(condition.values,
                                  EvaluateInValues(relation, receiver, receiver_name, context));
        break;
      }
      case Operator::kContains:
      case Operator::kContainsKey: {
        if (!receiver.IsCollection() ||
            (relation.op == Operator::kContainsKey && receiver.kind() != TypeKind::kMap)) {
          return Status::InvalidRequest("Cannot use " + std::string(OperatorText(relation.op)) +
                                        " on non-collection column " + name);
        }
        const DataType element_type =
            (relation.op == Operator::kContains && receiver.kind() == TypeKind::kMap)
                ? receiver.params()[1]
                : receiver.params()[0];
        if (!relation.value) return Status::InvalidRequest("Missing value for " + name);
        CASSETTE_ASSIGN_OR_RETURN(
            Value v, EvaluateTerm(*relation.value, element_type, receiver_name, context));
        condition.values.push_back(std::move(v));
        break;
      }
      case Operator::kEq:
      case Operator::kNeq:
      case Operator::kLt:
      case Operator::kLe:
      case Operator::kGt:
      case Operator::kGe: {
        if (!relation.value) return Status::InvalidRequest("Missing value for " + name);
        CASSETTE_ASSIGN_OR_RETURN(Value v,
                                  EvaluateTerm(*relation.value, receiver, receiver_name, context));
        condition.values.push_back(std::move(v));
        break;
      }
      default:
        return Status::InvalidRequest(std::string("Unsupported operator \"") +
                                      OperatorText(relation.op) + "\" in IF conditions");
    }
    conditions.push_back(std::move(condition));
  }
  return conditions;
}

namespace {

bool HasStaticValue(const TableSchema& schema, const CurrentRow& row) {
  for (size_t i = 0; i < row.columns.size() && i < row.values.size(); ++i) {
    const ColumnDefinition* column = schema.Find(row.columns[i].name);
    if (column != nullptr && column->kind == ColumnKind::kStatic && !row.values[i].is_null()) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<CurrentRow> ReadCurrentRow(Database* db, const TableSchema& schema,
                                  const std::vector<Value>& key,
                                  const std::vector<Value>& clustering, bool static_only) {
  CurrentRow row;
  const bool clustered = !schema.clustering().empty();
  ReadQuery query;
  query.keyspace = schema.keyspace();
  query.table = schema.name();
  query.partition_keys = {key};
  if (static_only && clustered) {
    query.distinct = true;
  } else {
    query.clustering_prefix = clustering;
  }
  CASSETTE_ASSIGN_OR_RETURN(ResultSet result, db->Read(query));
  row.columns = result.columns;
  if (!result.rows.empty()) {
    row.values = result.rows[0].values;
    row.has_statics = HasStaticValue(schema, row);
    // A static-only write targets the static row: it exists when a static
    // value does, whatever the partition's rows (testStaticColumnsCas).
    row.exists = static_only && clustered ? row.has_statics : true;
    return row;
  }
  row.values.reserve(row.columns.size());
  for (const ColumnSpec& spec : row.columns) row.values.push_back(Value::Null(spec.type));
  if (static_only || !clustered || !schema.has_statics()) return row;
  // The regular row is absent; the static values may still be there.
  query.clustering_prefix.clear();
  query.distinct = true;
  CASSETTE_ASSIGN_OR_RETURN(ResultSet statics, db->Read(query));
  if (statics.rows.empty()) return row;
  for (size_t i = 0; i < row.columns.size() && i < statics.rows[0].values.size(); ++i) {
    const ColumnDefinition* column = schema.Find(row.columns[i].name);
    if (column != nullptr && column->kind == ColumnKind::kStatic) {
      row.values[i] = statics.rows[0].values[i];
      if (!row.values[i].is_null()) row.has_statics = true;
    }
  }
  return row;
}

Result<bool> ConditionHolds(const WritePlan& plan, const CurrentRow& row) {
  switch (plan.condition_kind) {
    case ConditionKind::kNone:
      return true;
    case ConditionKind::kIfNotExists:
      return !row.exists;
    case ConditionKind::kIfExists:
      return row.exists;
    case ConditionKind::kColumns:
      break;
  }
  bool holds = true;
  // Every condition is evaluated (an invalid one fails the statement even
  // when an earlier one is false, as Cassandra evaluates them all).
  for (const ColumnCondition& condition : plan.conditions) {
    const Value* current = row.Find(condition.column);
    const Value null_value = Value::Null(condition.type);
    const Value& value =
        (current == nullptr || (!row.exists && !condition.is_static)) ? null_value : *current;
    CASSETTE_ASSIGN_OR_RETURN(bool ok, Holds(condition, value));
    holds = holds && ok;
  }
  return holds;
}

namespace {

std::vector<std::string> ConditionColumns(const WritePlan& plan) {
  std::vector<std::string> names;
  for (const ColumnCondition& c : plan.conditions) {
    if (std::find(names.begin(), names.end(), c.column) == names.end()) names.push_back(c.column);
  }
  return names;
}

void AddColumn(const CurrentRow& row, const std::string& name, CqlResult* result,
               std::vector<Value>* values) {
  for (size_t i = 0; i < row.columns.size(); ++i) {
    if (row.columns[i].name != name) continue;
    result->columns.push_back(row.columns[i]);
    values->push_back(row.values[i]);
    return;
  }
}

CqlResult AppliedColumn(bool applied) {
  CqlResult result;
  result.kind = CqlResult::Kind::kRows;
  result.columns.push_back({"[applied]", DataType::Boolean()});
  result.rows.push_back({Value::Boolean(applied)});
  return result;
}

}  // namespace

CqlResult AppliedResult(bool applied, const WritePlan& plan, const CurrentRow& row) {
  CqlResult result = AppliedColumn(applied);
  if (applied) return result;
  // A missing row beside a live static row: Cassandra's read for the
  // conditions still finds the static values when a condition names a
  // static column, and shows every condition column (regular ones null).
  const bool static_condition = plan.condition_kind == ConditionKind::kColumns &&
                                std::any_of(plan.conditions.begin(), plan.conditions.end(),
                                            [](const ColumnCondition& c) { return c.is_static; });
  if (!row.exists && !(static_condition && row.has_statics)) return result;
  std::vector<Value>& values = result.rows[0];
  if (plan.condition_kind == ConditionKind::kColumns) {
    for (const std::string& name : ConditionColumns(plan)) AddColumn(row, name, &result, &values);
  } else {
    for (size_t i = 0; i < row.columns.size(); ++i) {
      result.columns.push_back(row.columns[i]);
      values.push_back(row.values[i]);
    }
  }
  return result;
}

CqlResult BatchNotAppliedResult(const std::vector<const WritePlan*>& plans,
                                const std::vector<CurrentRow>& rows) {
  CqlResult result = AppliedColumn(false);
  if (plans.empty()) return result;
  const TableSchema& schema = plans[0]->schema();
  bool wildcard = false;
  std::vector<std::string> names;
  for (size_t i : schema.partition_key()) names.push_back(schema.columns()[i].name);
  for (size_t i : schema.clustering()) names.push_back(schema.columns()[i].name);
  for (const WritePlan* plan : plans) {
    if (plan->condition_kind == ConditionKind::kIfExists ||
        plan->condition_kind == ConditionKind::kIfNotExists) {
      wildcard = true;
    }
    for (const std::string& name : ConditionColumns(*plan)) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  std::vector<std::vector<Value>> out_rows;
  std::vector<ColumnSpec> columns;
  for (const CurrentRow& row : rows) {
    if (!row.exists) continue;
    CqlResult one;
    std::vector<Value> values = {Value::Boolean(false)};
    if (wildcard) {
      one.columns = row.columns;
      values.insert(values.end(), row.values.begin(), row.values.end());
    } else {
      for (const std::string& name : names) AddColumn(row, name, &one, &values);
    }
    // One row per distinct existing row (two statements may target the same one).
    if (std::find(out_rows.begin(), out_rows.end(), values) != out_rows.end()) continue;
    columns = one.columns;
    out_rows.push_back(std::move(values));
  }
  if (out_rows.empty()) return result;
  result.columns.insert(result.columns.end(), columns.begin(), columns.end());
  result.rows = std::move(out_rows);
  return result;
}

}  // namespace cassette::cql
