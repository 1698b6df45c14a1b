#include "bench/driver/process_stats.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cassette::bench {
namespace {

// The number after `key` on its line of a /proc file ("key: 123 kB").
uint64_t ProcField(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    std::istringstream fields(line.substr(key.size()));
    uint64_t value = 0;
    fields >> value;
    return value;
  }
  return 0;
}

}  // namespace

uint64_t ProcessBytesWritten() { return ProcField("/proc/self/io", "wchar:"); }

uint64_t CurrentRssBytes() {
  std::ifstream in("/proc/self/statm");
  uint64_t size = 0;
  uint64_t resident = 0;
  in >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

PeakRssSampler::PeakRssSampler() : peak_(CurrentRssBytes()) {
  thread_ = std::thread([this] {
    while (!stop_.load(std::memory_order_relaxed)) {
      const uint64_t now = CurrentRssBytes();
      if (now > peak_.load(std::memory_order_relaxed)) peak_.store(now, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
}

PeakRssSampler::~PeakRssSampler() {
  stop_.store(true, std::memory_order_relaxed);
  thread_.join();
}

uint64_t DirectoryBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      const uint64_t size = it->file_size(size_ec);
      if (!size_ec) total += size;
    }
  }
  return total;
}

}  // namespace cassette::bench
