#include "engine/cql/arithmetic_selector.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/term_arithmetic.h"
#include "engine/cql/term_evaluator.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {
namespace {

constexpr int64_t kNanosPerMilli = 1000 * 1000;

// Counters compute as bigints (Cassandra's CounterColumnType is a long).
Value AsOperand(const Value& v) {
  if (v.type().kind() != TypeKind::kCounter) return v;
  if (v.is_null()) return Value::Null(DataType::Bigint());
  return Value::FromBytes(DataType::Bigint(), v.bytes());
}

DataType OperandType(const DataType& type) {
  return type.kind() == TypeKind::kCounter ? DataType::Bigint() : type;
}

// Operands computed from each row's selected values.
class OperandsNode : public SelectorNode {
 public:
  OperandsNode(DataType type, std::vector<SelectorNodePtr> operands)
      : SelectorNode(std::move(type)), operands_(std::move(operands)) {}
  bool IsAggregate() const override {
    for (const auto& operand : operands_) {
      if (operand->IsAggregate()) return true;
    }
    return false;
  }
  void Reset() override {
    for (auto& operand : operands_) operand->Reset();
  }
  Status AddInput(const ResultRow& row) override {
    for (auto& operand : operands_) CASSETTE_RETURN_IF_ERROR(operand->AddInput(row));
    return Status::OK();
  }

 protected:
  Result<std::vector<Value>> OperandValues() {
    std::vector<Value> values;
    for (auto& operand : operands_) {
      CASSETTE_ASSIGN_OR_RETURN(Value v, operand->Output());
      values.push_back(AsOperand(v));
    }
    return values;
  }

 private:
  std::vector<SelectorNodePtr> operands_;
};

class BinaryOperationNode : public OperandsNode {
 public:
  BinaryOperationNode(std::string op, DataType type, std::vector<SelectorNodePtr> operands)
      : OperandsNode(std::move(type), std::move(operands)), op_(std::move(op)) {}
  Result<Value> Output() override {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> v, OperandValues());
    return ExecuteOperation(op_, v[0], v[1]);
  }

 private:
  std::string op_;
};

class NegationNode : public OperandsNode {
 public:
  NegationNode(DataType type, std::vector<SelectorNodePtr> operands)
      : OperandsNode(std::move(type), std::move(operands)) {}
  Result<Value> Output() override {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> v, OperandValues());
    return NegateValue(v[0]);
  }
};

// A value passed through under the type hint's name.
class PassThroughNode : public OperandsNode {
 public:
  PassThroughNode(DataType type, std::vector<SelectorNodePtr> operands)
      : OperandsNode(std::move(type), std::move(operands)) {}
  Result<Value> Output() override {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> v, OperandValues());
    return std::move(v[0]);
  }
};

// The type a constant operand takes when nothing else types it: an integer
// as int when it fits, else bigint, else varint; a floating point number
// (NaN, Infinity) as double (OperationFctsTest: `e / 3` is a float,
// `e + 2147483657` a double).
std::optional<DataType> DefaultConstantType(const Term& term) {
  if (term.kind != Term::Kind::kConstant) return std::nullopt;
  if (term.literal == Term::Literal::kFloat) return DataType::Double();
  if (term.literal != Term::Literal::kInteger) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(term.text.c_str(), &end, 10);
  if (errno != 0 || end == term.text.c_str() || *end != '\0') return DataType::Varint();
  if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
    return DataType::Int();
  }
  return DataType::Bigint();
}

Result<SelectorNodePtr> BuildOperand(const Selector& operand, SelectionContext* selection) {
  if (operand.kind != Selector::Kind::kTerm || !operand.term) {
    return BuildSelector(operand, selection);
  }
  const Term& term = *operand.term;
  Result<DataType> inferred = InferTermType(term, *selection->context);
  std::optional<DataType> type = DefaultConstantType(term);
  if (!type) {
    if (!inferred.ok()) return BuildSelector(operand, selection);  // its own message
    type = *inferred;
  }
  CASSETTE_ASSIGN_OR_RETURN(Value value,
                            EvaluateTerm(term, *type, "[selection]", *selection->context));
  return BuildConstantSelector(std::move(value));
}

}  // namespace

Result<Value> ExecuteOperation(std::string_view op, const Value& left, const Value& right) {
  const auto failure = [&](const std::string& why) {
    return Status::FunctionFailure("the operation '" + left.type().ToString() + " " +
                                   std::string(op) + " " + right.type().ToString() +
                                   "' failed: " + why);
  };
  // TimestampType.addDuration / substractDuration: a timestamp counts
  // milliseconds, so a finer duration is refused.
  if (left.type().kind() == TypeKind::kTimestamp && right.type().kind() == TypeKind::kDuration &&
      !right.is_null() && !right.bytes().empty()) {
    CqlDuration d;
    CASSETTE_RETURN_IF_ERROR(DeserializeDuration(right.bytes(), &d));
    if (d.nanos % kNanosPerMilli != 0) {
      return failure("The duration must have a millisecond precision. Was: " + FormatDuration(d));
    }
  }
  return ApplyOperation(op, left, right);
}

Result<SelectorNodePtr> BuildOperationSelector(const Selector& selector,
                                               SelectionContext* selection) {
  std::vector<SelectorNodePtr> operands;
  for (const Selector& arg : selector.args) {
    CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr node, BuildOperand(arg, selection));
    operands.push_back(std::move(node));
  }
  if (operands.size() == 1) {
    const DataType type = OperandType(operands[0]->type());
    const TypeKind kind = type.kind();
    const bool negatable =
        kind == TypeKind::kTinyint || kind == TypeKind::kSmallint || kind == TypeKind::kInt ||
        kind == TypeKind::kBigint || kind == TypeKind::kFloat || kind == TypeKind::kDouble ||
        kind == TypeKind::kVarint || kind == TypeKind::kDecimal || kind == TypeKind::kDuration;
    if (!negatable) {
      return Status::InvalidRequest("the '-' operation is not supported on " +
                                    ResultColumnName(selector.args[0]));
    }
    return SelectorNodePtr(std::make_unique<NegationNode>(type, std::move(operands)));
  }
  if (operands.size() != 2) return Status::InvalidRequest("Invalid operation");
  const std::optional<DataType> type = OperationResultType(
      selector.function, OperandType(operands[0]->type()), OperandType(operands[1]->type()));
  if (!type) {
    return Status::InvalidRequest(
        "the '" + selector.function + "' operation is not supported between " +
        ResultColumnName(selector.args[0]) + " and " + ResultColumnName(selector.args[1]));
  }
  return SelectorNodePtr(
      std::make_unique<BinaryOperationNode>(selector.function, *type, std::move(operands)));
}

Result<SelectorNodePtr> BuildTypeHintSelector(const Selector& selector,
                                              SelectionContext* selection) {
  if (selector.args.size() != 1) return Status::InvalidRequest("Invalid type hint");
  CASSETTE_ASSIGN_OR_RETURN(DataType hint, DataType::Parse(selector.cast_type));
  std::vector<SelectorNodePtr> operands;
  CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr node, BuildSelector(selector.args[0], selection));
  // A hint names the type a selector already has: it changes no value.
  if (!(node->type() == hint)) {
    return Status::InvalidRequest("Type error: " + ResultColumnName(selector.args[0]) +
                                  " of type " + node->type().ToString() + " cannot be hinted as " +
                                  hint.ToString());
  }
  operands.push_back(std::move(node));
  return SelectorNodePtr(std::make_unique<PassThroughNode>(std::move(hint), std::move(operands)));
}

}  // namespace cassette::cql
