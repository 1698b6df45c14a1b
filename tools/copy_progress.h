// cqlsh's COPY progress and timing (copyutil.py RateMeter and
// CopyTask.describe_interval): "Processed: N rows; Rate: R rows/s; Avg.
// rate: A rows/s" rewritten in place every REPORTFREQUENCY seconds, and
// the elapsed time as "1 minute and 2.345 seconds". The progress line goes
// only to a terminal; the timing is for people, never for tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace cassette::tools {

// "%.03f seconds", preceded by days, hours and minutes when there are any.
std::string DescribeInterval(double seconds);

class CopyProgressMeter {
 public:
  // `out` null: nothing is printed (not a terminal, or COPY TO STDOUT).
  CopyProgressMeter(std::ostream* out, double report_seconds);

  void Add(int64_t rows);
  int64_t total() const { return total_; }
  // Ends the progress line (when one was printed).
  void Finish();
  // Seconds since the meter was made.
  double ElapsedSeconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream* out_;
  double report_seconds_;
  Clock::time_point start_;
  Clock::time_point last_report_;
  int64_t total_ = 0;
  int64_t since_report_ = 0;
  double rate_ = 0;
  bool printed_ = false;
};

}  // namespace cassette::tools
