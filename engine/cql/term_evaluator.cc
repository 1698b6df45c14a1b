#include "engine/cql/term_evaluator.h"

#include <optional>
#include <string>
#include <utility>

#include "engine/cql/arithmetic_selector.h"
#include "engine/cql/function_registry.h"
#include "engine/cql/functions.h"
#include "engine/cql/term_arithmetic.h"
#include "engine/cql/term_text.h"
#include "engine/types/literal_syntax.h"
#include "engine/types/type_codec.h"
#include "engine/types/uuid_text.h"

namespace cassette::cql {
namespace {

const char* LiteralName(Term::Literal literal) {
  switch (literal) {
    case Term::Literal::kString:
      return "STRING";
    case Term::Literal::kInteger:
      return "INTEGER";
    case Term::Literal::kFloat:
      return "FLOAT";
    case Term::Literal::kBoolean:
      return "BOOLEAN";
    case Term::Literal::kUuid:
      return "UUID";
    case Term::Literal::kHex:
      return "HEX";
    case Term::Literal::kDuration:
      return "DURATION";
  }
  return "STRING";
}

Status Invalid(std::string message) { return Status::InvalidRequest(std::move(message)); }

bool IsAsciiText(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// The type Cassandra prefers for a constant (Constants.Type.getPreferedTypeFor):
// an exact match for a receiver of that type.
std::optional<DataType> PreferredType(const Term& constant) {
  switch (constant.literal) {
    case Term::Literal::kString:
      return IsAsciiText(constant.text) ? DataType::Ascii() : DataType::Text();
    case Term::Literal::kInteger: {
      if (Value::Parse(DataType::Int(), constant.text).ok()) return DataType::Int();
      if (Value::Parse(DataType::Bigint(), constant.text).ok()) return DataType::Bigint();
      return DataType::Varint();
    }
    case Term::Literal::kFloat:
      return DataType::Double();
    case Term::Literal::kBoolean:
      return DataType::Boolean();
    case Term::Literal::kUuid: {
      std::string bytes;
      if (ParseUuidText(constant.text, &bytes) && UuidVersion(bytes) == 1) {
        return DataType::Timeuuid();
      }
      return DataType::Uuid();
    }
    case Term::Literal::kHex:
      return DataType::Blob();
    case Term::Literal::kDuration:
      return DataType::Duration();
  }
  return std::nullopt;
}

// Constants.Literal.testAssignment: which receiver types each kind of
// constant may be written to.
Assignability ConstantAssignability(const Term& constant, const DataType& receiver) {
  // A string constant is a tuple's string form (TupleType.fromString).
  if (receiver.kind() == TypeKind::kTuple && constant.literal == Term::Literal::kString) {
    return Assignability::kWeaklyAssignable;
  }
  if (receiver.IsCollection() || receiver.kind() == TypeKind::kTuple ||
      receiver.kind() == TypeKind::kUdt) {
    return Assignability::kNotAssignable;
  }
  const std::optional<DataType> preferred = PreferredType(constant);
  if (preferred && *preferred == receiver) return Assignability::kExactMatch;
  const TypeKind k = receiver.kind();
  bool ok = false;
  switch (constant.literal) {
    case Term::Literal::kString:
      ok = k == TypeKind::kAscii || k == TypeKind::kText || k == TypeKind::kInet ||
           k == TypeKind::kDate || k == TypeKind::kTime || k == TypeKind::kTimestamp;
      break;
    case Term::Literal::kInteger:
      ok = k == TypeKind::kBigint || k == TypeKind::kCounter || k == TypeKind::kDate ||
           k == TypeKind::kDecimal || k == TypeKind::kDouble || k == TypeKind::kDuration ||
           k == TypeKind::kFloat || k == TypeKind::kInt || k == TypeKind::kSmallint ||
           k == TypeKind::kTime || k == TypeKind::kTimestamp || k == TypeKind::kTinyint ||
           k == TypeKind::kVarint;
      break;
    case Term::Literal::kUuid:
      ok = k == TypeKind::kUuid || k == TypeKind::kTimeuuid;
      break;
    case Term::Literal::kFloat:
      ok = k == TypeKind::kDecimal || k == TypeKind::kDouble || k == TypeKind::kFloat;
      break;
    case Term::Literal::kBoolean:
      ok = k == TypeKind::kBoolean;
      break;
    case Term::Literal::kHex:
      ok = k == TypeKind::kBlob;
      break;
    case Term::Literal::kDuration:
      ok = k == TypeKind::kDuration;
      break;
  }
  return ok ? Assignability::kWeaklyAssignable : Assignability::kNotAssignable;
}

// The type a term has on its own, without literal inference: a function's
// return type, a cast's or hint's type, a bound value's type. What function
// overload resolution may rely on.
std::optional<DataType> ExactType(const Term& term, const ExecutionContext& context);

Assignability TestAssignment(const Term& term, const DataType& receiver,
                             const ExecutionContext& context);

// The operand types of `a op b` (Term::Kind::kArithmetic), when they can be
// known: a side without a type of its own takes the other side's (or a
// duration next to a timestamp or date), and the receiver's when neither
// side has one.
struct OperandTypes {
  std::optional<DataType> left, right;
};
OperandTypes ArithmeticOperandTypes(const Term& term, const std::optional<DataType>& receiver,
                                    const ExecutionContext& context);

std::optional<DataType> ArithmeticResultType(const Term& term, const ExecutionContext& context) {
  const OperandTypes types = ArithmeticOperandTypes(term, std::nullopt, context);
  if (!types.left || !types.right) return std::nullopt;
  return OperationResultType(term.text, *types.left, *types.right);
}

// Every element of `elements` (from `begin`, every `step`) fits `type`.
bool ElementsFit(const std::vector<Term>& elements, size_t begin, size_t step, const DataType& type,
                 const ExecutionContext& context) {
  for (size_t i = begin; i < elements.size(); i += step) {
    if (TestAssignment(elements[i], type, context) == Assignability::kNotAssignable) return false;
  }
  return true;
}

Assignability Fits(bool ok) {
  return ok ? Assignability::kWeaklyAssignable : Assignability::kNotAssignable;
}

Assignability TestAssignment(const Term& term, const DataType& receiver,
                             const ExecutionContext& context) {
  const TypeKind k = receiver.kind();
  switch (term.kind) {
    case Term::Kind::kConstant:
      return ConstantAssignability(term, receiver);
    case Term::Kind::kNull:
      return Fits(k != TypeKind::kCounter);
    case Term::Kind::kBindMarker:
    case Term::Kind::kArithmetic:
      return Assignability::kWeaklyAssignable;
    case Term::Kind::kList:
      return Fits(k == TypeKind::kList &&
                  ElementsFit(term.elements, 0, 1, receiver.params()[0], context));
    case Term::Kind::kSet:
      return Fits(k == TypeKind::kSet &&
                  ElementsFit(term.elements, 0, 1, receiver.params()[0], context));
    case Term::Kind::kMap:
      return Fits(k == TypeKind::kMap &&
                  ElementsFit(term.elements, 0, 2, receiver.params()[0], context) &&
                  ElementsFit(term.elements, 1, 2, receiver.params()[1], context));
    case Term::Kind::kEmptyBraces:
      return Fits(k == TypeKind::kSet || k == TypeKind::kMap);
    case Term::Kind::kUserType: {
      if (k != TypeKind::kUdt) return Assignability::kNotAssignable;
      for (size_t i = 0; i < term.elements.size(); ++i) {
        const int field = receiver.FieldIndex(term.field_names[i]);
        if (field < 0 ||
            TestAssignment(term.elements[i], receiver.params()[static_cast<size_t>(field)],
                           context) == Assignability::kNotAssignable) {
          return Assignability::kNotAssignable;
        }
      }
      return Assignability::kWeaklyAssignable;
    }
    case Term::Kind::kTuple: {
      if (k != TypeKind::kTuple || term.elements.size() > receiver.params().size()) {
        return Assignability::kNotAssignable;
      }
      for (size_t i = 0; i < term.elements.size(); ++i) {
        if (TestAssignment(term.elements[i], receiver.params()[i], context) ==
            Assignability::kNotAssignable) {
          return Assignability::kNotAssignable;
        }
      }
      return Assignability::kWeaklyAssignable;
    }
    case Term::Kind::kNegate:
      return term.elements.empty() ? Assignability::kNotAssignable
                                   : TestAssignment(term.elements[0], receiver, context);
    case Term::Kind::kFunction:
    case Term::Kind::kCast:
    case Term::Kind::kTypeHint: {
      // An unknown or unresolvable function is "assignable" so that its own,
      // more precise error surfaces when it is evaluated.
      const std::optional<DataType> type = ExactType(term, context);
      return type ? TypeAssignability(receiver, *type) : Assignability::kWeaklyAssignable;
    }
  }
  return Assignability::kNotAssignable;
}

std::vector<ProvidedArgument> ProvidedArguments(const std::vector<Term>& arguments,
                                                const ExecutionContext& context) {
  std::vector<ProvidedArgument> provided;
  for (const Term& argument : arguments) provided.push_back(TermArgument(argument, context));
  return provided;
}

bool IsTokenFunction(const Term& term) {
  const std::optional<std::string> native = NativeFunctionName(term.text);
  return native && *native == "token";
}

std::optional<DataType> ExactType(const Term& term, const ExecutionContext& context) {
  switch (term.kind) {
    case Term::Kind::kFunction: {
      if (IsTokenFunction(term)) return DataType::Bigint();
      Result<const NativeFunction*> f =
          ResolveNativeFunction(term.text, ProvidedArguments(term.elements, context), std::nullopt);
      if (!f.ok()) return std::nullopt;
      return (*f)->return_type;
    }
    case Term::Kind::kCast:
    case Term::Kind::kTypeHint: {
      Result<DataType> type = DataType::Parse(term.text);
      if (!type.ok()) return std::nullopt;
      return *type;
    }
    case Term::Kind::kBindMarker:
      if (context.values != nullptr && term.bind_index >= 0 &&
          static_cast<size_t>(term.bind_index) < context.values->size()) {
        const Value& v = (*context.values)[static_cast<size_t>(term.bind_index)];
        if (!v.is_null()) return v.type();
      }
      return std::nullopt;
    case Term::Kind::kNegate:
      if (term.elements.empty()) return std::nullopt;
      return ExactType(term.elements[0], context);
    case Term::Kind::kArithmetic:
      return ArithmeticResultType(term, context);
    default:
      return std::nullopt;
  }
}

Result<Value> EvaluateConstant(const Term& term, const DataType& receiver,
                               std::string_view receiver_name) {
  if (ConstantAssignability(term, receiver) == Assignability::kNotAssignable) {
    return Invalid(std::string("Invalid ") + LiteralName(term.literal) + " constant (" + term.text +
                   ") for \"" + std::string(receiver_name) + "\" of type " + receiver.ToString());
  }
  if (term.literal == Term::Literal::kHex && term.text.size() % 2 == 1) {
    // Constants.Literal hands the digits after "0x" to BytesType.fromString,
    // whose Hex.hexToBytes refuses an odd count rather than pad it.
    return Invalid("cannot parse '" + term.text.substr(2) + "' as hex bytes");
  }
  if (term.literal != Term::Literal::kString) {
    // Counters parse as bigint, as Cassandra's LongType.fromString.
    CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseLiteral(receiver, term.text));
    return Value::FromBytes(receiver, std::move(bytes));
  }
  if (receiver.kind() == TypeKind::kText) {
    CASSETTE_RETURN_IF_ERROR(ValidateValue(receiver, term.text));
    return Value::FromBytes(receiver, term.text);
  }
  if (receiver.kind() == TypeKind::kTuple) {
    CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseTupleString(receiver, term.text));
    return Value::FromBytes(receiver, std::move(bytes));
  }
  // The literal parser takes quoted text; quote the content back.
  std::string quoted = "'";
  for (char c : term.text) {
    quoted.push_back(c);
    if (c == '\'') quoted.push_back('\'');
  }
  quoted.push_back('\'');
  CASSETTE_ASSIGN_OR_RETURN(std::string bytes, ParseLiteral(receiver, quoted));
  return Value::FromBytes(receiver, std::move(bytes));
}

Result<Value> EvaluateBindMarker(const Term& term, const DataType& receiver,
                                 const ExecutionContext& context) {
  if (context.values == nullptr || term.bind_index < 0 ||
      static_cast<size_t>(term.bind_index) >= context.values->size()) {
    return Invalid("No value bound for bind marker " + TermSourceText(term) + " (index " +
                   std::to_string(term.bind_index) + ")");
  }
  const Value& bound = (*context.values)[static_cast<size_t>(term.bind_index)];
  if (bound.is_null()) return Value::Null(receiver);
  // Like Cassandra with bound bytes: any value whose bytes are valid for
  // the receiver's type is accepted as that type.
  CASSETTE_RETURN_IF_ERROR(ValidateValue(receiver, bound.bytes()));
  return Value::FromBytes(receiver, bound.bytes());
}

// Evaluates a collection element; collections cannot hold nulls.
Result<Value> EvaluateElement(const Term& term, const DataType& type, const std::string& name,
                              const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(term, type, name, context));
  if (v.is_null()) return Invalid("null is not supported inside collections");
  return v;
}

std::string Name(std::string_view receiver_name) { return std::string(receiver_name); }

// The elements of a list or set literal (`literal`: "list" or "set") for a
// receiver already known to be of that kind, each checked, then evaluated.
Result<std::vector<Value>> EvaluateElements(const Term& term, const DataType& element_type,
                                            const char* literal, std::string_view receiver_name,
                                            const ExecutionContext& context) {
  for (const Term& e : term.elements) {
    if (TestAssignment(e, element_type, context) == Assignability::kNotAssignable) {
      return Invalid("Invalid " + std::string(literal) + " literal for " + Name(receiver_name) +
                     ": value " + TermSourceText(e) + " is not of type " + element_type.ToString());
    }
  }
  std::vector<Value> values;
  const std::string element_name = "value(" + Name(receiver_name) + ")";
  for (const Term& e : term.elements) {
    CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateElement(e, element_type, element_name, context));
    values.push_back(std::move(v));
  }
  return values;
}

Result<Value> EvaluateList(const Term& term, const DataType& receiver,
                           std::string_view receiver_name, const ExecutionContext& context) {
  if (receiver.kind() != TypeKind::kList) {
    return Invalid("Invalid list literal for " + Name(receiver_name) + " of type " +
                   receiver.ToString());
  }
  const DataType& element_type = receiver.params()[0];
  CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values,
                            EvaluateElements(term, element_type, "list", receiver_name, context));
  return Value::FromBytes(receiver, Value::List(element_type, values).bytes());
}

Result<Value> EvaluateSet(const Term& term, const DataType& receiver,
                          std::string_view receiver_name, const ExecutionContext& context) {
  // {} is an empty set, or an empty map for a map receiver.
  if (term.elements.empty() && receiver.kind() == TypeKind::kMap) {
    return Value::FromBytes(receiver,
                            Value::Map(receiver.params()[0], receiver.params()[1], {}).bytes());
  }
  if (receiver.kind() != TypeKind::kSet) {
    return Invalid("Invalid set literal for " + Name(receiver_name) + " of type " +
                   receiver.ToString());
  }
  const DataType& element_type = receiver.params()[0];
  CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values,
                            EvaluateElements(term, element_type, "set", receiver_name, context));
  return Value::FromBytes(receiver, Value::Set(element_type, values).bytes());
}

Result<Value> EvaluateMap(const Term& term, const DataType& receiver,
                          std::string_view receiver_name, const ExecutionContext& context) {
  if (receiver.kind() != TypeKind::kMap) {
    return Invalid("Invalid map literal for " + Name(receiver_name) + " of type " +
                   receiver.ToString());
  }
  const DataType& key_type = receiver.params()[0];
  const DataType& value_type = receiver.params()[1];
  for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
    if (TestAssignment(term.elements[i], key_type, context) == Assignability::kNotAssignable) {
      return Invalid("Invalid map literal for " + Name(receiver_name) + ": key " +
                     TermSourceText(term.elements[i]) + " is not of type " + key_type.ToString());
    }
    if (TestAssignment(term.elements[i + 1], value_type, context) ==
        Assignability::kNotAssignable) {
      return Invalid("Invalid map literal for " + Name(receiver_name) + ": value " +
                     TermSourceText(term.elements[i + 1]) + " is not of type " +
                     value_type.ToString());
    }
  }
  std::vector<std::pair<Value, Value>> entries;
  const std::string key_name = "key(" + Name(receiver_name) + ")";
  const std::string value_name = "value(" + Name(receiver_name) + ")";
  for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
    CASSETTE_ASSIGN_OR_RETURN(Value k,
                              EvaluateElement(term.elements[i], key_type, key_name, context));
    CASSETTE_ASSIGN_OR_RETURN(
        Value v, EvaluateElement(term.elements[i + 1], value_type, value_name, context));
    entries.emplace_back(std::move(k), std::move(v));
  }
  return Value::FromBytes(receiver, Value::Map(key_type, value_type, entries).bytes());
}

Result<Value> EvaluateTuple(const Term& term, const DataType& receiver,
                            std::string_view receiver_name, const ExecutionContext& context) {
  if (receiver.kind() != TypeKind::kTuple) {
    return Invalid("Invalid tuple type literal for " + Name(receiver_name) + " of type " +
                   receiver.ToString());
  }
  const std::vector<DataType>& components = receiver.params();
  for (size_t i = 0; i < term.elements.size(); ++i) {
    if (i >= components.size()) {
      return Invalid("Invalid tuple literal for " + Name(receiver_name) +
                     ": too many elements. Type " + receiver.ToString() + " expects " +
                     std::to_string(components.size()) + " but got " +
                     std::to_string(term.elements.size()));
    }
    if (TestAssignment(term.elements[i], components[i], context) == Assignability::kNotAssignable) {
      return Invalid("Invalid tuple literal for " + Name(receiver_name) + ": component " +
                     std::to_string(i) + " is not of type " + components[i].ToString());
    }
  }
  std::vector<std::optional<std::string>> serialized;
  for (size_t i = 0; i < term.elements.size(); ++i) {
    const std::string name = Name(receiver_name) + "[" + std::to_string(i) + "]";
    CASSETTE_ASSIGN_OR_RETURN(Value v,
                              EvaluateTerm(term.elements[i], components[i], name, context));
    if (v.is_null()) {
      serialized.emplace_back(std::nullopt);
    } else {
      serialized.emplace_back(v.bytes());
    }
  }
  // Components the literal leaves out are null (TupleTypeTest.testTuplePutAndGet).
  serialized.resize(components.size());
  return Value::FromBytes(receiver, SerializeTuple(serialized));
}

// {f: v, ...} for a user type (UserTypes.Literal): fields in any order,
// missing ones null; every field is serialized.
Result<Value> EvaluateUserType(const Term& term, const DataType& receiver,
                               std::string_view receiver_name, const ExecutionContext& context) {
  if (receiver.kind() != TypeKind::kUdt) {
    return Invalid("Invalid user type literal for " + Name(receiver_name) + " of type " +
                   receiver.ToString());
  }
  std::vector<const Term*> by_field(receiver.params().size(), nullptr);
  for (size_t i = 0; i < term.elements.size(); ++i) {
    const int field = receiver.FieldIndex(term.field_names[i]);
    if (field < 0) {
      return Invalid("Unknown field '" + term.field_names[i] + "' in value of user defined type " +
                     receiver.udt_name());
    }
    by_field[static_cast<size_t>(field)] = &term.elements[i];
  }
  for (size_t i = 0; i < by_field.size(); ++i) {
    if (by_field[i] != nullptr && TestAssignment(*by_field[i], receiver.params()[i], context) ==
                                      Assignability::kNotAssignable) {
      return Invalid("Invalid user type literal for " + Name(receiver_name) + ": field " +
                     receiver.field_names()[i] + " is not of type " +
                     receiver.params()[i].ToString());
    }
  }
  std::vector<std::optional<std::string>> serialized;
  for (size_t i = 0; i < by_field.size(); ++i) {
    if (by_field[i] == nullptr) {
      serialized.emplace_back(std::nullopt);
      continue;
    }
    const std::string name = Name(receiver_name) + "." + receiver.field_names()[i];
    CASSETTE_ASSIGN_OR_RETURN(Value v,
                              EvaluateTerm(*by_field[i], receiver.params()[i], name, context));
    if (v.is_null()) {
      serialized.emplace_back(std::nullopt);
    } else {
      serialized.emplace_back(v.bytes());
    }
  }
  return Value::FromBytes(receiver, SerializeTuple(serialized));
}

// A value of some type given to a receiver it is value-compatible with.
// An integer's bytes are a valid varint as they are (a varint need not be
// minimal: engine/types/type_validation.cc), so mask_replace(v, (int) 1)
// over a varint v is 1 (ReplaceMaskingFunctionTest.testReplaceWithDifferentType).
Value Retype(const Value& v, const DataType& receiver) {
  return v.is_null() ? Value::Null(receiver) : Value::FromBytes(receiver, v.bytes());
}

Result<Value> EvaluateToken(const Term& term, const DataType& receiver,
                            std::string_view receiver_name, const ExecutionContext& context) {
  // token()'s parameter types are the partition key's of the table the
  // statement writes (FunctionResolver's TokenFct over the receiver's
  // table; cqlpy test_cast.py test_cast_bigint_token_to_blobl): token(1234)
  // into a table keyed by an int hashes the int. Without a table, each
  // argument must carry its own type.
  std::vector<DataType> key_types;
  if (context.table != nullptr) {
    for (size_t index : context.table->partition_key()) {
      key_types.push_back(context.table->columns()[index].type);
    }
    if (key_types.size() != term.elements.size()) {
      return Invalid("Invalid number of arguments in call to function system.token: " +
                     std::to_string(key_types.size()) + " required but " +
                     std::to_string(term.elements.size()) + " provided");
    }
  }
  std::vector<Value> arguments;
  for (size_t i = 0; i < term.elements.size(); ++i) {
    const Term& argument = term.elements[i];
    std::optional<DataType> type;
    if (context.table != nullptr) {
      type = key_types[i];
      if (TestAssignment(argument, *type, context) == Assignability::kNotAssignable) {
        return Invalid("Type error: " + TermSourceText(argument) +
                       " cannot be passed as argument " + std::to_string(i) +
                       " of function system.token of type " + type->ToString());
      }
    } else {
      type = ExactType(argument, context);
    }
    if (!type) {
      return Invalid("Cannot infer type of argument " + TermSourceText(argument) +
                     " in call to function token");
    }
    CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(argument, *type, receiver_name, context));
    arguments.push_back(std::move(v));
  }
  CASSETTE_ASSIGN_OR_RETURN(Value token, CallFunction("token", arguments, {context.now_micros}));
  if (!IsValueCompatible(receiver, DataType::Bigint())) {
    return Invalid("Type error: cannot assign result of function system.token (type bigint) to " +
                   Name(receiver_name) + " (type " + receiver.ToString() + ")");
  }
  return Retype(token, receiver);
}

Result<Value> EvaluateFunction(const Term& term, const DataType& receiver,
                               std::string_view receiver_name, const ExecutionContext& context) {
  if (IsTokenFunction(term)) return EvaluateToken(term, receiver, receiver_name, context);
  const std::optional<std::string> native = NativeFunctionName(term.text);
  if (!native || !IsNativeFunction(*native)) {
    return Invalid("Unknown function " + term.text + " called");
  }
  CASSETTE_ASSIGN_OR_RETURN(
      const NativeFunction* f,
      ResolveNativeFunction(term.text, ProvidedArguments(term.elements, context), receiver));
  if (!IsValueCompatible(receiver, f->return_type)) {
    return Invalid("Type error: cannot assign result of function " + f->QualifiedName() +
                   " (type " + f->return_type.ToString() + ") to " + Name(receiver_name) +
                   " (type " + receiver.ToString() + ")");
  }
  std::vector<Value> arguments;
  for (size_t i = 0; i < term.elements.size(); ++i) {
    const std::string name = "arg" + std::to_string(i) + "(" + f->QualifiedName() + ")";
    CASSETTE_ASSIGN_OR_RETURN(Value v,
                              EvaluateTerm(term.elements[i], f->argument_types[i], name, context));
    arguments.push_back(std::move(v));
  }
  CASSETTE_ASSIGN_OR_RETURN(Value result, f->body(*f, arguments, {context.now_micros}));
  return Retype(result, receiver);
}

Result<Value> EvaluateTypeHint(const Term& term, const DataType& receiver,
                               std::string_view receiver_name, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(DataType hinted, DataType::Parse(term.text));
  if (term.elements.empty()) return Invalid("Invalid type hint " + TermSourceText(term));
  const Term& inner = term.elements[0];
  if (TestAssignment(inner, hinted, context) == Assignability::kNotAssignable) {
    return Invalid("Cannot cast value " + TermSourceText(inner) + " to type " + hinted.ToString());
  }
  if (TypeAssignability(receiver, hinted) == Assignability::kNotAssignable) {
    return Invalid("Cannot assign value " + TermSourceText(term) + " to " + Name(receiver_name) +
                   " of type " + receiver.ToString());
  }
  CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(inner, hinted, receiver_name, context));
  return Retype(v, receiver);
}

Result<Value> EvaluateCast(const Term& term, const DataType& receiver,
                           std::string_view receiver_name, const ExecutionContext& context) {
  CASSETTE_ASSIGN_OR_RETURN(DataType target, DataType::Parse(term.text));
  if (term.elements.empty()) return Invalid("Invalid cast " + TermSourceText(term));
  const Term& inner = term.elements[0];
  CASSETTE_ASSIGN_OR_RETURN(DataType source, InferTermType(inner, context));
  CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(inner, source, receiver_name, context));
  CASSETTE_ASSIGN_OR_RETURN(Value cast, CastValue(v, target));
  if (TypeAssignability(receiver, target) == Assignability::kNotAssignable) {
    return Invalid("Cannot assign value " + TermSourceText(term) + " to " + Name(receiver_name) +
                   " of type " + receiver.ToString());
  }
  return Retype(cast, receiver);
}

bool IsDurationConstant(const Term& term) {
  return term.kind == Term::Kind::kConstant && term.literal == Term::Literal::kDuration;
}

OperandTypes ArithmeticOperandTypes(const Term& term, const std::optional<DataType>& receiver,
                                    const ExecutionContext& context) {
  OperandTypes types;
  if (term.elements.size() != 2) return types;
  const Term& left = term.elements[0];
  const Term& right = term.elements[1];
  types.left = ExactType(left, context);
  types.right = ExactType(right, context);
  const bool additive = term.text == "+" || term.text == "-";
  auto counterpart = [&](const DataType& known, const Term& other) -> std::optional<DataType> {
    const TypeKind k = known.kind();
    if ((k == TypeKind::kTimestamp || k == TypeKind::kDate) && additive) {
      return DataType::Duration();
    }
    // A float literal next to an integer operand is a double.
    if (other.kind == Term::Kind::kConstant && other.literal == Term::Literal::kFloat &&
        k != TypeKind::kFloat && k != TypeKind::kDouble && k != TypeKind::kDecimal) {
      return DataType::Double();
    }
    return known;
  };
  if (types.left && !types.right) {
    types.right = counterpart(*types.left, right);
  } else if (types.right && !types.left) {
    types.left = counterpart(*types.right, left);
  } else if (!types.left && !types.right && receiver) {
    types.left = *receiver;
    types.right = IsDurationConstant(right) ? DataType::Duration() : *receiver;
  }
  return types;
}

Result<Value> EvaluateArithmetic(const Term& term, const DataType& receiver,
                                 std::string_view receiver_name, const ExecutionContext& context) {
  if (term.elements.size() != 2) return Invalid("Invalid operation " + TermSourceText(term));
  const OperandTypes types = ArithmeticOperandTypes(term, receiver, context);
  if (!types.left || !types.right || !OperationResultType(term.text, *types.left, *types.right)) {
    return Invalid("the '" + term.text + "' operation is not supported between " +
                   TermSourceText(term.elements[0]) + " and " + TermSourceText(term.elements[1]));
  }
  CASSETTE_ASSIGN_OR_RETURN(Value left,
                            EvaluateTerm(term.elements[0], *types.left, receiver_name, context));
  CASSETTE_ASSIGN_OR_RETURN(Value right,
                            EvaluateTerm(term.elements[1], *types.right, receiver_name, context));
  CASSETTE_ASSIGN_OR_RETURN(Value result, ExecuteOperation(term.text, left, right));
  if (IsValueCompatible(receiver, result.type())) return Retype(result, receiver);
  // A number of another width than the receiver (Cassandra would have
  // picked the overload of the receiver's type).
  Result<Value> cast = CastValue(result, receiver);
  if (cast.ok() && receiver.kind() != TypeKind::kText && receiver.kind() != TypeKind::kAscii) {
    return cast;
  }
  return Invalid("Type error: cannot assign result of operation " + TermSourceText(term) +
                 " (type " + result.type().ToString() + ") to " + Name(receiver_name) + " (type " +
                 receiver.ToString() + ")");
}

Result<Value> EvaluateNegation(const Term& term, const DataType& receiver,
                               std::string_view receiver_name, const ExecutionContext& context) {
  if (term.elements.empty()) return Invalid("Invalid negation " + TermSourceText(term));
  CASSETTE_ASSIGN_OR_RETURN(Value v,
                            EvaluateTerm(term.elements[0], receiver, receiver_name, context));
  CASSETTE_ASSIGN_OR_RETURN(Value negated, NegateValue(v));
  return Retype(negated, receiver);
}

}  // namespace

Result<Value> EvaluateTerm(const Term& term, const DataType& receiver,
                           std::string_view receiver_name, const ExecutionContext& context) {
  switch (term.kind) {
    case Term::Kind::kConstant:
      return EvaluateConstant(term, receiver, receiver_name);
    case Term::Kind::kNull:
      if (receiver.kind() == TypeKind::kCounter) {
        return Invalid("Invalid null value for counter increment/decrement");
      }
      return Value::Null(receiver);
    case Term::Kind::kBindMarker:
      return EvaluateBindMarker(term, receiver, context);
    case Term::Kind::kList:
      return EvaluateList(term, receiver, receiver_name, context);
    case Term::Kind::kSet:
    case Term::Kind::kEmptyBraces:
      return EvaluateSet(term, receiver, receiver_name, context);
    case Term::Kind::kMap:
      return EvaluateMap(term, receiver, receiver_name, context);
    case Term::Kind::kTuple:
      return EvaluateTuple(term, receiver, receiver_name, context);
    case Term::Kind::kUserType:
      return EvaluateUserType(term, receiver, receiver_name, context);
    case Term::Kind::kFunction:
      return EvaluateFunction(term, receiver, receiver_name, context);
    case Term::Kind::kCast:
      return EvaluateCast(term, receiver, receiver_name, context);
    case Term::Kind::kTypeHint:
      return EvaluateTypeHint(term, receiver, receiver_name, context);
    case Term::Kind::kNegate:
      return EvaluateNegation(term, receiver, receiver_name, context);
    case Term::Kind::kArithmetic:
      return EvaluateArithmetic(term, receiver, receiver_name, context);
  }
  return Invalid("Invalid term " + TermSourceText(term));
}

Result<std::vector<Value>> EvaluateInValues(const Relation& relation, const DataType& receiver,
                                            std::string_view receiver_name,
                                            const ExecutionContext& context) {
  std::vector<Value> values;
  if (relation.value) {
    // IN ?: one bound list of values of the receiver's type.
    const DataType list_type = DataType::List(receiver, /*frozen=*/true);
    const std::string name = "in(" + Name(receiver_name) + ")";
    CASSETTE_ASSIGN_OR_RETURN(Value list, EvaluateTerm(*relation.value, list_type, name, context));
    if (list.is_null()) return Invalid("Invalid null value for " + Name(receiver_name));
    for (const Value& element : list.Elements()) values.push_back(Retype(element, receiver));
    return values;
  }
  for (const Term& term : relation.in_values) {
    CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(term, receiver, receiver_name, context));
    values.push_back(std::move(v));
  }
  return values;
}

ProvidedArgument TermArgument(const Term& term, const ExecutionContext& context) {
  // A literal's preferred type counts as its own, as Cassandra 5's
  // getCompatibleTypeIfKnown has it (mask_default(123) is an int).
  Result<DataType> type = InferTermType(term, context);
  return {[&term, &context](const DataType& parameter) {
            return TestAssignment(term, parameter, context);
          },
          TermSourceText(term), type.ok() ? std::optional<DataType>(*type) : std::nullopt};
}

Result<DataType> InferTermType(const Term& term, const ExecutionContext& context) {
  if (std::optional<DataType> exact = ExactType(term, context)) return *exact;
  switch (term.kind) {
    case Term::Kind::kConstant:
      if (std::optional<DataType> preferred = PreferredType(term)) return *preferred;
      break;
    case Term::Kind::kList:
    case Term::Kind::kSet:
    case Term::Kind::kTuple:
    case Term::Kind::kMap: {
      if (term.elements.empty()) break;
      std::vector<DataType> types;
      for (const Term& e : term.elements) {
        Result<DataType> t = InferTermType(e, context);
        if (!t.ok()) return t.status();
        types.push_back(*t);
      }
      if (term.kind == Term::Kind::kTuple) return DataType::Tuple(types);
      if (term.kind == Term::Kind::kList) return DataType::List(types[0]);
      if (term.kind == Term::Kind::kSet) return DataType::Set(types[0]);
      return DataType::Map(types[0], types[1]);
    }
    default:
      break;
  }
  return Invalid("Cannot infer type for term " + TermSourceText(term) +
                 " in selection clause (try using a cast to force a type)");
}

}  // namespace cassette::cql
