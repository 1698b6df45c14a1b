#include "cassette/value.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/types/type_codec.h"

namespace cassette {
namespace {

TEST(Value, FactoriesProduceCassandraBytes) {
  EXPECT_EQ(Value::Int(1).bytes(), std::string("\x00\x00\x00\x01", 4));
  EXPECT_EQ(Value::Int(-1).bytes(), std::string("\xff\xff\xff\xff", 4));
  EXPECT_EQ(Value::Smallint(-2).bytes(), std::string("\xff\xfe", 2));
  EXPECT_EQ(Value::Tinyint(5).bytes(), std::string("\x05", 1));
  EXPECT_EQ(Value::Bigint(256).bytes(), std::string("\0\0\0\0\0\0\x01\x00", 8));
  EXPECT_EQ(Value::Timestamp(1).bytes(), std::string("\0\0\0\0\0\0\0\x01", 8));
  EXPECT_EQ(Value::Date(0).bytes(), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(Value::Date(-1).bytes(), std::string("\x7f\xff\xff\xff", 4));
  EXPECT_EQ(Value::Boolean(true).bytes(), std::string("\x01", 1));
  EXPECT_EQ(Value::Float(1.0f).bytes(), std::string("\x3f\x80\x00\x00", 4));
  EXPECT_EQ(Value::Double(-2.0).bytes(), std::string("\xc0\x00\0\0\0\0\0\0", 8));
  EXPECT_EQ(Value::Text("h\xc3\xa9").bytes(), "h\xc3\xa9");
  // Duration: zigzag vints (1 month -> 2, 2 days -> 4, 3 ns -> 6).
  EXPECT_EQ(Value::Duration(1, 2, 3).bytes(), std::string("\x02\x04\x06", 3));
  EXPECT_EQ(Value::Int(7).type(), DataType::Int());
  EXPECT_FALSE(Value::Int(7).is_null());
}

TEST(Value, AccessorsReadBack) {
  EXPECT_EQ(Value::Tinyint(-128).AsInt64(), -128);
  EXPECT_EQ(Value::Smallint(-32768).AsInt64(), -32768);
  EXPECT_EQ(Value::Int(INT32_MIN).AsInt64(), INT32_MIN);
  EXPECT_EQ(Value::Bigint(INT64_MIN).AsInt64(), INT64_MIN);
  EXPECT_EQ(Value::Counter(12).AsInt64(), 12);
  EXPECT_EQ(Value::Timestamp(-5).AsInt64(), -5);
  EXPECT_EQ(Value::Time(123).AsInt64(), 123);
  EXPECT_EQ(Value::Date(-719162).AsDate(), -719162);
  EXPECT_EQ(Value::Date(INT32_MAX).AsDate(), INT32_MAX);
  EXPECT_EQ(Value::Float(21.3f).AsDouble(), static_cast<double>(21.3f));
  EXPECT_EQ(Value::Double(-0.5).AsDouble(), -0.5);
  EXPECT_TRUE(std::isnan(Value::Double(NAN).AsDouble()));
  EXPECT_TRUE(Value::Boolean(true).AsBool());
  EXPECT_FALSE(Value::Boolean(false).AsBool());
  EXPECT_EQ(Value::Blob(std::string("\0x", 2)).AsString(), std::string("\0x", 2));
  UuidBytes u{};
  u[0] = 0xab;
  u[6] = 0x10;
  EXPECT_EQ(Value::Timeuuid(u).AsUuid(), u);
  EXPECT_EQ(Value::Uuid(u).type(), DataType::Uuid());
}

TEST(Value, ViewsBorrowWithoutCopying) {
  const Value text = Value::Text("a string longer than the short-string buffer");
  const ValueView view = text.view();
  EXPECT_FALSE(view.is_null());
  EXPECT_EQ(view.bytes().data(), text.bytes().data());
  EXPECT_EQ(&view.type(), &text.type());
  EXPECT_EQ(view.ToString(), text.ToString());
  EXPECT_EQ(view.ToJson(), text.ToJson());
  EXPECT_EQ(view.ToValue(), text);

  const Value number = Value::Bigint(-42);
  EXPECT_EQ(number.view().AsInt64(), -42);
  EXPECT_EQ(Value::Double(2.5).view().AsDouble(), 2.5);

  const Value null = Value::Null(DataType::Int());
  EXPECT_TRUE(null.view().is_null());
  EXPECT_EQ(null.view().ToString(), "null");
  EXPECT_EQ(null.view().ToValue(), null);
  // A view of nothing is a null of unspecified type, as Value() is.
  EXPECT_TRUE(ValueView().is_null());
  EXPECT_EQ(ValueView().ToValue(), Value());
}

TEST(Value, CollectionsSortSetsAndMaps) {
  Value s = Value::Set(DataType::Int(), {Value::Int(3), Value::Int(-1), Value::Int(3)});
  EXPECT_EQ(s.ToString(), "{-1, 3}");
  EXPECT_TRUE(ValidateValue(s.type(), s.bytes()).ok());
  std::vector<Value> e = s.Elements();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], Value::Int(-1));
  Value m = Value::Map(DataType::Text(), DataType::Int(),
                       {{Value::Text("b"), Value::Int(2)},
                        {Value::Text("a"), Value::Int(1)},
                        {Value::Text("b"), Value::Int(3)}});
  EXPECT_EQ(m.ToString(), "{'a': 1, 'b': 3}");
  EXPECT_EQ(m.ToJson(), "{\"a\": 1, \"b\": 3}");
  std::vector<Value> kv = m.Elements();
  ASSERT_EQ(kv.size(), 4u);
  EXPECT_EQ(kv[2], Value::Text("b"));
  EXPECT_EQ(kv[3], Value::Int(3));
  Value l = Value::List(DataType::Text(), {Value::Text("z"), Value::Text("a")});
  EXPECT_EQ(l.ToString(), "['z', 'a']");
  EXPECT_EQ(l.type(), DataType::List(DataType::Text()));
}

TEST(Value, TupleElements) {
  DataType t = DataType::Tuple({DataType::Int(), DataType::Text()});
  Value v = Value::Parse(t, "(1, null)").value();
  std::vector<Value> e = v.Elements();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], Value::Int(1));
  EXPECT_TRUE(e[1].is_null());
}

TEST(Value, ToStringAndToJson) {
  EXPECT_EQ(Value().ToString(), "null");
  EXPECT_EQ(Value::Null(DataType::Int()).ToJson(), "null");
  EXPECT_EQ(Value::Timestamp(1705313700000).ToString(), "2024-01-15 10:15:00.000000+0000");
  EXPECT_EQ(Value::Timestamp(1705313700000).ToJson(), "\"2024-01-15 10:15:00.000Z\"");
  EXPECT_EQ(Value::Date(19737).ToString(), "2024-01-15");
  EXPECT_EQ(Value::Time(36900000000000).ToString(), "10:15:00.000000000");
  EXPECT_EQ(Value::Float(21.3f).ToJson(), "21.3");
  EXPECT_EQ(Value::Boolean(true).ToString(), "True");
  EXPECT_EQ(Value::Text("it's").ToJson(), "\"it's\"");
  EXPECT_EQ(Value::Blob("\x01\x02").ToJson(), "\"0x0102\"");
  EXPECT_EQ(Value::Duration(0, 0, 5400000000000).ToString(), "1h30m");
  EXPECT_EQ(Value::Duration(-14, -1, 0).ToString(), "-1y2mo1d");
}

TEST(Value, ParseBuildsTypedValues) {
  auto v = Value::Parse(DataType::Int(), "42");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, Value::Int(42));
  EXPECT_EQ(Value::Parse(DataType::Text(), "'x'").value(), Value::Text("x"));
  EXPECT_EQ(Value::Parse(DataType::Text(), "x").value(), Value::Text("x"));
  EXPECT_EQ(Value::Parse(DataType::Timestamp(), "'1970-01-01T00:00:00.001Z'").value(),
            Value::Timestamp(1));
  EXPECT_EQ(Value::Parse(DataType::Date(), "'1970-01-02'").value(), Value::Date(1));
  auto bad = Value::Parse(DataType::Int(), "'x'");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsInvalidRequest());
}

TEST(Value, EqualityIncludesTypeAndNullness) {
  EXPECT_EQ(Value::Int(1), Value::Int(1));
  EXPECT_NE(Value::Int(1), Value::Int(2));
  EXPECT_NE(Value::Ascii("a"), Value::Text("a"));
  EXPECT_NE(Value::Null(DataType::Text()), Value::Text(""));
}

}  // namespace
}  // namespace cassette
