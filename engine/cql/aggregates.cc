#include "engine/cql/aggregates.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "engine/cql/integer_value.h"
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
    if (!value.is_null()) Add(value);
    return Status::OK();
  }

 protected:
  virtual void Add(const Value& value) = 0;
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
  void Add(const Value&) override { ++count_; }

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
  void Add(const Value& value) override {
    if (!best_) {
      best_ = value;
      return;
    }
    int c = CompareValues(type(), value.bytes(), best_->bytes());
    if (max_ ? c > 0 : c < 0) best_ = value;
  }

 private:
  const bool max_;
  std::optional<Value> best_;
};

bool IsIntegral(TypeKind kind) {
  return kind == TypeKind::kTinyint || kind == TypeKind::kSmallint || kind == TypeKind::kInt ||
         kind == TypeKind::kBigint || kind == TypeKind::kCounter;
}

// sum and avg of integers, floats and doubles. Integers add with the
// wrap-around of their own width (Cassandra sums an int column in an int),
// avg divides the 64-bit total; floating point uses compensated summation.
class SumAvg : public OneArgumentAggregate {
 public:
  SumAvg(DataType type, SelectorNodePtr argument, bool average)
      : OneArgumentAggregate(std::move(type), std::move(argument)), average_(average) {}
  void Reset() override {
    integer_sum_ = 0;
    wide_sum_ = 0;
    double_sum_ = 0;
    compensation_ = 0;
    count_ = 0;
  }
  Result<Value> Output() override {
    const TypeKind kind = type().kind();
    if (IsIntegral(kind)) {
      if (!average_) return WrappedInteger(kind, integer_sum_);
      return WrappedInteger(kind, count_ == 0 ? 0 : wide_sum_ / count_);
    }
    double result = double_sum_;
    if (average_) result = count_ == 0 ? 0 : double_sum_ / static_cast<double>(count_);
    if (kind == TypeKind::kFloat) return Value::Float(static_cast<float>(result));
    return Value::Double(result);
  }

 protected:
  void Add(const Value& value) override {
    ++count_;
    const TypeKind kind = type().kind();
    if (IsIntegral(kind)) {
      const int64_t v = value.AsInt64();
      // Wrap in the column's width, as Java's int/short/byte arithmetic does.
      integer_sum_ = WrappedInteger(kind, static_cast<int64_t>(static_cast<uint64_t>(integer_sum_) +
                                                               static_cast<uint64_t>(v)))
                         .AsInt64();
      wide_sum_ = static_cast<int64_t>(static_cast<uint64_t>(wide_sum_) + static_cast<uint64_t>(v));
      return;
    }
    // Kahan summation.
    const double y = value.AsDouble() - compensation_;
    const double t = double_sum_ + y;
    compensation_ = (t - double_sum_) - y;
    double_sum_ = t;
  }

 private:
  const bool average_;
  int64_t integer_sum_ = 0;
  int64_t wide_sum_ = 0;
  double double_sum_ = 0;
  double compensation_ = 0;
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
  if (IsIntegral(kind) || kind == TypeKind::kFloat || kind == TypeKind::kDouble) {
    DataType type = argument->type();
    return SelectorNodePtr(
        std::make_unique<SumAvg>(std::move(type), std::move(argument), name == "avg"));
  }
  return Status::InvalidRequest("Invalid call to function " + std::string(name) +
                                ", none of its type signatures match (argument of type " +
                                argument->type().ToString() + ")");
}

}  // namespace cassette::cql
