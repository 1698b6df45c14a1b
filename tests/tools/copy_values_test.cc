// Values to CSV fields and back, type by type. Expected texts come from
// cqlsh's formatting (pylib/cqlshlib/formatting.py), its COPY FROM
// converters (copyutil.py ImportConversion) and the CSV contents
// cassandra-dtest's cqlsh_tests/test_cqlsh_copy.py asserts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tools/copy_options.h"
#include "tools/copy_value_format.h"
#include "tools/copy_value_parse.h"

namespace cassette::tools {
namespace {

std::string Write(const Value& value, const CopyValueFormat& format = {}) {
  return FormatCopyValue(value.view(), format);
}

Value Read(const DataType& type, const std::string& field, const CopyValueFormat& format = {}) {
  Result<Value> value = ParseCopyField(type, field, format);
  EXPECT_TRUE(value.ok()) << type.ToString() << " '" << field << "': " << value.status().ToString();
  return value.ok() ? *value : Value();
}

std::string ReadError(const DataType& type, const std::string& field,
                      const CopyValueFormat& format = {}) {
  Result<Value> value = ParseCopyField(type, field, format);
  EXPECT_FALSE(value.ok()) << type.ToString() << " '" << field << "'";
  return value.ok() ? "" : value.status().message();
}

Value Literal(const std::string& type, const std::string& literal) {
  Result<DataType> parsed = DataType::Parse(type);
  EXPECT_TRUE(parsed.ok()) << type;
  Result<Value> value = Value::Parse(*parsed, literal);
  EXPECT_TRUE(value.ok()) << literal << ": " << value.status().ToString();
  return *value;
}

// Writes `literal` of `type`, checks the field, reads it back.
void RoundTrip(const std::string& type, const std::string& literal, const std::string& field,
               const CopyValueFormat& format = {}) {
  const Value value = Literal(type, literal);
  EXPECT_EQ(Write(value, format), field) << type << " " << literal;
  EXPECT_EQ(Read(value.type(), field, format), value) << type << " " << field;
}

// cassandra-dtest test_all_datatypes_write / _read: the CSV texts of
// every simple type with default options.
TEST(CopyValuesTest, SimpleTypesAsCqlshWritesThem) {
  RoundTrip("ascii", "'ascii'", "ascii");
  RoundTrip("bigint", "1099511627776", "1099511627776");  // 2 ** 40
  RoundTrip("blob", "0xbeef", "0xbeef");
  RoundTrip("boolean", "true", "True");
  RoundTrip("boolean", "false", "False");
  RoundTrip("decimal", "3.14", "3.14");
  RoundTrip("double", "2.444", "2.444");
  RoundTrip("float", "1.1", "1.1");
  RoundTrip("inet", "'127.0.0.1'", "127.0.0.1");
  RoundTrip("inet", "'::1'", "::1");
  RoundTrip("int", "25", "25");
  RoundTrip("text", "'ヽ(´ー｀)ノ'", "ヽ(´ー｀)ノ");
  RoundTrip("timestamp", "'2005-07-14 12:30:00+0000'", "2005-07-14 12:30:00.000+0000");
  RoundTrip("timeuuid", "1f4c6c30-e1a4-11e4-8d94-0800200c9a66",
            "1f4c6c30-e1a4-11e4-8d94-0800200c9a66");
  RoundTrip("uuid", "5132b130-ae79-11e4-ab27-0800200c9a66", "5132b130-ae79-11e4-ab27-0800200c9a66");
  RoundTrip("varint", "10000000000000000000000000", "10000000000000000000000000");
  RoundTrip("tinyint", "-128", "-128");
  RoundTrip("smallint", "32767", "32767");
  RoundTrip("date", "'2017-09-21'", "2017-09-21");
  RoundTrip("time", "'10:15:30.123456789'", "10:15:30.123456789");
  RoundTrip("duration", "1y2mo3d4h5m6s7ms8us9ns", "1y2mo3d4h5m6s7ms8us9ns");
  RoundTrip("duration", "-2d", "-2d");
}

TEST(CopyValuesTest, TextIsWrittenAsStoredAndReadAsIs) {
  // cqlsh would write "a\\b" and "two\nlines" escaped, and read them back
  // changed; cassette writes the text itself (the CSV layer quotes it).
  RoundTrip("text", "'a\\b'", "a\\b");
  RoundTrip("text", "'two\nlines'", "two\nlines");
  RoundTrip("text", "'it''s'", "it's");
}

// formatting.py format_floating_point_type: %g with the precision grown by
// the digits before the point; FLOATPRECISION 5, DOUBLEPRECISION 12.
// Expected texts checked against that function in Python 3.
TEST(CopyValuesTest, FloatingPrecisionIsCqlshs) {
  CopyValueFormat format;
  EXPECT_EQ(Write(Value::Double(3.141592653589793), format), "3.14159265359");
  EXPECT_EQ(Write(Value::Float(3.14159265f), format), "3.14159");
  // Digits after the point, so a large value shows its binary expansion.
  EXPECT_EQ(Write(Value::Double(123456789.123), format), "123456789.122999995947");
  EXPECT_EQ(Write(Value::Double(1e20), format), "1e+20");
  EXPECT_EQ(Write(Value::Double(0.0001234), format), "0.0001234");
  EXPECT_EQ(Write(Value::Double(0.0), format), "0");
  EXPECT_EQ(Write(Value::Double(-1.5), format), "-1.5");
  EXPECT_EQ(Write(Value::Double(std::numeric_limits<double>::quiet_NaN()), format), "NaN");
  EXPECT_EQ(Write(Value::Float(-std::numeric_limits<float>::infinity()), format), "-Infinity");
  // dtest test_round_trip_with_different_number_precision: more digits.
  format.float_precision = 3;
  format.double_precision = 17;
  EXPECT_EQ(Write(Value::Float(1.234567f), format), "1.235");
  EXPECT_EQ(Write(Value::Double(0.1), format), "0.10000000000000001");
  EXPECT_EQ(Read(DataType::Double(), "0.10000000000000001"), Value::Double(0.1));
  // Python's float() spellings.
  EXPECT_EQ(Read(DataType::Double(), " 1e3 "), Value::Double(1000));
  EXPECT_EQ(Read(DataType::Double(), "inf"),
            Value::Double(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(std::isnan(Read(DataType::Float(), "nan").AsDouble()));
}

// dtest test_number_separators_round_trip (Cassandra 3.6 and later):
// THOUSANDSSEP=',' DECIMALSEP='.', then THOUSANDSSEP='.' DECIMALSEP=','.
TEST(CopyValuesTest, NumberSeparators) {
  CopyValueFormat usual;
  usual.thousands_separator = ",";
  usual.decimal_separator = ".";
  EXPECT_EQ(Write(Value::Int(1000000005), usual), "1,000,000,005");
  EXPECT_EQ(Write(Value::Int(-1000000005), usual), "-1,000,000,005");
  EXPECT_EQ(Write(Literal("varint", "1000000"), usual), "1,000,000");
  EXPECT_EQ(Write(Value::Tinyint(127), usual), "127");
  EXPECT_EQ(Write(Literal("decimal", "1234.56"), usual), "1,234.56");
  EXPECT_EQ(Write(Literal("decimal", "-1234.56"), usual), "-1,234.56");
  EXPECT_EQ(Write(Literal("decimal", "0.001"), usual), "0.001");
  EXPECT_EQ(Write(Value::Float(1234.56f), usual), "1,234.56006");
  EXPECT_EQ(Write(Value::Float(-1234.56f), usual), "-1,234.56006");
  EXPECT_EQ(Write(Value::Double(123456789.56), usual), "123,456,789.560000002384");
  EXPECT_EQ(Write(Value::Double(5.12345678), usual), "5.12345678");
  EXPECT_EQ(Write(Value::Double(-1234.56), usual), "-1,234.56");
  EXPECT_EQ(Write(Value::Double(0), usual), "0");
  EXPECT_EQ(Read(DataType::Int(), "1,000,000,005", usual), Value::Int(1000000005));
  EXPECT_EQ(Read(DataType::Double(), "123,456,789.560000002384", usual),
            Value::Double(123456789.560000002384));
  EXPECT_EQ(Read(DataType::Decimal(), "-1,234.56", usual), Literal("decimal", "-1234.56"));

  CopyValueFormat inverted;
  inverted.thousands_separator = ".";
  inverted.decimal_separator = ",";
  EXPECT_EQ(Write(Value::Int(1000000), inverted), "1.000.000");
  EXPECT_EQ(Write(Literal("decimal", "5.5"), inverted), "5,5");
  EXPECT_EQ(Write(Value::Float(1234.56f), inverted), "1.234,56006");
  EXPECT_EQ(Write(Value::Double(123456789.56), inverted), "123.456.789,560000002384");
  EXPECT_EQ(Read(DataType::Bigint(), "-1.000.000.005", inverted), Value::Bigint(-1000000005));
  EXPECT_EQ(Read(DataType::Float(), "1.234,56006", inverted), Value::Float(1234.56006f));
  EXPECT_EQ(Read(DataType::Decimal(), "0,001", inverted), Literal("decimal", "0.001"));
}

// dtest test_boolstyle_round_trip: BOOLSTYLE='1, 0' and 'yes, no',
// compared without case.
TEST(CopyValuesTest, BooleanStyles) {
  CopyValueFormat yes_no;
  yes_no.true_text = "yes";
  yes_no.false_text = "no";
  EXPECT_EQ(Write(Value::Boolean(true), yes_no), "yes");
  EXPECT_EQ(Write(Value::Boolean(false), yes_no), "no");
  EXPECT_EQ(Read(DataType::Boolean(), "YES", yes_no), Value::Boolean(true));
  EXPECT_EQ(Read(DataType::Boolean(), "No", yes_no), Value::Boolean(false));
  EXPECT_EQ(ReadError(DataType::Boolean(), "maybe", yes_no),
            "'maybe' is neither yes nor no (BOOLSTYLE)");
  EXPECT_EQ(Read(DataType::Boolean(), "true"), Value::Boolean(true));
}

// dtest test_datetimeformat_round_trip: '%Y/%m/%d %H:%M:%S'.
TEST(CopyValuesTest, DatetimeFormat) {
  CopyValueFormat format;
  format.datetime_format = "%Y/%m/%d %H:%M:%S";
  const Value one = Literal("timestamp", "'2015-01-01 07:00:00+0000'");
  EXPECT_EQ(Write(one, format), "2015/01/01 07:00:00");
  EXPECT_EQ(Read(DataType::Timestamp(), "2015/01/01 07:00:00", format), one);
  EXPECT_EQ(Write(Literal("timestamp", "'2015-12-31 23:59:59.999+0000'"), format),
            "2015/12/31 23:59:59");
  // Text in another form still reads: any CQL timestamp, then milliseconds.
  EXPECT_EQ(Read(DataType::Timestamp(), "2015-01-01T07:00:00Z", format), one);
  EXPECT_EQ(Read(DataType::Timestamp(), "1420095600000", format), one);
  EXPECT_EQ(ReadError(DataType::Timestamp(), "yesterday", format),
            "can't interpret 'yesterday' as a date with format %Y/%m/%d %H:%M:%S or as int");
  // The default format with its %f rounded to milliseconds (dtest
  // test_round_trip_with_sub_second_precision).
  EXPECT_EQ(Write(Literal("timestamp", "'2015-06-10 12:30:30.123+0000'")),
            "2015-06-10 12:30:30.123+0000");
  EXPECT_EQ(Read(DataType::Timestamp(), "2015-06-10 12:30:30.123+0200"),
            Literal("timestamp", "'2015-06-10 10:30:30.123+0000'"));
  EXPECT_EQ(FormatCopyTimestamp(1420095600123, "%d.%m.%y %H:%M:%S.%f %Z"),
            "01.01.15 07:00:00.123 UTC");
}

// formatting.py strftime's fallback (CASSANDRA-13185) and cqlsh's Date:
// outside years 1..9999 the count itself, which COPY FROM reads back.
TEST(CopyValuesTest, OutOfRangeTemporalsAsNumbers) {
  const Value far = Value::Timestamp(-62135596800001);  // 0000-12-31 23:59:59.999
  EXPECT_EQ(Write(far), "-62135596800001");
  EXPECT_EQ(Read(DataType::Timestamp(), "-62135596800001"), far);
  const Value early = Value::Date(-719163);  // 0000-12-31
  EXPECT_EQ(Write(early), "-719163");
  EXPECT_EQ(Read(DataType::Date(), "-719163"), early);
}

TEST(CopyValuesTest, CollectionsAndTuples) {
  RoundTrip("list<int>", "[1, 2, 3]", "[1, 2, 3]");
  RoundTrip("set<text>", "{'1111 2222', '3333 4444'}", "{'1111 2222', '3333 4444'}");
  RoundTrip("map<timestamp, text>", "{'2005-07-14 12:30:00+0000': 'foo'}",
            "{'2005-07-14 12:30:00.000+0000': 'foo'}");
  RoundTrip("tuple<int, text, boolean>", "(1, 'bar', true)", "(1, 'bar', True)");
  RoundTrip("frozen<map<frozen<map<int, int>>, frozen<set<text>>>>",
            "{{1: 1, 2: 2}: {'foo', 'bar'}}", "{{1: 1, 2: 2}: {'bar', 'foo'}}");
  RoundTrip("frozen<set<frozen<set<inet>>>>", "{{'127.0.0.1', '127.0.0.2'}}",
            "{{'127.0.0.1', '127.0.0.2'}}");
  RoundTrip("map<int, blob>", "{1: 0xbeef}", "{1: 0xbeef}");
  RoundTrip("list<text>", "['it''s', 'a, b']", "['it''s', 'a, b']");
  RoundTrip("map<time, int>", "{'10:00:00': 1}", "{'10:00:00.000000000': 1}");
  RoundTrip("tuple<int, text>", "(1, null)", "(1, null)");
  RoundTrip("frozen<list<int>>", "[]", "[]");
  // cqlsh's reader: elements need not be spaced, sets are sorted and
  // de-duplicated, a later map key wins.
  EXPECT_EQ(Read(Literal("list<int>", "[1]").type(), "[1,2,3]"), Literal("list<int>", "[1, 2, 3]"));
  EXPECT_EQ(Read(Literal("set<int>", "{1}").type(), "{3,1,3}"), Literal("set<int>", "{1, 3}"));
  EXPECT_EQ(Read(Literal("map<int, int>", "{1: 1}").type(), "{2: 1, 2: 5}"),
            Literal("map<int, int>", "{2: 5}"));
}

// dtest test_reading_collections_with_empty_values and
// test_importing_invalid_data_for_collections.
TEST(CopyValuesTest, CollectionErrors) {
  const DataType list = Literal("list<int>", "[1]").type();
  EXPECT_EQ(ReadError(list, "[1,,3]"), "Empty values are not allowed");
  EXPECT_EQ(ReadError(list, "1,2"),
            "Invalid composite string, it should start and end with matching parentheses: 1,2");
  EXPECT_EQ(ReadError(list, "[1, x]"), "invalid literal for int() with base 10: 'x'");
}

// copyutil.py ImportConversion.convert_row messages.
TEST(CopyValuesTest, RecordErrors) {
  ColumnDefinition key{.name = "a", .type = DataType::Int(), .kind = ColumnKind::kPartitionKey};
  ColumnDefinition value{.name = "c", .type = DataType::Float()};
  const std::vector<const ColumnDefinition*> columns = {&key, &value};
  CopyValueFormat format;
  auto error = [&](std::vector<std::string> fields) {
    Result<std::vector<Value>> row = ParseCopyRecord(columns, fields, format);
    return row.ok() ? std::string("ok") : row.status().message();
  };
  EXPECT_EQ(error({"1", "2.0", "3"}), "Invalid row length 3 should be 2");
  EXPECT_EQ(error({"", "2.0"}),
            "Cannot insert null value for primary key column 'a'. If you want to insert empty "
            "strings, consider using the WITH NULL=<marker> option for COPY.");
  EXPECT_EQ(error({"bb", "1.0"}),
            "Failed to parse bb : invalid literal for int() with base 10: 'bb'");
  EXPECT_EQ(error({"1", "abc"}), "Failed to parse abc : Unable to make float from 'abc'");
  // An empty value is null, even where it would not convert.
  Result<std::vector<Value>> row = ParseCopyRecord(columns, {"1", ""}, format);
  ASSERT_TRUE(row.ok());
  EXPECT_TRUE((*row)[1].is_null());
  format.null_text = "NULL";
  EXPECT_EQ(error({"NULL", "1"}), "Cannot insert null value for primary key column 'a'.");
  row = ParseCopyRecord(columns, {"1", "NULL"}, format);
  ASSERT_TRUE(row.ok());
  EXPECT_TRUE((*row)[1].is_null());
}

TEST(CopyValuesTest, UuidsAndBlobsAsPythonReadsThem) {
  const Value id = Literal("uuid", "5132b130-ae79-11e4-ab27-0800200c9a66");
  EXPECT_EQ(Read(DataType::Uuid(), "{5132B130-AE79-11E4-AB27-0800200C9A66}"), id);
  EXPECT_EQ(Read(DataType::Uuid(), "urn:uuid:5132b130ae7911e4ab270800200c9a66"), id);
  EXPECT_EQ(ReadError(DataType::Uuid(), "5132b130"), "badly formed hexadecimal UUID string");
  EXPECT_EQ(Read(DataType::Blob(), "0x"), Value::Blob(""));
  EXPECT_EQ(ReadError(DataType::Blob(), "beef"),
            "a blob is written 0x followed by hexadecimal digits");
}

TEST(CopyValuesTest, NullsAndEmptyValues) {
  CopyValueFormat format;
  format.null_text = "NULL";
  EXPECT_EQ(Write(Value::Null(DataType::Int()), format), "NULL");
  EXPECT_EQ(Write(Value::FromBytes(DataType::Int(), ""), format), "NULL");  // an empty int
  EXPECT_EQ(Write(Value::Text(""), format), "");
  EXPECT_TRUE(Read(DataType::Text(), "NULL", format).is_null());
  EXPECT_EQ(Read(DataType::Text(), "", format), Value::Text(""));
  EXPECT_EQ(Write(Literal("duration", "0s")), "0s");
}

}  // namespace
}  // namespace cassette::tools
