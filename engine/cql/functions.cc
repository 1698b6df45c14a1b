#include "engine/cql/functions.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "engine/cql/function_registry.h"
#include "engine/cql/integer_value.h"
#include "engine/cql/time_functions.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/calendar.h"
#include "engine/types/float_format.h"
#include "engine/types/type_codec.h"
#include "engine/util/murmur3.h"

namespace cassette::cql {
namespace {

constexpr int64_t kMillisPerDay = 86400LL * 1000;

bool IsToken(std::string_view name) {
  const std::optional<std::string> native = NativeFunctionName(name);
  return native && *native == "token";
}

// token(k1, k2, ...): the Murmur3 token of the partition key the values
// serialize to (a composite key for several components).
Result<Value> Token(const std::vector<Value>& arguments) {
  for (const Value& v : arguments) {
    if (v.is_null()) return Value::Null(DataType::Bigint());
  }
  if (arguments.size() == 1) return Value::Bigint(Murmur3Token(arguments[0].bytes()));
  std::string key;
  for (const Value& v : arguments) {
    const std::string& bytes = v.bytes();
    if (bytes.size() > 0xFFFF) {
      return Status::InvalidRequest("Key length of " + std::to_string(bytes.size()) +
                                    " is longer than maximum of 65535");
    }
    key.push_back(static_cast<char>(bytes.size() >> 8));
    key.push_back(static_cast<char>(bytes.size() & 0xFF));
    key += bytes;
    key.push_back('\0');
  }
  return Value::Bigint(Murmur3Token(key));
}

bool IsNumeric(TypeKind k) {
  switch (k) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kVarint:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
      return true;
    default:
      return false;
  }
}

// A number read from any numeric value: its integral part (Java's
// narrowing: truncation toward zero) as a BigInteger, its double value and
// its exact decimal text.
struct Number {
  BigInteger integral;
  double real = 0;
  std::string text;  // exact for integers and decimals; Java's toString for floats
  bool is_nan_or_infinite = false;
};

BigInteger IntegralPartOf(const BigDecimal& d) {
  const NormalizedDecimal n = d.Normalize();
  if (n.sign == 0 || n.exponent <= 0) return BigInteger();
  std::string digits = n.digits.substr(
      0, static_cast<size_t>(std::min<int64_t>(n.exponent, static_cast<int64_t>(n.digits.size()))));
  if (n.exponent > static_cast<int64_t>(digits.size())) {
    digits.append(static_cast<size_t>(n.exponent) - digits.size(), '0');
  }
  BigInteger out;
  BigInteger::FromDecimal((n.sign < 0 ? "-" : "") + digits, &out);
  return out;
}

Number ReadNumber(const Value& v) {
  Number n;
  switch (v.type().kind()) {
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      n.real = v.AsDouble();
      n.text = v.type().kind() == TypeKind::kFloat
                   ? FormatDoubleJava(static_cast<double>(static_cast<float>(n.real)))
                   : FormatDoubleJava(n.real);
      n.is_nan_or_infinite = !std::isfinite(n.real);
      if (!n.is_nan_or_infinite) {
        BigDecimal d;
        if (BigDecimal::FromText(n.text, &d)) n.integral = IntegralPartOf(d);
      }
      return n;
    }
    case TypeKind::kVarint:
      n.integral = BigInteger::FromTwosComplement(v.bytes());
      n.text = n.integral.ToDecimal();
      n.real = std::strtod(n.text.c_str(), nullptr);
      return n;
    case TypeKind::kDecimal: {
      const BigDecimal d = BigDecimal::FromSerialized(v.bytes());
      n.text = d.ToText();
      n.real = std::strtod(n.text.c_str(), nullptr);
      n.integral = IntegralPartOf(d);
      return n;
    }
    default:
      n.text = std::to_string(v.AsInt64());
      BigInteger::FromDecimal(n.text, &n.integral);
      n.real = static_cast<double>(v.AsInt64());
      return n;
  }
}

// Java's narrowing of a double to long: saturating, NaN to 0.
int64_t SaturatingInt64(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// The low 64 bits of a two's complement integer (Java's BigInteger.longValue).
int64_t LowBits(const BigInteger& v) {
  const std::string bytes = v.ToTwosComplement();
  uint64_t out = (!bytes.empty() && (static_cast<uint8_t>(bytes[0]) & 0x80)) ? ~uint64_t{0} : 0;
  const size_t start = bytes.size() > 8 ? bytes.size() - 8 : 0;
  for (size_t i = start; i < bytes.size(); ++i) out = (out << 8) | static_cast<uint8_t>(bytes[i]);
  return static_cast<int64_t>(out);
}

Result<Value> CastNumber(const Value& value, const DataType& target) {
  const Number n = ReadNumber(value);
  const TypeKind from = value.type().kind();
  const bool from_real = from == TypeKind::kFloat || from == TypeKind::kDouble;
  switch (target.kind()) {
    case TypeKind::kFloat:
      return Value::Float(static_cast<float>(n.real));
    case TypeKind::kDouble:
      return Value::Double(
          from == TypeKind::kFloat ? static_cast<double>(static_cast<float>(n.real)) : n.real);
    case TypeKind::kDecimal: {
      BigDecimal d;
      if (n.is_nan_or_infinite || !BigDecimal::FromText(n.text, &d)) {
        return Status::InvalidRequest("Cannot cast " + value.ToString() + " to decimal");
      }
      return Value::FromBytes(target, d.Serialize());
    }
    case TypeKind::kVarint:
      if (n.is_nan_or_infinite) {
        return Status::InvalidRequest("Cannot cast " + value.ToString() + " to varint");
      }
      return Value::FromBytes(target, n.integral.ToTwosComplement());
    default: {
      // Java narrows doubles through int (tinyint, smallint, int) or long,
      // saturating; integers and decimals keep their low bits.
      int64_t v;
      if (from_real) {
        v = SaturatingInt64(n.real);
        if (target.kind() != TypeKind::kBigint && target.kind() != TypeKind::kCounter) {
          v = std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max());
        }
      } else {
        v = LowBits(n.integral);
      }
      return WrappedInteger(target.kind(), v);
    }
  }
}

// The text CAST(x AS text) gives: the type's plain string form (Cassandra's
// serializer toString), not cqlsh's rendering.
std::string CastText(const Value& value) {
  switch (value.type().kind()) {
    case TypeKind::kText:
    case TypeKind::kAscii:
      return value.bytes();
    case TypeKind::kBoolean:
      return value.AsBool() ? "true" : "false";
    case TypeKind::kFloat:
      return FormatFloatJava(static_cast<float>(value.AsDouble()));
    case TypeKind::kDouble:
      return FormatDoubleJava(value.AsDouble());
    case TypeKind::kTimestamp: {
      // Java's "yyyy-MM-dd'T'HH:mm:ss.SSSX" in UTC.
      std::string json = value.ToJson();  // "\"2024-01-15 10:15:00.000Z\""
      if (json.size() >= 2 && json.front() == '"') json = json.substr(1, json.size() - 2);
      const size_t space = json.find(' ');
      if (space != std::string::npos) json[space] = 'T';
      return json;
    }
    case TypeKind::kBlob: {
      std::string s = value.ToString();  // 0x...
      return s.starts_with("0x") ? s.substr(2) : s;
    }
    default:
      return value.ToString();
  }
}

bool IsTextual(TypeKind k) { return k == TypeKind::kText || k == TypeKind::kAscii; }

}  // namespace

Result<DataType> ResolveFunction(std::string_view name,
                                 const std::vector<std::optional<DataType>>& argument_types,
                                 std::vector<DataType>* resolved_argument_types) {
  if (IsToken(name)) {
    // token()'s arguments are the table's partition key: the statement checks them.
    if (resolved_argument_types != nullptr) {
      resolved_argument_types->clear();
      for (const auto& t : argument_types) {
        resolved_argument_types->push_back(t ? *t : DataType::Blob());
      }
    }
    return DataType::Bigint();
  }
  std::vector<ProvidedArgument> provided;
  for (const auto& t : argument_types) {
    ProvidedArgument argument;
    if (t) {
      const DataType type = *t;
      argument.test = [type](const DataType& parameter) {
        return TypeAssignability(parameter, type);
      };
      argument.text = type.ToString();
      argument.type = type;
    }
    provided.push_back(std::move(argument));
  }
  CASSETTE_ASSIGN_OR_RETURN(const NativeFunction* f,
                            ResolveNativeFunction(name, provided, std::nullopt));
  if (resolved_argument_types != nullptr) *resolved_argument_types = f->argument_types;
  return f->return_type;
}

Result<Value> CallFunction(std::string_view name, const std::vector<Value>& arguments,
                           const FunctionContext& context) {
  if (IsToken(name)) return Token(arguments);
  const std::optional<std::string> native = NativeFunctionName(name);
  const NativeFunction* chosen = nullptr;
  if (native) {
    // The signature whose parameter types the (already typed) values have.
    for (const NativeFunction* f : FunctionCandidates(*native)) {
      if (f->argument_types.size() != arguments.size()) continue;
      bool exact = true;
      for (size_t i = 0; i < arguments.size() && exact; ++i) {
        exact = TypeAssignability(f->argument_types[i], arguments[i].type()) ==
                Assignability::kExactMatch;
      }
      if (exact) {
        chosen = f;
        break;
      }
    }
  }
  if (chosen == nullptr) {
    std::vector<ProvidedArgument> provided;
    for (const Value& v : arguments) {
      const DataType type = v.type();
      provided.push_back(
          {[type](const DataType& parameter) { return TypeAssignability(parameter, type); },
           v.ToString(), type});
    }
    CASSETTE_ASSIGN_OR_RETURN(chosen, ResolveNativeFunction(name, provided, std::nullopt));
  }
  std::vector<Value> typed;
  typed.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Value& v = arguments[i];
    typed.push_back(v.is_null() ? Value::Null(chosen->argument_types[i])
                                : Value::FromBytes(chosen->argument_types[i], v.bytes()));
  }
  return chosen->body(*chosen, typed, context);
}

namespace {

Result<Value> CastFunctionBody(const NativeFunction& self, const std::vector<Value>& arguments,
                               const FunctionContext&) {
  if (arguments[0].is_null()) return Value::Null(self.return_type);
  return CastValue(arguments[0], self.return_type);
}

}  // namespace

// Cassandra 5's CastFcts under their snake_case names (cast_as_int(v) is
// CAST(v AS int)). The camelCase names it keeps (castAsInt) are mixed case,
// which an unquoted call never matches, so they are not registered.
void AddCastFunctions(NativeFunctionTable* table) {
  static constexpr TypeKind kNumeric[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
      TypeKind::kBigint,  TypeKind::kFloat,    TypeKind::kDouble,
      TypeKind::kDecimal, TypeKind::kCounter,  TypeKind::kVarint};
  static constexpr TypeKind kNumericTargets[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,     TypeKind::kBigint,
      TypeKind::kFloat,   TypeKind::kDouble,   TypeKind::kDecimal, TypeKind::kVarint};
  auto add = [table](TypeKind from, TypeKind to) {
    const DataType target = DataType::Of(to);
    table->Add("cast_as_" + target.ToString(), {DataType::Of(from)}, target, CastFunctionBody);
  };
  for (TypeKind from : kNumeric) {
    for (TypeKind to : kNumericTargets) {
      if (from != to) add(from, to);
    }
    add(from, TypeKind::kAscii);
    add(from, TypeKind::kText);
  }
  add(TypeKind::kAscii, TypeKind::kText);
  for (TypeKind from : {TypeKind::kInet, TypeKind::kBoolean, TypeKind::kTimeuuid,
                        TypeKind::kTimestamp, TypeKind::kDate, TypeKind::kTime, TypeKind::kUuid}) {
    add(from, TypeKind::kAscii);
    add(from, TypeKind::kText);
  }
  add(TypeKind::kTimeuuid, TypeKind::kDate);
  add(TypeKind::kTimeuuid, TypeKind::kTimestamp);
  add(TypeKind::kTimestamp, TypeKind::kDate);
  add(TypeKind::kDate, TypeKind::kTimestamp);
}

Result<Value> CastValue(const Value& value, const DataType& target) {
  const TypeKind from = value.type().kind();
  const TypeKind to = target.kind();
  const bool allowed =
      value.type() == target || IsTextual(to) ||
      (IsNumeric(from) && IsNumeric(to) && to != TypeKind::kCounter) ||
      (from == TypeKind::kTimestamp && to == TypeKind::kDate) ||
      (from == TypeKind::kDate && to == TypeKind::kTimestamp) ||
      (from == TypeKind::kTimeuuid && (to == TypeKind::kDate || to == TypeKind::kTimestamp));
  if (!allowed) {
    return Status::InvalidRequest(value.type().ToString() + " cannot be cast to " +
                                  target.ToString());
  }
  if (value.is_null() || (value.bytes().empty() && !IsTextual(from) && from != TypeKind::kBlob)) {
    return Value::Null(target);
  }
  if (value.type() == target) return value;
  if (IsTextual(to)) {
    const std::string text = CastText(value);
    return to == TypeKind::kAscii ? Value::Ascii(text) : Value::Text(text);
  }
  if (IsNumeric(from)) return CastNumber(value, target);
  int64_t millis;
  if (from == TypeKind::kTimeuuid) {
    millis = TimeuuidMillis(value.AsUuid());
  } else if (from == TypeKind::kDate) {
    millis = static_cast<int64_t>(value.AsDate()) * kMillisPerDay;
  } else {
    millis = value.AsInt64();
  }
  if (to == TypeKind::kDate) {
    CASSETTE_ASSIGN_OR_RETURN(int32_t days, DateOfMillis(millis));
    return Value::Date(days);
  }
  return Value::Timestamp(millis);
}

}  // namespace cassette::cql
