// abs, exp, log, log10 and round (Cassandra 5's MathFcts). The expected
// values mirror MathFctsTest (org.apache.cassandra.cql3.functions) and the
// NumberType subclasses' Java arithmetic they test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/functions.h"

namespace cassette::cql {
namespace {

Value Of(const DataType& type, const char* literal) {
  Result<Value> v = Value::Parse(type, literal);
  EXPECT_TRUE(v.ok()) << literal;
  return v.ok() ? *v : Value::Null(type);
}

Value Call(const char* name, const Value& argument) {
  Result<Value> r = CallFunction(name, {argument}, {0});
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : Value();
}

std::string Text(const char* name, const Value& argument) {
  return Call(name, argument).ToString();
}

TEST(MathFunctionsTest, EveryNumericTypeHasEachFunctionReturningItsOwnType) {
  for (const char* name : {"abs", "exp", "log", "log10", "round"}) {
    for (TypeKind kind : {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
                          TypeKind::kBigint, TypeKind::kCounter, TypeKind::kFloat,
                          TypeKind::kDouble, TypeKind::kVarint, TypeKind::kDecimal}) {
      std::vector<DataType> resolved;
      Result<DataType> r = ResolveFunction(name, {DataType::Of(kind)}, &resolved);
      ASSERT_TRUE(r.ok()) << name << " " << DataType::Of(kind).ToString();
      EXPECT_EQ(*r, DataType::Of(kind));
    }
  }
  EXPECT_EQ(ResolveFunction("abs", {DataType::Text()}, nullptr).status().code(),
            Status::Code::kInvalidRequest);
}

// MathFctsTest.testAbs, plus Java's Math.abs of the smallest value.
TEST(MathFunctionsTest, Abs) {
  EXPECT_EQ(Call("abs", Value::Int(-3)), Value::Int(3));
  EXPECT_EQ(Call("abs", Value::Int(0)), Value::Int(0));
  EXPECT_EQ(Call("abs", Value::Tinyint(-3)), Value::Tinyint(3));
  EXPECT_EQ(Call("abs", Value::Smallint(-3)), Value::Smallint(3));
  EXPECT_EQ(Call("abs", Value::Bigint(-3)), Value::Bigint(3));
  EXPECT_EQ(Call("abs", Value::Counter(-3)), Value::Counter(3));
  EXPECT_EQ(Call("abs", Value::Float(-3.7F)), Value::Float(3.7F));
  EXPECT_EQ(Call("abs", Value::Double(-3.7)), Value::Double(3.7));
  EXPECT_EQ(Text("abs", Of(DataType::Varint(), "-3")), "3");
  EXPECT_EQ(Text("abs", Of(DataType::Decimal(), "-3.7")), "3.7");
  EXPECT_EQ(Text("abs", Of(DataType::Decimal(), "0")), "0");
  EXPECT_EQ(Call("abs", Value::Int(std::numeric_limits<int32_t>::min())),
            Value::Int(std::numeric_limits<int32_t>::min()));
  EXPECT_EQ(Call("abs", Value::Tinyint(-128)), Value::Tinyint(-128));
}

// MathFctsTest.testExp: integers narrow Math.exp's double as Java's casts do.
TEST(MathFunctionsTest, Exp) {
  EXPECT_EQ(Call("exp", Value::Int(5)), Value::Int(148));
  EXPECT_EQ(Call("exp", Value::Int(1)), Value::Int(2));
  EXPECT_EQ(Call("exp", Value::Int(0)), Value::Int(1));
  EXPECT_EQ(Call("exp", Value::Int(-1)), Value::Int(0));
  EXPECT_EQ(Call("exp", Value::Tinyint(5)), Value::Tinyint(static_cast<int8_t>(148)));
  EXPECT_EQ(Call("exp", Value::Smallint(5)), Value::Smallint(148));
  EXPECT_EQ(Call("exp", Value::Bigint(5)), Value::Bigint(148));
  EXPECT_EQ(Call("exp", Value::Int(100)), Value::Int(std::numeric_limits<int32_t>::max()));
  EXPECT_EQ(Call("exp", Value::Float(-2.5F)),
            Value::Float(static_cast<float>(std::exp(static_cast<double>(-2.5F)))));
  EXPECT_EQ(Call("exp", Value::Double(1)), Value::Double(std::exp(1.0)));
  EXPECT_EQ(Text("exp", Of(DataType::Varint(), "5")), "148");
  EXPECT_EQ(Text("exp", Of(DataType::Varint(), "0")), "1");
  // DecimalType's 32 significant digits, half even (MathFctsTest.testExp).
  EXPECT_EQ(Text("exp", Of(DataType::Decimal(), "5")), "148.41315910257660342111558004055");
  EXPECT_EQ(Text("exp", Of(DataType::Decimal(), "0")), "1");
  EXPECT_EQ(Text("exp", Of(DataType::Decimal(), "-1")), "0.36787944117144232159552377016146");
  // A varint is the integral part of the decimal result: e^100 to 32
  // digits, then its integer (IntegerType.exp).
  EXPECT_EQ(Text("exp", Of(DataType::Varint(), "100")),
            "26881171418161354484126255515800000000000000");
  EXPECT_EQ(Text("exp", Of(DataType::Varint(), "-3")), "0");
  // big-math takes the integral part as an int: past it, Java's "Overflow".
  Result<Value> r = CallFunction("exp", {Of(DataType::Decimal(), "2147483648")}, {0});
  EXPECT_EQ(r.status().message(), "In call to function system.exp, Overflow");
}

// MathFctsTest.testLog and testLog10.
TEST(MathFunctionsTest, LogAndLog10) {
  EXPECT_EQ(Call("log", Value::Int(5)), Value::Int(1));
  EXPECT_EQ(Call("log", Value::Int(1)), Value::Int(0));
  EXPECT_EQ(Call("log", Value::Int(-1)), Value::Int(0));  // (int) NaN
  EXPECT_EQ(Call("log", Value::Int(0)), Value::Int(std::numeric_limits<int32_t>::min()));
  EXPECT_EQ(Call("log", Value::Tinyint(0)), Value::Tinyint(0));  // (byte) Integer.MIN_VALUE
  EXPECT_EQ(Call("log", Value::Bigint(0)), Value::Bigint(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(Call("log10", Value::Int(5)), Value::Int(0));
  EXPECT_EQ(Call("log10", Value::Float(10)), Value::Float(1));
  EXPECT_TRUE(std::isnan(Call("log", Value::Float(-1)).AsDouble()));
  EXPECT_EQ(Call("log", Value::Double(0)), Value::Double(-std::numeric_limits<double>::infinity()));
  EXPECT_EQ(Text("log", Of(DataType::Varint(), "5")), "1");
  EXPECT_EQ(Text("log10", Of(DataType::Varint(), "1000")), "3");
  EXPECT_EQ(Text("log", Of(DataType::Decimal(), "1")), "0");
  EXPECT_EQ(Text("log", Of(DataType::Decimal(), "5")), "1.6094379124341003746007593332262");
  EXPECT_EQ(Text("log10", Of(DataType::Decimal(), "5")), "0.69897000433601880478626110527551");
  // ln(10^39) = 89.80081862676778...: the varint keeps 89.
  EXPECT_EQ(Text("log", Of(DataType::Varint(), "1000000000000000000000000000000000000000")), "89");
  Result<Value> r = CallFunction("log", {Of(DataType::Decimal(), "0")}, {0});
  EXPECT_EQ(r.status().message(),
            "In call to function system.log, Natural log of number zero or less");
  r = CallFunction("log10", {Of(DataType::Varint(), "-2")}, {0});
  EXPECT_EQ(r.status().message(), "In call to function system.log10, Log10 of number zero or less");
}

// MathFctsTest.testRound: integers are themselves, floats and doubles
// Java's Math.round, decimals HALF_UP to scale 0.
TEST(MathFunctionsTest, Round) {
  EXPECT_EQ(Call("round", Value::Int(-1)), Value::Int(-1));
  EXPECT_EQ(Call("round", Value::Float(5.5F)), Value::Float(6));
  EXPECT_EQ(Call("round", Value::Float(-1.5F)), Value::Float(-1));
  EXPECT_EQ(Call("round", Value::Double(-1.5)), Value::Double(-1));
  EXPECT_EQ(Call("round", Value::Double(0.49999999999999994)), Value::Double(0));
  EXPECT_EQ(Call("round", Value::Double(1e300)),
            Value::Double(static_cast<double>(std::numeric_limits<int64_t>::max())));
  EXPECT_EQ(Call("round", Value::Float(std::nanf(""))), Value::Float(0));
  EXPECT_EQ(Text("round", Of(DataType::Varint(), "-123456789012345678901234567890")),
            "-123456789012345678901234567890");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "5.5")), "6");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "1")), "1");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "-1.5")), "-2");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "0.5")), "1");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "0.049")), "0");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "999.5")), "1000");
  EXPECT_EQ(Text("round", Of(DataType::Decimal(), "1.5E+3")), "1500");
}

TEST(MathFunctionsTest, NullGivesNull) {
  for (const char* name : {"abs", "exp", "log", "log10", "round"}) {
    EXPECT_TRUE(Call(name, Value::Null(DataType::Int())).is_null()) << name;
    EXPECT_TRUE(Call(name, Value::Null(DataType::Decimal())).is_null()) << name;
  }
}

}  // namespace
}  // namespace cassette::cql
