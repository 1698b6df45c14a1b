// Shortest round-trip renderings of float and double: the digits are the
// fewest that read back to the same value (std::to_chars), laid out the way
// cqlsh (Python's %g: scientific outside [1e-4, 10^P), P = 5 for float and
// 12 for double) and Java's Float/Double.toString (SELECT JSON; scientific
// outside [1e-3, 1e7), always one fractional digit) lay them out.
#pragma once

#include <string>

namespace cassette {

std::string FormatFloatCqlsh(float v);
std::string FormatDoubleCqlsh(double v);
std::string FormatFloatJava(float v);
std::string FormatDoubleJava(double v);

}  // namespace cassette
