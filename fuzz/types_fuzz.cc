// libFuzzer target: the CQL type decoders of engine/types. Input: a data
// type in its schema-file form (EncodeDataType), then a one-byte length
// split, then two values' bytes. For the type (any CQL type, nested
// collections, tuples and frozen forms included) and each value:
//   - ValidateValue either refuses (InvalidRequest) or accepts;
//   - an accepted value formats (cqlsh and JSON), compares equal to
//     itself, and its comparable encoding (ascending and descending)
//     decodes back to a value comparing equal; two accepted values that
//     differ compare as their comparable encodings do (memcmp);
//   - collection, map and tuple deserializers and DecodeComparable take
//     any bytes without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types/comparable.h"
#include "engine/types/type_codec.h"

namespace {

using cassette::DataType;
using cassette::Status;

int Sign(int v) { return (v > 0) - (v < 0); }

void Fail(const char* why, const DataType& type) {
  std::fprintf(stderr, "%s (type %s)\n", why, type.ToString().c_str());
  std::abort();
}

bool Accepted(const DataType& type, std::string_view value) {
  Status s = cassette::ValidateValue(type, value);
  if (!s.ok() && !s.IsInvalidRequest()) Fail("validation error is not InvalidRequest", type);
  return s.ok();
}

std::string Comparable(const DataType& type, std::string_view value, bool descending) {
  std::string out;
  cassette::EncodeComparable(type, value, descending, &out);
  return out;
}

void CheckValue(const DataType& type, std::string_view value) {
  (void)cassette::FormatValue(type, value);
  (void)cassette::FormatJson(type, value);
  if (cassette::CompareValues(type, value, value) != 0) Fail("a value differs from itself", type);
  for (bool descending : {false, true}) {
    const std::string encoded = Comparable(type, value, descending);
    std::string_view in = encoded;
    std::string decoded;
    Status s = cassette::DecodeComparable(type, descending, &in, &decoded);
    if (!s.ok() || !in.empty()) Fail("comparable encoding does not decode", type);
    if (!Accepted(type, decoded) || cassette::CompareValues(type, value, decoded) != 0) {
      Fail("comparable encoding decodes to another value", type);
    }
  }
}

void AnyBytes(const DataType& type, std::string_view bytes) {
  std::vector<std::string> elements;
  (void)cassette::DeserializeCollection(bytes, &elements);
  std::vector<std::pair<std::string, std::string>> entries;
  (void)cassette::DeserializeMap(bytes, &entries);
  std::vector<std::optional<std::string>> components;
  (void)cassette::DeserializeTuple(bytes, &components);
  for (bool descending : {false, true}) {
    std::string_view in = bytes;
    std::string decoded;
    Status s = cassette::DecodeComparable(type, descending, &in, &decoded);
    if (!s.ok() && !s.IsCorruption()) Fail("comparable decoder error is not Corruption", type);
    if (s.ok() && !Accepted(type, decoded)) Fail("comparable decoder made an invalid value", type);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  DataType type;
  Status s = cassette::DecodeDataType(&in, &type);
  if (!s.ok()) {
    if (!s.IsCorruption()) std::abort();
    return 0;
  }
  if (in.empty()) return 0;
  const size_t split = std::min<size_t>(static_cast<uint8_t>(in[0]), in.size() - 1);
  in.remove_prefix(1);
  const std::string_view a = in.substr(0, split);
  const std::string_view b = in.substr(split);
  AnyBytes(type, in);
  const bool a_ok = Accepted(type, a);
  const bool b_ok = Accepted(type, b);
  if (a_ok) CheckValue(type, a);
  if (b_ok) CheckValue(type, b);
  if (a_ok && b_ok) {
    const int by_value = Sign(cassette::CompareValues(type, a, b));
    if (Sign(cassette::CompareValues(type, b, a)) != -by_value)
      Fail("compare not antisymmetric", type);
    for (bool descending : {false, true}) {
      const std::string ca = Comparable(type, a, descending);
      const std::string cb = Comparable(type, b, descending);
      const int by_bytes = Sign(ca.compare(cb));
      // Values the type calls equal may still encode apart, as in
      // Cassandra: NaNs of other bit patterns, decimals of other scales
      // (1.0 and 1.00).
      if (by_value != 0 && by_bytes != (descending ? -by_value : by_value)) {
        Fail("comparable order differs from the type's order", type);
      }
    }
  }
  return 0;
}
