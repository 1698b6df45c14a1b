// Cassandra 5's masking functions as selector functions. Expected values
// mirror org.apache.cassandra.cql3.functions.masking: PartialMaskingFunctionTest
// (testMasking's table), DefaultMaskingFunctionTest, NullMaskingFunctionTest,
// ReplaceMaskingFunctionTest and HashMaskingFunctionTest (SHA-2 digests
// checked against the FIPS 180-4 examples).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/functions.h"
#include "engine/cql/time_functions.h"

namespace cassette::cql {
namespace {

Value Call(const char* name, const std::vector<Value>& arguments) {
  Result<Value> r = CallFunction(name, arguments, {0});
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : Value();
}

std::string Outer(const char* text, int begin, int end, const char* padding = "*") {
  return std::string(Call("mask_outer", {Value::Text(text), Value::Int(begin), Value::Int(end),
                                         Value::Text(padding)})
                         .AsString());
}

// PartialMaskingFunctionTest.testMasking: (value, begin, end) -> inner, outer.
TEST(MaskingFunctionsTest, InnerAndOuter) {
  struct Case {
    const char* value;
    int begin, end;
    const char* inner;
    const char* outer;
  };
  const Case cases[] = {
      {"", 0, 0, "", ""},
      {"", 9, 9, "", ""},
      {"a", 0, 0, "*", "a"},
      {"a", 1, 1, "a", "*"},
      {"a", 10, 10, "a", "*"},
      {"abcde", 0, 0, "*****", "abcde"},
      {"abcde", 0, 1, "****e", "abcd*"},
      {"abcde", 0, 2, "***de", "abc**"},
      {"abcde", 0, 3, "**cde", "ab***"},
      {"abcde", 0, 4, "*bcde", "a****"},
      {"abcde", 0, 5, "abcde", "*****"},
      {"abcde", 0, 6, "abcde", "*****"},
      {"abcde", 1, 0, "a****", "*bcde"},
      {"abcde", 2, 0, "ab***", "**cde"},
      {"abcde", 5, 0, "abcde", "*****"},
      {"abcde", 6, 0, "abcde", "*****"},
      {"abcde", 1, 1, "a***e", "*bcd*"},
      {"abcde", 2, 2, "ab*de", "**c**"},
      {"abcde", 3, 3, "abcde", "*****"},
      {"á#íòü", 0, 0, "*****", "á#íòü"},
      {"á#íòü", 1, 1, "á***ü", "*#íò*"},
      {"á#íòü", 5, 5, "á#íòü", "*****"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Outer(c.value, c.begin, c.end), c.outer) << c.value << " " << c.begin << c.end;
    EXPECT_EQ(std::string(
                  Call("mask_inner", {Value::Text(c.value), Value::Int(c.begin), Value::Int(c.end)})
                      .AsString()),
              c.inner)
        << c.value << " " << c.begin << c.end;
  }
  EXPECT_EQ(Outer("abcde", 1, 1, "#"), "#bcd#");
  EXPECT_EQ(Outer("abcde", 1, 1, "é"), "ébcdé");
  // Null begin, end or padding are 0, 0 and '*'.
  EXPECT_EQ(std::string(Call("mask_inner", {Value::Text("abcde"), Value::Null(DataType::Int()),
                                            Value::Int(2), Value::Null(DataType::Text())})
                            .AsString()),
            "***de");
  EXPECT_TRUE(
      Call("mask_inner", {Value::Null(DataType::Text()), Value::Int(1), Value::Int(2)}).is_null());
  // The result keeps the argument's string type.
  EXPECT_EQ(Call("mask_outer", {Value::Ascii("abc"), Value::Int(1), Value::Int(1)}).type(),
            DataType::Ascii());
  Result<Value> r = CallFunction(
      "mask_inner", {Value::Text("abc"), Value::Int(1), Value::Int(1), Value::Text("too_long")},
      {0});
  EXPECT_EQ(r.status().message(),
            "The padding argument for function system.mask_inner should be single-character, but "
            "'too_long' has 8 characters.");
  r = CallFunction("mask_inner", {Value::Int(1), Value::Int(1), Value::Int(1)}, {0});
  EXPECT_EQ(r.status().message(),
            "Function system.mask_inner requires an argument of type [text|varchar|ascii], but "
            "found argument 1 of type int");
  r = CallFunction("mask_outer", {Value::Text("abc")}, {0});
  EXPECT_EQ(r.status().message(),
            "Invalid number of arguments for function system.mask_outer([text|varchar|ascii], "
            "int, int, [text])");
}

TEST(MaskingFunctionsTest, NullDefaultAndReplace) {
  EXPECT_TRUE(Call("mask_null", {Value::Text("Alice")}).is_null());
  EXPECT_EQ(Call("mask_null", {Value::Int(1)}).type(), DataType::Int());
  // DefaultMaskingFunctionTest: the type's masked value, whatever the argument.
  EXPECT_EQ(Call("mask_default", {Value::Text("Alice")}), Value::Text("****"));
  EXPECT_EQ(Call("mask_default", {Value::Null(DataType::Text())}), Value::Text("****"));
  EXPECT_EQ(Call("mask_default", {Value::Int(123)}), Value::Int(0));
  EXPECT_EQ(Call("mask_default", {Value::Double(1.5)}), Value::Double(0));
  EXPECT_EQ(Call("mask_default", {Value::Boolean(true)}), Value::Boolean(false));
  EXPECT_EQ(Call("mask_default", {Value::Timestamp(5)}), Value::Timestamp(0));
  EXPECT_EQ(Call("mask_default", {Value::Date(5)}), Value::Date(0));
  EXPECT_EQ(Call("mask_default", {Value::Timeuuid(MinTimeuuid(5))}),
            Value::Timeuuid(MinTimeuuid(0)));
  EXPECT_EQ(Call("mask_default", {*Value::Parse(DataType::Decimal(), "1.5")}).ToString(), "0");
  EXPECT_EQ(Call("mask_default", {*Value::Parse(DataType::Inet(), "'10.0.0.1'")}).ToString(),
            "0.0.0.0");
  const DataType list = DataType::List(DataType::Int());
  EXPECT_EQ(Call("mask_default",
                 {Value::FromBytes(list, Value::List(DataType::Int(), {Value::Int(1)}).bytes())})
                .ToString(),
            "[]");
  EXPECT_EQ(Call("mask_default",
                 {*Value::Parse(DataType::Tuple({DataType::Int(), DataType::Text()}), "(7, 'x')")})
                .ToString(),
            "(0, '****')");
  // ReplaceMaskingFunctionTest: the replacement, of the replaced type.
  EXPECT_EQ(Call("mask_replace", {Value::Text("Alice"), Value::Text("redacted")}),
            Value::Text("redacted"));
  EXPECT_EQ(Call("mask_replace", {Value::Null(DataType::Int()), Value::Int(-1)}), Value::Int(-1));
  Result<Value> r = CallFunction("mask_default", {Value::Int(1), Value::Int(1)}, {0});
  EXPECT_EQ(r.status().message(),
            "Invalid number of arguments for function system.mask_default(any)");
  const ProvidedArgument marker{nullptr, "?", std::nullopt};
  EXPECT_EQ(ResolveNativeFunction("mask_null", {marker}, std::nullopt).status().message(),
            "Cannot infer type of argument ? in call to function system.mask_null(any): use type "
            "casts to disambiguate");
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

TEST(MaskingFunctionsTest, HashIsSha256OfTheSerializedValue) {
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("abc")}).AsString()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("")}).AsString()),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // 56 bytes: the length no longer fits the first padded block.
  EXPECT_EQ(Hex(Call("mask_hash",
                     {Value::Text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                      Value::Text("sha-256")})
                    .AsString()),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Call("mask_hash", {Value::Int(1)}).type(), DataType::Blob());
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Int(1)}).AsString()),
            "b40711a88c7039756fb8a73827eabe2c0fe5a0346ca7e0a104adc0fc764f528d");
  EXPECT_TRUE(Call("mask_hash", {Value::Null(DataType::Int())}).is_null());
  // HashMaskingFunctionTest names SHA-512; SHA-224 and SHA-384 share the code.
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("abc"), Value::Text("SHA-512")}).AsString()),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836"
            "ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  // 112 bytes: the length no longer fits the first padded 128-byte block.
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("abcdefghbcdefghicdefghijdefghijkefghijklfghijkl"
                                               "mghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
                                               "rsmnopqrstnopqrstu"),
                                   Value::Text("SHA-512")})
                    .AsString()),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e433"
            "1b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("abc"), Value::Text("SHA-384")}).AsString()),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358"
            "baeca134c825a7");
  EXPECT_EQ(Hex(Call("mask_hash", {Value::Text("abc"), Value::Text("SHA-224")}).AsString()),
            "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
  // A null algorithm is the default; an unknown one fails even for a null value.
  EXPECT_EQ(Call("mask_hash", {Value::Text("abc"), Value::Null(DataType::Text())}),
            Call("mask_hash", {Value::Text("abc")}));
  Result<Value> r = CallFunction("mask_hash", {Value::Int(1), Value::Text("MD6")}, {0});
  EXPECT_EQ(r.status().message(), "Hash algorithm not found: MD6");
  r = CallFunction("mask_hash", {Value::Null(DataType::Int()), Value::Text("áéíóú")}, {0});
  EXPECT_EQ(r.status().message(), "Hash algorithm not found: áéíóú");
}

}  // namespace
}  // namespace cassette::cql
