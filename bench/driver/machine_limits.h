// The physical limits of the machine a benchmark runs on, printed beside
// the results so a rate can be read against what the hardware allows: how
// fast the data directory's disk takes sequential writes, how fast memory
// copies, and how fast zstd level 3 compresses the workload's own rows.
#pragma once

#include <string>

#include "cassette/status.h"

namespace cassette::bench {

// Rates are in MB/s with MB = 10^6 bytes.
struct MachineLimits {
  // Sequential write() of 1 MiB calls, fdatasync every 64 MiB and at the
  // end, timed up to the last fdatasync. Best of 3.
  double disk_write_mb_per_s = 0;
  // memcpy of one 64 MiB buffer into another. Best of 3.
  double memcpy_mb_per_s = 0;
  // ZSTD level 3 over the workload's rows in 16 KiB chunks, MB/s of input.
  double zstd3_compress_mb_per_s = 0;
  // Input bytes ÷ compressed bytes of the same run.
  double zstd3_ratio = 0;
  std::string disk_dir;
  std::string cpu_model;  // /proc/cpuinfo "model name"; empty if it has none
  int cores = 0;          // std::thread::hardware_concurrency()
};

// Measures the limits, writing and deleting a scratch file in `dir`, which
// must exist. `scale` shrinks the disk test (256 MiB × scale, at least
// 16 MiB) for quick runs; the other tests take about a second together.
Result<MachineLimits> MeasureMachineLimits(const std::string& dir, double scale);

}  // namespace cassette::bench
