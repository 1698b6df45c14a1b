#include "engine/types/temporal_text.h"

#include <cstdio>

#include "engine/types/calendar.h"

namespace cassette {
namespace {

// A cursor over literal text.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool done() const { return pos_ == s_.size(); }
  char peek() const { return done() ? '\0' : s_[pos_]; }
  bool Consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  // Between min and max digits; *digits receives how many were read.
  bool Number(int min, int max, int64_t* value, int* digits = nullptr) {
    int n = 0;
    int64_t v = 0;
    while (n < max && !done() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      v = v * 10 + (s_[pos_] - '0');
      ++pos_;
      ++n;
    }
    if (n < min) return false;
    if (digits != nullptr) *digits = n;
    *value = v;
    return true;
  }
  bool ConsumeWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

bool ScanDate(Scanner* sc, int64_t* days) {
  int64_t y, m, d;
  bool negative_year = sc->Consume('-');
  if (!negative_year) sc->Consume('+');
  if (!sc->Number(1, 9, &y) || !sc->Consume('-') || !sc->Number(1, 2, &m) || !sc->Consume('-') ||
      !sc->Number(1, 2, &d)) {
    return false;
  }
  if (negative_year) y = -y;
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, static_cast<unsigned>(m))) return false;
  *days = DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

// Fraction digits scaled to nanoseconds.
bool ScanFraction(Scanner* sc, int64_t* nanos) {
  int64_t v;
  int digits;
  if (!sc->Number(1, 9, &v, &digits)) return false;
  for (int i = digits; i < 9; ++i) v *= 10;
  *nanos = v;
  return true;
}

// Zone offset in minutes east of UTC.
bool ScanZone(Scanner* sc, int64_t* offset_minutes) {
  *offset_minutes = 0;
  if (sc->Consume('Z') || sc->Consume('z') || sc->ConsumeWord("UTC") || sc->ConsumeWord("GMT")) {
    return true;
  }
  int sign = 0;
  if (sc->Consume('+')) {
    sign = 1;
  } else if (sc->Consume('-')) {
    sign = -1;
  } else {
    return false;
  }
  int64_t hh, mm = 0;
  if (!sc->Number(2, 2, &hh)) return false;
  if (sc->Consume(':')) {
    if (!sc->Number(2, 2, &mm)) return false;
  } else if (!sc->done()) {
    if (!sc->Number(2, 2, &mm)) return false;
  }
  if (hh > 18 || mm > 59) return false;
  *offset_minutes = sign * (hh * 60 + mm);
  return true;
}

std::string Pad(int64_t v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(v));
  return buf;
}

std::string YearText(int64_t y) { return y < 0 ? "-" + Pad(-y, 4) : Pad(y, 4); }

}  // namespace

bool ParseTimestampText(std::string_view text, int64_t* millis_since_epoch) {
  Scanner sc(text);
  int64_t days;
  if (!ScanDate(&sc, &days)) return false;
  int64_t hh = 0, mi = 0, ss = 0, nanos = 0, offset = 0;
  if (sc.peek() == 'T' || sc.peek() == ' ') {
    Scanner save = sc;
    if (!sc.Consume('T')) sc.Consume(' ');
    if (sc.Number(1, 2, &hh)) {
      if (!sc.Consume(':') || !sc.Number(1, 2, &mi)) return false;
      if (sc.Consume(':')) {
        if (!sc.Number(1, 2, &ss)) return false;
        if (sc.Consume('.') && !ScanFraction(&sc, &nanos)) return false;
      }
    } else {
      sc = save;  // "yyyy-mm-dd +0100": a zone after a space, no time
    }
  }
  if (hh > 23 || mi > 59 || ss > 59) return false;
  if (!sc.done()) {
    sc.Consume(' ');
    if (!ScanZone(&sc, &offset) || !sc.done()) return false;
  }
  __int128 ms = static_cast<__int128>(days) * 86400000 + hh * 3600000 + mi * 60000 + ss * 1000 +
                nanos / 1000000 - static_cast<__int128>(offset) * 60000;
  if (ms > INT64_MAX || ms < INT64_MIN) return false;
  *millis_since_epoch = static_cast<int64_t>(ms);
  return true;
}

bool ParseDateText(std::string_view text, int64_t* days_since_epoch) {
  Scanner sc(text);
  return ScanDate(&sc, days_since_epoch) && sc.done();
}

bool ParseTimeText(std::string_view text, int64_t* nanos) {
  Scanner sc(text);
  int64_t hh, mi, ss, frac = 0;
  if (!sc.Number(1, 2, &hh) || !sc.Consume(':') || !sc.Number(1, 2, &mi) || !sc.Consume(':') ||
      !sc.Number(1, 2, &ss)) {
    return false;
  }
  if (sc.Consume('.') && !ScanFraction(&sc, &frac)) return false;
  if (!sc.done() || hh > 23 || mi > 59 || ss > 59) return false;
  *nanos = ((hh * 60 + mi) * 60 + ss) * 1000000000LL + frac;
  return true;
}

namespace {

struct Civil {
  int64_t year;
  unsigned month, day;
  int64_t ms_of_day;
};

Civil ToCivil(int64_t millis) {
  Civil c;
  int64_t days = FloorDiv(millis, 86400000);
  c.ms_of_day = FloorMod(millis, 86400000);
  CivilFromDays(days, &c.year, &c.month, &c.day);
  return c;
}

std::string ClockText(int64_t ms_of_day) {
  int64_t s = ms_of_day / 1000;
  return Pad(s / 3600, 2) + ":" + Pad(s / 60 % 60, 2) + ":" + Pad(s % 60, 2);
}

}  // namespace

std::string FormatTimestampCqlsh(int64_t millis) {
  Civil c = ToCivil(millis);
  if (c.year < 1 || c.year > 9999) return std::to_string(millis);
  return Pad(c.year, 4) + "-" + Pad(c.month, 2) + "-" + Pad(c.day, 2) + " " +
         ClockText(c.ms_of_day) + "." + Pad(c.ms_of_day % 1000 * 1000, 6) + "+0000";
}

std::string FormatTimestampJson(int64_t millis) {
  Civil c = ToCivil(millis);
  return YearText(c.year) + "-" + Pad(c.month, 2) + "-" + Pad(c.day, 2) + " " +
         ClockText(c.ms_of_day) + "." + Pad(c.ms_of_day % 1000, 3) + "Z";
}

std::string FormatDateIso(int64_t days_since_epoch) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days_since_epoch, &y, &m, &d);
  return YearText(y) + "-" + Pad(m, 2) + "-" + Pad(d, 2);
}

std::string FormatDateCqlsh(int64_t days_since_epoch) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days_since_epoch, &y, &m, &d);
  if (y < 1 || y > 9999) return std::to_string(days_since_epoch);
  return FormatDateIso(days_since_epoch);
}

std::string FormatTime(int64_t nanos) {
  int64_t s = nanos / 1000000000;
  return Pad(s / 3600, 2) + ":" + Pad(s / 60 % 60, 2) + ":" + Pad(s % 60, 2) + "." +
         Pad(nanos % 1000000000, 9);
}

}  // namespace cassette
