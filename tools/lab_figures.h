// The figures by which the compaction lab compares strategies, shared by
// the terminal table (tools/simulate_command.cc) and the HTML report
// (tools/lab_report.cc) so both show the same figures and the same
// recommendation.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tools/lab_run.h"

namespace cassette::tools {

struct LabFigure {
  const char* label;
  std::function<double(const LabResult&)> value;      // what ranking compares
  std::function<std::string(const LabResult&)> text;  // what people read
  bool lower_is_better = true;
  bool ranked = true;  // counts towards the recommendation
};

std::vector<LabFigure> LabFigures();

// Figures within this share of the best value count as tied with it.
inline constexpr double kTieTolerance = 0.01;

// Strategy -> labels of the ranked figures on which it alone is best (a
// figure on which strategies tie, within kTieTolerance, counts for none).
// Empty with fewer than two results.
std::map<std::string, std::vector<std::string>> LabWins(const std::vector<LabResult>& results);

// "recommendation: stcs (best on 5 figures); stcs best on: ...", or "" with
// fewer than two results.
std::string LabRecommendation(const std::vector<LabResult>& results);

// The shortest text that reads back as the same double (JSON, CSV);
// "null" for what JSON cannot hold.
std::string Exact(double value);
// printf("%.*f").
std::string FixedDigits(double value, int digits);
// Bytes as decimal megabytes with two digits ("12.35").
std::string Megabytes(uint64_t bytes);
// Seconds as hours with one digit ("2.5 h").
std::string HoursText(int64_t seconds);
// "3d", "12h", "10m" or "90s".
std::string DurationText(int64_t seconds);

}  // namespace cassette::tools
