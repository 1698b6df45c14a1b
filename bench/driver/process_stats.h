// What the driver reads about its own process and the data directory:
// bytes written through write(2), peak resident memory, bytes on disk.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

namespace cassette::bench {

// Bytes this process passed to write-like system calls so far (every
// thread, background ones included): /proc/self/io `wchar`.
uint64_t ProcessBytesWritten();
// Resident bytes now (/proc/self/statm).
uint64_t CurrentRssBytes();

// The highest resident size seen while it lives, sampled every few
// milliseconds from a thread of its own: VmHWM cannot be trusted here (on
// some kernels it neither resets nor follows the resident size).
class PeakRssSampler {
 public:
  PeakRssSampler();
  ~PeakRssSampler();
  PeakRssSampler(const PeakRssSampler&) = delete;
  PeakRssSampler& operator=(const PeakRssSampler&) = delete;
  uint64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> peak_{0};
  std::thread thread_;
};

// Sum of the sizes of the regular files under `dir`.
uint64_t DirectoryBytes(const std::string& dir);

}  // namespace cassette::bench
