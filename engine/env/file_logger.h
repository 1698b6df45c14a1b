// FileLogger: the default Logger. Writes `<dir>/LOG` through a FileSystem,
// one line per message, `<ISO-8601 time from the clock> <LEVEL> <message>`,
// and rotates it by size: once a line would take LOG past max_file_size,
// LOG becomes LOG.1, LOG.1 becomes LOG.2, ..., and the oldest beyond
// keep_files is deleted. Opening rotates the previous run's LOG the same
// way (LevelDB's LOG.old), so each run starts a file of its own.
//
// A write that fails never reaches the caller: it is counted
// (failed_writes) and the message is dropped; the next message tries a
// fresh file. Nothing is fsynced: the log is for people, and a power loss
// may cut its end.
//
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "cassette/clock.h"
#include "cassette/file_system.h"
#include "cassette/logger.h"

namespace cassette {

struct FileLoggerOptions {
  uint64_t max_file_size = 1ull << 20;
  int keep_files = 4;  // LOG.1 .. LOG.<keep_files>
  LogLevel min_level = LogLevel::kInfo;
};

// "LOG", and whether a directory entry is LOG or one of its old files
// (LOG.<n>), which tools and the database's own orphan check leave alone.
inline constexpr char kLogFileName[] = "LOG";
bool IsLogFileName(const std::string& name);

// "2026-11-28T06:20:00.123456Z": `micros` since the Unix epoch, UTC.
std::string FormatLogTime(int64_t micros);

class FileLogger final : public Logger {
 public:
  // Rotates an existing `<dir>/LOG` away and starts a new one. Never
  // fails: a directory that cannot be written counts failed writes.
  FileLogger(std::shared_ptr<FileSystem> fs, std::shared_ptr<Clock> clock, std::string dir,
             const FileLoggerOptions& options);
  ~FileLogger() override;

  void Log(LogLevel level, std::string_view message) override;

  // Writes, rotations and file creations that failed, since construction.
  int64_t failed_writes() const { return failed_writes_.load(std::memory_order_relaxed); }

 private:
  std::string PathOf(int index) const;  // 0: LOG, n: LOG.n
  // REQUIRES: mu_ held. Closes LOG and shifts the old files up by one.
  void RotateLocked();
  // REQUIRES: mu_ held. Opens a new LOG when none is open.
  bool EnsureOpenLocked();

  const std::shared_ptr<FileSystem> fs_;
  const std::shared_ptr<Clock> clock_;
  const std::string dir_;
  const FileLoggerOptions options_;
  std::mutex mu_;
  std::unique_ptr<WritableFile> file_;  // GUARDED_BY(mu_); null until a line needs it
  uint64_t file_size_ = 0;              // GUARDED_BY(mu_)
  std::atomic<int64_t> failed_writes_{0};
};

}  // namespace cassette
