#include "engine/env/counting_file_system.h"

namespace cassette {

class CountingFileSystem::CountingFile : public WritableFile {
 public:
  CountingFile(std::unique_ptr<WritableFile> base, CountingFileSystem* fs)
      : base_(std::move(base)), fs_(fs) {}

  Status Append(std::string_view data) override {
    Status s = base_->Append(data);
    if (s.ok()) fs_->bytes_written_.fetch_add(data.size(), std::memory_order_relaxed);
    return s;
  }
  Status Flush() override { return base_->Flush(); }
  Status Sync() override {
    fs_->syncs_.fetch_add(1, std::memory_order_relaxed);
    return base_->Sync();
  }
  Status StartWriteback() override { return base_->StartWriteback(); }
  Status Truncate(uint64_t size) override { return base_->Truncate(size); }
  Status Close() override { return base_->Close(); }
  uint64_t Size() const override { return base_->Size(); }

 private:
  const std::unique_ptr<WritableFile> base_;
  CountingFileSystem* const fs_;
};

Result<std::unique_ptr<WritableFile>> CountingFileSystem::Wrap(
    Result<std::unique_ptr<WritableFile>> file) {
  if (!file.ok()) return file.status();
  return std::unique_ptr<WritableFile>(new CountingFile(std::move(file).value(), this));
}

Result<std::unique_ptr<WritableFile>> CountingFileSystem::NewWritableFile(const std::string& path) {
  return Wrap(base_->NewWritableFile(path));
}

Result<std::unique_ptr<WritableFile>> CountingFileSystem::NewAppendableFile(
    const std::string& path) {
  return Wrap(base_->NewAppendableFile(path));
}

Status CountingFileSystem::SyncDir(const std::string& dir) {
  syncs_.fetch_add(1, std::memory_order_relaxed);
  return base_->SyncDir(dir);
}

}  // namespace cassette
