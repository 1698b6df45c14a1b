// FaultInjectionFileSystem wraps any FileSystem and fails chosen calls, so
// tests can check that every I/O error surfaces as a Status and that
// nothing acknowledged depends on an operation that failed.
//
// A rule names an operation kind, a path glob ('*' matches any run of
// characters including '/', '?' one character) and which matching calls
// fail: only the nth, every one from the nth on, or every one. A failing
// call returns IOError("injected fault: <op> <path>") without reaching the
// wrapped file system, except a "short" write, which first appends half of
// its data (a torn append).
//
// It also counts successful syncs per path, so tests can assert that a sync
// mode really syncs. Safe for concurrent access from multiple threads
// without any external synchronization; wrapped files, as all files, are not.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/file_system.h"

namespace cassette {

enum class FaultOp {
  kAny,
  kOpen,      // New*File, LockFile
  kWrite,     // WritableFile::Append
  kFlush,     // WritableFile::Flush
  kSync,      // WritableFile::Sync
  kRead,      // RandomAccessFile::Read, SequentialFile::Read
  kRename,    // RenameFile (the glob may match either path)
  kDelete,    // DeleteFile, DeleteDir
  kSyncDir,   // SyncDir
  kMkdir,     // CreateDirs
  kTruncate,  // WritableFile::Truncate
};

// "any", "open", "write", "flush", "sync", "read", "rename", "delete",
// "syncdir", "mkdir", "truncate".
std::string_view FaultOpName(FaultOp op);

struct FaultRule {
  enum class When { kNth, kFromNth, kEvery };

  FaultOp op = FaultOp::kAny;
  std::string glob = "*";
  When when = When::kEvery;
  int nth = 1;  // 1-based; for kNth and kFromNth
  bool short_write = false;
};

// Parses "op=sync path=*.log nth=2" (also "from=3", "every", "short"), the
// notation of the datadriven `inject` verb. Unset fields keep their defaults.
Result<FaultRule> ParseFaultRule(std::string_view spec);

// Whether `text` matches `pattern` ('*' and '?').
bool GlobMatch(std::string_view pattern, std::string_view text);

class FaultInjectionFileSystem final : public FileSystem {
 public:
  explicit FaultInjectionFileSystem(std::shared_ptr<FileSystem> base);

  void AddRule(const FaultRule& rule);
  void ClearRules();
  // Faults returned so far.
  int injected() const;
  // Successful WritableFile::Sync calls on files opened as `path`.
  int SyncCount(const std::string& path) const;
  // WritableFile::StartWriteback calls on files opened as `path`.
  int WritebackCount(const std::string& path) const;
  // Successful SyncDir(dir) calls.
  int SyncDirCount(const std::string& dir) const;
  // All successful WritableFile::Sync calls.
  int TotalSyncs() const;

  FileSystem* base() const { return base_.get(); }

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override;
  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override;
  bool FileExists(const std::string& path) override;
  Result<std::vector<std::string>> GetChildren(const std::string& dir) override;
  Result<uint64_t> GetFileSize(const std::string& path) override;
  Status DeleteFile(const std::string& path) override;
  Status CreateDirs(const std::string& dir) override;
  Status DeleteDir(const std::string& dir) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override;
  Result<uint64_t> GetFreeSpace(const std::string& dir) override;

  // Shared with the wrapped files: the rules and the counters.
  class Injector;

 private:
  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<Injector> injector_;
};

}  // namespace cassette
