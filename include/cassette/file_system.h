// FileSystem: the only way engine code reaches files. The POSIX file system
// is the production one; the in-memory one keeps synced and unsynced bytes
// apart so a test can "crash" it (drop what was never synced) and reopen.
//
// Paths are '/'-separated strings. File objects are not thread-safe; a
// FileSystem is safe for concurrent access from multiple threads without
// any external synchronization.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette {

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(std::string_view data) = 0;
  // Pushes buffered bytes to the OS (not necessarily to stable storage).
  virtual Status Flush() = 0;
  // Makes every appended byte durable (fdatasync).
  virtual Status Sync() = 0;
  // Asks the OS to start writing the bytes flushed so far to storage and
  // returns without waiting, so that a later Sync finds little left to do
  // (RocksDB's bytes_per_sync). A hint: durability is unchanged, only Sync
  // makes bytes durable, and a file system may do nothing.
  virtual Status StartWriteback() { return Status::OK(); }
  // Cuts the file to its first `size` bytes (at most Size()), dropping
  // anything buffered; later appends continue from there. Bytes already
  // made durable below `size` stay durable. The engine uses it to take
  // back a write that failed part way (a full disk), so a file system that
  // cannot may say NotSupported and the failure then stays final.
  virtual Status Truncate(uint64_t size) {
    (void)size;
    return Status::NotSupported("truncate is not supported by this file system");
  }
  virtual Status Close() = 0;
  // Bytes appended so far.
  virtual uint64_t Size() const = 0;
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to n bytes at offset into *out (replacing its contents). Fewer
  // bytes than n are returned only at end of file. Safe to call
  // concurrently from multiple threads.
  virtual Status Read(uint64_t offset, size_t n, std::string* out) const = 0;
  virtual uint64_t Size() const = 0;
};

class SequentialFile {
 public:
  virtual ~SequentialFile() = default;
  // Reads up to n bytes into *out; an empty result means end of file.
  virtual Status Read(size_t n, std::string* out) = 0;
  virtual Status Skip(uint64_t n) = 0;
};

// An advisory lock on a file, held until released or the process exits.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Creates or truncates.
  virtual Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) = 0;
  // Opens for append, creating the file when missing.
  virtual Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) = 0;
  virtual Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& path) = 0;
  virtual Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) = 0;

  virtual bool FileExists(const std::string& path) = 0;
  // Names (not paths) of the entries of a directory, sorted.
  virtual Result<std::vector<std::string>> GetChildren(const std::string& dir) = 0;
  virtual Result<uint64_t> GetFileSize(const std::string& path) = 0;
  virtual Status DeleteFile(const std::string& path) = 0;
  // Creates dir and any missing parents; succeeds when it exists already.
  virtual Status CreateDirs(const std::string& dir) = 0;
  // Removes an empty directory.
  virtual Status DeleteDir(const std::string& dir) = 0;
  // Atomically replaces `to` with `from`.
  virtual Status RenameFile(const std::string& from, const std::string& to) = 0;
  // Makes the directory's entries (creations, renames, deletions) durable.
  virtual Status SyncDir(const std::string& dir) = 0;
  // Takes an exclusive lock; Busy when another holder has it.
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) = 0;
  // Bytes available to this process on the volume that holds `dir`.
  virtual Result<uint64_t> GetFreeSpace(const std::string& dir) = 0;
};

std::shared_ptr<FileSystem> NewPosixFileSystem();

// An in-memory file system. Crash() forgets every byte and directory entry
// that was not synced (keeping a seeded random share of unsynced appended
// bytes when keep_unsynced_pct > 0, to model torn writes).
class MemFileSystem : public FileSystem {
 public:
  // A copy of this file system as it would be after a power loss now.
  virtual std::shared_ptr<MemFileSystem> CrashClone(int keep_unsynced_pct, uint64_t seed) const = 0;
  // Sets the free space reported by GetFreeSpace (default: effectively unlimited).
  virtual void SetFreeSpace(uint64_t bytes) = 0;
};

std::shared_ptr<MemFileSystem> NewMemFileSystem();

}  // namespace cassette
