// What the driver reads about its own process and the data directory:
// bytes written through write(2), peak resident memory, bytes on disk.
#pragma once

#include <cstdint>
#include <string>

namespace cassette::bench {

// Bytes this process passed to write-like system calls so far (every
// thread, background ones included): /proc/self/io `wchar`.
uint64_t ProcessBytesWritten();
// Starts a new peak: the next PeakRssBytes() reports the highest resident
// size from now on (writes 5 to /proc/self/clear_refs). False where the
// kernel does not allow it (the peak then covers the whole run).
bool ResetPeakRss();
// VmHWM of /proc/self/status, in bytes.
uint64_t PeakRssBytes();
// Sum of the sizes of the regular files under `dir`.
uint64_t DirectoryBytes(const std::string& dir);

}  // namespace cassette::bench
