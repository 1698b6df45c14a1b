// Clock: the only source of "now" in cassette. Write timestamps, TTL expiry,
// gc_grace and compaction windows all derive from WallMicros(); durations
// and metrics use MonotonicNanos(). Tests, the shell's CLOCK directive and
// the offline simulator inject a ManualClock so days pass in microseconds.
//
// Implementations are safe for concurrent access from multiple threads
// without any external synchronization.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "cassette/status.h"

namespace cassette {

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since the Unix epoch (UTC).
  virtual int64_t WallMicros() const = 0;
  // Nanoseconds from an arbitrary origin; never goes backwards.
  virtual int64_t MonotonicNanos() const = 0;
};

// The process-wide real clock.
std::shared_ptr<Clock> SystemClock();

// A clock that moves only when told to, and never backwards (as RocksDB's
// MockSystemClock). Its monotonic time follows its wall time.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_micros) : now_(start_micros) {}

  int64_t WallMicros() const override { return now_.load(std::memory_order_acquire); }
  int64_t MonotonicNanos() const override { return WallMicros() * 1000; }

  // Fails with InvalidArgument when `micros` is before the current time.
  Status Set(int64_t micros);
  // Fails with InvalidArgument when `micros` is negative.
  Status Advance(int64_t micros);

 private:
  std::atomic<int64_t> now_;
};

}  // namespace cassette
