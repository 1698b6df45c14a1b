#include "engine/cql/write_operations.h"

#include <utility>

#include "engine/cql/term_evaluator.h"
#include "engine/cql/term_text.h"

namespace cassette::cql {

namespace {

Status UndefinedColumn(const TableSchema& schema, const std::string& name) {
  return Status::InvalidRequest("Undefined column name " + name + " in table " + schema.keyspace() +
                                "." + schema.name());
}

ColumnWrite WriteOf(const ColumnDefinition& column, ColumnWrite::Kind kind) {
  ColumnWrite write;
  write.column = column.name;
  write.type = column.type;
  write.is_static = column.kind == ColumnKind::kStatic;
  write.kind = kind;
  return write;
}

bool IsList(const DataType& type) { return type.kind() == TypeKind::kList; }
bool IsSet(const DataType& type) { return type.kind() == TypeKind::kSet; }
bool IsMap(const DataType& type) { return type.kind() == TypeKind::kMap; }

// How Cassandra prints each assignment in "Invalid operation (...)" messages
// (prepend really is printed with a '-': Operation.Prepend's toString).
std::string AssignmentText(const Assignment& a) {
  switch (a.kind) {
    case Assignment::Kind::kSet:
      return a.column + " = " + TermSourceText(a.value);
    case Assignment::Kind::kSetElement:
      return a.column + "[" + (a.key ? TermSourceText(*a.key) : std::string()) +
             "] = " + TermSourceText(a.value);
    case Assignment::Kind::kAdd:
      return a.column + " = " + a.column + " + " + TermSourceText(a.value);
    case Assignment::Kind::kSubtract:
      return a.column + " = " + a.column + " - " + TermSourceText(a.value);
    case Assignment::Kind::kPrepend:
      return a.column + " = " + TermSourceText(a.value) + " - " + a.column;
    case Assignment::Kind::kSetField:
      return a.column + "." + a.field + " = " + TermSourceText(a.value);
  }
  return a.column;
}

Status InvalidOperation(const Assignment& a, const std::string& what) {
  return Status::InvalidRequest("Invalid operation (" + AssignmentText(a) + ") for " + what + " " +
                                a.column);
}

Result<int64_t> CounterDelta(const ColumnDefinition& column, const Term& term,
                             const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(term, column.type, column.name, context));
  if (v.is_null()) return Status::InvalidRequest("Invalid null value for counter increment");
  return v.AsInt64();
}

// One field of a non-frozen user type column, written (or, with a null
// value, deleted) as the cell at that field's position.
ColumnWrite FieldWrite(const ColumnDefinition& column, int field, Value value) {
  ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kMapPut);
  write.key = Value::Smallint(static_cast<int16_t>(field));
  write.value = std::move(value);
  return write;
}

// Operation.SetField's checks and messages.
Result<ColumnWrite> PrepareFieldAssignment(const ColumnDefinition& column, const Assignment& a,
                                           const ExecutionContext& context) {
  const DataType& type = column.type;
  if (!type.IsUserType()) return InvalidOperation(a, "non-UDT column");
  if (!type.IsMultiCell()) return InvalidOperation(a, "frozen UDT column");
  const int field = type.FieldIndex(a.field);
  if (field < 0) {
    return Status::InvalidRequest("UDT column " + column.name + " does not have a field named " +
                                  a.field);
  }
  CASSETTE_ASSIGN_OR_RETURN(Value v,
                            EvaluateTerm(a.value, type.params()[static_cast<size_t>(field)],
                                         column.name + "." + a.field, context));
  return FieldWrite(column, field, std::move(v));
}

Result<ColumnWrite> PrepareAssignment(const ColumnDefinition& column, const Assignment& a,
                                      const ExecutionContext& context) {
  const DataType& type = column.type;
  const bool is_counter = type.kind() == TypeKind::kCounter;
  switch (a.kind) {
    case Assignment::Kind::kSetField:
      return PrepareFieldAssignment(column, a, context);
    case Assignment::Kind::kSet: {
      CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(a.value, type, column.name, context));
      if (is_counter) {
        return Status::InvalidRequest("Cannot set the value of counter column " + column.name +
                                      " (counters can only be incremented/decremented, not set)");
      }
      return SetColumnValue(column, std::move(v));
    }
    case Assignment::Kind::kSetElement: {
      if (!type.IsCollection()) return InvalidOperation(a, "non collection column");
      if (!type.IsMultiCell()) return InvalidOperation(a, "frozen collection column");
      if (IsSet(type)) return InvalidOperation(a, "set column");
      if (!a.key) return InvalidOperation(a, "collection column");
      if (IsList(type)) {
        ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kListSetIndex);
        CASSETTE_ASSIGN_OR_RETURN(Value index, EvaluateTerm(*a.key, DataType::Int(),
                                                            "idx(" + column.name + ")", context));
        if (index.is_null()) return Status::InvalidRequest("Invalid null value for list index");
        write.index = static_cast<int32_t>(index.AsInt64());
        CASSETTE_ASSIGN_OR_RETURN(write.value, EvaluateTerm(a.value, type.params()[0],
                                                            "value(" + column.name + ")", context));
        return write;
      }
      ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kMapPut);
      CASSETTE_ASSIGN_OR_RETURN(
          write.key, EvaluateTerm(*a.key, type.params()[0], "key(" + column.name + ")", context));
      if (write.key.is_null()) return Status::InvalidRequest("Invalid null map key");
      CASSETTE_ASSIGN_OR_RETURN(write.value, EvaluateTerm(a.value, type.params()[1],
                                                          "value(" + column.name + ")", context));
      return write;
    }
    case Assignment::Kind::kAdd:
    case Assignment::Kind::kSubtract: {
      const bool add = a.kind == Assignment::Kind::kAdd;
      if (!type.IsCollection()) {
        if (add && type.kind() == TypeKind::kTuple) return InvalidOperation(a, "tuple column");
        if (!is_counter) return InvalidOperation(a, "non counter column");
        ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kCounterAdd);
        CASSETTE_ASSIGN_OR_RETURN(int64_t delta, CounterDelta(column, a.value, context));
        // Two's-complement wrap, as Java's long arithmetic does.
        write.delta = add ? delta : static_cast<int64_t>(0ull - static_cast<uint64_t>(delta));
        return write;
      }
      if (!type.IsMultiCell()) return InvalidOperation(a, "frozen collection column");
      // Map subtraction takes the set of keys to remove.
      const DataType receiver =
          (!add && IsMap(type)) ? DataType::Set(type.params()[0]) : DataType(type);
      Result<Value> value = EvaluateTerm(a.value, receiver, column.name, context);
      if (!value.ok()) {
        if (IsMap(type)) {
          return Status::InvalidRequest(
              std::string(add ? "Value for a map addition has to be a map, but was: '"
                              : "Value for a map substraction has to be a set, but was: '") +
              TermSourceText(a.value) + "'");
        }
        return value.status();
      }
      ColumnWrite write = WriteOf(column, add ? ColumnWrite::Kind::kAdd
                                              : (IsList(type) ? ColumnWrite::Kind::kListRemoveValues
                                                              : ColumnWrite::Kind::kRemove));
      if (!value->is_null()) write.elements = value->Elements();
      return write;
    }
    case Assignment::Kind::kPrepend: {
      CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(a.value, type, column.name, context));
      if (!IsList(type)) return InvalidOperation(a, "non list column");
      if (!type.IsMultiCell()) return InvalidOperation(a, "frozen list column");
      ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kPrepend);
      if (!v.is_null()) write.elements = v.Elements();
      return write;
    }
  }
  return Status::InvalidRequest("Invalid operation for column " + column.name);
}

// Cassandra refuses a plain `c = v` together with any other operation on c.
bool Compatible(const Assignment& a, const Assignment& b) {
  return a.kind != Assignment::Kind::kSet && b.kind != Assignment::Kind::kSet;
}

}  // namespace

ColumnWrite SetColumnValue(const ColumnDefinition& column, Value value) {
  if (column.type.IsMultiCell()) {
    if (value.is_null()) return WriteOf(column, ColumnWrite::Kind::kDelete);
    ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kReplaceCollection);
    write.elements = value.Elements();
    return write;
  }
  ColumnWrite write = WriteOf(column, ColumnWrite::Kind::kSet);
  write.value = std::move(value);
  return write;
}

Result<std::vector<ColumnWrite>> PrepareAssignments(const TableSchema& schema,
                                                    const std::vector<Assignment>& assignments,
                                                    const ExecutionContext& context) {
  std::vector<ColumnWrite> writes;
  for (size_t i = 0; i < assignments.size(); ++i) {
    const Assignment& a = assignments[i];
    const ColumnDefinition* column = schema.Find(a.column);
    if (column == nullptr) return UndefinedColumn(schema, a.column);
    if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
      return Status::InvalidRequest("PRIMARY KEY part " + column->name + " found in SET part");
    }
    for (size_t j = 0; j < i; ++j) {
      if (assignments[j].column == a.column && !Compatible(assignments[j], a)) {
        // Cql.g's addRawUpdate reports it while parsing: a SyntaxException.
        return Status::SyntaxError("Multiple incompatible setting of column " + a.column);
      }
    }
    CASSETTE_ASSIGN_OR_RETURN(ColumnWrite write, PrepareAssignment(*column, a, context));
    writes.push_back(std::move(write));
  }
  return writes;
}

Result<std::vector<ColumnWrite>> PrepareDeletions(const TableSchema& schema,
                                                  const std::vector<DeleteTarget>& targets,
                                                  const ExecutionContext& context) {
  std::vector<ColumnWrite> writes;
  for (const DeleteTarget& target : targets) {
    const ColumnDefinition* column = schema.Find(target.column);
    if (column == nullptr) return UndefinedColumn(schema, target.column);
    if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
      return Status::InvalidRequest("Invalid identifier " + column->name +
                                    " for deletion (should not be a PRIMARY KEY part)");
    }
    if (!target.field.empty()) {  // Operation.DeleteField's checks and messages
      if (!column->type.IsUserType()) {
        return Status::InvalidRequest("Invalid field deletion operation for non-UDT column " +
                                      column->name);
      }
      if (!column->type.IsMultiCell()) {
        return Status::InvalidRequest("Frozen UDT column " + column->name +
                                      " does not support field deletions");
      }
      const int field = column->type.FieldIndex(target.field);
      if (field < 0) {
        return Status::InvalidRequest("UDT column " + column->name +
                                      " does not have a field named " + target.field);
      }
      writes.push_back(FieldWrite(*column, field,
                                  Value::Null(column->type.params()[static_cast<size_t>(field)])));
      continue;
    }
    if (!target.element) {
      writes.push_back(WriteOf(*column, ColumnWrite::Kind::kDelete));
      continue;
    }
    const DataType& type = column->type;
    if (!type.IsCollection()) {
      return Status::InvalidRequest("Invalid deletion operation for non collection column " +
                                    column->name);
    }
    if (!type.IsMultiCell()) {
      return Status::InvalidRequest("Invalid deletion operation for frozen collection column " +
                                    column->name);
    }
    if (IsList(type)) {
      ColumnWrite write = WriteOf(*column, ColumnWrite::Kind::kListDeleteIndex);
      CASSETTE_ASSIGN_OR_RETURN(Value index, EvaluateTerm(*target.element, DataType::Int(),
                                                          "idx(" + column->name + ")", context));
      if (index.is_null()) return Status::InvalidRequest("Invalid null value for list index");
      write.index = static_cast<int32_t>(index.AsInt64());
      writes.push_back(std::move(write));
      continue;
    }
    ColumnWrite write = WriteOf(*column, ColumnWrite::Kind::kRemove);
    const std::string receiver = (IsMap(type) ? "key(" : "value(") + column->name + ")";
    CASSETTE_ASSIGN_OR_RETURN(Value element,
                              EvaluateTerm(*target.element, type.params()[0], receiver, context));
    if (element.is_null()) {
      return Status::InvalidRequest(IsMap(type) ? "Invalid null map key"
                                                : "Invalid null set element");
    }
    write.elements.push_back(std::move(element));
    writes.push_back(std::move(write));
  }
  return writes;
}

}  // namespace cassette::cql
