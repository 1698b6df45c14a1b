// Text forms of inet values (4-byte IPv4 or 16-byte IPv6 addresses).
#pragma once

#include <string>
#include <string_view>

namespace cassette {

// Dotted IPv4 or RFC 4291 IPv6 (with "::" and an optional dotted IPv4
// tail). Writes 4 or 16 bytes; false on anything else.
bool ParseInetAddress(std::string_view text, std::string* bytes);

// As cqlsh prints it (glibc inet_ntop): IPv6 with the longest run of zero
// groups compressed, IPv4-mapped and IPv4-compatible tails dotted.
// REQUIRES: 4 or 16 bytes.
std::string FormatInetCqlsh(std::string_view bytes);

// As SELECT JSON prints it (Java getHostAddress): IPv6 as eight
// uncompressed groups; an IPv4-mapped address becomes plain IPv4.
std::string FormatInetJava(std::string_view bytes);

}  // namespace cassette
