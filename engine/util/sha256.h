// SHA-256 (FIPS 180-4), the digest mask_hash() returns by default.
#pragma once

#include <string>
#include <string_view>

namespace cassette {

// The 32-byte digest of `data`.
std::string Sha256(std::string_view data);

}  // namespace cassette
