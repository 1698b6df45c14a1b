// Text form of uuid and timeuuid values: 8-4-4-4-12 hex digits.
#pragma once

#include <string>
#include <string_view>

namespace cassette {

// Accepts either case; writes 16 bytes. False on anything else.
bool ParseUuidText(std::string_view text, std::string* bytes);
// Lowercase 8-4-4-4-12. REQUIRES: 16 bytes.
std::string FormatUuid(std::string_view bytes);
// The version nibble of a 16-byte uuid.
inline int UuidVersion(std::string_view bytes) {
  return (static_cast<unsigned char>(bytes[6]) >> 4) & 0xF;
}

}  // namespace cassette
