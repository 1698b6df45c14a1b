#include "engine/cql/term_arithmetic.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "engine/cql/functions.h"
#include "engine/cql/integer_value.h"
#include "engine/cql/time_functions.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/calendar.h"
#include "engine/types/cql_duration.h"

namespace cassette::cql {
namespace {

constexpr int64_t kMillisPerDay = 86400LL * 1000;
constexpr int kUnbounded = INT_MAX;

// Cassandra's operand sizes: fixed widths, and "unbounded" for varint and decimal.
int NumberSize(TypeKind k) {
  switch (k) {
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
      return 8;
    case TypeKind::kVarint:
    case TypeKind::kDecimal:
      return kUnbounded;
    default:
      return 0;
  }
}

bool IsFloating(TypeKind k) {
  return k == TypeKind::kFloat || k == TypeKind::kDouble || k == TypeKind::kDecimal;
}

bool IsTemporal(TypeKind k) { return k == TypeKind::kTimestamp || k == TypeKind::kDate; }

bool IsOperator(std::string_view op) {
  return op == "+" || op == "-" || op == "*" || op == "/" || op == "%";
}

Status Failed(std::string_view op, const Value& left, const Value& right, std::string_view why) {
  return Status::FunctionFailure("the operation '" + left.type().ToString() + " " +
                                 std::string(op) + " " + right.type().ToString() +
                                 "' failed: " + std::string(why));
}

Result<Value> IntegerOperation(std::string_view op, const Value& left, const Value& right,
                               const DataType& result) {
  // Fixed-width operands: the exact result fits 128 bits.
  const __int128 a = left.AsInt64(), b = right.AsInt64();
  if ((op == "/" || op == "%") && b == 0) return Failed(op, left, right, "/ by zero");
  // INT64_MIN / -1 overflows int64 but not __int128; Java wraps it back.
  const __int128 r = op == "+"   ? a + b
                     : op == "-" ? a - b
                     : op == "*" ? a * b
                     : op == "/" ? a / b
                                 : a % b;
  // Java's fixed-width arithmetic wraps; counters do their arithmetic as
  // bigint.
  const auto wrapped = static_cast<int64_t>(static_cast<uint64_t>(r));
  return WrappedInteger(result.kind() == TypeKind::kCounter ? TypeKind::kBigint : result.kind(),
                        wrapped);
}

BigInteger ToBigInteger(const Value& v) {
  if (v.type().kind() == TypeKind::kVarint) return BigInteger::FromTwosComplement(v.bytes());
  return BigInteger::FromInt64(v.AsInt64());
}

// Cassandra's IntegerType arithmetic: Java BigInteger's, exact; division
// and remainder truncate toward zero.
Result<Value> VarintOperation(std::string_view op, const Value& left, const Value& right) {
  const BigInteger a = ToBigInteger(left), b = ToBigInteger(right);
  if ((op == "/" || op == "%") && b.is_zero()) {
    return Failed(op, left, right, "BigInteger divide by zero");
  }
  const BigInteger r = op == "+"   ? a + b
                       : op == "-" ? a - b
                       : op == "*" ? a * b
                       : op == "/" ? a.DivideTruncated(b)
                                   : a.RemainderTruncated(b);
  return Value::FromBytes(DataType::Varint(), r.ToTwosComplement());
}

// DecimalType's conversion of an operand: decimals and varints exactly,
// every other number through its double value (Java's Number.doubleValue
// then BigDecimal.valueOf, so the int 3 is 3.0).
Result<BigDecimal> ToBigDecimal(std::string_view op, const Value& v, const Value& left,
                                const Value& right) {
  switch (v.type().kind()) {
    case TypeKind::kDecimal:
      return BigDecimal::FromSerialized(v.bytes());
    case TypeKind::kVarint: {
      BigDecimal d;
      d.unscaled = BigInteger::FromTwosComplement(v.bytes());
      return d;
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      const double d = v.AsDouble();
      if (std::isnan(d)) return Failed(op, left, right, "A NaN cannot be converted into a decimal");
      if (std::isinf(d)) {
        return Failed(op, left, right, "An infinite number cannot be converted into a decimal");
      }
      return BigDecimal::FromDouble(d);
    }
    default:
      return BigDecimal::FromDouble(static_cast<double>(v.AsInt64()));
  }
}

// Cassandra 5.0's DecimalType: + - * round to 10000 significant digits
// (MathContext(10000), half up); / rounds half up at a scale of at least
// 32 significant digits (32 to 1000), then strips trailing zeros
// (8.5 / 3 = 2.83333333333333333333333333333333, 1 / 4 = 0.25, 6 / 3 = 2;
// by zero, "BigInteger divide by zero": at such a scale the dividend never
// stays a long); % is BigDecimal.remainder.
constexpr int64_t kDecimalPrecision = 10000;
constexpr int64_t kMinDivisionScale = 32;
constexpr int64_t kMaxDivisionScale = 1000;

Result<Value> DecimalOperation(std::string_view op, const Value& left, const Value& right) {
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal a, ToBigDecimal(op, left, left, right));
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal b, ToBigDecimal(op, right, left, right));
  Result<BigDecimal> r = BigDecimal();
  if (op == "+") {
    r = DecimalAdd(a, b, kDecimalPrecision);
  } else if (op == "-") {
    r = DecimalSubtract(a, b, kDecimalPrecision);
  } else if (op == "*") {
    r = DecimalMultiply(a, b, kDecimalPrecision);
  } else if (op == "/") {
    // The quotient's first digit, as DecimalType predicts it from the
    // operands' precision and scale.
    const int64_t first = (a.Precision() - a.scale) - (b.Precision() - b.scale);
    int64_t scale = std::max(
        {kMinDivisionScale - first, int64_t{a.scale}, int64_t{b.scale}, kMinDivisionScale});
    scale = std::min(scale, kMaxDivisionScale);
    r = DecimalDivide(a, b, static_cast<int32_t>(scale), DecimalRounding::kHalfUp);
    if (r.ok()) r = r->StripTrailingZeros();
  } else {
    r = DecimalRemainder(a, b);
  }
  if (!r.ok()) return Failed(op, left, right, r.status().message());
  return Value::FromBytes(DataType::Decimal(), r->Serialize());
}

Result<Value> TemporalOperation(std::string_view op, const Value& left, const Value& right) {
  CqlDuration d;
  CASSETTE_RETURN_IF_ERROR(DeserializeDuration(right.bytes(), &d));
  const int64_t sign = op == "+" ? 1 : -1;
  const int64_t start = left.type().kind() == TypeKind::kDate
                            ? static_cast<int64_t>(left.AsDate()) * kMillisPerDay
                            : left.AsInt64();
  // Checked: a timestamp near either end of its range would overflow.
  const std::optional<int64_t> moved = AddMonthsChecked(start, sign * d.months);
  const int64_t offset = sign * (d.days * kMillisPerDay + d.nanos / 1000000);
  int64_t millis = 0;
  if (!moved || __builtin_add_overflow(*moved, offset, &millis)) {
    // The instant as InstantText writes it: the value formatter cannot
    // render the earliest timestamps.
    return Status::InvalidRequest("The result of " + InstantText(start) + " " + std::string(op) +
                                  " " + right.ToString() + " is out of the range of a " +
                                  left.type().ToString());
  }
  if (left.type().kind() == TypeKind::kDate) {
    CASSETTE_ASSIGN_OR_RETURN(int32_t days, DateOfMillis(millis));
    return Value::Date(days);
  }
  return Value::Timestamp(millis);
}

}  // namespace

std::optional<DataType> OperationResultType(std::string_view op, const DataType& left,
                                            const DataType& right) {
  if (!IsOperator(op)) return std::nullopt;
  if (IsTemporal(left.kind()) && right.kind() == TypeKind::kDuration) {
    if (op == "+" || op == "-") return left;
    return std::nullopt;
  }
  const int left_size = NumberSize(left.kind()), right_size = NumberSize(right.kind());
  if (left_size == 0 || right_size == 0) return std::nullopt;
  const int size = std::max(left_size, right_size);
  if (IsFloating(left.kind()) || IsFloating(right.kind())) {
    return size == 4 ? DataType::Float() : size == 8 ? DataType::Double() : DataType::Decimal();
  }
  switch (size) {
    case 1:
      return DataType::Tinyint();
    case 2:
      return DataType::Smallint();
    case 4:
      return DataType::Int();
    case 8:
      return DataType::Bigint();
    default:
      return DataType::Varint();
  }
}

Result<Value> ApplyOperation(std::string_view op, const Value& left, const Value& right) {
  const std::optional<DataType> result = OperationResultType(op, left.type(), right.type());
  if (!result) {
    return Status::InvalidRequest("the '" + std::string(op) +
                                  "' operation is not supported between " + left.type().ToString() +
                                  " and " + right.type().ToString());
  }
  if (left.is_null() || right.is_null() || left.bytes().empty() || right.bytes().empty()) {
    return Value::Null(*result);
  }
  if (IsTemporal(left.type().kind())) return TemporalOperation(op, left, right);
  switch (result->kind()) {
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      CASSETTE_ASSIGN_OR_RETURN(Value l, CastValue(left, *result));
      CASSETTE_ASSIGN_OR_RETURN(Value r, CastValue(right, *result));
      const double a = l.AsDouble(), b = r.AsDouble();
      const double v = op == "+"   ? a + b
                       : op == "-" ? a - b
                       : op == "*" ? a * b
                       : op == "/" ? a / b
                                   : std::fmod(a, b);
      if (result->kind() == TypeKind::kFloat) return Value::Float(static_cast<float>(v));
      return Value::Double(v);
    }
    case TypeKind::kDecimal:
      return DecimalOperation(op, left, right);
    case TypeKind::kVarint:
      return VarintOperation(op, left, right);
    default:
      return IntegerOperation(op, left, right, *result);
  }
}

Result<Value> NegateValue(const Value& value) {
  if (value.is_null() || value.bytes().empty()) return value;
  switch (value.type().kind()) {
    case TypeKind::kTinyint:
      return Value::Tinyint(static_cast<int8_t>(0u - static_cast<uint64_t>(value.AsInt64())));
    case TypeKind::kSmallint:
      return Value::Smallint(static_cast<int16_t>(0u - static_cast<uint64_t>(value.AsInt64())));
    case TypeKind::kInt:
      return Value::Int(static_cast<int32_t>(0u - static_cast<uint64_t>(value.AsInt64())));
    case TypeKind::kBigint:
      return Value::Bigint(static_cast<int64_t>(0u - static_cast<uint64_t>(value.AsInt64())));
    case TypeKind::kCounter:
      return Value::Counter(static_cast<int64_t>(0u - static_cast<uint64_t>(value.AsInt64())));
    case TypeKind::kFloat:
      return Value::Float(-static_cast<float>(value.AsDouble()));
    case TypeKind::kDouble:
      return Value::Double(-value.AsDouble());
    case TypeKind::kVarint: {
      BigInteger v = BigInteger::FromTwosComplement(value.bytes());
      v = -v;
      return Value::FromBytes(value.type(), v.ToTwosComplement());
    }
    case TypeKind::kDecimal: {
      BigDecimal d = BigDecimal::FromSerialized(value.bytes());
      d.unscaled = -d.unscaled;
      return Value::FromBytes(value.type(), d.Serialize());
    }
    case TypeKind::kDuration: {
      CqlDuration d;
      CASSETTE_RETURN_IF_ERROR(DeserializeDuration(value.bytes(), &d));
      return Value::Duration(static_cast<int32_t>(-d.months), static_cast<int32_t>(-d.days),
                             -d.nanos);
    }
    default:
      return Status::InvalidRequest("Negation is not supported for type " +
                                    value.type().ToString());
  }
}

}  // namespace cassette::cql
