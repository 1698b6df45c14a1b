#include "engine/util/checksum.h"

#include <xxhash.h>

namespace cassette {

uint64_t Hash64(std::string_view data, uint64_t seed) {
  return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

Hash128 Hash128Of(std::string_view data, uint64_t seed) {
  XXH128_hash_t h = XXH3_128bits_withSeed(data.data(), data.size(), seed);
  return Hash128{h.low64, h.high64};
}

uint32_t Checksum32(std::string_view data) { return XXH32(data.data(), data.size(), 0); }

}  // namespace cassette
