// CloningFileSystem: forwards to a MemFileSystem and calls a hook before
// every call that changes it (creating, appending, flushing, syncing,
// closing, renaming, deleting files and directories, syncing directories).
// The power-loss test's hook takes MemFileSystem::CrashClone there, so it
// sees the state a power loss would leave at every step of a commit, a
// flush, a compaction and a commit-log segment roll. The info log (LOG)
// is left out: the engine never reads it back.
//
// The hook runs on the thread making the call, with whatever locks the
// engine holds; it must not call back into the database. Single-threaded
// use (a ManualScheduler) is what the test does; the hook is still
// serialized by a mutex.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/file_system.h"

namespace cassette::crash {

class CloningFileSystem final : public FileSystem {
 public:
  // op: "create", "append", "flush", "sync", "close", "delete", "mkdir",
  // "rmdir", "rename", "syncdir".
  using Hook = std::function<void(std::string_view op, const std::string& path)>;

  CloningFileSystem(std::shared_ptr<FileSystem> base, Hook hook)
      : base_(std::move(base)), hook_(std::move(hook)) {}

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override {
    Call("create", path);
    return Wrap(base_->NewWritableFile(path), path);
  }
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override {
    Call("create", path);
    return Wrap(base_->NewAppendableFile(path), path);
  }
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
  Status DeleteFile(const std::string& path) override {
    Call("delete", path);
    return base_->DeleteFile(path);
  }
  Status CreateDirs(const std::string& dir) override {
    Call("mkdir", dir);
    return base_->CreateDirs(dir);
  }
  Status DeleteDir(const std::string& dir) override {
    Call("rmdir", dir);
    return base_->DeleteDir(dir);
  }
  Status RenameFile(const std::string& from, const std::string& to) override {
    Call("rename", from + " -> " + to);
    return base_->RenameFile(from, to);
  }
  Status SyncDir(const std::string& dir) override {
    Call("syncdir", dir);
    return base_->SyncDir(dir);
  }
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    return base_->LockFile(path);
  }
  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    return base_->GetFreeSpace(dir);
  }

 private:
  class File final : public WritableFile {
   public:
    File(std::unique_ptr<WritableFile> base, std::string path, CloningFileSystem* fs)
        : base_(std::move(base)), path_(std::move(path)), fs_(fs) {}
    Status Append(std::string_view data) override {
      fs_->Call("append", path_);
      return base_->Append(data);
    }
    Status Flush() override {
      fs_->Call("flush", path_);
      return base_->Flush();
    }
    Status Sync() override {
      fs_->Call("sync", path_);
      return base_->Sync();
    }
    Status StartWriteback() override { return base_->StartWriteback(); }
    // Forwarded (the default would be NotSupported, which turns a log
    // write that fails into a failed log), and a crash point of its own.
    Status Truncate(uint64_t size) override {
      fs_->Call("truncate", path_);
      return base_->Truncate(size);
    }
    Status Close() override {
      fs_->Call("close", path_);
      return base_->Close();
    }
    uint64_t Size() const override { return base_->Size(); }

   private:
    std::unique_ptr<WritableFile> base_;
    std::string path_;
    CloningFileSystem* fs_;
  };

  void Call(std::string_view op, const std::string& path) {
    // The info log (LOG, LOG.<n>) is written for people and never read
    // back by the engine: a clone before one of its writes is the clone
    // before the engine's previous step, so none is taken there.
    const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
    if (name == "LOG" || name.starts_with("LOG.")) return;
    std::lock_guard<std::mutex> guard(mu_);
    hook_(op, path);
  }

  Result<std::unique_ptr<WritableFile>> Wrap(Result<std::unique_ptr<WritableFile>> r,
                                             const std::string& path) {
    if (!r.ok()) return r.status();
    return std::unique_ptr<WritableFile>(new File(std::move(r).value(), path, this));
  }

  std::shared_ptr<FileSystem> base_;
  Hook hook_;
  std::mutex mu_;
};

}  // namespace cassette::crash
