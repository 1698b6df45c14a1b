// Write timestamps as a Cassandra coordinator issues them: the clock in
// microseconds, but strictly increasing per database, so two writes in the
// same microsecond (or under a manual clock that stands still) still order.
#pragma once

#include <atomic>
#include <cstdint>

namespace cassette {

class TimestampGenerator {
 public:
  int64_t Next(int64_t now_micros) {
    int64_t last = last_.load(std::memory_order_relaxed);
    int64_t next;
    do {
      next = now_micros > last ? now_micros : last + 1;
    } while (!last_.compare_exchange_weak(last, next, std::memory_order_relaxed));
    return next;
  }

 private:
  std::atomic<int64_t> last_{0};
};

}  // namespace cassette
