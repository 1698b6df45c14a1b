// RateLimiter: bounds the bytes per second of background I/O (compaction's
// compaction_throughput). Request() blocks the calling thread until the
// bytes fit the budget; with a limit of 0 it never blocks. Time comes from
// the injected clock, so with a ManualClock (deterministic mode) a request
// never waits on real time: the budget refills only when the clock moves.
//
// Safe for concurrent access from multiple threads without any external
// synchronization.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "cassette/clock.h"

namespace cassette {

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Blocks until `bytes` may be done.
  virtual void Request(uint64_t bytes) = 0;
  virtual void SetBytesPerSecond(uint64_t bytes_per_second) = 0;
  virtual uint64_t bytes_per_second() const = 0;
  // Total time Request() spent waiting, in nanoseconds (statistics).
  virtual int64_t total_wait_nanos() const = 0;
};

// How Request() waits out a deficit of `nanos`: by default it sleeps that
// long on the real (steady) clock. A test injects one that moves its own
// clock instead, so the refill it then reads is exactly what it decided.
using RateLimiterSleeper = std::function<void(int64_t nanos)>;

// `clock` must outlive the limiter. A ManualClock-driven limiter never
// sleeps: it admits every request (the simulated run has no wall time to
// spread the I/O over) and only accounts for it. `sleeper` empty: sleep on
// the real clock.
std::unique_ptr<RateLimiter> NewRateLimiter(std::shared_ptr<Clock> clock, uint64_t bytes_per_second,
                                            RateLimiterSleeper sleeper = {});

}  // namespace cassette
