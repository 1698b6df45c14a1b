// HookedFileSystem: forwards to another FileSystem and calls a test hook
// before every WritableFile::Flush and ::Sync, and before GetFreeSpace (which
// a compaction asks after taking its snapshot, before merging). Tests use it
// to hold a thread at that point on a latch, not a sleep: a group-commit
// leader inside its write or fsync while other writers queue up behind it,
// a flush inside its SSTable's fsync while a writer runs out of memtable
// space, a compaction while a flush changes the table under it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/file_system.h"

namespace cassette {

class HookedFileSystem final : public FileSystem {
 public:
  // op is "flush", "sync" (path: the file) or "free_space" (path: the
  // directory). Set before the file system is shared between threads.
  using Hook = std::function<void(std::string_view op, const std::string& path)>;

  explicit HookedFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}

  void set_hook(Hook hook) { hook_ = std::move(hook); }

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override {
    return Wrap(base_->NewWritableFile(path), path);
  }
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override {
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
  Status DeleteFile(const std::string& path) override { return base_->DeleteFile(path); }
  Status CreateDirs(const std::string& dir) override { return base_->CreateDirs(dir); }
  Status DeleteDir(const std::string& dir) override { return base_->DeleteDir(dir); }
  Status RenameFile(const std::string& from, const std::string& to) override {
    return base_->RenameFile(from, to);
  }
  Status SyncDir(const std::string& dir) override { return base_->SyncDir(dir); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    return base_->LockFile(path);
  }
  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    if (hook_) hook_("free_space", dir);
    return base_->GetFreeSpace(dir);
  }

 private:
  class File final : public WritableFile {
   public:
    File(std::unique_ptr<WritableFile> base, std::string path, const Hook* hook)
        : base_(std::move(base)), path_(std::move(path)), hook_(hook) {}
    Status Append(std::string_view data) override { return base_->Append(data); }
    Status Flush() override {
      if (*hook_) (*hook_)("flush", path_);
      return base_->Flush();
    }
    Status Sync() override {
      if (*hook_) (*hook_)("sync", path_);
      return base_->Sync();
    }
    Status StartWriteback() override {
      if (*hook_) (*hook_)("writeback", path_);
      return base_->StartWriteback();
    }
    Status Truncate(uint64_t size) override {
      if (*hook_) (*hook_)("truncate", path_);
      return base_->Truncate(size);
    }
    Status Close() override { return base_->Close(); }
    uint64_t Size() const override { return base_->Size(); }

   private:
    std::unique_ptr<WritableFile> base_;
    std::string path_;
    const Hook* hook_;
  };

  Result<std::unique_ptr<WritableFile>> Wrap(Result<std::unique_ptr<WritableFile>> r,
                                             const std::string& path) {
    if (!r.ok()) return r.status();
    return std::unique_ptr<WritableFile>(new File(std::move(r).value(), path, &hook_));
  }

  std::shared_ptr<FileSystem> base_;
  Hook hook_;
};

}  // namespace cassette
