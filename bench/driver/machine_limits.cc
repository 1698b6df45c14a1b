#include "bench/driver/machine_limits.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/driver/sensor_workload.h"

namespace cassette::bench {
namespace {

constexpr size_t kMiB = 1 << 20;
constexpr size_t kDiskWriteBytes = kMiB;      // one write() call
constexpr size_t kDiskSyncEvery = 64 * kMiB;  // fdatasync interval
constexpr size_t kMinDiskFileBytes = 16 * kMiB;
constexpr size_t kFullDiskFileBytes = 256 * kMiB;
constexpr size_t kMemcpyBytes = 64 * kMiB;
constexpr double kMemcpyMinSeconds = 0.3;
constexpr size_t kZstdInputBytes = 16 * kMiB;
constexpr size_t kZstdChunkBytes = 16 << 10;  // cassette's chunk length
constexpr int kZstdLevel = 3;
constexpr int kZstdSensors = 1000;
constexpr int kRuns = 3;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double MBPerSecond(double bytes, double seconds) { return seconds > 0 ? bytes / 1e6 / seconds : 0; }

Status Errno(const std::string& what, const std::string& path, int err) {
  return Status::IOError(what + " " + path + ": " + std::strerror(err));
}

// Closes and unlinks the probe file however the measurement ends.
class ScratchFile {
 public:
  explicit ScratchFile(std::string path) : path_(std::move(path)) {}
  ~ScratchFile() {
    if (fd_ >= 0) ::close(fd_);
    if (created_) ::unlink(path_.c_str());
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  Status Create() {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) return Errno("open", path_, errno);
    created_ = true;
    return Status::OK();
  }

  Status Write(const char* data, size_t size) {
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno("write", path_, errno);
      }
      data += n;
      size -= static_cast<size_t>(n);
    }
    return Status::OK();
  }

  Status Sync() {
    if (::fdatasync(fd_) != 0) return Errno("fdatasync", path_, errno);
    return Status::OK();
  }

  // Closes and unlinks now, reporting failures the destructor would drop.
  Status Remove() {
    const int fd = fd_;
    fd_ = -1;
    if (fd >= 0 && ::close(fd) != 0) return Errno("close", path_, errno);
    created_ = false;
    if (::unlink(path_.c_str()) != 0) return Errno("unlink", path_, errno);
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool created_ = false;
};

// One timed pass of the disk test: the clock starts at the first write and
// stops after the last fdatasync, so the bytes counted are on the device.
Result<double> DiskWriteOnce(const std::string& path, size_t file_bytes,
                             const std::vector<char>& block) {
  ScratchFile file(path);
  CASSETTE_RETURN_IF_ERROR(file.Create());
  const Clock::time_point start = Clock::now();
  for (size_t written = 0; written < file_bytes;) {
    CASSETTE_RETURN_IF_ERROR(file.Write(block.data(), block.size()));
    written += block.size();
    if (written % kDiskSyncEvery == 0) CASSETTE_RETURN_IF_ERROR(file.Sync());
  }
  if (file_bytes % kDiskSyncEvery != 0) CASSETTE_RETURN_IF_ERROR(file.Sync());
  const double seconds = SecondsSince(start);
  CASSETTE_RETURN_IF_ERROR(file.Remove());
  return MBPerSecond(static_cast<double>(file_bytes), seconds);
}

Result<double> MeasureDiskWrite(const std::string& dir, double scale) {
  const size_t scaled_mib =
      static_cast<size_t>(std::llround(std::max(0.0, scale) * (kFullDiskFileBytes / kMiB)));
  const size_t file_bytes = std::max(kMinDiskFileBytes, scaled_mib * kMiB);
  // Incompressible bytes, so a compressing or deduplicating file system
  // cannot make the disk look faster than it is.
  std::vector<char> block(kDiskWriteBytes);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (char& c : block) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    c = static_cast<char>(state >> 56);
  }
  const std::string path =
      dir + "/cassette-bench-disk-probe." + std::to_string(static_cast<long>(::getpid()));
  double best = 0;
  for (int run = 0; run < kRuns; ++run) {
    Result<double> rate = DiskWriteOnce(path, file_bytes, block);
    if (!rate.ok()) return rate.status();
    best = std::max(best, *rate);
  }
  return best;
}

double MeasureMemcpy() {
  std::vector<char> src(kMemcpyBytes);
  std::vector<char> dst(kMemcpyBytes);
  // Touch both buffers first so page faults are not timed as copying.
  std::memset(src.data(), 0x5a, src.size());
  std::memset(dst.data(), 0, dst.size());
  double best = 0;
  for (int run = 0; run < kRuns; ++run) {
    double bytes = 0;
    const Clock::time_point start = Clock::now();
    double seconds = 0;
    do {
      std::memcpy(dst.data(), src.data(), kMemcpyBytes);
      // The copy's result is never read: keep the compiler from eliding it.
      asm volatile("" : : "r"(dst.data()) : "memory");
      bytes += static_cast<double>(kMemcpyBytes);
      seconds = SecondsSince(start);
    } while (seconds < kMemcpyMinSeconds);
    best = std::max(best, MBPerSecond(bytes, seconds));
  }
  return best;
}

// About 16 MiB of rows as a key-value peer lays them out (key then value),
// in the workload's interleaved order: what a storage engine compresses.
std::string WorkloadRows() {
  std::vector<UuidBytes> uuids;
  std::vector<std::string> tags;
  for (int s = 0; s < kZstdSensors; ++s) {
    uuids.push_back(SensorUuid(s));
    tags.push_back(Tag(s));
  }
  std::string rows;
  rows.reserve(kZstdInputBytes + kPeerKeySize + kPeerValueSize);
  for (int64_t r = 0; rows.size() < kZstdInputBytes; ++r) {
    const Reading reading = ReadingAt(r, kZstdSensors);
    AppendPeerKey(uuids[reading.sensor], DayOf(reading.second), ReadingTimeMillis(reading.second),
                  &rows);
    AppendPeerValue(Temperature(reading.sensor, reading.second),
                    Humidity(reading.sensor, reading.second), tags[reading.sensor], &rows);
  }
  return rows;
}

struct ZstdRate {
  double mb_per_s = 0;
  double ratio = 0;
};

Result<ZstdRate> MeasureZstd() {
  const std::string rows = WorkloadRows();
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (cctx == nullptr) return Status::IOError("zstd: cannot create a compression context");
  std::vector<char> out(ZSTD_compressBound(kZstdChunkBytes));
  ZstdRate best;
  for (int run = 0; run < kRuns; ++run) {
    size_t compressed = 0;
    const Clock::time_point start = Clock::now();
    for (size_t off = 0; off < rows.size(); off += kZstdChunkBytes) {
      const size_t n = std::min(kZstdChunkBytes, rows.size() - off);
      const size_t c =
          ZSTD_compressCCtx(cctx.get(), out.data(), out.size(), rows.data() + off, n, kZstdLevel);
      if (ZSTD_isError(c)) return Status::IOError(std::string("zstd: ") + ZSTD_getErrorName(c));
      compressed += c;
    }
    const double rate = MBPerSecond(static_cast<double>(rows.size()), SecondsSince(start));
    if (rate > best.mb_per_s) {
      best.mb_per_s = rate;
      best.ratio = static_cast<double>(rows.size()) / static_cast<double>(compressed);
    }
  }
  return best;
}

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? std::string() : line.substr(begin);
  }
  return {};
}

}  // namespace

Result<MachineLimits> MeasureMachineLimits(const std::string& dir, double scale) {
  MachineLimits limits;
  limits.disk_dir = dir;
  limits.cpu_model = CpuModel();
  limits.cores = static_cast<int>(std::thread::hardware_concurrency());
  CASSETTE_ASSIGN_OR_RETURN(limits.disk_write_mb_per_s, MeasureDiskWrite(dir, scale));
  limits.memcpy_mb_per_s = MeasureMemcpy();
  CASSETTE_ASSIGN_OR_RETURN(const ZstdRate zstd, MeasureZstd());
  limits.zstd3_compress_mb_per_s = zstd.mb_per_s;
  limits.zstd3_ratio = zstd.ratio;
  return limits;
}

}  // namespace cassette::bench
