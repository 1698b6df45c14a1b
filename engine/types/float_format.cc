#include "engine/types/float_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace cassette {
namespace {

// value = (negative ? -1 : 1) * 0.d1d2d3... * 10^(exp10 + 1), i.e. d1 is
// the digit at 10^exp10. digits has no trailing zeros except for zero ("0").
struct Decimal {
  bool negative = false;
  std::string digits;
  int exp10 = 0;
};

template <class T>
Decimal Shortest(T v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
  Decimal d;
  if (!s.empty() && s[0] == '-') {
    d.negative = true;
    s.remove_prefix(1);
  }
  size_t e = s.find('e');
  for (char c : s.substr(0, e)) {
    if (c != '.') d.digits.push_back(c);
  }
  d.exp10 = std::atoi(std::string(s.substr(e + 1)).c_str());
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// Positional notation; min_fraction digits after the point (0 or 1).
std::string Plain(const Decimal& d, int min_fraction) {
  std::string out = d.negative ? "-" : "";
  int n = static_cast<int>(d.digits.size());
  std::string integer, fraction;
  if (d.exp10 >= 0) {
    for (int i = 0; i <= d.exp10; ++i) integer.push_back(i < n ? d.digits[i] : '0');
    if (n > d.exp10 + 1) fraction = d.digits.substr(d.exp10 + 1);
  } else {
    integer = "0";
    fraction = std::string(-d.exp10 - 1, '0') + d.digits;
  }
  if (d.digits == "0") fraction.clear();
  while (static_cast<int>(fraction.size()) < min_fraction) fraction.push_back('0');
  out += integer;
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

std::string Special(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

template <class T>
std::string Cqlsh(T v, int precision) {
  if (!std::isfinite(v)) return Special(v);
  Decimal d = Shortest(v);
  if (d.digits == "0" || (d.exp10 >= -4 && d.exp10 < precision)) return Plain(d, 0);
  std::string out = d.negative ? "-" : "";
  out += d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  int e = d.exp10;
  out += e < 0 ? "e-" : "e+";
  std::string exp = std::to_string(e < 0 ? -e : e);
  if (exp.size() < 2) exp = "0" + exp;
  return out + exp;
}

template <class T>
std::string Java(T v) {
  if (!std::isfinite(v)) return Special(v);
  Decimal d = Shortest(v);
  if (d.digits == "0" || (d.exp10 >= -3 && d.exp10 < 7)) return Plain(d, 1);
  std::string out = d.negative ? "-" : "";
  out += d.digits.substr(0, 1);
  out += "." + (d.digits.size() > 1 ? d.digits.substr(1) : std::string("0"));
  return out + "E" + std::to_string(d.exp10);
}

}  // namespace

std::string FormatFloatCqlsh(float v) { return Cqlsh(v, 5); }
std::string FormatDoubleCqlsh(double v) { return Cqlsh(v, 12); }
std::string FormatFloatJava(float v) { return Java(v); }
std::string FormatDoubleJava(double v) { return Java(v); }

}  // namespace cassette
