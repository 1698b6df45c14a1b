#include <gtest/gtest.h>

#include "cassette/value.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

TEST(DataType, ParsesCqlSpellings) {
  EXPECT_EQ(DataType::Parse("int").value(), DataType::Int());
  EXPECT_EQ(DataType::Parse("VARCHAR").value(), DataType::Text());
  EXPECT_EQ(DataType::Parse("text").value(), DataType::Text());
  EXPECT_EQ(DataType::Parse("frozen<list<int>>").value(), DataType::List(DataType::Int(), true));
  EXPECT_EQ(DataType::Parse("map<text, int>").value(),
            DataType::Map(DataType::Text(), DataType::Int()));
  EXPECT_EQ(DataType::Parse("list<frozen<list<int>>>").value(),
            DataType::List(DataType::List(DataType::Int(), true)));
  // Inside frozen<> and tuples nested collections are frozen implicitly.
  EXPECT_EQ(DataType::Parse("frozen<list<list<int>>>").value(),
            DataType::List(DataType::List(DataType::Int(), true), true));
  EXPECT_EQ(DataType::Parse("tuple<int, list<int>>").value(),
            DataType::Tuple({DataType::Int(), DataType::List(DataType::Int(), true)}));
  EXPECT_EQ(DataType::Parse(" map < text , frozen < set < int > > > ").value(),
            DataType::Map(DataType::Text(), DataType::Set(DataType::Int(), true)));
  EXPECT_EQ(DataType::Parse("frozen<tuple<int>>").value(), DataType::Tuple({DataType::Int()}));
}

TEST(DataType, ToStringIsCassandrasSpelling) {
  EXPECT_EQ(DataType::Text().ToString(), "text");
  EXPECT_EQ(DataType::Timeuuid().ToString(), "timeuuid");
  EXPECT_EQ(DataType::List(DataType::Int(), true).ToString(), "frozen<list<int>>");
  EXPECT_EQ(DataType::Map(DataType::Text(), DataType::Int()).ToString(), "map<text, int>");
  EXPECT_EQ(DataType::Tuple({DataType::Int(), DataType::Text()}).ToString(),
            "frozen<tuple<int, text>>");
  EXPECT_EQ(DataType::Parse("set<frozen<map<int, text>>>")->ToString(),
            "set<frozen<map<int, text>>>");
  // ToString output parses back to the same type.
  for (const char* spec : {"list<frozen<list<int>>>", "frozen<map<text, frozen<set<uuid>>>>",
                           "tuple<int, frozen<list<text>>>", "duration", "varint"}) {
    DataType t = DataType::Parse(spec).value();
    EXPECT_EQ(DataType::Parse(t.ToString()).value(), t) << spec;
  }
}

TEST(DataType, FrozenIsRecursive) {
  DataType t = DataType::Map(DataType::Text(), DataType::List(DataType::Int()));
  DataType f = t.Frozen();
  EXPECT_TRUE(f.frozen());
  EXPECT_TRUE(f.params()[1].frozen());
  EXPECT_FALSE(f.params()[0].frozen());
  EXPECT_FALSE(t.IsMultiCell() == f.IsMultiCell());
  EXPECT_EQ(DataType::Int().Frozen(), DataType::Int());
}

TEST(DataType, ParseErrorsUseCassandrasMessages) {
  struct {
    const char* spec;
    Status::Code code;
    const char* message;
  } cases[] = {
      {"foo", Status::Code::kInvalidRequest, "Unknown type foo"},
      {"list<list<int>>", Status::Code::kInvalidRequest,
       "Non-frozen collections are not allowed inside collections: list<list<int>>"},
      {"map<text, set<int>>", Status::Code::kInvalidRequest,
       "Non-frozen collections are not allowed inside collections: map<text, set<int>>"},
      {"frozen<int>", Status::Code::kInvalidRequest,
       "frozen<> is only allowed on collections, tuples, and user-defined types (got int)"},
      {"list<counter>", Status::Code::kInvalidRequest,
       "Counters are not allowed inside collections: list<counter>"},
      {"set<duration>", Status::Code::kInvalidRequest,
       "Durations are not allowed inside sets: set<duration>"},
      {"map<duration, int>", Status::Code::kInvalidRequest,
       "Durations are not allowed as map keys: map<duration, int>"},
      // Inside frozen<>, the collection is named frozen, as Cassandra's
      // RawCollection.toString does (FrozenCollectionsTest.testInvalidOperations),
      // and so is every collection it holds.
      {"frozen<set<counter>>", Status::Code::kInvalidRequest,
       "Counters are not allowed inside collections: frozen<set<counter>>"},
      {"frozen<list<set<counter>>>", Status::Code::kInvalidRequest,
       "Counters are not allowed inside collections: frozen<set<counter>>"},
      {"frozen<map<duration, list<int>>>", Status::Code::kInvalidRequest,
       "Durations are not allowed as map keys: frozen<map<duration, frozen<list<int>>>>"},
      {"set<frozen<set<duration>>>", Status::Code::kInvalidRequest,
       "Durations are not allowed inside sets: frozen<set<duration>>"},
      {"list<int", Status::Code::kSyntaxError, "Invalid type 'list<int'"},
      {"list<int, int>", Status::Code::kSyntaxError, "Invalid type 'list<int, int>'"},
      {"int<int>", Status::Code::kSyntaxError, "Invalid type 'int<int>'"},
      {"", Status::Code::kSyntaxError, "Invalid type ''"},
      {"int int", Status::Code::kSyntaxError, "Invalid type 'int int'"},
  };
  for (const auto& c : cases) {
    auto r = DataType::Parse(c.spec);
    ASSERT_FALSE(r.ok()) << c.spec;
    EXPECT_EQ(r.status().code(), c.code) << c.spec;
    EXPECT_EQ(r.status().message(), c.message);
  }
  // Durations are fine in lists and as map values.
  EXPECT_TRUE(DataType::Parse("list<duration>").ok());
  EXPECT_TRUE(DataType::Parse("map<int, duration>").ok());
}

TEST(DataType, ParseRefusesDeepNesting) {
  std::string spec;
  for (int i = 0; i < 100; ++i) spec += "frozen<list<";
  spec += "int";
  for (int i = 0; i < 100; ++i) spec += ">>";
  EXPECT_FALSE(DataType::Parse(spec).ok());
}

TEST(DataTypeCodec, RoundTrips) {
  for (const char* spec : {"ascii",
                           "bigint",
                           "blob",
                           "boolean",
                           "counter",
                           "date",
                           "decimal",
                           "double",
                           "duration",
                           "float",
                           "inet",
                           "int",
                           "smallint",
                           "text",
                           "time",
                           "timestamp",
                           "timeuuid",
                           "tinyint",
                           "uuid",
                           "varint",
                           "list<int>",
                           "frozen<set<text>>",
                           "map<text, frozen<list<blob>>>",
                           "tuple<int, frozen<map<uuid, tuple<text>>>>"}) {
    DataType t = DataType::Parse(spec).value();
    std::string enc;
    EncodeDataType(t, &enc);
    enc += "trailing";
    std::string_view in = enc;
    DataType back;
    ASSERT_TRUE(DecodeDataType(&in, &back).ok()) << spec;
    EXPECT_EQ(back, t) << spec;
    EXPECT_EQ(in, "trailing");
  }
}

TEST(DataTypeCodec, BadInputIsCorruption) {
  std::string enc;
  EncodeDataType(DataType::Parse("map<text, frozen<list<int>>>").value(), &enc);
  for (size_t cut = 0; cut < enc.size(); ++cut) {
    std::string_view in(enc.data(), cut);
    DataType t;
    EXPECT_TRUE(DecodeDataType(&in, &t).IsCorruption()) << cut;
  }
  for (std::string bad :
       {std::string("\x00\x00\x00", 3), std::string("\x19\x00\x00", 3),
        std::string("\x0c\x02\x00", 3), std::string("\x0c\x00\x01\x0c\x00\x00", 6),
        std::string("\x15\x00\x00", 3), std::string("\x18\x00\x01\x0c\x00\x00", 6)}) {
    std::string_view in = bad;
    DataType t;
    EXPECT_TRUE(DecodeDataType(&in, &t).IsCorruption());
  }
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += std::string("\x15\x01\x01", 3);
  deep += std::string("\x0c\x00\x00", 3);
  std::string_view in = deep;
  DataType t;
  EXPECT_TRUE(DecodeDataType(&in, &t).IsCorruption());
}

}  // namespace
}  // namespace cassette
