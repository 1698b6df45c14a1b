#include <chrono>

#include "cassette/clock.h"

namespace cassette {
namespace {

// Wall time can jump (NTP, an operator); durations therefore come from the
// steady clock, which never goes backwards.
class RealClock final : public Clock {
 public:
  int64_t WallMicros() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  int64_t MonotonicNanos() const override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace

std::shared_ptr<Clock> SystemClock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

}  // namespace cassette
