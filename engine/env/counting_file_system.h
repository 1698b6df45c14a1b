// CountingFileSystem: forwards every call to another FileSystem and counts
// what reaches the device on the way: bytes appended to files, fsyncs (of
// files and directories), and the bytes the files written through it hold
// now and held at most. The database wraps its file system in one, so
// `cassette stats` can tell an operator how much the flash has been
// written (what wears it), not only what each table flushed and compacted;
// the compaction lab reads the peak disk use of a run from one.
// Thread-safe (the counters are atomics; the table of files is locked).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
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
  // Bytes in the files opened for writing through this file system that
  // still exist (appends and truncates counted, deletes and renames over
  // them followed), now and at the most. Files it never opened for
  // writing are not counted.
  uint64_t bytes_in_files() const { return bytes_in_files_.load(std::memory_order_relaxed); }
  uint64_t peak_bytes_in_files() const { return peak_bytes_.load(std::memory_order_relaxed); }
  // Starts the peak again from the bytes held now.
  void ResetPeak() { peak_bytes_.store(bytes_in_files(), std::memory_order_relaxed); }

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
  Status DeleteFile(const std::string& path) override;
  Status CreateDirs(const std::string& dir) override { return base_->CreateDirs(dir); }
  Status DeleteDir(const std::string& dir) override { return base_->DeleteDir(dir); }
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    return base_->LockFile(path);
  }
  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    return base_->GetFreeSpace(dir);
  }

 private:
  class CountingFile;
  // The size of one file written through us, shared with its open handles.
  struct Tracked {
    std::atomic<uint64_t> size{0};
    // False once the file was deleted or replaced: a handle still open
    // writes to an unlinked file, which no longer counts.
    std::atomic<bool> counted{true};
  };

  Result<std::unique_ptr<WritableFile>> Wrap(Result<std::unique_ptr<WritableFile>> file,
                                             std::shared_ptr<Tracked> tracked);
  void AddToTotal(uint64_t bytes);
  void Grow(Tracked* tracked, uint64_t bytes);
  void Shrink(Tracked* tracked, uint64_t new_size);
  // Forgets `path`'s entry, taking its bytes off the total. REQUIRES: mu_.
  void ForgetLocked(const std::string& path);

  const std::shared_ptr<FileSystem> base_;
  std::atomic<uint64_t> bytes_written_{0};
  std::atomic<uint64_t> syncs_{0};
  std::atomic<uint64_t> bytes_in_files_{0};
  std::atomic<uint64_t> peak_bytes_{0};
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Tracked>> files_;  // GUARDED_BY(mu_)
};

}  // namespace cassette
