// Write timestamps as a Cassandra coordinator issues them
// (ClientState.getTimestamp): the clock's milliseconds times 1000, or one
// more than the last timestamp issued when that is not larger, so two
// writes in the same millisecond (or under a manual clock that stands
// still) still order. Being multiples of 1000 apart but for those steps,
// the timestamps of neighbouring rows differ by small, repetitive amounts,
// which the SSTable format's per-row timestamp steps then store in a byte
// or less (engine/sstable/FORMAT.md).
#pragma once

#include <atomic>
#include <cstdint>

namespace cassette {

class TimestampGenerator {
 public:
  int64_t Next(int64_t now_micros) {
    // Floored to the millisecond, negative clocks included (but for the
    // last millisecond before INT64_MIN's, which has no floor).
    const int64_t below = now_micros % 1000 < 0 ? now_micros % 1000 + 1000 : now_micros % 1000;
    const int64_t now = now_micros < INT64_MIN + 1000 ? now_micros : now_micros - below;
    int64_t last = last_.load(std::memory_order_relaxed);
    int64_t next;
    do {
      next = now > last ? now : last + 1;
    } while (!last_.compare_exchange_weak(last, next, std::memory_order_relaxed));
    return next;
  }

 private:
  // Below every clock: the first timestamp is the clock's (and never
  // INT64_MIN, which is kNoTimestamp).
  std::atomic<int64_t> last_{INT64_MIN};
};

}  // namespace cassette
