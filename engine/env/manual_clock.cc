#include <limits>
#include <string>

#include "cassette/clock.h"

namespace cassette {

Status ManualClock::Set(int64_t micros) {
  // A compare-and-swap loop so that two racing Set calls can never move the
  // clock backwards between them.
  int64_t cur = now_.load(std::memory_order_acquire);
  while (true) {
    if (micros < cur) {
      return Status::InvalidArgument("clock cannot go backwards: now is " + std::to_string(cur) +
                                     " us, asked for " + std::to_string(micros) + " us");
    }
    if (now_.compare_exchange_weak(cur, micros, std::memory_order_acq_rel)) return Status::OK();
  }
}

Status ManualClock::Advance(int64_t micros) {
  if (micros < 0) {
    return Status::InvalidArgument("clock cannot go backwards: advance by " +
                                   std::to_string(micros) + " us");
  }
  int64_t cur = now_.load(std::memory_order_acquire);
  while (true) {
    if (cur > std::numeric_limits<int64_t>::max() - micros) {
      return Status::InvalidArgument("clock overflow: advancing " + std::to_string(cur) +
                                     " us by " + std::to_string(micros) + " us");
    }
    if (now_.compare_exchange_weak(cur, cur + micros, std::memory_order_acq_rel)) {
      return Status::OK();
    }
  }
}

}  // namespace cassette
