// Proleptic Gregorian calendar arithmetic on day numbers (days since
// 1970-01-01), the civil-from-days / days-from-civil conversions every
// date and timestamp parser and formatter in the types layer shares.
#pragma once

#include <cstdint>

namespace cassette {

inline bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

inline unsigned DaysInMonth(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of y-m-d. REQUIRES: 1 <= m <= 12, |y| < 2^40.
inline int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  // Years start in March so the leap day ends a year; eras are 400 years.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;                                    // [0, 399]
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;  // [0, 365]
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;            // [0, 146096]
  return era * 146097 + doe - 719468;
}

// Inverse of DaysFromCivil. REQUIRES: |days| < 2^50.
inline void CivilFromDays(int64_t days, int64_t* y, unsigned* m, unsigned* d) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

// Floor division and modulo (the remainder takes the divisor's sign).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
// From the remainder: a - FloorDiv(a, b) * b overflows for a near INT64_MIN.
inline int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

}  // namespace cassette
