#include "engine/cql/term_evaluator.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/types/temporal_text.h"

namespace cassette::cql {
namespace {

// 2024-01-15T10:15:00.123456Z
constexpr int64_t kNowMicros = 1705313700123456;

Term Constant(Term::Literal literal, std::string text) {
  Term t;
  t.kind = Term::Kind::kConstant;
  t.literal = literal;
  t.text = std::move(text);
  return t;
}
Term Str(std::string text) { return Constant(Term::Literal::kString, std::move(text)); }
Term Int(std::string text) { return Constant(Term::Literal::kInteger, std::move(text)); }
Term Float(std::string text) { return Constant(Term::Literal::kFloat, std::move(text)); }

Term Composite(Term::Kind kind, std::vector<Term> elements, std::string text = "") {
  Term t;
  t.kind = kind;
  t.elements = std::move(elements);
  t.text = std::move(text);
  return t;
}
Term Call(std::string name, std::vector<Term> args = {}) {
  return Composite(Term::Kind::kFunction, std::move(args), std::move(name));
}
Term Marker(int index) {
  Term t;
  t.kind = Term::Kind::kBindMarker;
  t.bind_index = index;
  return t;
}
Term Null() { return Term(); }

class TermEvaluatorTest : public ::testing::Test {
 protected:
  TermEvaluatorTest() {
    context_.now_micros = kNowMicros;
    context_.values = &values_;
  }
  Result<Value> Eval(const Term& term, const DataType& type, std::string_view name = "v") {
    return EvaluateTerm(term, type, name, context_);
  }
  std::string Error(const Term& term, const DataType& type, std::string_view name = "v") {
    Result<Value> r = Eval(term, type, name);
    EXPECT_FALSE(r.ok()) << "evaluated to " << (r.ok() ? r->ToString() : "");
    if (r.ok()) return "";
    // A failed operation is a FunctionFailure; every other error an InvalidRequest.
    EXPECT_TRUE(r.status().IsInvalidRequest() ||
                r.status().code() == Status::Code::kFunctionFailure)
        << r.status().ToString();
    return std::string(r.status().message());
  }
  Value Ok(const Term& term, const DataType& type) {
    Result<Value> r = Eval(term, type);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : Value();
  }

  std::vector<Value> values_;
  ExecutionContext context_;
};

TEST_F(TermEvaluatorTest, IntegerConstantsForEveryNumericReceiver) {
  EXPECT_EQ(Ok(Int("42"), DataType::Int()), Value::Int(42));
  EXPECT_EQ(Ok(Int("-7"), DataType::Bigint()), Value::Bigint(-7));
  EXPECT_EQ(Ok(Int("3"), DataType::Smallint()), Value::Smallint(3));
  EXPECT_EQ(Ok(Int("3"), DataType::Tinyint()), Value::Tinyint(3));
  EXPECT_EQ(Ok(Int("5"), DataType::Counter()), Value::Counter(5));
  EXPECT_EQ(Ok(Int("2"), DataType::Double()), Value::Double(2));
  EXPECT_EQ(Ok(Int("2"), DataType::Float()), Value::Float(2));
  EXPECT_EQ(Ok(Int("1000"), DataType::Timestamp()), Value::Timestamp(1000));
  EXPECT_EQ(Ok(Int("123456789012345678901234567890"), DataType::Varint()).ToString(),
            "123456789012345678901234567890");
  EXPECT_EQ(Ok(Int("10"), DataType::Decimal()).ToString(), "10");
}

TEST_F(TermEvaluatorTest, ConstantOfTheWrongKindIsRefusedWithCassandrasMessage) {
  EXPECT_EQ(Error(Float("1.5"), DataType::Int()),
            "Invalid FLOAT constant (1.5) for \"v\" of type int");
  EXPECT_EQ(Error(Str("abc"), DataType::Int(), "k"),
            "Invalid STRING constant (abc) for \"k\" of type int");
  EXPECT_EQ(Error(Int("1"), DataType::Text()),
            "Invalid INTEGER constant (1) for \"v\" of type text");
  EXPECT_EQ(Error(Constant(Term::Literal::kBoolean, "true"), DataType::Int()),
            "Invalid BOOLEAN constant (true) for \"v\" of type int");
  EXPECT_EQ(Error(Str("5b6962dd-3f90-4c93-8f61-eabfa4a803e2"), DataType::Uuid()),
            "Invalid STRING constant (5b6962dd-3f90-4c93-8f61-eabfa4a803e2) for \"v\" of type "
            "uuid");
  EXPECT_EQ(Error(Int("1"), DataType::List(DataType::Int())),
            "Invalid INTEGER constant (1) for \"v\" of type list<int>");
}

TEST_F(TermEvaluatorTest, ConstantThatDoesNotParseGivesTheTypesMessage) {
  EXPECT_EQ(Error(Int("99999999999"), DataType::Int()), "Unable to make int from '99999999999'");
  EXPECT_EQ(Error(Int("99999999999999999999"), DataType::Bigint()),
            "Unable to make long from '99999999999999999999'");
  EXPECT_EQ(Error(Str("yesterday"), DataType::Timestamp()),
            "Unable to parse a date/time from 'yesterday'");
  EXPECT_EQ(Error(Constant(Term::Literal::kUuid, "5b6962dd-3f90-4c93-8f61-eabfa4a803e2"),
                  DataType::Timeuuid()),
            "TimeUUID supports only version 1 UUIDs");
}

TEST_F(TermEvaluatorTest, StringConstantsForTextualAndTemporalReceivers) {
  EXPECT_EQ(Ok(Str("it's"), DataType::Text()), Value::Text("it's"));
  EXPECT_EQ(Ok(Str("'quoted'"), DataType::Text()), Value::Text("'quoted'"));
  EXPECT_EQ(Ok(Str("abc"), DataType::Ascii()), Value::Ascii("abc"));
  EXPECT_EQ(Ok(Str("2024-01-15T10:15:00Z"), DataType::Timestamp()),
            Value::Timestamp(1705313700000));
  EXPECT_EQ(Ok(Str("1970-01-02"), DataType::Date()), Value::Date(1));
  EXPECT_EQ(Ok(Str("00:00:01"), DataType::Time()), Value::Time(1000000000));
  EXPECT_EQ(Ok(Str("127.0.0.1"), DataType::Inet()).ToString(), "127.0.0.1");
}

TEST_F(TermEvaluatorTest, OtherConstantKinds) {
  EXPECT_EQ(Ok(Float("1.5"), DataType::Double()), Value::Double(1.5));
  EXPECT_EQ(Ok(Float("NaN"), DataType::Float()).ToString(), "NaN");
  EXPECT_EQ(Ok(Constant(Term::Literal::kBoolean, "true"), DataType::Boolean()),
            Value::Boolean(true));
  EXPECT_EQ(Ok(Constant(Term::Literal::kHex, "0x0102"), DataType::Blob()), Value::Blob("\x01\x02"));
  EXPECT_EQ(Ok(Constant(Term::Literal::kDuration, "1h30m"), DataType::Duration()),
            Value::Duration(0, 0, 5400LL * 1000000000));
  const Value id =
      Ok(Constant(Term::Literal::kUuid, "5B6962DD-3F90-4C93-8F61-EABFA4A803E2"), DataType::Uuid());
  EXPECT_EQ(id.ToString(), "5b6962dd-3f90-4c93-8f61-eabfa4a803e2");
}

TEST_F(TermEvaluatorTest, NullIsANullOfTheReceiverTypeExceptForCounters) {
  EXPECT_EQ(Ok(Null(), DataType::Int()), Value::Null(DataType::Int()));
  EXPECT_EQ(Error(Null(), DataType::Counter()),
            "Invalid null value for counter increment/decrement");
}

TEST_F(TermEvaluatorTest, BindMarkersTakeTheBoundValue) {
  values_ = {Value::Int(7), Value::Null(DataType::Text()), Value::Bigint(1),
             Value::Blob(std::string("\0\0\0\x09", 4))};
  EXPECT_EQ(Ok(Marker(0), DataType::Int()), Value::Int(7));
  EXPECT_EQ(Ok(Marker(1), DataType::Int()), Value::Null(DataType::Int()));
  // Bytes valid for the receiver are accepted as the receiver's type.
  EXPECT_EQ(Ok(Marker(3), DataType::Int()), Value::Int(9));
  EXPECT_EQ(Ok(Marker(2), DataType::Timestamp()), Value::Timestamp(1));
  EXPECT_EQ(Error(Marker(2), DataType::Int()), "Expected 4 or 0 byte int (8)");
  EXPECT_FALSE(Eval(Marker(9), DataType::Int()).ok());
}

TEST_F(TermEvaluatorTest, ListSetAndMapLiterals) {
  const DataType list = DataType::List(DataType::Int());
  EXPECT_EQ(
      Ok(Composite(Term::Kind::kList, {Int("3"), Int("1"), Int("3")}), list),
      Value::FromBytes(
          list,
          Value::List(DataType::Int(), {Value::Int(3), Value::Int(1), Value::Int(3)}).bytes()));
  const DataType set = DataType::Set(DataType::Text());
  EXPECT_EQ(Ok(Composite(Term::Kind::kSet, {Str("b"), Str("a"), Str("b")}), set).ToString(),
            "{'a', 'b'}");
  const DataType map = DataType::Map(DataType::Text(), DataType::Int());
  EXPECT_EQ(
      Ok(Composite(Term::Kind::kMap, {Str("b"), Int("2"), Str("a"), Int("1")}), map).ToString(),
      "{'a': 1, 'b': 2}");
  EXPECT_EQ(Ok(Composite(Term::Kind::kEmptyBraces, {}), map).ToString(), "{}");
  EXPECT_EQ(Ok(Composite(Term::Kind::kEmptyBraces, {}), set).ToString(), "{}");
  const DataType frozen = DataType::List(DataType::Set(DataType::Int(), true), true);
  EXPECT_EQ(
      Ok(Composite(Term::Kind::kList, {Composite(Term::Kind::kSet, {Int("2"), Int("1")})}), frozen)
          .ToString(),
      "[{1, 2}]");
}

TEST_F(TermEvaluatorTest, CollectionLiteralErrors) {
  const DataType list = DataType::List(DataType::Int());
  EXPECT_EQ(Error(Composite(Term::Kind::kSet, {Int("1")}), list),
            "Invalid set literal for v of type list<int>");
  EXPECT_EQ(Error(Composite(Term::Kind::kList, {Int("1")}), DataType::Set(DataType::Int())),
            "Invalid list literal for v of type set<int>");
  EXPECT_EQ(Error(Composite(Term::Kind::kMap, {Int("1"), Int("2")}), list),
            "Invalid map literal for v of type list<int>");
  EXPECT_EQ(Error(Composite(Term::Kind::kEmptyBraces, {}), DataType::Int()),
            "Invalid set literal for v of type int");
  EXPECT_EQ(Error(Composite(Term::Kind::kList, {Int("1"), Str("x")}), list),
            "Invalid list literal for v: value 'x' is not of type int");
  EXPECT_EQ(Error(Composite(Term::Kind::kMap, {Int("1"), Int("2")}),
                  DataType::Map(DataType::Text(), DataType::Int())),
            "Invalid map literal for v: key 1 is not of type text");
  EXPECT_EQ(Error(Composite(Term::Kind::kList, {Null()}), list),
            "null is not supported inside collections");
}

TEST_F(TermEvaluatorTest, TupleLiterals) {
  const DataType tuple = DataType::Tuple({DataType::Int(), DataType::Text()});
  EXPECT_EQ(Ok(Composite(Term::Kind::kTuple, {Int("1"), Str("a")}), tuple).ToString(), "(1, 'a')");
  EXPECT_EQ(Ok(Composite(Term::Kind::kTuple, {Int("1"), Null()}), tuple).ToString(), "(1, null)");
  EXPECT_EQ(Error(Composite(Term::Kind::kTuple, {Int("1"), Str("a"), Int("2")}), tuple),
            "Invalid tuple literal for v: too many elements. Type frozen<tuple<int, text>> "
            "expects 2 but got 3");
  EXPECT_EQ(Error(Composite(Term::Kind::kTuple, {Str("a")}), tuple),
            "Invalid tuple literal for v: component 0 is not of type int");
  EXPECT_EQ(Error(Composite(Term::Kind::kTuple, {Int("1")}), DataType::Int()),
            "Invalid tuple type literal for v of type int");
}

TEST_F(TermEvaluatorTest, TimeFunctionsSeeTheStatementsNow) {
  EXPECT_EQ(Ok(Call("currenttimestamp"), DataType::Timestamp()),
            Value::Timestamp(kNowMicros / 1000));
  EXPECT_EQ(Ok(Call("todate", {Call("now")}), DataType::Date()).ToString(), "2024-01-15");
  EXPECT_EQ(Ok(Call("totimestamp", {Call("now")}), DataType::Timestamp()),
            Value::Timestamp(kNowMicros / 1000));
  EXPECT_EQ(Ok(Call("currentdate"), DataType::Date()).ToString(), "2024-01-15");
  EXPECT_EQ(Ok(Call("system.currenttime"), DataType::Time()).ToString(), "10:15:00.123456000");
  const Value id = Ok(Call("now"), DataType::Timeuuid());
  EXPECT_EQ(id.type(), DataType::Timeuuid());
  EXPECT_EQ(id.bytes()[6] >> 4, 1);
}

TEST_F(TermEvaluatorTest, FunctionArgumentsTakeTheSignaturesTypes) {
  EXPECT_EQ(Ok(Call("totimestamp", {Str("2024-01-15")}), DataType::Timestamp()),
            Value::Timestamp(1705276800000));
  EXPECT_EQ(Ok(Call("todate", {Str("2024-01-15T23:59:59Z")}), DataType::Date()).ToString(),
            "2024-01-15");
  const Value min = Ok(Call("minTimeuuid", {Str("2024-11-13T09:00:00Z")}), DataType::Timeuuid());
  EXPECT_EQ(Ok(Call("tounixtimestamp", {Call("mintimeuuid", {Str("2024-11-13T09:00:00Z")})}),
               DataType::Bigint()),
            Value::Bigint(1731488400000));
  EXPECT_EQ(min.type(), DataType::Timeuuid());
}

TEST_F(TermEvaluatorTest, FunctionErrors) {
  EXPECT_EQ(Error(Call("nosuch"), DataType::Int()), "Unknown function nosuch called");
  EXPECT_EQ(Error(Call("mintimeuuid", {Str("a"), Str("b")}), DataType::Timeuuid()),
            "Invalid number of arguments in call to function system.mintimeuuid: 1 required but "
            "2 provided");
  EXPECT_EQ(
      Error(Call("mintimeuuid", {Constant(Term::Literal::kBoolean, "true")}), DataType::Timeuuid()),
      "Type error: true cannot be passed as argument 0 of function system.mintimeuuid of "
      "type timestamp");
  EXPECT_EQ(Error(Call("now"), DataType::Int(), "k"),
            "Type error: cannot assign result of function system.now (type timeuuid) to k (type "
            "int)");
  EXPECT_EQ(Error(Call("todate", {Constant(Term::Literal::kBoolean, "true")}), DataType::Date()),
            "Invalid call to function todate, none of its type signatures match (known type "
            "signatures: system.todate : (timeuuid) -> date, system.todate : (timestamp) -> "
            "date)");
}

TEST_F(TermEvaluatorTest, TimestampMinusDuration) {
  Term minus = Composite(
      Term::Kind::kArithmetic,
      {Call("totimestamp", {Call("now")}), Constant(Term::Literal::kDuration, "1h")}, "-");
  EXPECT_EQ(Ok(minus, DataType::Timestamp()), Value::Timestamp(kNowMicros / 1000 - 3600000));
  Term month =
      Composite(Term::Kind::kArithmetic,
                {Str("2024-01-31T00:00:00Z"), Constant(Term::Literal::kDuration, "1mo")}, "+");
  EXPECT_EQ(Ok(month, DataType::Timestamp()).ToString(), "2024-02-29 00:00:00.000000+0000");
}

TEST_F(TermEvaluatorTest, NumericArithmeticAndNegation) {
  EXPECT_EQ(Ok(Composite(Term::Kind::kArithmetic, {Int("2"), Int("3")}, "*"), DataType::Int()),
            Value::Int(6));
  EXPECT_EQ(Ok(Composite(Term::Kind::kArithmetic, {Int("7"), Int("2")}, "/"), DataType::Bigint()),
            Value::Bigint(3));
  EXPECT_EQ(Error(Composite(Term::Kind::kArithmetic, {Int("7"), Int("0")}, "/"), DataType::Int()),
            "the operation 'int / int' failed: / by zero");
  EXPECT_EQ(Eval(Composite(Term::Kind::kArithmetic, {Int("7"), Int("0")}, "/"), DataType::Int())
                .status()
                .code(),
            Status::Code::kFunctionFailure);
  values_ = {Value::Int(5)};
  EXPECT_EQ(Ok(Composite(Term::Kind::kNegate, {Marker(0)}), DataType::Int()), Value::Int(-5));
}

TEST_F(TermEvaluatorTest, TypeHintsAndCasts) {
  EXPECT_EQ(Ok(Composite(Term::Kind::kTypeHint, {Int("5")}, "bigint"), DataType::Bigint()),
            Value::Bigint(5));
  EXPECT_EQ(Error(Composite(Term::Kind::kTypeHint, {Str("x")}, "int"), DataType::Int()),
            "Cannot cast value 'x' to type int");
  EXPECT_EQ(Error(Composite(Term::Kind::kTypeHint, {Int("5")}, "int"), DataType::Text()),
            "Cannot assign value (int)5 to v of type text");
  EXPECT_EQ(Ok(Composite(Term::Kind::kCast, {Float("2.75")}, "int"), DataType::Int()),
            Value::Int(2));
}

TEST_F(TermEvaluatorTest, InValuesFromAListOrABoundList) {
  Relation in;
  in.op = Operator::kIn;
  in.in_values = {Int("3"), Int("1")};
  Result<std::vector<Value>> literal = EvaluateInValues(in, DataType::Int(), "c", context_);
  ASSERT_TRUE(literal.ok());
  EXPECT_EQ(*literal, (std::vector<Value>{Value::Int(3), Value::Int(1)}));

  values_ = {Value::List(DataType::Int(), {Value::Int(4), Value::Int(4)})};
  Relation bound;
  bound.op = Operator::kIn;
  bound.value = Marker(0);
  Result<std::vector<Value>> list = EvaluateInValues(bound, DataType::Int(), "c", context_);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(*list, (std::vector<Value>{Value::Int(4), Value::Int(4)}));
}

TEST_F(TermEvaluatorTest, InferTermType) {
  EXPECT_EQ(*InferTermType(Call("now"), context_), DataType::Timeuuid());
  EXPECT_EQ(*InferTermType(Call("todate", {Call("now")}), context_), DataType::Date());
  EXPECT_EQ(*InferTermType(Composite(Term::Kind::kCast, {Int("1")}, "text"), context_),
            DataType::Text());
  EXPECT_EQ(*InferTermType(Int("1"), context_), DataType::Int());
  EXPECT_EQ(*InferTermType(Int("10000000000"), context_), DataType::Bigint());
  EXPECT_EQ(*InferTermType(Call("token", {Int("1")}), context_), DataType::Bigint());
  values_ = {Value::Text("x")};
  EXPECT_EQ(*InferTermType(Marker(0), context_), DataType::Text());
  Result<DataType> none = InferTermType(Null(), context_);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "Cannot infer type for term NULL in selection clause (try using a cast to force a "
            "type)");
}

}  // namespace
}  // namespace cassette::cql
