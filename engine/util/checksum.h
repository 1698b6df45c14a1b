// Checksums and non-cryptographic hashes (xxHash). Every on-disk block
// carries Checksum32 of its bytes.
#pragma once

#include <cstdint>
#include <string_view>

namespace cassette {

uint64_t Hash64(std::string_view data, uint64_t seed = 0);
// 128-bit hash as two halves; the bloom filter derives its probes from them.
struct Hash128 {
  uint64_t low;
  uint64_t high;
};
Hash128 Hash128Of(std::string_view data, uint64_t seed = 0);
// XXH32: block checksums.
uint32_t Checksum32(std::string_view data);

}  // namespace cassette
