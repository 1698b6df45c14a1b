#include <gtest/gtest.h>

#include "cassette/value.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

struct Case {
  const char* type;
  std::string bytes;
  const char* message;  // nullptr: valid
};

TEST(ValidateValue, AcceptsAndRefusesWithCassandrasMessages) {
  const Case cases[] = {
      {"int", std::string("\0\0\0\1", 4), nullptr},
      {"int", std::string("\0\0\1", 3), "Expected 4 or 0 byte int (3)"},
      {"int", "", "Invalid empty value for type int"},
      {"bigint", std::string(7, '\0'), "Expected 8 or 0 byte long (7)"},
      {"counter", std::string(9, '\0'), "Expected 8 or 0 byte long (9)"},
      {"smallint", std::string(4, '\0'), "Expected 2 bytes for a smallint (4)"},
      {"tinyint", std::string(2, '\0'), "Expected 1 byte for a tinyint (2)"},
      {"timestamp", std::string(4, '\0'), "Expected 8 or 0 byte long for date (4)"},
      {"date", std::string(8, '\0'), "Expected 4 byte long for date (8)"},
      {"time", std::string(8, '\0'), nullptr},
      {"time", std::string("\xff\xff\xff\xff\xff\xff\xff\xff", 8),
       "Invalid time value -1: must be between 0 and 86399999999999 nanoseconds"},
      {"time", std::string(3, '\0'), "Expected 8 byte long for time (3)"},
      {"float", std::string(8, '\0'), "Expected 4 or 0 byte value for a float (8)"},
      {"double", std::string(4, '\0'), "Expected 8 or 0 byte value for a double (4)"},
      {"boolean", std::string("\x01", 1), nullptr},
      {"boolean", std::string("\x02", 1), "Invalid boolean value: byte must be 0 or 1"},
      {"boolean", std::string(2, '\0'), "Expected 1 or 0 byte value (2)"},
      {"uuid", std::string(15, '\0'), "UUID should be 16 or 0 bytes (15)"},
      {"timeuuid", std::string(16, '\0'), "Invalid version for TimeUUID type."},
      {"timeuuid", std::string(17, '\0'), "TimeUUID should be 16 or 0 bytes (17)"},
      {"inet", std::string(5, '\0'), "Expected 4 or 16 byte inet address (5)"},
      {"inet", std::string(16, '\0'), nullptr},
      {"ascii", "abc", nullptr},
      {"ascii", "\x80", "Invalid byte for ascii: -128"},
      {"text", "\xc3\xa9", nullptr},
      {"text", "\xc3", "String didn't validate."},
      {"text", "\xed\xa0\x80", "String didn't validate."},      // a surrogate
      {"text", "\xc0\x80", "String didn't validate."},          // overlong NUL
      {"text", "\xf4\x90\x80\x80", "String didn't validate."},  // past U+10FFFF
      {"text", "", nullptr},
      {"blob", "", nullptr},
      // Redundant sign bytes are valid, as Java's BigInteger reads them
      // (a timestamp's 8 bytes stored into a varint column carry some).
      {"varint", std::string("\x00\x7f", 2), nullptr},
      {"varint", std::string("\xff\x80", 2), nullptr},
      {"varint", "", "Invalid empty value for type varint"},
      {"varint", std::string("\x00\x80", 2), nullptr},
      {"decimal", std::string("\0\0\0", 3), "Expected 0 or at least 4 bytes (3)"},
      {"decimal", std::string("\0\0\0\0", 4), "Invalid empty decimal value"},
      {"decimal", std::string("\0\0\0\x02\x00\x05", 6), nullptr},
      {"duration", std::string("\x02\x04", 2), "Expected at least 3 bytes for a duration (2)"},
      {"duration", std::string("\x02\x03\x00", 3),
       "The duration months, days and nanoseconds must be all of the same sign (1, -2, 0)"},
      {"duration", std::string("\x02\x04\x06\x00", 4),
       "Invalid duration: unexpected trailing bytes"},
      {"list<int>", std::string("\0\0\0\1\0\0\0\4\0\0\0\7", 12), nullptr},
      {"list<int>", std::string("\0\0\0\2\0\0\0\4\0\0\0\7", 12), "Not enough bytes to read a list"},
      {"list<int>", std::string("\0\0\0\1\xff\xff\xff\xff", 8),
       "null is not supported inside collections"},
      {"list<int>", std::string("\0\0\0\1\0\0\0\3\0\0\7", 11), "Expected 4 or 0 byte int (3)"},
      {"list<int>", std::string("\0\0\0\0\0", 5), "Unexpected extraneous bytes after list value"},
      {"set<int>", std::string("\0\0\0\2\0\0\0\4\0\0\0\7\0\0\0\4\0\0\0\5", 20),
       "Invalid set value: elements are not sorted and unique"},
      {"map<int, int>", std::string("\0\0\0\1\0\0\0\4\0\0\0\7\0\0\0\4\0\0\0\5", 20), nullptr},
      {"map<int, int>", std::string("\0\0\0\2\0\0\0\4\0\0\0\7\0\0\0\4\0\0\0\5", 20),
       "Not enough bytes to read a map"},
      {"tuple<int, text>", std::string("\0\0\0\4\0\0\0\7\xff\xff\xff\xff", 12), nullptr},
      {"tuple<int>", std::string("\0\0\0\4\0\0\0\7\xff\xff\xff\xff", 12),
       "Invalid remaining data after end of tuple value"},
      {"tuple<int>", std::string("\0\0\0\4\0\0", 6), "Not enough bytes to read a tuple"},
  };
  for (const Case& c : cases) {
    DataType t = DataType::Parse(c.type).value();
    Status s = ValidateValue(t, c.bytes);
    if (c.message == nullptr) {
      EXPECT_TRUE(s.ok()) << c.type << ": " << s.message();
    } else {
      EXPECT_TRUE(s.IsInvalidRequest()) << c.type;
      EXPECT_EQ(s.message(), c.message) << c.type;
    }
  }
}

// The empty value (zero bytes): Cassandra's serializers take it for the
// types whose message says "or 0 byte" (Int32Serializer, LongSerializer,
// TimestampSerializer, FloatSerializer, DoubleSerializer, BooleanSerializer,
// UUIDSerializer, TimeUUIDSerializer, DecimalSerializer), for inet and
// varint, and refuse it
// for tinyint, smallint, date, time and duration. ValidateCellValue accepts
// it where cassette stores it (cells, partition key parts); ValidateValue,
// which keys and nested values go through, does not.
TEST(ValidateCellValue, AcceptsTheEmptyValueOfTheTypesThatHaveOne) {
  for (const char* type : {"int", "bigint", "timestamp", "float", "double", "boolean", "uuid",
                           "timeuuid", "inet", "varint", "decimal"}) {
    const DataType t = DataType::Parse(type).value();
    EXPECT_TRUE(HasEmptyValue(t)) << type;
    EXPECT_TRUE(IsEmptyValue(t, "")) << type;
    EXPECT_TRUE(ValidateCellValue(t, "").ok()) << type;
    EXPECT_EQ(ValidateValue(t, "").message(), std::string("Invalid empty value for type ") + type);
  }
  const struct {
    const char* type;
    const char* message;
  } refused[] = {
      {"tinyint", "Expected 1 byte for a tinyint (0)"},
      {"smallint", "Expected 2 bytes for a smallint (0)"},
      {"date", "Expected 4 byte long for date (0)"},
      {"time", "Expected 8 byte long for time (0)"},
      {"duration", "Expected at least 3 bytes for a duration (0)"},
      {"frozen<list<int>>", "Not enough bytes to read a list"},
  };
  for (const auto& c : refused) {
    const DataType t = DataType::Parse(c.type).value();
    EXPECT_FALSE(HasEmptyValue(t)) << c.type;
    EXPECT_EQ(ValidateCellValue(t, "").message(), c.message) << c.type;
  }
  // Text, ascii and blob: an ordinary empty string, not "the empty value".
  for (const char* type : {"text", "ascii", "blob"}) {
    const DataType t = DataType::Parse(type).value();
    EXPECT_FALSE(IsEmptyValue(t, "")) << type;
    EXPECT_TRUE(ValidateCellValue(t, "").ok()) << type;
  }
  // A list element holds no empty value.
  EXPECT_FALSE(
      ValidateCellValue(DataType::Parse("list<int>").value(), std::string("\0\0\0\1\0\0\0\0", 8))
          .ok());
}

TEST(CassandraVint, EncodesLikeVIntCoding) {
  struct {
    uint64_t v;
    std::string bytes;
  } cases[] = {
      {0, std::string("\x00", 1)},
      {127, "\x7f"},
      {128, "\x80\x80"},
      {16383, "\xbf\xff"},
      {16384, std::string("\xc0\x40\x00", 3)},
      {(1ULL << 56) - 1, "\xfe\xff\xff\xff\xff\xff\xff\xff"},
      {~0ULL, "\xff\xff\xff\xff\xff\xff\xff\xff\xff"},
  };
  for (const auto& c : cases) {
    std::string out;
    PutCassandraVint(&out, c.v);
    EXPECT_EQ(out, c.bytes) << c.v;
    std::string_view in = out;
    uint64_t back;
    ASSERT_TRUE(GetCassandraVint(&in, &back));
    EXPECT_EQ(back, c.v);
    EXPECT_TRUE(in.empty());
    std::string_view truncated(out.data(), out.size() - 1);
    EXPECT_TRUE(out.size() == 1 || !GetCassandraVint(&truncated, &back));
  }
}

TEST(CqlDuration, SerializationRoundTripsExtremes) {
  for (auto [m, d, n] : {std::tuple<int32_t, int32_t, int64_t>{0, 0, 0},
                         {INT32_MAX, INT32_MAX, INT64_MAX},
                         {INT32_MIN, INT32_MIN, INT64_MIN},
                         {-1, 0, -1}}) {
    std::string bytes = SerializeDuration(m, d, n);
    CqlDuration back;
    ASSERT_TRUE(DeserializeDuration(bytes, &back).ok());
    EXPECT_EQ(back.months, m);
    EXPECT_EQ(back.days, d);
    EXPECT_EQ(back.nanos, n);
  }
  EXPECT_EQ(FormatDuration(CqlDuration{}), "");
  EXPECT_EQ(FormatDuration(CqlDuration{INT32_MIN, 0, 0}), "-178956970y8mo");
}

TEST(CollectionCodec, RoundTrips) {
  std::vector<std::string> elements = {"a", "", std::string("\0\1", 2)};
  std::string s = SerializeCollection(elements);
  std::vector<std::string> back;
  ASSERT_TRUE(DeserializeCollection(s, &back).ok());
  EXPECT_EQ(back, elements);
  std::vector<std::pair<std::string, std::string>> entries = {{"k", "v"}, {"", "x"}};
  std::string m = SerializeMap(entries);
  std::vector<std::pair<std::string, std::string>> mback;
  ASSERT_TRUE(DeserializeMap(m, &mback).ok());
  EXPECT_EQ(mback, entries);
  std::vector<std::optional<std::string>> components = {"1", std::nullopt, ""};
  std::string t = SerializeTuple(components);
  std::vector<std::optional<std::string>> tback;
  ASSERT_TRUE(DeserializeTuple(t, &tback).ok());
  EXPECT_EQ(tback, components);
  // Truncations never read past the end.
  for (size_t cut = 0; cut < s.size(); ++cut) {
    EXPECT_FALSE(DeserializeCollection(s.substr(0, cut), &back).ok()) << cut;
  }
  // A huge count with few bytes is refused before allocating.
  EXPECT_FALSE(DeserializeCollection(std::string("\x7f\xff\xff\xff", 4), &back).ok());
}

}  // namespace
}  // namespace cassette
