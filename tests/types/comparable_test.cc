#include "engine/types/comparable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "engine/types/collection_format.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"
#include "tests/types/random_values.h"

namespace cassette {
namespace {

uint64_t Seed() {
  const char* env = std::getenv("CASSETTE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240115;
}

std::vector<DataType> TypesUnderTest() {
  std::vector<DataType> types;
  for (int k = static_cast<int>(TypeKind::kAscii); k <= static_cast<int>(TypeKind::kVarint); ++k) {
    types.push_back(DataType::Of(static_cast<TypeKind>(k)));
  }
  for (const char* spec :
       {"frozen<list<int>>", "frozen<set<text>>", "frozen<map<text, bigint>>",
        "frozen<list<frozen<list<tinyint>>>>", "tuple<int, text>",
        "tuple<boolean, frozen<set<bigint>>, double>", "frozen<list<decimal>>",
        "frozen<map<timeuuid, frozen<list<blob>>>>", "frozen<set<varint>>", "tuple<uuid>"}) {
    types.push_back(DataType::Parse(spec).value());
  }
  return types;
}

// Types whose numerically equal values can differ in bytes (decimal scale,
// NaN payloads), and so get distinct keys.
bool HasDistinctEqualValues(const DataType& t) {
  if (t.kind() == TypeKind::kDecimal || t.kind() == TypeKind::kFloat ||
      t.kind() == TypeKind::kDouble) {
    return true;
  }
  for (const DataType& p : t.params()) {
    if (HasDistinctEqualValues(p)) return true;
  }
  return false;
}

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

std::string Encode(const DataType& t, std::string_view v, bool desc) {
  std::string out;
  EncodeComparable(t, v, desc, &out);
  return out;
}

// The order the encoding implements: Cassandra's (CompareValues), with
// ties between numerically equal but distinct decimals broken by scale and
// between NaNs by their encoding, applied element by element.
int RefinedCompare(const DataType& t, std::string_view a, std::string_view b) {
  switch (t.kind()) {
    case TypeKind::kDecimal:
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      int c = Sign(CompareValues(t, a, b));
      if (c != 0 || a == b) return c;
      if (t.kind() == TypeKind::kDecimal) {
        int32_t sa = static_cast<int32_t>(DecodeBigEndian32(a.data()));
        int32_t sb = static_cast<int32_t>(DecodeBigEndian32(b.data()));
        return sa < sb ? -1 : 1;
      }
      return Sign(Encode(t, a, false).compare(Encode(t, b, false)));
    }
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap: {
      int per = t.kind() == TypeKind::kMap ? 2 : 1;
      std::vector<std::string_view> va, vb;
      EXPECT_TRUE(ReadCollection(a, per, "c", &va).ok());
      EXPECT_TRUE(ReadCollection(b, per, "c", &vb).ok());
      for (size_t i = 0; i < va.size() && i < vb.size(); ++i) {
        int c = RefinedCompare(t.params()[per == 2 ? i % 2 : 0], va[i], vb[i]);
        if (c != 0) return c;
      }
      return Sign(static_cast<int>(va.size()) - static_cast<int>(vb.size()));
    }
    case TypeKind::kTuple: {
      std::vector<std::optional<std::string_view>> ca, cb;
      EXPECT_TRUE(ReadTuple(a, &ca).ok());
      EXPECT_TRUE(ReadTuple(b, &cb).ok());
      for (size_t i = 0; i < ca.size() && i < cb.size(); ++i) {
        if (!ca[i] || !cb[i]) {
          int c = Sign(static_cast<int>(ca[i].has_value()) - static_cast<int>(cb[i].has_value()));
          if (c != 0) return c;
          continue;
        }
        int c = RefinedCompare(t.params()[i], *ca[i], *cb[i]);
        if (c != 0) return c;
      }
      return Sign(static_cast<int>(ca.size()) - static_cast<int>(cb.size()));
    }
    default:
      return Sign(CompareValues(t, a, b));
  }
}

std::string Hex(const std::string& s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

class ComparableProperty : public ::testing::TestWithParam<DataType> {};

TEST_P(ComparableProperty, OrderMatchesCompareValuesAndRoundTrips) {
  const DataType& type = GetParam();
  uint64_t seed = Seed() ^ std::hash<std::string>()(type.ToString());
  SCOPED_TRACE("type " + type.ToString() + " seed " + std::to_string(seed));
  testing::RandomValues gen(seed);
  std::vector<std::string> values;
  for (int i = 0; i < 300; ++i) {
    values.push_back(gen.Value(type));
    ASSERT_TRUE(ValidateValue(type, values.back()).ok())
        << Hex(values.back()) << ": " << ValidateValue(type, values.back()).message();
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string& a = values[i];
    for (bool desc : {false, true}) {
      std::string enc = Encode(type, a, desc);
      std::string_view in = enc;
      std::string back;
      ASSERT_TRUE(DecodeComparable(type, desc, &in, &back).ok()) << Hex(a);
      EXPECT_EQ(Hex(back), Hex(a)) << "round trip, desc=" << desc;
      EXPECT_TRUE(in.empty());
    }
    for (size_t j = 0; j < values.size(); j += 7) {
      const std::string& b = values[(i + j) % values.size()];
      int cmp = Sign(CompareValues(type, a, b));
      EXPECT_EQ(cmp, -Sign(CompareValues(type, b, a))) << Hex(a) << " vs " << Hex(b);
      std::string ea = Encode(type, a, false), eb = Encode(type, b, false);
      int enc_cmp = Sign(ea.compare(eb));
      EXPECT_EQ(enc_cmp, RefinedCompare(type, a, b)) << Hex(a) << " vs " << Hex(b);
      EXPECT_EQ(enc_cmp == 0, a == b) << Hex(a) << " vs " << Hex(b);
      if (!HasDistinctEqualValues(type)) {
        EXPECT_EQ(cmp, enc_cmp) << Hex(a) << " vs " << Hex(b);
      } else if (type.params().empty() && cmp != 0) {
        EXPECT_EQ(cmp, enc_cmp) << "a scalar only breaks ties: " << Hex(a) << " vs " << Hex(b);
      }
      // DESC reverses the order.
      std::string da = Encode(type, a, true), db = Encode(type, b, true);
      EXPECT_EQ(enc_cmp, -Sign(da.compare(db)));
      // Prefix-free: two encodings concatenated decode back in order.
      std::string both = ea + eb;
      std::string_view in = both;
      std::string first, second;
      ASSERT_TRUE(DecodeComparable(type, false, &in, &first).ok());
      ASSERT_TRUE(DecodeComparable(type, false, &in, &second).ok());
      EXPECT_EQ(first, a);
      EXPECT_EQ(second, b);
      EXPECT_TRUE(in.empty());
    }
  }
}

TEST_P(ComparableProperty, SortingByEncodingSortsByValue) {
  const DataType& type = GetParam();
  testing::RandomValues gen(Seed() + 17);
  std::vector<std::string> values;
  for (int i = 0; i < 200; ++i) values.push_back(gen.Value(type));
  std::vector<std::string> by_key = values;
  std::sort(by_key.begin(), by_key.end(), [&](const std::string& a, const std::string& b) {
    return Encode(type, a, false) < Encode(type, b, false);
  });
  for (size_t i = 1; i < by_key.size(); ++i) {
    EXPECT_LE(RefinedCompare(type, by_key[i - 1], by_key[i]), 0)
        << Hex(by_key[i - 1]) << " then " << Hex(by_key[i]);
    if (!HasDistinctEqualValues(type)) {
      EXPECT_LE(CompareValues(type, by_key[i - 1], by_key[i]), 0);
    }
  }
}

TEST_P(ComparableProperty, TruncatedEncodingsAreCorruption) {
  const DataType& type = GetParam();
  testing::RandomValues gen(Seed() + 5);
  for (int i = 0; i < 50; ++i) {
    std::string v = gen.Value(type);
    std::string enc = Encode(type, v, i % 2 == 1);
    for (size_t cut = 0; cut < enc.size(); ++cut) {
      std::string_view in(enc.data(), cut);
      std::string out;
      Status s = DecodeComparable(type, i % 2 == 1, &in, &out);
      // A shorter prefix may happen to be a complete shorter value only for
      // variable-length types; it must never crash, and an error is Corruption.
      if (!s.ok()) {
        EXPECT_TRUE(s.IsCorruption()) << s.message();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ComparableProperty, ::testing::ValuesIn(TypesUnderTest()),
                         [](const ::testing::TestParamInfo<DataType>& info) {
                           std::string name;
                           for (char c : info.param.ToString()) {
                             name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
                           }
                           return name + "_" + std::to_string(info.index);
                         });

TEST(Comparable, GarbageNeverCrashes) {
  testing::RandomValues gen(Seed());
  for (const DataType& type : TypesUnderTest()) {
    for (int i = 0; i < 200; ++i) {
      std::string junk;
      size_t n = gen.Uniform(24);
      for (size_t k = 0; k < n; ++k) junk.push_back(static_cast<char>(gen.Next()));
      std::string_view in = junk;
      std::string out;
      Status s = DecodeComparable(type, false, &in, &out);
      if (s.ok()) {
        // Whatever decoded must re-encode to the bytes consumed.
        std::string again;
        EncodeComparable(type, out, false, &again);
        EXPECT_EQ(Hex(again), Hex(junk.substr(0, junk.size() - in.size()))) << type.ToString();
      } else {
        EXPECT_TRUE(s.IsCorruption());
      }
    }
  }
}

// Found by fuzz/types_fuzz: well-formed comparable bytes whose value is not
// one of the type (a time before midnight or after it, text that is not
// UTF-8) decoded fine and would have been served as a clustering value.
TEST(Comparable, BytesOfNoValidValueAreCorruption) {
  const std::string zeros(8, '\0');  // time INT64_MIN: the sign bit flipped back
  std::string past_midnight;
  EncodeComparable(DataType::Bigint(), Value::Bigint(86'400'000'000'000).bytes(), false,
                   &past_midnight);
  std::string not_utf8;
  EncodeComparable(DataType::Blob(), "\xc3", false, &not_utf8);
  const DataType bigints = DataType::Parse("frozen<list<bigint>>").value();
  std::string list_past_midnight;
  EncodeComparable(bigints, Value::Parse(bigints, "[1, 86400000000000]").value().bytes(), false,
                   &list_past_midnight);
  const std::pair<DataType, std::string> cases[] = {
      {DataType::Time(), zeros},
      {DataType::Time(), past_midnight},
      {DataType::Text(), not_utf8},
      {DataType::Ascii(), not_utf8},
      {DataType::Parse("frozen<list<time>>").value(), list_past_midnight},
  };
  for (const auto& [type, bytes] : cases) {
    for (bool descending : {false, true}) {
      std::string input = bytes;
      if (descending) {
        for (char& c : input) c = static_cast<char>(~c);
      }
      std::string_view in = input;
      std::string out;
      Status s = DecodeComparable(type, descending, &in, &out);
      EXPECT_TRUE(s.IsCorruption()) << type.ToString() << " " << Hex(bytes) << ": " << s.ToString();
      EXPECT_EQ(in.size(), input.size()) << "nothing consumed on error";
    }
  }
  // The same bytes as the type they came from still decode.
  std::string_view in = past_midnight;
  std::string out;
  ASSERT_TRUE(DecodeComparable(DataType::Bigint(), false, &in, &out).ok());
  EXPECT_EQ(out, Value::Bigint(86'400'000'000'000).bytes());
}

TEST(Comparable, KnownEncodings) {
  // Signed integers flip the sign bit.
  EXPECT_EQ(Hex(Encode(DataType::Int(), Value::Int(-1).bytes(), false)), "7fffffff");
  EXPECT_EQ(Hex(Encode(DataType::Int(), Value::Int(0).bytes(), false)), "80000000");
  EXPECT_EQ(Hex(Encode(DataType::Int(), Value::Int(0).bytes(), true)), "7fffffff");
  // Strings escape 0x00 and end with 0x00 0x00.
  EXPECT_EQ(Hex(Encode(DataType::Text(), std::string("a\0b", 3), false)), "6100ff620000");
  EXPECT_EQ(Hex(Encode(DataType::Text(), "", false)), "0000");
  // Floats: -Infinity is all zeros, NaN sorts above +Infinity.
  EXPECT_EQ(Hex(Encode(DataType::Float(), Value::Float(-INFINITY).bytes(), false)), "00000000");
  EXPECT_LT(Encode(DataType::Float(), Value::Float(INFINITY).bytes(), false),
            Encode(DataType::Float(), Value::Float(NAN).bytes(), false));
  EXPECT_LT(Encode(DataType::Float(), Value::Float(-0.0f).bytes(), false),
            Encode(DataType::Float(), Value::Float(0.0f).bytes(), false));
}

// A varint with redundant sign bytes (a timestamp's 8 bytes stored into a
// varint column: TypeTest.testDateCompatibility) is the same key as its
// minimal form, and decodes to the minimal bytes.
TEST(Comparable, VarintEncodesItsMinimalForm) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("\x00\x00\x00\x7f", 4), "\x7f"},
      {std::string("\x00\x80", 2), std::string("\x00\x80", 2)},
      {std::string("\xff\xff\x80", 3), "\x80"},
      {std::string("\xff\x7f", 2), std::string("\xff\x7f", 2)},
      {std::string(8, '\0'), std::string(1, '\0')},
  };
  for (const auto& [redundant, minimal] : cases) {
    for (bool desc : {false, true}) {
      const std::string encoded = Encode(DataType::Varint(), redundant, desc);
      EXPECT_EQ(Hex(encoded), Hex(Encode(DataType::Varint(), minimal, desc))) << Hex(redundant);
      std::string_view in = encoded;
      std::string back;
      ASSERT_TRUE(DecodeComparable(DataType::Varint(), desc, &in, &back).ok());
      EXPECT_EQ(Hex(back), Hex(minimal));
    }
  }
  // An encoding of redundant bytes (header length 2, then 00 7f) is not one
  // the encoder writes.
  const std::string forged("\x82\x00\x7f", 3);
  std::string_view in = forged;
  std::string out;
  EXPECT_TRUE(DecodeComparable(DataType::Varint(), false, &in, &out).IsCorruption());
}

TEST(Comparable, DecimalExampleFromFormatDoc) {
  std::string v = ParseLiteral(DataType::Decimal(), "1.50").value();
  EXPECT_EQ(Hex(Encode(DataType::Decimal(), v, false)),
            "02800000000000000110008000000"
            "2");
}

TEST(Comparable, DecimalKeepsScaleAndOrdersNumerically) {
  DataType d = DataType::Decimal();
  std::string one = ParseLiteral(d, "1.0").value();
  std::string one00 = ParseLiteral(d, "1.00").value();
  std::string two = ParseLiteral(d, "2").value();
  std::string e1 = Encode(d, one, false), e2 = Encode(d, one00, false), e3 = Encode(d, two, false);
  EXPECT_EQ(CompareValues(d, one, one00), 0);
  EXPECT_NE(e1, e2);  // the documented deviation: distinct keys
  EXPECT_LT(e1, e3);
  EXPECT_LT(e2, e3);
  std::string_view in = e2;
  std::string back;
  ASSERT_TRUE(DecodeComparable(d, false, &in, &back).ok());
  EXPECT_EQ(FormatValue(d, back), "1.00");
}

TEST(Comparable, ClusteringPrefixIsBytePrefix) {
  DataType t = DataType::Text();
  std::string a = Encode(t, "ab", false);
  std::string full = a + Encode(DataType::Int(), Value::Int(5).bytes(), false);
  EXPECT_EQ(full.compare(0, a.size(), a), 0);
  // "ab" < "abc" and "ab" then anything stays below "abc".
  EXPECT_LT(full, Encode(t, "abc", false));
}

}  // namespace
}  // namespace cassette
