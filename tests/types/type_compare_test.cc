// Cassandra's comparison order, one fact per case.
#include <gtest/gtest.h>

#include "cassette/value.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

std::string P(const DataType& t, const char* literal) { return ParseLiteral(t, literal).value(); }

// Asserts the literals are in strictly increasing Cassandra order.
void ExpectAscending(const char* type_spec, std::vector<const char*> literals) {
  DataType t = DataType::Parse(type_spec).value();
  for (size_t i = 0; i < literals.size(); ++i) {
    for (size_t j = 0; j < literals.size(); ++j) {
      int c = CompareValues(t, P(t, literals[i]), P(t, literals[j]));
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(c < 0 ? -1 : (c > 0 ? 1 : 0), want)
          << type_spec << ": " << literals[i] << " vs " << literals[j];
    }
  }
}

TEST(CompareValues, SignedIntegersAndTimestamps) {
  ExpectAscending("int", {"-2147483648", "-1", "0", "1", "2147483647"});
  ExpectAscending("tinyint", {"-128", "-1", "0", "127"});
  ExpectAscending("bigint", {"-9223372036854775808", "-1", "0", "9223372036854775807"});
  ExpectAscending("timestamp", {"'1900-01-01'", "'1969-12-31 23:59:59.999'", "0", "'2024-01-15'"});
  ExpectAscending("time", {"'00:00:00'", "'00:00:00.000000001'", "'23:59:59.999999999'"});
}

TEST(CompareValues, DatesCompareUnsignedWithEpochAt2Pow31) {
  ExpectAscending("date", {"'-5877641-06-23'", "'1969-12-31'", "'1970-01-01'", "'2024-01-15'"});
}

TEST(CompareValues, TextAndBlobsAreUnsignedBytes) {
  ExpectAscending("text", {"''", "'Z'", "'a'", "'ab'", "'b'", "'\xc3\xa9'"});
  ExpectAscending("blob", {"0x", "0x00", "0x0000", "0x01", "0x7f", "0x80", "0xff"});
  ExpectAscending("ascii", {"''", "'A'", "'a'", "'aa'"});
}

TEST(CompareValues, InetIsByteOrder) {
  // A 16-byte address starting with zeros sorts before 255.x; an IPv4
  // address that prefixes an IPv6 one sorts first.
  ExpectAscending("inet", {"'::1'", "'1.2.3.4'", "'102:304::'", "'255.255.255.255'"});
}

TEST(CompareValues, FloatsFollowJavaCompare) {
  ExpectAscending("float",
                  {"-Infinity", "-1e30", "-1", "-0.0", "0.0", "1e-40", "1", "Infinity", "NaN"});
  ExpectAscending("double", {"-Infinity", "-1", "-0.0", "0.0", "4.9e-324", "1", "Infinity", "NaN"});
  // All NaNs are equal, whatever their bits.
  DataType f = DataType::Float();
  EXPECT_EQ(
      CompareValues(f, std::string("\x7f\xc0\x00\x00", 4), std::string("\xff\xc0\x00\x01", 4)), 0);
}

TEST(CompareValues, VarintAndDecimalAreNumeric) {
  ExpectAscending("varint", {"-340282366920938463463374607431768211456", "-129", "-128", "-1", "0",
                             "127", "128", "340282366920938463463374607431768211456"});
  ExpectAscending("decimal", {"-1e10", "-1.5", "-1.4", "-0.001", "0", "1e-7", "0.5", "1", "1.01",
                              "10", "1E+3", "1000.5"});
  DataType d = DataType::Decimal();
  EXPECT_EQ(CompareValues(d, P(d, "1.0"), P(d, "1.00")), 0);
  EXPECT_EQ(CompareValues(d, P(d, "1E+3"), P(d, "1000")), 0);
  EXPECT_EQ(CompareValues(d, P(d, "0.00"), P(d, "0E+5")), 0);
}

TEST(CompareValues, BooleanFalseFirst) { ExpectAscending("boolean", {"false", "true"}); }

TEST(CompareValues, TimeuuidByTimestampThenSignedBytes) {
  // time_hi decides before time_low (a byte comparison would say otherwise).
  ExpectAscending("timeuuid",
                  {"ffffffff-0000-1001-8000-000000000000", "00000000-0000-1002-8000-000000000000"});
  // Same timestamp: the low half compares as signed bytes (0x80 < 0x7f).
  ExpectAscending("timeuuid",
                  {"00000000-0000-1000-8000-000000000000", "00000000-0000-1000-ff00-000000000000",
                   "00000000-0000-1000-0000-000000000000", "00000000-0000-1000-7f00-000000000000"});
}

TEST(CompareValues, UuidByVersionThenTimeOrBytes) {
  // Version first: any version 1 before any version 4.
  ExpectAscending("uuid",
                  {"ffffffff-ffff-1fff-ffff-ffffffffffff", "00000000-0000-4000-0000-000000000000"});
  // Version 1: timestamp order, then the low half unsigned.
  ExpectAscending("uuid",
                  {"ffffffff-0000-1001-0000-000000000000", "00000000-0000-1002-0000-000000000000",
                   "00000000-0000-1002-7f00-000000000000", "00000000-0000-1002-8000-000000000000"});
  // Other versions: unsigned bytes.
  ExpectAscending("uuid",
                  {"00000000-0000-4000-0000-000000000000", "7fffffff-0000-4000-0000-000000000000",
                   "80000000-0000-4000-0000-000000000000"});
}

TEST(CompareValues, CollectionsElementWiseThenSize) {
  ExpectAscending("frozen<list<int>>",
                  {"[]", "[-1]", "[1]", "[1, 2]", "[1, 2, 0]", "[1, 3]", "[2]"});
  ExpectAscending("frozen<set<text>>", {"{}", "{'a'}", "{'a', 'b'}", "{'b'}"});
  ExpectAscending("frozen<map<int, text>>",
                  {"{}", "{1: 'a'}", "{1: 'b'}", "{1: 'b', 2: 'a'}", "{2: 'a'}"});
  ExpectAscending("tuple<int, text>",
                  {"(0)", "(1)", "(1, null)", "(1, '')", "(1, 'a')", "(2, null)"});
}

TEST(CompareValues, DurationIsByteOrder) {
  DataType d = DataType::Duration();
  // Cassandra compares durations as bytes (they cannot be keys).
  EXPECT_LT(CompareValues(d, P(d, "1d"), P(d, "2d")), 0);
  EXPECT_EQ(CompareValues(d, P(d, "1d"), P(d, "1d")), 0);
}

TEST(CompareValues, MalformedInputDoesNotCrash) {
  for (int k = static_cast<int>(TypeKind::kAscii); k <= static_cast<int>(TypeKind::kTuple); ++k) {
    DataType t =
        k >= static_cast<int>(TypeKind::kList)
            ? (k == static_cast<int>(TypeKind::kMap)
                   ? DataType::Map(DataType::Int(), DataType::Int(), true)
               : k == static_cast<int>(TypeKind::kTuple) ? DataType::Tuple({DataType::Int()})
                                                         : DataType::List(DataType::Int(), true))
            : DataType::Of(static_cast<TypeKind>(k));
    for (const std::string& a : {std::string(), std::string("\x01"), std::string(40, '\xff')}) {
      for (const std::string& b : {std::string(), std::string("\x00\x00\x00\x05", 4)}) {
        int c = CompareValues(t, a, b);
        EXPECT_EQ(c<0, CompareValues(t, b, a)> 0) << t.ToString();
      }
    }
  }
}

}  // namespace
}  // namespace cassette
