// abs, exp, log, log10 and round (Cassandra 5's MathFcts): one signature
// per numeric type, returning that type, computed as its NumberType does.
// Fixed-width integers go through Java's double math and narrowing casts
// ((int) Math.exp(x): saturating to int, a byte or short then wrapping;
// NaN to 0), so log(0) of an int is -2147483648 and log(-1) is 0; floats
// and doubles keep NaN and infinities; round of an integer is itself and
// of a float or double is Java's Math.round (half up). varint and decimal
// take abs and round exactly (decimal rounds half up to scale 0); their
// exp, log and log10 are DecimalType's (engine/types/big_decimal_math.h:
// at least 32 significant digits, half even), a varint's the integral part
// of the decimal result (IntegerType goes through DecimalType). A decimal
// or varint log of zero or less is refused, as Cassandra's
// ArithmeticException is.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/integer_value.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_decimal_math.h"
#include "engine/types/big_integer.h"

namespace cassette::cql {
namespace {

enum class MathOp { kAbs, kExp, kLog, kLog10, kRound };

MathOp OpOf(const std::string& name) {
  if (name == "abs") return MathOp::kAbs;
  if (name == "exp") return MathOp::kExp;
  if (name == "log") return MathOp::kLog;
  if (name == "log10") return MathOp::kLog10;
  return MathOp::kRound;
}

template <typename Real>
Real Apply(MathOp op, Real x) {
  switch (op) {
    case MathOp::kExp:
      return std::exp(x);
    case MathOp::kLog:
      return std::log(x);
    case MathOp::kLog10:
      return std::log10(x);
    default:
      return std::fabs(x);
  }
}

// Java's narrowing of a double to int or long: saturating, NaN to 0.
int64_t JavaDoubleToLong(double d, bool to_int) {
  const double low = to_int ? -2147483648.0 : -9223372036854775808.0;
  const double high = to_int ? 2147483647.0 : 9223372036854775807.0;
  if (std::isnan(d)) return 0;
  if (d <= low) return static_cast<int64_t>(low);
  if (d >= high)
    return to_int ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(d);
}

// Java's Math.round: the closest integer, ties toward positive infinity.
double JavaRound(double d, bool to_int) {
  if (std::isnan(d)) return 0;
  double floor = std::floor(d);
  if (d - floor >= 0.5) floor += 1;
  return static_cast<double>(JavaDoubleToLong(floor, to_int));
}

Value FixedWidth(MathOp op, TypeKind kind, int64_t v) {
  switch (op) {
    case MathOp::kRound:
      return WrappedInteger(kind, v);
    case MathOp::kAbs:
      // Java's Math.abs of the smallest value is itself; narrowing wraps.
      return WrappedInteger(kind, v < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : v);
    default: {
      const double result = Apply(op, static_cast<double>(v));
      // (byte)/(short)/(int) of a double narrows through int; (long) directly.
      const bool through_int = kind != TypeKind::kBigint && kind != TypeKind::kCounter;
      return WrappedInteger(kind, JavaDoubleToLong(result, through_int));
    }
  }
}

Value Floating(MathOp op, TypeKind kind, double v) {
  const bool is_float = kind == TypeKind::kFloat;
  double result;
  if (op == MathOp::kRound) {
    result = JavaRound(v, is_float);
  } else if (op == MathOp::kAbs) {
    result = std::fabs(v);
  } else {
    result = Apply(op, v);
  }
  return is_float ? Value::Float(static_cast<float>(result)) : Value::Double(result);
}

// The magnitude digits of a normalized decimal's integral part ("0" for none).
std::string IntegralDigits(const NormalizedDecimal& n) {
  if (n.sign == 0 || n.exponent <= 0) return "0";
  const size_t length = static_cast<size_t>(n.exponent);
  std::string digits = n.digits.substr(0, std::min(length, n.digits.size()));
  if (digits.size() < length) digits.append(length - digits.size(), '0');
  return digits;
}

// A decimal digit string plus one.
std::string Increment(std::string digits) {
  for (size_t i = digits.size(); i-- > 0;) {
    if (digits[i] != '9') {
      ++digits[i];
      return digits;
    }
    digits[i] = '0';
  }
  return "1" + digits;
}

Result<Value> DecimalFromText(const std::string& text) {
  BigDecimal d;
  if (!BigDecimal::FromText(text, &d)) {
    return Status::InvalidRequest("Invalid decimal result " + text);
  }
  return Value::FromBytes(DataType::Decimal(), d.Serialize());
}

// DecimalType's exp, log or log10; a failure reads as Cassandra's
// function call error ("In call to function system.log, ...").
Result<BigDecimal> Transcendental(MathOp op, const BigDecimal& x, const std::string& function) {
  Result<BigDecimal> r = op == MathOp::kExp   ? DecimalExp(x)
                         : op == MathOp::kLog ? DecimalLog(x)
                                              : DecimalLog10(x);
  if (!r.ok()) {
    return Status::InvalidRequest("In call to function system." + function + ", " +
                                  r.status().message());
  }
  return r;
}

Result<Value> Big(const NativeFunction& self, MathOp op, const Value& v) {
  const bool is_decimal = v.type().kind() == TypeKind::kDecimal;
  const BigDecimal d = is_decimal ? BigDecimal::FromSerialized(v.bytes())
                                  : BigDecimal{BigInteger::FromTwosComplement(v.bytes()), 0};
  if (op == MathOp::kAbs) {
    BigDecimal out = d;
    out.unscaled.set_negative(false);
    return Value::FromBytes(v.type(),
                            is_decimal ? out.Serialize() : out.unscaled.ToTwosComplement());
  }
  if (op == MathOp::kRound) {
    if (!is_decimal) return v;
    const NormalizedDecimal n = d.Normalize();
    std::string digits = IntegralDigits(n);
    // HALF_UP: the first dropped digit decides.
    const int64_t first_dropped = std::max<int64_t>(n.exponent, 0);
    if (n.sign != 0 && first_dropped < static_cast<int64_t>(n.digits.size()) &&
        n.digits[static_cast<size_t>(first_dropped)] >= '5' && n.exponent >= 0) {
      digits = Increment(digits);
    }
    if (n.sign != 0 && n.exponent < 0) digits = "0";  // below 0.1: rounds to 0
    return DecimalFromText((n.sign < 0 && digits != "0" ? "-" : "") + digits);
  }
  CASSETTE_ASSIGN_OR_RETURN(BigDecimal result, Transcendental(op, d, self.name));
  if (is_decimal) return Value::FromBytes(v.type(), result.Serialize());
  Result<BigInteger> integral = DecimalToBigInteger(result);
  if (!integral.ok()) {
    return Status::InvalidRequest("In call to function system." + self.name + ", " +
                                  integral.status().message());
  }
  return Value::FromBytes(v.type(), integral->ToTwosComplement());
}

Result<Value> MathBody(const NativeFunction& self, const std::vector<Value>& arguments,
                       const FunctionContext&) {
  const Value& v = arguments[0];
  if (v.is_null() || v.bytes().empty()) return Value::Null(self.return_type);
  const MathOp op = OpOf(self.name);
  const TypeKind kind = v.type().kind();
  switch (kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return Floating(op, kind, v.AsDouble());
    case TypeKind::kVarint:
    case TypeKind::kDecimal:
      return Big(self, op, v);
    default:
      return FixedWidth(op, kind, v.AsInt64());
  }
}

}  // namespace

void AddMathFunctions(NativeFunctionTable* table) {
  static constexpr TypeKind kNumeric[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
      TypeKind::kFloat,   TypeKind::kBigint,   TypeKind::kDouble,
      TypeKind::kVarint,  TypeKind::kDecimal,  TypeKind::kCounter};
  for (const char* name : {"abs", "exp", "log", "log10", "round"}) {
    for (TypeKind kind : kNumeric) {
      const DataType type = DataType::Of(kind);
      table->Add(name, {type}, type, MathBody);
    }
  }
}

}  // namespace cassette::cql
