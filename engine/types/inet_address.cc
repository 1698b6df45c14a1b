#include "engine/types/inet_address.h"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace cassette {
namespace {

bool ParseIpv4(std::string_view text, std::string* bytes) {
  std::string out;
  for (int part = 0; part < 4; ++part) {
    if (part > 0) {
      if (text.empty() || text[0] != '.') return false;
      text.remove_prefix(1);
    }
    size_t n = 0;
    int v = 0;
    while (n < text.size() && n < 3 && text[n] >= '0' && text[n] <= '9') {
      v = v * 10 + (text[n] - '0');
      ++n;
    }
    if (n == 0 || v > 255 || (n > 1 && text[0] == '0')) return false;
    out.push_back(static_cast<char>(v));
    text.remove_prefix(n);
  }
  if (!text.empty()) return false;
  *bytes = out;
  return true;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Groups of one side of "::"; a dotted IPv4 tail counts as two groups.
bool ParseGroups(std::string_view text, bool allow_v4_tail, std::vector<uint16_t>* groups) {
  if (text.empty()) return true;
  while (true) {
    size_t colon = text.find(':');
    std::string_view g = text.substr(0, colon);
    if (colon == std::string_view::npos && allow_v4_tail && g.find('.') != std::string_view::npos) {
      std::string v4;
      if (!ParseIpv4(g, &v4)) return false;
      groups->push_back(
          static_cast<uint16_t>((static_cast<uint8_t>(v4[0]) << 8) | static_cast<uint8_t>(v4[1])));
      groups->push_back(
          static_cast<uint16_t>((static_cast<uint8_t>(v4[2]) << 8) | static_cast<uint8_t>(v4[3])));
      return true;
    }
    if (g.empty() || g.size() > 4) return false;
    unsigned v = 0;
    for (char c : g) {
      int h = HexValue(c);
      if (h < 0) return false;
      v = v * 16 + static_cast<unsigned>(h);
    }
    groups->push_back(static_cast<uint16_t>(v));
    if (colon == std::string_view::npos) return true;
    text.remove_prefix(colon + 1);
  }
}

bool ParseIpv6(std::string_view text, std::string* bytes) {
  std::vector<uint16_t> head, tail;
  size_t gap = text.find("::");
  if (gap == std::string_view::npos) {
    if (!ParseGroups(text, true, &head) || head.size() != 8) return false;
  } else {
    if (text.find("::", gap + 1) != std::string_view::npos) return false;
    if (!ParseGroups(text.substr(0, gap), false, &head) ||
        !ParseGroups(text.substr(gap + 2), true, &tail) || head.size() + tail.size() > 7) {
      return false;
    }
    head.resize(8 - tail.size(), 0);
    head.insert(head.end(), tail.begin(), tail.end());
  }
  std::string out;
  for (uint16_t g : head) {
    out.push_back(static_cast<char>(g >> 8));
    out.push_back(static_cast<char>(g));
  }
  *bytes = out;
  return true;
}

std::string Dotted(std::string_view b) {
  char buf[20];
  std::snprintf(buf, sizeof(buf), "%u.%u.%u.%u", static_cast<uint8_t>(b[0]),
                static_cast<uint8_t>(b[1]), static_cast<uint8_t>(b[2]), static_cast<uint8_t>(b[3]));
  return buf;
}

std::vector<unsigned> Groups(std::string_view b) {
  std::vector<unsigned> g(8);
  for (int i = 0; i < 8; ++i) {
    g[i] = (static_cast<uint8_t>(b[2 * i]) << 8) | static_cast<uint8_t>(b[2 * i + 1]);
  }
  return g;
}

}  // namespace

bool ParseInetAddress(std::string_view text, std::string* bytes) {
  if (text.find(':') != std::string_view::npos) return ParseIpv6(text, bytes);
  return ParseIpv4(text, bytes);
}

std::string FormatInetCqlsh(std::string_view bytes) {
  if (bytes.size() == 4) return Dotted(bytes);
  if (bytes.size() != 16) return std::string();
  std::vector<unsigned> g = Groups(bytes);
  // The longest run (first on ties) of two or more zero groups.
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (g[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && g[j] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  if (best_len < 2) best = -1;
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (best >= 0 && i >= best && i < best + best_len) {
      if (i == best) out += ':';
      continue;
    }
    if (i != 0) out += ':';
    // An embedded IPv4 address: ::a.b.c.d or ::ffff:a.b.c.d.
    if (i == 6 && best == 0 && (best_len == 6 || (best_len == 5 && g[5] == 0xffff))) {
      out += Dotted(bytes.substr(12));
      break;
    }
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%x", g[i]);
    out += buf;
  }
  if (best >= 0 && best + best_len == 8) out += ':';
  return out;
}

std::string FormatInetJava(std::string_view bytes) {
  if (bytes.size() == 4) return Dotted(bytes);
  if (bytes.size() != 16) return std::string();
  std::vector<unsigned> g = Groups(bytes);
  if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff) {
    return Dotted(bytes.substr(12));
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    char buf[8];
    std::snprintf(buf, sizeof(buf), i == 0 ? "%x" : ":%x", g[i]);
    out += buf;
  }
  return out;
}

}  // namespace cassette
