#include "engine/types/uuid_text.h"

namespace cassette {
namespace {

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDash(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

}  // namespace

bool ParseUuidText(std::string_view text, std::string* bytes) {
  if (text.size() != 36) return false;
  std::string out;
  int high = -1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsDash(i)) {
      if (text[i] != '-') return false;
      continue;
    }
    int h = Hex(text[i]);
    if (h < 0) return false;
    if (high < 0) {
      high = h;
    } else {
      out.push_back(static_cast<char>(high * 16 + h));
      high = -1;
    }
  }
  *bytes = out;
  return true;
}

std::string FormatUuid(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    unsigned char b = static_cast<unsigned char>(bytes[i]);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

}  // namespace cassette
