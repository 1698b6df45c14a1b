// Seeded generators of valid serialized values for every CQL type, biased
// towards edge cases (extremes, zeros, shared prefixes, NaNs, -0.0).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cassette/value.h"
#include "engine/types/big_integer.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"

namespace cassette::testing {

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {}

  uint64_t Next() { return rng_(); }
  uint64_t Uniform(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  std::string Value(const DataType& t, int depth = 0) {
    switch (t.kind()) {
      case TypeKind::kAscii:
        return Chars({"\x00", "\x01", "a", "b", "\x7f"}, 6);
      case TypeKind::kText:
        return Chars({"\x00", "a", "b", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}, 5);
      case TypeKind::kBlob:
        return Chars({"\x00", "\x01", "\x7f", "\x80", "\xff"}, 6);
      case TypeKind::kBoolean:
        return std::string(1, static_cast<char>(Uniform(2)));
      case TypeKind::kTinyint:
        return Integer(1);
      case TypeKind::kSmallint:
        return Integer(2);
      case TypeKind::kInt:
        return Integer(4);
      case TypeKind::kBigint:
      case TypeKind::kCounter:
      case TypeKind::kTimestamp:
        return Integer(8);
      case TypeKind::kDate:
        return Integer(4);
      case TypeKind::kTime: {
        int64_t nanos = static_cast<int64_t>(Uniform(86400ULL * 1000000000ULL));
        if (OneIn(5)) nanos = OneIn(2) ? 0 : 86400LL * 1000000000LL - 1;
        return BigEndian(static_cast<uint64_t>(nanos), 8);
      }
      case TypeKind::kFloat:
        return Floating(4);
      case TypeKind::kDouble:
        return Floating(8);
      case TypeKind::kUuid: {
        std::string u = Bytes(16, {0x00, 0x10, 0x40, 0x80, 0xff});
        if (OneIn(2)) u[6] = static_cast<char>((Uniform(16) << 4) | (u[6] & 0x0F));
        return u;
      }
      case TypeKind::kTimeuuid: {
        std::string u = Bytes(16, {0x00, 0x01, 0x7f, 0x80, 0xff});
        u[6] = static_cast<char>(0x10 | (u[6] & 0x0F));
        return u;
      }
      case TypeKind::kInet:
        return Bytes(OneIn(2) ? 4 : 16, {0x00, 0x01, 0x7f, 0xff});
      case TypeKind::kVarint:
        return Varint();
      case TypeKind::kDecimal: {
        static const int32_t kScales[] = {0, 1, 2, -1, -3, 5, INT32_MIN, INT32_MAX, 1000};
        int32_t scale = kScales[Uniform(OneIn(10) ? 9 : 6)];
        std::string out = BigEndian(static_cast<uint32_t>(scale), 4);
        return out + Varint();
      }
      case TypeKind::kDuration: {
        int64_t sign = OneIn(2) ? 1 : -1;
        int32_t months = static_cast<int32_t>(Uniform(3) == 0 ? 0 : Uniform(30));
        int32_t days = static_cast<int32_t>(Uniform(3) == 0 ? 0 : Uniform(40));
        int64_t nanos = static_cast<int64_t>(Uniform(3) == 0 ? 0 : Uniform(1ULL << 40));
        return SerializeDuration(static_cast<int32_t>(sign * months),
                                 static_cast<int32_t>(sign * days), sign * nanos);
      }
      case TypeKind::kList:
      case TypeKind::kSet: {
        std::vector<std::string> elements;
        size_t n = depth > 2 ? 0 : Uniform(4);
        for (size_t i = 0; i < n; ++i) elements.push_back(Value(t.params()[0], depth + 1));
        if (t.kind() == TypeKind::kSet) SortUnique(t.params()[0], &elements);
        return SerializeCollection(elements);
      }
      case TypeKind::kMap: {
        std::vector<std::string> keys;
        size_t n = depth > 2 ? 0 : Uniform(4);
        for (size_t i = 0; i < n; ++i) keys.push_back(Value(t.params()[0], depth + 1));
        SortUnique(t.params()[0], &keys);
        std::vector<std::pair<std::string, std::string>> entries;
        for (auto& k : keys) entries.emplace_back(k, Value(t.params()[1], depth + 1));
        return SerializeMap(entries);
      }
      case TypeKind::kTuple:
      case TypeKind::kUdt: {  // serialized as a tuple of its fields
        std::vector<std::optional<std::string>> components;
        size_t n = OneIn(4) ? Uniform(t.params().size() + 1) : t.params().size();
        if (n == 0) n = 1;
        for (size_t i = 0; i < n; ++i) {
          if (OneIn(4)) {
            components.push_back(std::nullopt);
          } else {
            components.push_back(Value(t.params()[i], depth + 1));
          }
        }
        return SerializeTuple(components);
      }
    }
    return {};
  }

  static std::string BigEndian(uint64_t v, int bytes) {
    std::string out;
    for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
    return out;
  }

 private:
  std::string Chars(std::vector<std::string> alphabet, size_t max_len) {
    std::string out;
    size_t n = Uniform(max_len + 1);
    for (size_t i = 0; i < n; ++i) {
      const std::string& a = alphabet[Uniform(alphabet.size())];
      out += a.empty() ? std::string(1, '\0') : a;
    }
    return out;
  }

  std::string Bytes(size_t n, std::vector<uint8_t> alphabet) {
    std::string out;
    for (size_t i = 0; i < n; ++i) {
      out.push_back(static_cast<char>(OneIn(3) ? Next() : alphabet[Uniform(alphabet.size())]));
    }
    return out;
  }

  std::string Integer(int bytes) {
    uint64_t v;
    switch (Uniform(6)) {
      case 0:
        v = 0;
        break;
      case 1:
        v = ~0ULL;
        break;  // -1
      case 2:
        v = 1ULL << (8 * bytes - 1);
        break;  // min
      case 3:
        v = (1ULL << (8 * bytes - 1)) - 1;
        break;  // max
      case 4:
        v = Uniform(5);
        break;
      default:
        v = Next();
        break;
    }
    return BigEndian(v, bytes);
  }

  std::string Floating(int bytes) {
    uint64_t bits;
    if (bytes == 4) {
      static const uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                          0x7fc00000, 0xffc00000, 0x7f800001, 0xffffffff,
                                          0x00000001, 0x80000001, 0x3f800000, 0xbf800000};
      bits = OneIn(2) ? kSpecial[Uniform(12)] : (Next() & 0xFFFFFFFF);
    } else {
      static const uint64_t kSpecial[] = {0,
                                          1ULL << 63,
                                          0x7ff0000000000000ULL,
                                          0xfff0000000000000ULL,
                                          0x7ff8000000000000ULL,
                                          0xfff8000000000000ULL,
                                          0x7ff0000000000001ULL,
                                          ~0ULL,
                                          1,
                                          (1ULL << 63) | 1,
                                          0x3ff0000000000000ULL,
                                          0xbff0000000000000ULL};
      bits = OneIn(2) ? kSpecial[Uniform(12)] : Next();
    }
    return BigEndian(bits, bytes);
  }

  std::string Varint() {
    size_t n = OneIn(20) ? 120 + Uniform(20) : 1 + Uniform(10);
    std::string raw = Bytes(n, {0x00, 0x01, 0x7f, 0x80, 0xff});
    return BigInteger::FromTwosComplement(raw).ToTwosComplement();
  }

  void SortUnique(const DataType& t, std::vector<std::string>* v) {
    std::sort(v->begin(), v->end(), [&](const std::string& a, const std::string& b) {
      return CompareValues(t, a, b) < 0;
    });
    v->erase(std::unique(v->begin(), v->end(),
                         [&](const std::string& a, const std::string& b) {
                           return CompareValues(t, a, b) == 0;
                         }),
             v->end());
  }

  std::mt19937_64 rng_;
};

}  // namespace cassette::testing
