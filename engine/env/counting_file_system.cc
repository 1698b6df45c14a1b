#include "engine/env/counting_file_system.h"

namespace cassette {

class CountingFileSystem::CountingFile : public WritableFile {
 public:
  CountingFile(std::unique_ptr<WritableFile> base, CountingFileSystem* fs,
               std::shared_ptr<Tracked> tracked)
      : base_(std::move(base)), fs_(fs), tracked_(std::move(tracked)) {}

  Status Append(std::string_view data) override {
    Status s = base_->Append(data);
    if (s.ok()) {
      fs_->bytes_written_.fetch_add(data.size(), std::memory_order_relaxed);
      fs_->Grow(tracked_.get(), data.size());
    }
    return s;
  }
  Status Flush() override { return base_->Flush(); }
  Status Sync() override {
    fs_->syncs_.fetch_add(1, std::memory_order_relaxed);
    return base_->Sync();
  }
  Status StartWriteback() override { return base_->StartWriteback(); }
  Status Truncate(uint64_t size) override {
    Status s = base_->Truncate(size);
    if (s.ok()) fs_->Shrink(tracked_.get(), size);
    return s;
  }
  Status Close() override { return base_->Close(); }
  uint64_t Size() const override { return base_->Size(); }

 private:
  const std::unique_ptr<WritableFile> base_;
  CountingFileSystem* const fs_;
  const std::shared_ptr<Tracked> tracked_;
};

void CountingFileSystem::AddToTotal(uint64_t bytes) {
  const uint64_t now = bytes_in_files_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  uint64_t peak = peak_bytes_.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void CountingFileSystem::Grow(Tracked* tracked, uint64_t bytes) {
  tracked->size.fetch_add(bytes, std::memory_order_relaxed);
  if (tracked->counted.load(std::memory_order_relaxed)) AddToTotal(bytes);
}

void CountingFileSystem::Shrink(Tracked* tracked, uint64_t new_size) {
  const uint64_t old = tracked->size.exchange(new_size, std::memory_order_relaxed);
  if (!tracked->counted.load(std::memory_order_relaxed)) return;
  if (old > new_size) {
    bytes_in_files_.fetch_sub(old - new_size, std::memory_order_relaxed);
  } else {
    AddToTotal(new_size - old);  // a truncate that extends the file
  }
}

void CountingFileSystem::ForgetLocked(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) return;
  it->second->counted.store(false, std::memory_order_relaxed);
  bytes_in_files_.fetch_sub(it->second->size.load(std::memory_order_relaxed),
                            std::memory_order_relaxed);
  files_.erase(it);
}

Result<std::unique_ptr<WritableFile>> CountingFileSystem::Wrap(
    Result<std::unique_ptr<WritableFile>> file, std::shared_ptr<Tracked> tracked) {
  if (!file.ok()) return file.status();
  return std::unique_ptr<WritableFile>(
      new CountingFile(std::move(file).value(), this, std::move(tracked)));
}

Result<std::unique_ptr<WritableFile>> CountingFileSystem::NewWritableFile(const std::string& path) {
  Result<std::unique_ptr<WritableFile>> file = base_->NewWritableFile(path);
  if (!file.ok()) return file.status();
  auto tracked = std::make_shared<Tracked>();
  {
    std::lock_guard<std::mutex> g(mu_);
    ForgetLocked(path);  // truncated by the open
    files_[path] = tracked;
  }
  return Wrap(std::move(file), std::move(tracked));
}

Result<std::unique_ptr<WritableFile>> CountingFileSystem::NewAppendableFile(
    const std::string& path) {
  Result<std::unique_ptr<WritableFile>> file = base_->NewAppendableFile(path);
  if (!file.ok()) return file.status();
  std::shared_ptr<Tracked> tracked;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) {
      tracked = it->second;
    } else {
      tracked = std::make_shared<Tracked>();
      files_[path] = tracked;
    }
  }
  // A file written before (by another process, or through another file
  // system) counts from now on with what it holds.
  const uint64_t held = (*file)->Size();
  const uint64_t known = tracked->size.load(std::memory_order_relaxed);
  if (held > known) Grow(tracked.get(), held - known);
  return Wrap(std::move(file), std::move(tracked));
}

Status CountingFileSystem::DeleteFile(const std::string& path) {
  Status s = base_->DeleteFile(path);
  if (s.ok() || s.IsNotFound()) {
    std::lock_guard<std::mutex> g(mu_);
    ForgetLocked(path);
  }
  return s;
}

Status CountingFileSystem::RenameFile(const std::string& from, const std::string& to) {
  Status s = base_->RenameFile(from, to);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> g(mu_);
  ForgetLocked(to);  // replaced
  auto it = files_.find(from);
  if (it != files_.end()) {
    files_[to] = it->second;
    files_.erase(it);
  }
  return s;
}

Status CountingFileSystem::SyncDir(const std::string& dir) {
  syncs_.fetch_add(1, std::memory_order_relaxed);
  return base_->SyncDir(dir);
}

}  // namespace cassette
