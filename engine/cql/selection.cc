#include "engine/cql/selection.h"

#include <algorithm>
#include <utility>

#include "engine/cql/aggregates.h"
#include "engine/cql/arithmetic_selector.h"
#include "engine/cql/collection_selectors.h"
#include "engine/cql/function_registry.h"
#include "engine/cql/functions.h"
#include "engine/cql/select_restrictions.h"
#include "engine/cql/term_evaluator.h"
#include "engine/schema/key_codec.h"
#include "engine/types/type_codec.h"
#include "engine/util/murmur3.h"

namespace cassette::cql {

size_t ColumnSlots::Require(const std::string& name) {
  if (std::optional<size_t> slot = Find(name)) return *slot;
  names_.push_back(name);
  return names_.size() - 1;
}

std::optional<size_t> ColumnSlots::Find(const std::string& name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) return std::nullopt;
  return static_cast<size_t>(it - names_.begin());
}

namespace {

std::string_view BareFunctionName(std::string_view name) {
  constexpr std::string_view kSystem = "system.";
  if (name.substr(0, kSystem.size()) == kSystem) name.remove_prefix(kSystem.size());
  return name;
}

// Nodes that compute their value from the first row of a group.
class FirstRowNode : public SelectorNode {
 public:
  using SelectorNode::SelectorNode;
  void Reset() override { value_.reset(); }
  Status AddInput(const ResultRow& row) override {
    if (value_) return Status::OK();
    CASSETTE_ASSIGN_OR_RETURN(Value value, Compute(row));
    value_ = std::move(value);
    return Status::OK();
  }
  Result<Value> Output() override { return value_ ? *value_ : Value::Null(type()); }

 protected:
  virtual Result<Value> Compute(const ResultRow& row) = 0;

 private:
  std::optional<Value> value_;
};

class ColumnNode : public FirstRowNode {
 public:
  ColumnNode(DataType type, size_t slot) : FirstRowNode(std::move(type)), slot_(slot) {}
  std::optional<size_t> ColumnSlot() const override { return slot_; }

 protected:
  Result<Value> Compute(const ResultRow& row) override {
    if (slot_ >= row.values.size()) return Value::Null(type());
    return row.values[slot_];
  }

 private:
  size_t slot_;
};

class ConstantNode : public SelectorNode {
 public:
  explicit ConstantNode(Value value) : SelectorNode(value.type()), value_(std::move(value)) {}
  void Reset() override {}
  Status AddInput(const ResultRow&) override { return Status::OK(); }
  Result<Value> Output() override { return value_; }

 private:
  Value value_;
};

// token(k1, k2): the partition's Murmur3 token.
class TokenNode : public FirstRowNode {
 public:
  TokenNode(TableSchema schema, std::vector<size_t> slots)
      : FirstRowNode(DataType::Bigint()), schema_(std::move(schema)), slots_(std::move(slots)) {}

 protected:
  Result<Value> Compute(const ResultRow& row) override {
    std::vector<Value> key;
    for (size_t slot : slots_) key.push_back(row.values[slot]);
    CASSETTE_ASSIGN_OR_RETURN(std::string serialized, EncodePartitionKeyValues(schema_, key));
    return Value::Bigint(Murmur3Token(serialized));
  }

 private:
  TableSchema schema_;
  std::vector<size_t> slots_;
};

// Scalar functions, CAST and element selection: computed from their
// arguments' outputs, so over a group they see each argument's value for
// the group (the first row's, or an aggregate's).
class ComputedNode : public SelectorNode {
 public:
  ComputedNode(DataType type, std::vector<SelectorNodePtr> args)
      : SelectorNode(std::move(type)), args_(std::move(args)) {}
  bool IsAggregate() const override {
    return std::any_of(args_.begin(), args_.end(), [](const auto& a) { return a->IsAggregate(); });
  }
  void Reset() override {
    for (auto& arg : args_) arg->Reset();
  }
  Status AddInput(const ResultRow& row) override {
    for (auto& arg : args_) CASSETTE_RETURN_IF_ERROR(arg->AddInput(row));
    return Status::OK();
  }
  Result<Value> Output() override {
    std::vector<Value> values;
    for (auto& arg : args_) {
      CASSETTE_ASSIGN_OR_RETURN(Value value, arg->Output());
      values.push_back(std::move(value));
    }
    return Compute(values);
  }

 protected:
  virtual Result<Value> Compute(const std::vector<Value>& args) = 0;

 private:
  std::vector<SelectorNodePtr> args_;
};

// A native function resolved once for the selector's argument types.
class FunctionNode : public ComputedNode {
 public:
  FunctionNode(const NativeFunction* function, std::vector<SelectorNodePtr> args,
               FunctionContext context)
      : ComputedNode(function->return_type, std::move(args)),
        function_(function),
        context_(context) {}

 protected:
  Result<Value> Compute(const std::vector<Value>& args) override {
    // Each value as the parameter's type (an ascii column read as text).
    std::vector<Value> typed;
    typed.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const DataType& parameter = function_->argument_types[i];
      typed.push_back(args[i].is_null() ? Value::Null(parameter)
                                        : Value::FromBytes(parameter, args[i].bytes()));
    }
    return function_->body(*function_, typed, context_);
  }

 private:
  const NativeFunction* function_;
  FunctionContext context_;
};

// A CAST to the type its argument already has: Cassandra's
// Selectable.WithCast returns the argument's own selector, so the result
// keeps the argument's value and its column name (CastFctsTest).
class SameTypeCastNode : public ComputedNode {
 public:
  SameTypeCastNode(DataType type, SelectorNodePtr arg)
      : ComputedNode(std::move(type), Single(std::move(arg))) {}

 protected:
  Result<Value> Compute(const std::vector<Value>& args) override { return args[0]; }

 private:
  static std::vector<SelectorNodePtr> Single(SelectorNodePtr arg) {
    std::vector<SelectorNodePtr> args;
    args.push_back(std::move(arg));
    return args;
  }
};

class CastNode : public ComputedNode {
 public:
  CastNode(DataType type, SelectorNodePtr arg)
      : ComputedNode(std::move(type), Single(std::move(arg))) {}

 protected:
  Result<Value> Compute(const std::vector<Value>& args) override {
    if (args[0].is_null()) return Value::Null(type());
    return CastValue(args[0], type());
  }

 private:
  static std::vector<SelectorNodePtr> Single(SelectorNodePtr arg) {
    std::vector<SelectorNodePtr> args;
    args.push_back(std::move(arg));
    return args;
  }
};

// udt.field: one field of a user type value (null when the value is).
class FieldNode : public ComputedNode {
 public:
  FieldNode(DataType type, std::vector<SelectorNodePtr> args, size_t field)
      : ComputedNode(std::move(type), std::move(args)), field_(field) {}

 protected:
  Result<Value> Compute(const std::vector<Value>& args) override {
    std::vector<Value> fields = args[0].Elements();
    if (field_ >= fields.size()) return Value::Null(type());
    return std::move(fields[field_]);
  }

 private:
  size_t field_;
};

Result<const ColumnDefinition*> FindColumn(const TableSchema& schema, const std::string& name) {
  const ColumnDefinition* column = schema.Find(name);
  if (column == nullptr) {
    return Status::InvalidRequest("Undefined column name " + QuoteColumnName(name) + " in table " +
                                  schema.keyspace() + "." + schema.name());
  }
  return column;
}

// A selector argument of a function: a selector, or a term (a literal or
// bind marker) whose type the resolved signature decides.
struct Argument {
  SelectorNodePtr node;
  const Selector* term_selector = nullptr;
};

Result<SelectorNodePtr> BuildFunction(const Selector& selector, SelectionContext* selection) {
  const std::string name(BareFunctionName(selector.function));
  const TableSchema& schema = *selection->schema;
  if (IsAggregateFunction(name)) {
    if (selector.args.size() != 1) {
      return Status::InvalidRequest("Invalid number of arguments in call to function system." +
                                    name + ": 1 required but " +
                                    std::to_string(selector.args.size()) + " provided");
    }
    CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr arg, BuildSelector(selector.args[0], selection));
    if (arg->IsAggregate()) {
      return Status::InvalidRequest(
          "aggregate functions cannot be used as arguments of aggregate "
          "functions");
    }
    return MakeAggregate(name, std::move(arg));
  }
  if (name == "token") {
    const std::vector<size_t>& key = schema.partition_key();
    bool in_order = selector.args.size() == key.size();
    for (size_t i = 0; in_order && i < key.size(); ++i) {
      in_order = selector.args[i].kind == Selector::Kind::kColumn &&
                 selector.args[i].column == schema.columns()[key[i]].name;
    }
    if (!in_order) {
      std::string names;
      for (size_t index : key) names += (names.empty() ? "" : ", ") + schema.columns()[index].name;
      return Status::InvalidRequest(
          "The token function arguments must be in the partition key order: " + names);
    }
    std::vector<size_t> slots;
    for (size_t index : key)
      slots.push_back(selection->slots->Require(schema.columns()[index].name));
    return SelectorNodePtr(std::make_unique<TokenNode>(schema, std::move(slots)));
  }
  if ((name == "writetime" || name == "ttl" || name == "maxwritetime") &&
      selector.args.size() == 1) {
    return BuildCellMetadataSelector(selector.args[0], name.c_str(), selection);
  }

  std::vector<Argument> args;
  std::vector<ProvidedArgument> provided;
  for (const Selector& arg_selector : selector.args) {
    Argument arg;
    if (arg_selector.kind == Selector::Kind::kTerm && arg_selector.term) {
      arg.term_selector = &arg_selector;
      provided.push_back(TermArgument(*arg_selector.term, *selection->context));
    } else {
      CASSETTE_ASSIGN_OR_RETURN(arg.node, BuildSelector(arg_selector, selection));
      const DataType type = arg.node->type();
      provided.push_back(
          {[type](const DataType& parameter) { return TypeAssignability(parameter, type); },
           ResultColumnName(arg_selector), type});
    }
    args.push_back(std::move(arg));
  }
  CASSETTE_ASSIGN_OR_RETURN(const NativeFunction* function,
                            ResolveNativeFunction(selector.function, provided, std::nullopt));
  std::vector<SelectorNodePtr> nodes;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].node) {
      nodes.push_back(std::move(args[i].node));
      continue;
    }
    CASSETTE_ASSIGN_OR_RETURN(
        Value value, EvaluateTerm(*args[i].term_selector->term, function->argument_types[i],
                                  "[selection]", *selection->context));
    nodes.push_back(std::make_unique<ConstantNode>(std::move(value)));
  }
  FunctionContext function_context;
  function_context.now_micros = selection->context->now_micros;
  return SelectorNodePtr(
      std::make_unique<FunctionNode>(function, std::move(nodes), function_context));
}

// Selectable.WithFieldSelection's checks and messages.
Result<SelectorNodePtr> BuildField(SelectorNodePtr value, const std::string& text,
                                   const std::string& field, SelectionContext* selection) {
  (void)selection;
  const DataType type = value->type();
  CASSETTE_ASSIGN_OR_RETURN(size_t index, FieldPosition(type, text, field));
  std::vector<SelectorNodePtr> args;
  args.push_back(std::move(value));
  return SelectorNodePtr(std::make_unique<FieldNode>(type.params()[index], std::move(args), index));
}

}  // namespace

SelectorNodePtr BuildConstantSelector(Value value) {
  return std::make_unique<ConstantNode>(std::move(value));
}

Result<SelectorNodePtr> BuildSelector(const Selector& selector, SelectionContext* selection) {
  const TableSchema& schema = *selection->schema;
  switch (selector.kind) {
    case Selector::Kind::kColumn: {
      CASSETTE_ASSIGN_OR_RETURN(const ColumnDefinition* column,
                                FindColumn(schema, selector.column));
      SelectorNodePtr node =
          std::make_unique<ColumnNode>(column->type, selection->slots->Require(column->name));
      if (!selector.element) return node;
      return BuildElementSelector(std::move(node), column->name, *selector.element, selection);
    }
    case Selector::Kind::kWritetime:
    case Selector::Kind::kTtl: {
      const char* function = selector.kind == Selector::Kind::kTtl ? "ttl" : "writetime";
      if (!selector.args.empty()) {
        return BuildCellMetadataSelector(selector.args[0], function, selection);
      }
      Selector column;
      column.kind = Selector::Kind::kColumn;
      column.column = selector.column;
      return BuildCellMetadataSelector(column, function, selection);
    }
    case Selector::Kind::kCountStar:
      return MakeCountRows();
    case Selector::Kind::kFunction:
      return BuildFunction(selector, selection);
    case Selector::Kind::kCast: {
      if (selector.args.size() != 1) return Status::InvalidRequest("Invalid CAST");
      CASSETTE_ASSIGN_OR_RETURN(DataType target, DataType::Parse(selector.cast_type));
      CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr arg, BuildSelector(selector.args[0], selection));
      if (arg->type() == target) {
        return SelectorNodePtr(
            std::make_unique<SameTypeCastNode>(std::move(target), std::move(arg)));
      }
      // Refused when the statement is prepared, even over an empty table,
      // naming the argument rather than its type, as Cassandra's
      // Selectable.WithCast does ("cvarint cannot be cast to blob").
      if (!CastValue(Value::Null(arg->type()), target).ok()) {
        return Status::InvalidRequest(ResultColumnName(selector.args[0]) + " cannot be cast to " +
                                      target.ToString());
      }
      return SelectorNodePtr(std::make_unique<CastNode>(std::move(target), std::move(arg)));
    }
    case Selector::Kind::kTerm: {
      if (!selector.term) return Status::InvalidRequest("Invalid selector");
      Result<DataType> type = InferTermType(*selector.term, *selection->context);
      if (!type.ok()) {
        return Status::InvalidRequest("Cannot infer type for term " + ResultColumnName(selector) +
                                      " in selection clause (try using a cast to force a type)");
      }
      CASSETTE_ASSIGN_OR_RETURN(
          Value value, EvaluateTerm(*selector.term, *type, "[selection]", *selection->context));
      return SelectorNodePtr(std::make_unique<ConstantNode>(std::move(value)));
    }
    case Selector::Kind::kOperation:
      return BuildOperationSelector(selector, selection);
    case Selector::Kind::kTypeHint:
      return BuildTypeHintSelector(selector, selection);
    case Selector::Kind::kElement: {
      if (selector.args.size() != 1 || !selector.term) {
        return Status::InvalidRequest("Invalid element selection");
      }
      CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr collection,
                                BuildSelector(selector.args[0], selection));
      return BuildElementSelector(std::move(collection), ResultColumnName(selector.args[0]),
                                  *selector.term, selection);
    }
    case Selector::Kind::kSlice: {
      if (selector.args.size() != 1) return Status::InvalidRequest("Invalid slice selection");
      CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr collection,
                                BuildSelector(selector.args[0], selection));
      return BuildSliceSelector(std::move(collection), ResultColumnName(selector.args[0]),
                                selector.term, selector.slice_end, selection);
    }
    case Selector::Kind::kField: {
      if (selector.args.size() != 1) return Status::InvalidRequest("Invalid field selection");
      CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr value, BuildSelector(selector.args[0], selection));
      return BuildField(std::move(value), ResultColumnName(selector.args[0]), selector.field,
                        selection);
    }
  }
  return Status::InvalidRequest("Invalid selector");
}

std::string ResultColumnName(const Selector& selector, const SelectorNode& node) {
  if (selector.kind == Selector::Kind::kCast && selector.alias.empty() &&
      selector.args.size() == 1 && dynamic_cast<const SameTypeCastNode*>(&node) != nullptr) {
    return ResultColumnName(selector.args[0]);
  }
  return ResultColumnName(selector);
}

std::string ResultColumnName(const Selector& selector) {
  if (!selector.alias.empty()) return selector.alias;
  if (selector.kind == Selector::Kind::kCountStar) return "count";
  if (!selector.source_text.empty()) return selector.source_text;
  if (selector.kind == Selector::Kind::kColumn && selector.element) {
    return selector.column + "[" + selector.element->text + "]";
  }
  auto joined_args = [&] {
    std::string out;
    for (const Selector& arg : selector.args) {
      out += (out.empty() ? "" : ", ") + ResultColumnName(arg);
    }
    return out;
  };
  switch (selector.kind) {
    case Selector::Kind::kColumn:
      return selector.column;
    case Selector::Kind::kWritetime:
      return "writetime(" + selector.column + ")";
    case Selector::Kind::kTtl:
      return "ttl(" + selector.column + ")";
    case Selector::Kind::kFunction: {
      std::string name(BareFunctionName(selector.function));
      if (name == "token" || name == "writetime" || name == "ttl" || name == "maxwritetime") {
        return name + "(" + joined_args() + ")";
      }
      return "system." + name + "(" + joined_args() + ")";
    }
    case Selector::Kind::kCast:
      return "cast(" + joined_args() + " as " + selector.cast_type + ")";
    case Selector::Kind::kTerm:
      return selector.term ? selector.term->text : "";
    case Selector::Kind::kElement:
      return joined_args() + "[" + (selector.term ? selector.term->text : "") + "]";
    case Selector::Kind::kSlice:
      return joined_args() + "[" + (selector.term ? selector.term->text : "") + ".." +
             (selector.slice_end ? selector.slice_end->text : "") + "]";
    case Selector::Kind::kField:
      return joined_args() + "." + selector.field;
    case Selector::Kind::kOperation:
      if (selector.args.size() == 1) return "-" + joined_args();
      return selector.args.size() == 2
                 ? ResultColumnName(selector.args[0]) + " " + selector.function + " " +
                       ResultColumnName(selector.args[1])
                 : "";
    case Selector::Kind::kTypeHint:
      return "(" + selector.cast_type + ")" + joined_args();
    case Selector::Kind::kCountStar:
      break;
  }
  return "count";
}

void ColumnsOfSelector(const Selector& selector, const TableSchema& schema,
                       std::vector<const ColumnDefinition*>* columns) {
  if (selector.kind == Selector::Kind::kColumn || selector.kind == Selector::Kind::kWritetime ||
      selector.kind == Selector::Kind::kTtl) {
    if (const ColumnDefinition* column = schema.Find(selector.column)) columns->push_back(column);
  }
  for (const Selector& arg : selector.args) ColumnsOfSelector(arg, schema, columns);
}

bool SelectorAggregates(const Selector& selector) {
  if (selector.kind == Selector::Kind::kCountStar) return true;
  if (selector.kind == Selector::Kind::kFunction && IsAggregateFunction(selector.function)) {
    return true;
  }
  return std::any_of(selector.args.begin(), selector.args.end(), SelectorAggregates);
}

}  // namespace cassette::cql
