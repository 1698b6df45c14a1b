#include "engine/cql/aggregates.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "engine/cql/integer_value.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {
namespace {

std::string_view BareName(std::string_view name) {
  constexpr std::string_view kSystem = "system.";
  if (name.substr(0, kSystem.size()) == kSystem) name.remove_prefix(kSystem.size());
  return name;
}

class CountRows : public SelectorNode {
 public:
  CountRows() : SelectorNode(DataType::Bigint()) {}
  bool IsAggregate() const override { return true; }
  void Reset() override { count_ = 0; }
  Status AddInput(const ResultRow&) override {
    ++count_;
    return Status::OK();
  }
  Result<Value> Output() override { return Value::Bigint(count_); }

 private:
  int64_t count_ = 0;
};

// Evaluates the argument on one row at a time and feeds the value to Add.
class OneArgumentAggregate : public SelectorNode {
 public:
  OneArgumentAggregate(DataType type, SelectorNodePtr argument)
      : SelectorNode(std::move(type)), argument_(std::move(argument)) {}
  bool IsAggregate() const override { return true; }
  Status AddInput(const ResultRow& row) override {
    argument_->Reset();
    CASSETTE_RETURN_IF_ERROR(argument_->AddInput(row));
    CASSETTE_ASSIGN_OR_RETURN(Value value, argument_->Output());
    if (value.is_null()) return Status::OK();
    return Add(value);
  }

 protected:
  virtual Status Add(const Value& value) = 0;
  const DataType& argument_type() const { return argument_->type(); }

 private:
  SelectorNodePtr argument_;
};

class CountValues : public OneArgumentAggregate {
 public:
  explicit CountValues(SelectorNodePtr argument)
      : OneArgumentAggregate(DataType::Bigint(), std::move(argument)) {}
  void Reset() override { count_ = 0; }
  Result<Value> Output() override { return Value::Bigint(count_); }

 protected:
  Status Add(const Value&) override {
    ++count_;
    return Status::OK();
  }

 private:
  int64_t count_ = 0;
};

class MinMax : public OneArgumentAggregate {
 public:
  MinMax(DataType type, SelectorNodePtr argument, bool max)
      : OneArgumentAggregate(std::move(type), std::move(argument)), max_(max) {}
  void Reset() override { best_.reset(); }
  Result<Value> Output() override { return best_ ? *best_ : Value::Null(type()); }

 protected:
  Status Add(const Value& value) override {
    if (!best_) {
      best_ = value;
      return Status::OK();
    }
    int c = CompareValues(type(), value.bytes(), best_->bytes());
    if (max_ ? c > 0 : c < 0) best_ = value;
    return Status::OK();
  }

 private:
  const bool max_;
  std::optional<Value> best_;
};

// An empty value of a number type (Cassandra accepts one) reaches sum and
// avg as null: they skip it, as count and min/max do not.
bool IsEmptyNumber(const Value& value) { return value.bytes().empty(); }

bool IsIntegral(TypeKind kind) {
  return kind == TypeKind::kTinyint || kind == TypeKind::kSmallint || kind == TypeKind::kInt ||
         kind == TypeKind::kBigint || kind == TypeKind::kCounter;
}

// sum of a fixed-width integer type, in that type: Java's byte, short, int
// and long additions wrap (AggregateFcts sums an int column in an int and
// a bigint or counter column in a long).
class IntegerSum : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override { sum_ = 0; }
  Result<Value> Output() override { return WrappedInteger(type().kind(), sum_); }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    const uint64_t wide = static_cast<uint64_t>(sum_) + static_cast<uint64_t>(value.AsInt64());
    sum_ = WrappedInteger(type().kind(), static_cast<int64_t>(wide)).AsInt64();
    return Status::OK();
  }

 private:
  int64_t sum_ = 0;
};

// avg of a fixed-width integer type: AggregateFcts adds in a long and
// moves to a BigInteger when the long overflows, so the total is exact;
// the quotient truncates toward zero and lies in the column's range.
class IntegerAvg : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override {
    sum_ = 0;
    count_ = 0;
  }
  Result<Value> Output() override {
    const __int128 avg = count_ == 0 ? 0 : sum_ / count_;
    return WrappedInteger(type().kind(), static_cast<int64_t>(avg));
  }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    // 2^64 rows of 64-bit values stay below 2^127.
    sum_ += value.AsInt64();
    ++count_;
    return Status::OK();
  }

 private:
  __int128 sum_ = 0;
  int64_t count_ = 0;
};

// Kahan summation in double as AggregateFcts does it for float and double
// (a float column adds its values widened to double); the total is
// sum + compensation, or the plain sum when the compensated one is NaN
// from adding infinities of one sign.
class KahanSum {
 public:
  void Reset() { *this = KahanSum(); }
  void Add(double d) {
    simple_sum_ += d;
    const double tmp = d - compensation_;
    const double rounded = sum_ + tmp;
    compensation_ = (rounded - sum_) - tmp;
    sum_ = rounded;
  }
  double Total() const {
    const double total = sum_ + compensation_;
    if (std::isnan(total) && std::isinf(simple_sum_)) return simple_sum_;
    return total;
  }
  double sum() const { return sum_; }

 private:
  double sum_ = 0;
  double compensation_ = 0;
  double simple_sum_ = 0;
};

Value FloatingValue(TypeKind kind, double v) {
  if (kind == TypeKind::kFloat) return Value::Float(static_cast<float>(v));
  return Value::Double(v);
}

class FloatSum : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override { sum_.Reset(); }
  Result<Value> Output() override { return FloatingValue(type().kind(), sum_.Total()); }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    sum_.Add(value.AsDouble());
    return Status::OK();
  }

 private:
  KahanSum sum_;
};

// avg of float and double: the Kahan sum divided by the count, except that
// once the running sum overflows to infinity on finite input the sum goes
// on exactly in BigDecimal (each value as BigDecimal.valueOf), divided at
// the sum's scale rounding half even, then converted to the nearest double.
class FloatAvg : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override {
    sum_.Reset();
    count_ = 0;
    big_sum_.reset();
  }
  Result<Value> Output() override {
    if (count_ == 0) return FloatingValue(type().kind(), 0);
    if (!big_sum_) {
      return FloatingValue(type().kind(), sum_.Total() / static_cast<double>(count_));
    }
    BigDecimal count;  // BigDecimal.valueOf(count): scale 0
    count.unscaled = BigInteger::FromInt64(count_);
    CASSETTE_ASSIGN_OR_RETURN(BigDecimal avg, DecimalDivide(*big_sum_, count, big_sum_->scale,
                                                            DecimalRounding::kHalfEven));
    return FloatingValue(type().kind(), avg.ToDouble());
  }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    ++count_;
    const double d = value.AsDouble();
    if (big_sum_) {
      // Infinities and NaN have no BigDecimal (Java throws there too).
      if (!std::isfinite(d)) return NotADecimal(d);
      CASSETTE_ASSIGN_OR_RETURN(*big_sum_, DecimalAdd(*big_sum_, BigDecimal::FromDouble(d)));
      return Status::OK();
    }
    const double previous = sum_.sum();
    sum_.Add(d);
    if (std::isinf(sum_.sum()) && !std::isinf(d)) {
      CASSETTE_ASSIGN_OR_RETURN(
          big_sum_, DecimalAdd(BigDecimal::FromDouble(previous), BigDecimal::FromDouble(d)));
    }
    return Status::OK();
  }

 private:
  // Java's message for BigDecimal.valueOf(NaN or an infinity).
  static Status NotADecimal(double d) {
    return Status::InvalidRequest(std::string("Character ") + (std::isnan(d) ? "N" : "I") +
                                  " is neither a decimal digit number, decimal point, nor \"e\" "
                                  "notation exponential mark.");
  }

  KahanSum sum_;
  int64_t count_ = 0;
  std::optional<BigDecimal> big_sum_;
};

// sum and avg of varint: an exact BigInteger total; avg truncates toward
// zero and is 0 over no rows.
class VarintSumAvg : public OneArgumentAggregate {
 public:
  VarintSumAvg(DataType type, SelectorNodePtr argument, bool average)
      : OneArgumentAggregate(std::move(type), std::move(argument)), average_(average) {}
  void Reset() override {
    sum_ = BigInteger();
    count_ = 0;
  }
  Result<Value> Output() override {
    BigInteger out = sum_;
    if (average_) {
      out = count_ == 0 ? BigInteger() : sum_.DivideTruncated(BigInteger::FromInt64(count_));
    }
    return Value::FromBytes(type(), out.ToTwosComplement());
  }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    sum_ += BigInteger::FromTwosComplement(value.bytes());
    ++count_;
    return Status::OK();
  }

 private:
  const bool average_;
  BigInteger sum_;
  int64_t count_ = 0;
};

// sum of decimal: exact BigDecimal addition (the scale of the result is the
// largest scale added; 0 over no rows).
class DecimalSum : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override { sum_ = BigDecimal(); }
  Result<Value> Output() override { return Value::FromBytes(type(), sum_.Serialize()); }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    CASSETTE_ASSIGN_OR_RETURN(sum_, DecimalAdd(sum_, BigDecimal::FromSerialized(value.bytes())));
    return Status::OK();
  }

 private:
  BigDecimal sum_;
};

// avg of decimal as AggregateFcts keeps it: a running mean, each step
// avg += (value - avg) / count, the division at the scale of (value - avg)
// rounding half even; so avg(1, 2) is 1 and avg(1.0, 2.0) is 1.5.
class DecimalAvg : public OneArgumentAggregate {
 public:
  using OneArgumentAggregate::OneArgumentAggregate;
  void Reset() override {
    avg_ = BigDecimal();
    count_ = 0;
  }
  Result<Value> Output() override { return Value::FromBytes(type(), avg_.Serialize()); }

 protected:
  Status Add(const Value& value) override {
    if (IsEmptyNumber(value)) return Status::OK();
    ++count_;
    CASSETTE_ASSIGN_OR_RETURN(BigDecimal delta,
                              DecimalSubtract(BigDecimal::FromSerialized(value.bytes()), avg_));
    BigDecimal count;
    count.unscaled = BigInteger::FromInt64(count_);
    CASSETTE_ASSIGN_OR_RETURN(BigDecimal step,
                              DecimalDivide(delta, count, delta.scale, DecimalRounding::kHalfEven));
    CASSETTE_ASSIGN_OR_RETURN(avg_, DecimalAdd(avg_, step));
    return Status::OK();
  }

 private:
  BigDecimal avg_;
  int64_t count_ = 0;
};

}  // namespace

bool IsAggregateFunction(std::string_view name) {
  name = BareName(name);
  return name == "count" || name == "min" || name == "max" || name == "sum" || name == "avg";
}

SelectorNodePtr MakeCountRows() { return std::make_unique<CountRows>(); }

Result<SelectorNodePtr> MakeAggregate(std::string_view name, SelectorNodePtr argument) {
  name = BareName(name);
  if (name == "count") return SelectorNodePtr(std::make_unique<CountValues>(std::move(argument)));
  if (name == "min" || name == "max") {
    DataType type = argument->type();
    return SelectorNodePtr(
        std::make_unique<MinMax>(std::move(type), std::move(argument), name == "max"));
  }
  const TypeKind kind = argument->type().kind();
  const bool average = name == "avg";
  DataType type = argument->type();
  if (IsIntegral(kind)) {
    if (average) return SelectorNodePtr(std::make_unique<IntegerAvg>(type, std::move(argument)));
    return SelectorNodePtr(std::make_unique<IntegerSum>(type, std::move(argument)));
  }
  if (kind == TypeKind::kFloat || kind == TypeKind::kDouble) {
    if (average) return SelectorNodePtr(std::make_unique<FloatAvg>(type, std::move(argument)));
    return SelectorNodePtr(std::make_unique<FloatSum>(type, std::move(argument)));
  }
  if (kind == TypeKind::kVarint) {
    return SelectorNodePtr(std::make_unique<VarintSumAvg>(type, std::move(argument), average));
  }
  if (kind == TypeKind::kDecimal) {
    if (average) return SelectorNodePtr(std::make_unique<DecimalAvg>(type, std::move(argument)));
    return SelectorNodePtr(std::make_unique<DecimalSum>(type, std::move(argument)));
  }
  return Status::InvalidRequest("Invalid call to function " + std::string(name) +
                                ", none of its type signatures match (argument of type " +
                                argument->type().ToString() + ")");
}

}  // namespace cassette::cql
