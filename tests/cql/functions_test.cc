#include "engine/cql/functions.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/cql/time_functions.h"
#include "engine/types/cql_duration.h"
#include "engine/types/temporal_text.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {
namespace {

int64_t Millis(const char* text) {
  int64_t millis = 0;
  EXPECT_TRUE(ParseTimestampText(text, &millis)) << text;
  return millis;
}

Value Duration(const char* text) {
  Result<CqlDuration> d = ParseDurationText(text);
  EXPECT_TRUE(d.ok());
  return Value::Duration(static_cast<int32_t>(d->months), static_cast<int32_t>(d->days), d->nanos);
}

Value Call(std::string_view name, const std::vector<Value>& arguments, int64_t now_micros = 0) {
  Result<Value> r = CallFunction(name, arguments, {now_micros});
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : Value();
}

std::string CallError(std::string_view name, const std::vector<Value>& arguments) {
  Result<Value> r = CallFunction(name, arguments, {0});
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : std::string(r.status().message());
}

TEST(FunctionsTest, NowIsUniqueAndOrderedWithinOneMicrosecond) {
  const int64_t now = Millis("2024-01-15T10:15:00Z") * 1000 + 7;
  Value previous = Call("now", {}, now);
  for (int i = 0; i < 1000; ++i) {
    Value next = Call("now", {}, now);
    ASSERT_NE(next, previous);
    ASSERT_LT(CompareValues(DataType::Timeuuid(), previous.bytes(), next.bytes()), 0);
    // The embedded time stays the statement's time.
    ASSERT_EQ(Call("totimestamp", {next}), Value::Timestamp(now / 1000));
    previous = next;
  }
  EXPECT_LT(CompareValues(DataType::Timeuuid(), previous.bytes(),
                          Call("currenttimeuuid", {}, now + 1).bytes()),
            0);
}

TEST(FunctionsTest, MinAndMaxTimeuuidBoundEveryTimeuuidOfTheirMillisecond) {
  const int64_t ms = Millis("2024-11-13T09:00:00Z");
  const Value min = Call("mintimeuuid", {Value::Timestamp(ms)});
  const Value max = Call("system.maxTimeuuid", {Value::Timestamp(ms)});
  EXPECT_EQ(min.ToString(), "a9a6e800-a19d-11ef-8080-808080808080");
  EXPECT_EQ(max.ToString(), "a9a70f0f-a19d-11ef-7f7f-7f7f7f7f7f7f");
  for (int64_t micros : {ms * 1000, ms * 1000 + 999}) {
    const Value id = Call("now", {}, micros);
    EXPECT_LT(CompareValues(DataType::Timeuuid(), min.bytes(), id.bytes()), 0);
    EXPECT_LT(CompareValues(DataType::Timeuuid(), id.bytes(), max.bytes()), 0);
  }
  EXPECT_EQ(Call("unixtimestampof", {max}), Value::Bigint(ms));
  EXPECT_EQ(Call("dateof", {min}), Value::Timestamp(ms));
}

TEST(FunctionsTest, TemporalConversions) {
  const int64_t ms = Millis("2024-01-15T10:15:00.250Z");
  EXPECT_EQ(Call("todate", {Value::Timestamp(ms)}).ToString(), "2024-01-15");
  EXPECT_EQ(Call("to_date", {Value::Timestamp(-1)}).ToString(), "1969-12-31");
  EXPECT_EQ(Call("totimestamp", {Value::Date(19737)}), Value::Timestamp(19737LL * 86400000));
  EXPECT_EQ(Call("tounixtimestamp", {Value::Timestamp(ms)}), Value::Bigint(ms));
  EXPECT_EQ(Call("tounixtimestamp", {Value::Date(1)}), Value::Bigint(86400000));
  EXPECT_EQ(Call("todate", {Value::Null(DataType::Timestamp())}), Value::Null(DataType::Date()));
  EXPECT_EQ(Call("currentdate", {}, ms * 1000).ToString(), "2024-01-15");
  EXPECT_EQ(Call("current_timestamp", {}, ms * 1000), Value::Timestamp(ms));
}

TEST(FunctionsTest, FloorOfTimestamps) {
  const Value t = Value::Timestamp(Millis("2016-09-27T16:12:37.5Z"));
  EXPECT_EQ(Call("floor", {t, Duration("5m")}), Value::Timestamp(Millis("2016-09-27T16:10:00Z")));
  EXPECT_EQ(Call("floor", {t, Duration("1h"), Value::Timestamp(Millis("2016-09-27T00:30:00Z"))}),
            Value::Timestamp(Millis("2016-09-27T15:30:00Z")));
  EXPECT_EQ(Call("floor", {t, Duration("2mo")}), Value::Timestamp(Millis("2016-09-01T00:00:00Z")));
  // The largest k with 1970-01-01 + k months + 2k days <= t: k = 526.
  EXPECT_EQ(Call("floor", {t, Duration("1mo2d")}),
            Value::Timestamp(Millis("2016-09-18T00:00:00Z")));
  EXPECT_EQ(Call("floor", {t, Duration("0h")}), t);
  EXPECT_EQ(
      CallError("floor", {t, Duration("1h"), Value::Timestamp(Millis("2017-01-01T00:00:00Z"))}),
      "The floor function starting time is greater than the provided time");
  EXPECT_EQ(CallError("floor", {t, Duration("-1h")}),
            "Negative durations are not supported by the floor function");
  // Before the epoch the buckets still start on multiples of the duration.
  EXPECT_EQ(Call("floor", {Value::Timestamp(-1), Duration("1h"), Value::Timestamp(-7200000)}),
            Value::Timestamp(-3600000));
}

TEST(FunctionsTest, FloorOfTimeuuidsDatesAndTimes) {
  const int64_t ms = Millis("2024-01-15T10:15:00Z");
  EXPECT_EQ(Call("floor", {Call("now", {}, ms * 1000), Duration("1d")}),
            Value::Timestamp(Millis("2024-01-15T00:00:00Z")));
  EXPECT_EQ(Call("floor", {Value::Date(19737), Duration("7d")}).type(), DataType::Date());
  EXPECT_EQ(Call("floor", {Value::Time(3725000000000), Duration("1h")}),
            Value::Time(3600000000000));
  EXPECT_EQ(CallError("floor", {Value::Time(1), Duration("1d")}),
            "For time values, the floor can only be computed for durations smaller that a day");
}

TEST(FunctionsTest, ResolveFunctionTypesAndErrors) {
  std::vector<DataType> resolved;
  Result<DataType> r = ResolveFunction("toDate", {DataType::Timestamp()}, &resolved);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, DataType::Date());
  EXPECT_EQ(resolved, std::vector<DataType>{DataType::Timestamp()});

  r = ResolveFunction("minTimeuuid", {std::nullopt}, &resolved);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, DataType::Timeuuid());
  EXPECT_EQ(resolved, std::vector<DataType>{DataType::Timestamp()});

  r = ResolveFunction("system.floor", {DataType::Timestamp(), std::nullopt}, &resolved);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, DataType::Timestamp());
  EXPECT_EQ(resolved, (std::vector<DataType>{DataType::Timestamp(), DataType::Duration()}));

  EXPECT_EQ(*ResolveFunction("token", {DataType::Int(), DataType::Text()}, nullptr),
            DataType::Bigint());
  EXPECT_EQ(*ResolveFunction("intasblob", {DataType::Int()}, nullptr), DataType::Blob());

  EXPECT_EQ(ResolveFunction("f", {}, nullptr).status().message(), "Unknown function 'f'");
  EXPECT_EQ(ResolveFunction("ks.now", {}, nullptr).status().message(), "Unknown function 'ks.now'");
  EXPECT_EQ(ResolveFunction("now", {DataType::Int()}, nullptr).status().message(),
            "Invalid number of arguments in call to function system.now: 0 required but 1 "
            "provided");
  EXPECT_EQ(ResolveFunction("maxtimeuuid", {DataType::Text()}, nullptr).status().message(),
            "Type error: text cannot be passed as argument 0 of function system.maxtimeuuid of "
            "type timestamp");
  EXPECT_EQ(ResolveFunction("todate", {std::nullopt}, nullptr).status().message(),
            "Ambiguous call to function todate (can be matched by following signatures: "
            "system.todate : (timeuuid) -> date, system.todate : (timestamp) -> date): use type "
            "casts to disambiguate");
}

TEST(FunctionsTest, BlobConversions) {
  EXPECT_EQ(Call("intasblob", {Value::Int(258)}), Value::Blob(std::string("\0\0\1\2", 4)));
  EXPECT_EQ(Call("blobasint", {Value::Blob(std::string("\0\0\1\2", 4))}), Value::Int(258));
  EXPECT_EQ(Call("varcharasblob", {Value::Text("a")}), Value::Blob("a"));
  EXPECT_EQ(Call("blobastext", {Value::Blob("a")}), Value::Text("a"));
  EXPECT_EQ(CallError("blobasint", {Value::Blob("\x01")}),
            "In call to function system.blobasint, value 0x01 is not a valid binary "
            "representation for type int");
  // Cassandra 5's snake_case names, beside the old ones.
  EXPECT_EQ(Call("int_as_blob", {Value::Int(258)}), Value::Blob(std::string("\0\0\1\2", 4)));
  EXPECT_EQ(Call("blob_as_int", {Value::Blob(std::string("\0\0\1\2", 4))}), Value::Int(258));
  EXPECT_EQ(Call("text_as_blob", {Value::Text("a")}), Value::Blob("a"));
  EXPECT_EQ(Call("varchar_as_blob", {Value::Text("a")}), Value::Blob("a"));
  EXPECT_EQ(Call("blob_as_varchar", {Value::Blob("a")}), Value::Text("a"));
  EXPECT_EQ(Call("timestamp_as_blob", {Value::Timestamp(1)}),
            Value::Blob(std::string("\0\0\0\0\0\0\0\1", 8)));
  EXPECT_EQ(CallError("blob_as_int", {Value::Blob("\x01")}),
            "In call to function system.blob_as_int, value 0x01 is not a valid binary "
            "representation for type int");
}

TEST(FunctionsTest, TokenIsMurmur3OfTheSerializedKey) {
  // Vectors from docs/SEMANTICS.md §8.
  EXPECT_EQ(Call("token", {Value::Int(0)}), Value::Bigint(-3485513579396041028));
  EXPECT_EQ(Call("token", {Value::Int(-1)}), Value::Bigint(7297452126230313552));
  EXPECT_EQ(Call("token", {Value::Text("abc")}), Value::Bigint(-5434086359492102041));
  EXPECT_EQ(Call("token", {Value::Int(1), Value::Int(2)}), Value::Bigint(4881097376275569167));
}

TEST(FunctionsTest, UuidIsRandomVersion4) {
  const Value a = Call("uuid", {});
  const Value b = Call("uuid", {});
  EXPECT_NE(a, b);
  EXPECT_EQ(a.type(), DataType::Uuid());
  EXPECT_EQ(static_cast<uint8_t>(a.bytes()[6]) >> 4, 4);
}

TEST(FunctionsTest, CastBetweenNumbers) {
  EXPECT_EQ(*CastValue(Value::Double(2.9), DataType::Int()), Value::Int(2));
  EXPECT_EQ(*CastValue(Value::Double(-2.9), DataType::Bigint()), Value::Bigint(-2));
  EXPECT_EQ(*CastValue(Value::Double(1e20), DataType::Int()), Value::Int(INT32_MAX));
  EXPECT_EQ(*CastValue(Value::Int(300), DataType::Tinyint()), Value::Tinyint(44));
  EXPECT_EQ(*CastValue(Value::Int(3), DataType::Double()), Value::Double(3));
  EXPECT_EQ(CastValue(Value::Float(1.5f), DataType::Decimal())->ToString(), "1.5");
  EXPECT_EQ(CastValue(Value::Bigint(-12), DataType::Varint())->ToString(), "-12");
  Result<Value> decimal = Value::Parse(DataType::Decimal(), "-12.75");
  ASSERT_TRUE(decimal.ok());
  EXPECT_EQ(*CastValue(*decimal, DataType::Int()), Value::Int(-12));
  EXPECT_EQ(*CastValue(Value::Null(DataType::Int()), DataType::Bigint()),
            Value::Null(DataType::Bigint()));
}

TEST(FunctionsTest, CastToTextAndBetweenTemporalTypes) {
  EXPECT_EQ(*CastValue(Value::Int(42), DataType::Text()), Value::Text("42"));
  EXPECT_EQ(*CastValue(Value::Double(1), DataType::Ascii()), Value::Ascii("1.0"));
  EXPECT_EQ(*CastValue(Value::Timestamp(Millis("2024-01-15T10:15:00Z")), DataType::Text()),
            Value::Text("2024-01-15T10:15:00.000Z"));
  EXPECT_EQ(*CastValue(Value::Boolean(true), DataType::Text()), Value::Text("true"));
  EXPECT_EQ(
      CastValue(Value::Timestamp(Millis("2024-01-15T10:15:00Z")), DataType::Date())->ToString(),
      "2024-01-15");
  EXPECT_EQ(*CastValue(Value::Date(1), DataType::Timestamp()), Value::Timestamp(86400000));
  EXPECT_EQ(CastValue(Value::Text("1"), DataType::Int()).status().message(),
            "text cannot be cast to int");
}

}  // namespace
}  // namespace cassette::cql
