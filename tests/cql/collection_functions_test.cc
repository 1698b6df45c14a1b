// map_keys, map_values, collection_count/min/max/sum/avg (Cassandra 5's
// CollectionFcts) and to_json/from_json. Expected values mirror
// CollectionFctsTest and JsonTest (org.apache.cassandra.cql3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/functions.h"

namespace cassette::cql {
namespace {

Value Call(const char* name, const std::vector<Value>& arguments) {
  Result<Value> r = CallFunction(name, arguments, {0});
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : Value();
}

std::string Error(const char* name, const std::vector<Value>& arguments) {
  Result<Value> r = CallFunction(name, arguments, {0});
  EXPECT_FALSE(r.ok()) << name;
  return r.ok() ? "" : std::string(r.status().message());
}

Value IntList(const std::vector<int32_t>& values, bool frozen = false) {
  std::vector<Value> elements;
  for (int32_t v : values) elements.push_back(Value::Int(v));
  return Value::FromBytes(DataType::List(DataType::Int(), frozen),
                          Value::List(DataType::Int(), elements).bytes());
}

Value IntMap(const std::vector<std::pair<int32_t, int32_t>>& entries, bool frozen = false) {
  std::vector<std::pair<Value, Value>> values;
  for (auto [k, v] : entries) values.emplace_back(Value::Int(k), Value::Int(v));
  return Value::FromBytes(DataType::Map(DataType::Int(), DataType::Int(), frozen),
                          Value::Map(DataType::Int(), DataType::Int(), values).bytes());
}

TEST(CollectionFunctionsTest, MapKeysAndValues) {
  const Value map = IntMap({{1, 2}, {3, 4}});
  const Value keys = Call("map_keys", {map});
  EXPECT_EQ(keys.type(), DataType::Set(DataType::Int()));
  EXPECT_EQ(keys.ToString(), "{1, 3}");
  const Value values = Call("map_values", {map});
  EXPECT_EQ(values.type(), DataType::List(DataType::Int()));
  EXPECT_EQ(values.ToString(), "[2, 4]");
  // A frozen empty map has empty keys and values; a null map null ones.
  EXPECT_EQ(Call("map_keys", {IntMap({}, true)}).ToString(), "{}");
  EXPECT_EQ(Call("map_values", {IntMap({}, true)}).ToString(), "[]");
  EXPECT_TRUE(Call("map_keys", {Value::Null(map.type())}).is_null());
}

TEST(CollectionFunctionsTest, CountMinMaxSumAvg) {
  const Value list = IntList({1, 2});
  EXPECT_EQ(Call("collection_count", {list}), Value::Int(2));
  EXPECT_EQ(Call("collection_count", {IntMap({{1, 2}, {3, 4}})}), Value::Int(2));
  EXPECT_EQ(Call("collection_min", {list}), Value::Int(1));
  EXPECT_EQ(Call("collection_max", {list}), Value::Int(2));
  EXPECT_EQ(Call("collection_sum", {list}), Value::Int(3));
  EXPECT_EQ(Call("collection_avg", {list}), Value::Int(1));  // in the element type
  // Sums wrap in the element type, as AggregateFcts' sum of an int does.
  EXPECT_EQ(Call("collection_sum", {IntList({2147483647, 1})}), Value::Int(-2147483648));

  const Value empty = IntList({}, true);
  EXPECT_EQ(Call("collection_count", {empty}), Value::Int(0));
  EXPECT_TRUE(Call("collection_min", {empty}).is_null());
  EXPECT_TRUE(Call("collection_max", {empty}).is_null());
  EXPECT_EQ(Call("collection_sum", {empty}), Value::Int(0));
  EXPECT_EQ(Call("collection_avg", {empty}), Value::Int(0));
  for (const char* name : {"collection_count", "collection_min", "collection_sum"}) {
    EXPECT_TRUE(Call(name, {Value::Null(list.type())}).is_null()) << name;
  }

  // CollectionFctsTest.testFloat: a float sum and average stay floats.
  const Value floats = Value::FromBytes(
      DataType::List(DataType::Float()),
      Value::List(DataType::Float(), {Value::Float(1.23F), Value::Float(2.34F)}).bytes());
  EXPECT_EQ(Call("collection_sum", {floats}), Value::Float(1.23F + 2.34F));
  EXPECT_EQ(Call("collection_avg", {floats}), Value::Float((1.23F + 2.34F) / 2));
}

// CollectionFctsTest.testNotNumericCollection and FunctionParameter's
// messages (an argument named by its type when called without a selector).
TEST(CollectionFunctionsTest, ArgumentErrors) {
  EXPECT_EQ(Error("collection_sum", {Value::Uuid({})}),
            "Function system.collection_sum requires a numeric set/list argument, but found "
            "argument 00000000-0000-0000-0000-000000000000 of type uuid");
  const std::vector<std::optional<DataType>> text_list = {DataType::List(DataType::Text())};
  EXPECT_EQ(ResolveFunction("collection_avg", text_list, nullptr).status().message(),
            "Function system.collection_avg requires a numeric set/list argument, but found "
            "argument list<text> of type list<text>");
  EXPECT_EQ(ResolveFunction("map_values", text_list, nullptr).status().message(),
            "Function system.map_values requires a map argument, but found argument list<text> "
            "of type list<text>");
  EXPECT_EQ(ResolveFunction("collection_max", {DataType::Int()}, nullptr).status().message(),
            "Function system.collection_max requires a set or list argument, but found argument "
            "int of type int");
  EXPECT_EQ(ResolveFunction("collection_count", {}, nullptr).status().message(),
            "Invalid number of arguments for function system.collection_count(collection)");
  // A bind marker has no type to build the signature from.
  const ProvidedArgument marker{nullptr, "?", std::nullopt};
  EXPECT_EQ(ResolveNativeFunction("map_keys", {marker}, std::nullopt).status().message(),
            "Cannot infer type of argument ? in call to function system.map_keys(map): use type "
            "casts to disambiguate");
}

TEST(JsonFunctionsTest, ToJsonOfAnyType) {
  EXPECT_EQ(Call("to_json", {Value::Int(1)}), Value::Text("1"));
  EXPECT_EQ(Call("tojson", {Value::Text("a\"b")}), Value::Text("\"a\\\"b\""));
  EXPECT_EQ(Call("to_json", {IntList({1, 2})}), Value::Text("[1, 2]"));
  EXPECT_EQ(Call("to_json", {IntMap({{1, 2}})}), Value::Text("{\"1\": 2}"));
  // JsonTest: toJson(null) is the JSON null, not a null value.
  EXPECT_EQ(Call("to_json", {Value::Null(DataType::Int())}), Value::Text("null"));
}

TEST(JsonFunctionsTest, FromJsonTakesItsTypeFromTheReceiver) {
  std::vector<ProvidedArgument> text_argument = {
      {[](const DataType& p) { return TypeAssignability(p, DataType::Text()); }, "'[1, 2]'",
       DataType::Text()}};
  Result<const NativeFunction*> f =
      ResolveNativeFunction("from_json", text_argument, DataType::List(DataType::Int()));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->return_type, DataType::List(DataType::Int()));
  Result<Value> v = (*f)->body(**f, {Value::Text("[1, 2]")}, {0});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->ToString(), "[1, 2]");
  v = (*f)->body(**f, {Value::Text("null")}, {0});
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->is_null());
  v = (*f)->body(**f, {Value::Text("[1,")}, {0});
  EXPECT_EQ(v.status().message(),
            "execution of 'system.from_json[text]' failed: Could not decode JSON string '[1,': "
            "unexpected end of input at character 4");
  // Without a receiver (a selector) it has no type.
  EXPECT_EQ(ResolveNativeFunction("fromjson", text_argument, std::nullopt).status().message(),
            "fromjson() cannot be used in the selection clause of a SELECT statement");
}

}  // namespace
}  // namespace cassette::cql
