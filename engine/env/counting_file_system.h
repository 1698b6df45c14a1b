// CountingFileSystem: forwards every call to another FileSystem and counts
// what reaches the device on the way: bytes appended to files and fsyncs
// (of files and directories). The database wraps its file system in one,
// so `cassette stats` can tell an operator how much the flash has been
// written (what wears it), not only what each table flushed and compacted.
// Thread-safe (the counters are atomics; the rest forwards).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cassette/file_system.h"

namespace cassette {

class CountingFileSystem : public FileSystem {
 public:
  explicit CountingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}

  // Bytes passed to WritableFile::Append (they reach the device, whether or
  // not a later truncate takes them back).
  uint64_t bytes_written() const { return bytes_written_.load(std::memory_order_relaxed); }
  // WritableFile::Sync and SyncDir calls.
  uint64_t syncs() const { return syncs_.load(std::memory_order_relaxed); }

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override {
    return base_->NewRandomAccessFile(path);
  }
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override {
    return base_->NewSequentialFile(path);
  }
  bool FileExists(const std::string& path) override { return base_->FileExists(path); }
  Result<std::vector<std::string>> GetChildren(const std::string& dir) override {
    return base_->GetChildren(dir);
  }
  Result<uint64_t> GetFileSize(const std::string& path) override {
    return base_->GetFileSize(path);
  }
  Status DeleteFile(const std::string& path) override { return base_->DeleteFile(path); }
  Status CreateDirs(const std::string& dir) override { return base_->CreateDirs(dir); }
  Status DeleteDir(const std::string& dir) override { return base_->DeleteDir(dir); }
  Status RenameFile(const std::string& from, const std::string& to) override {
    return base_->RenameFile(from, to);
  }
  Status SyncDir(const std::string& dir) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    return base_->LockFile(path);
  }
  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    return base_->GetFreeSpace(dir);
  }

 private:
  class CountingFile;
  Result<std::unique_ptr<WritableFile>> Wrap(Result<std::unique_ptr<WritableFile>> file);

  const std::shared_ptr<FileSystem> base_;
  std::atomic<uint64_t> bytes_written_{0};
  std::atomic<uint64_t> syncs_{0};
};

}  // namespace cassette
