#include "engine/mutation/decorated_key.h"

#include "engine/util/coding.h"
#include "engine/util/murmur3.h"

namespace cassette {
namespace {

// Flipping the sign bit maps signed order onto unsigned (memcmp) order.
constexpr uint64_t kSignBit = uint64_t{1} << 63;

}  // namespace

DecoratedKey DecoratedKey::FromKey(std::string key) {
  DecoratedKey dk;
  dk.token = Murmur3Token(key);
  dk.key = std::move(key);
  return dk;
}

std::string DecoratedKey::SortKey() const {
  std::string out;
  out.reserve(8 + key.size());
  PutBigEndian64(&out, static_cast<uint64_t>(token) ^ kSignBit);
  out.append(key);
  return out;
}

DecoratedKey DecoratedKey::FromSortKey(std::string_view sort_key) {
  DecoratedKey dk;
  if (sort_key.size() < 8) {
    // Not a sort key. Missing low bytes read as zero so that a short input
    // still yields a key in a defined position instead of reading past it.
    char buf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < sort_key.size(); ++i) buf[i] = sort_key[i];
    dk.token = static_cast<int64_t>(DecodeBigEndian64(buf) ^ kSignBit);
    return dk;
  }
  dk.token = static_cast<int64_t>(DecodeBigEndian64(sort_key.data()) ^ kSignBit);
  dk.key.assign(sort_key.substr(8));
  return dk;
}

}  // namespace cassette
