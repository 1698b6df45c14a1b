// The SHA-2 digests (FIPS 180-4) mask_hash() offers: SHA-224, SHA-256 (its
// default), SHA-384 and SHA-512.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cassette {

std::string Sha224(std::string_view data);
std::string Sha256(std::string_view data);
std::string Sha384(std::string_view data);
std::string Sha512(std::string_view data);

// The digest named as Java's MessageDigest names it ("SHA-256", any case);
// nullopt for a name not among the four.
std::optional<std::string> Sha2Digest(std::string_view algorithm, std::string_view data);

}  // namespace cassette
