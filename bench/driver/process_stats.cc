#include "bench/driver/process_stats.h"

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

bool ResetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

uint64_t PeakRssBytes() { return ProcField("/proc/self/status", "VmHWM:") * 1024; }

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
