#include "tools/copy_progress.h"

#include <cstdio>

namespace cassette::tools {

std::string DescribeInterval(double seconds) {
  std::string parts;
  int count = 0;
  for (const auto& [length, unit] : {std::pair<int64_t, const char*>{86400, "day"},
                                     std::pair<int64_t, const char*>{3600, "hour"},
                                     std::pair<int64_t, const char*>{60, "minute"}}) {
    const int64_t n = static_cast<int64_t>(seconds) / length;
    if (n > 0) {
      parts += (count > 0 ? ", " : "") + std::to_string(n) + " " + unit + (n > 1 ? "s" : "");
      ++count;
    }
    seconds -= static_cast<double>(n * length);
  }
  char words[64];
  std::snprintf(words, sizeof(words), "%.03f seconds", seconds);
  if (count > 1) return parts + ", and " + words;
  if (count == 1) return parts + " and " + words;
  return words;
}

CopyProgressMeter::CopyProgressMeter(std::ostream* out, double report_seconds)
    : out_(out), report_seconds_(report_seconds), start_(Clock::now()), last_report_(start_) {}

double CopyProgressMeter::ElapsedSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void CopyProgressMeter::Add(int64_t rows) {
  total_ += rows;
  since_report_ += rows;
  if (out_ == nullptr) return;
  const Clock::time_point now = Clock::now();
  const double interval = std::chrono::duration<double>(now - last_report_).count();
  if (interval < report_seconds_) return;
  // The rate of the last period averaged with the one before, as cqlsh
  // smooths it.
  const double rate = interval > 1e-9 ? static_cast<double>(since_report_) / interval : 0;
  rate_ = rate_ == 0 ? rate : (rate_ + rate) / 2;
  since_report_ = 0;
  last_report_ = now;
  const double elapsed = ElapsedSeconds();
  char line[160];
  std::snprintf(line, sizeof(line),
                "Processed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s\r",
                static_cast<long long>(total_), rate_,
                elapsed > 1e-9 ? static_cast<double>(total_) / elapsed : 0.0);
  *out_ << line << std::flush;
  printed_ = true;
}

void CopyProgressMeter::Finish() {
  if (printed_ && out_ != nullptr) *out_ << "\n";
  printed_ = false;
}

}  // namespace cassette::tools
