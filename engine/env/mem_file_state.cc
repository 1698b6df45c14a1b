#include "engine/env/mem_file_state.h"

#include <algorithm>
#include <vector>

namespace cassette {

MemState::MemState() : root(std::make_shared<MemDir>()), capacity(UINT64_MAX / 2) {}

// Renames that are synced in some directories and not in others can leave
// the durable views pointing at each other (a/b -> B and B/a -> A); break
// every link so shared_ptr cycles do not leak.
MemState::~MemState() {
  std::vector<std::shared_ptr<MemDir>> all{root};
  std::set<MemDir*> seen{root.get()};
  for (size_t i = 0; i < all.size(); ++i) {
    for (auto* view : {&all[i]->current, &all[i]->durable}) {
      for (auto& [name, e] : *view) {
        if (e.dir && seen.insert(e.dir.get()).second) all.push_back(e.dir);
      }
    }
  }
  for (auto& d : all) {
    d->current.clear();
    d->durable.clear();
  }
}

Status MemState::Reserve(const std::string& path, uint64_t n) const {
  if (n > capacity || used > capacity - n) {
    return Status::IOError("append " + path + ": No space left on device");
  }
  return Status::OK();
}

void MemState::Unlink(MemInode* inode) {
  if (!inode->linked) return;
  used -= inode->data.size();
  inode->linked = false;
}

namespace {

class MemWritableFile final : public WritableFile {
 public:
  MemWritableFile(std::shared_ptr<MemState> state, std::shared_ptr<MemInode> inode,
                  std::string path, uint64_t size)
      : state_(std::move(state)), inode_(std::move(inode)), path_(std::move(path)), size_(size) {}

  // Appends are all or nothing: a full disk leaves the file as it was.
  Status Append(std::string_view data) override {
    if (closed_) return Status::IOError("append " + path_ + ": file is closed");
    std::lock_guard<std::mutex> l(state_->mu);
    if (inode_->linked) {
      CASSETTE_RETURN_IF_ERROR(state_->Reserve(path_, data.size()));
      state_->used += data.size();
    }
    inode_->data.append(data);
    size_ += data.size();
    return Status::OK();
  }

  // There is no user-space buffer: appended bytes are at once in the
  // modelled page cache, visible to readers but not yet durable.
  Status Flush() override {
    if (closed_) return Status::IOError("flush " + path_ + ": file is closed");
    return Status::OK();
  }

  Status Sync() override {
    if (closed_) return Status::IOError("sync " + path_ + ": file is closed");
    std::lock_guard<std::mutex> l(state_->mu);
    inode_->synced = inode_->data.size();
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    if (closed_) return Status::IOError("truncate " + path_ + ": file is closed");
    std::lock_guard<std::mutex> l(state_->mu);
    if (size > inode_->data.size()) {
      return Status::InvalidArgument("truncate " + path_ + " beyond its end");
    }
    if (inode_->linked) state_->used -= inode_->data.size() - size;
    inode_->data.resize(size);
    inode_->synced = std::min<uint64_t>(inode_->synced, size);
    size_ = size;
    return Status::OK();
  }

  Status Close() override {
    closed_ = true;
    return Status::OK();
  }

  uint64_t Size() const override { return size_; }

 private:
  const std::shared_ptr<MemState> state_;
  const std::shared_ptr<MemInode> inode_;
  const std::string path_;
  uint64_t size_;
  bool closed_ = false;
};

// Copies [offset, offset + n) of the inode, clipped at its end.
void ReadAt(const MemState& state, const MemInode& inode, uint64_t offset, size_t n,
            std::string* out) {
  std::lock_guard<std::mutex> l(state.mu);
  const uint64_t size = inode.data.size();
  if (offset >= size) {
    out->clear();
    return;
  }
  out->assign(inode.data, offset, std::min<uint64_t>(n, size - offset));
}

class MemRandomAccessFile final : public RandomAccessFile {
 public:
  MemRandomAccessFile(std::shared_ptr<MemState> state, std::shared_ptr<MemInode> inode)
      : state_(std::move(state)), inode_(std::move(inode)) {}

  Status Read(uint64_t offset, size_t n, std::string* out) const override {
    ReadAt(*state_, *inode_, offset, n, out);
    return Status::OK();
  }

  uint64_t Size() const override {
    std::lock_guard<std::mutex> l(state_->mu);
    return inode_->data.size();
  }

 private:
  const std::shared_ptr<MemState> state_;
  const std::shared_ptr<MemInode> inode_;
};

class MemSequentialFile final : public SequentialFile {
 public:
  MemSequentialFile(std::shared_ptr<MemState> state, std::shared_ptr<MemInode> inode)
      : state_(std::move(state)), inode_(std::move(inode)) {}

  Status Read(size_t n, std::string* out) override {
    ReadAt(*state_, *inode_, pos_, n, out);
    pos_ += out->size();
    return Status::OK();
  }

  // As lseek: skipping past the end is allowed and later reads return nothing.
  Status Skip(uint64_t n) override {
    pos_ = n > UINT64_MAX - pos_ ? UINT64_MAX : pos_ + n;
    return Status::OK();
  }

 private:
  const std::shared_ptr<MemState> state_;
  const std::shared_ptr<MemInode> inode_;
  uint64_t pos_ = 0;
};

class MemFileLock final : public FileLock {
 public:
  MemFileLock(std::shared_ptr<MemState> state, std::string key)
      : state_(std::move(state)), key_(std::move(key)) {}
  ~MemFileLock() override {
    std::lock_guard<std::mutex> l(state_->mu);
    state_->locks.erase(key_);
  }

 private:
  const std::shared_ptr<MemState> state_;
  const std::string key_;
};

}  // namespace

std::unique_ptr<WritableFile> NewMemWritableFile(std::shared_ptr<MemState> state,
                                                 std::shared_ptr<MemInode> inode,
                                                 std::string path) {
  const uint64_t size = inode->data.size();
  return std::make_unique<MemWritableFile>(std::move(state), std::move(inode), std::move(path),
                                           size);
}

std::unique_ptr<RandomAccessFile> NewMemRandomAccessFile(std::shared_ptr<MemState> state,
                                                         std::shared_ptr<MemInode> inode) {
  return std::make_unique<MemRandomAccessFile>(std::move(state), std::move(inode));
}

std::unique_ptr<SequentialFile> NewMemSequentialFile(std::shared_ptr<MemState> state,
                                                     std::shared_ptr<MemInode> inode) {
  return std::make_unique<MemSequentialFile>(std::move(state), std::move(inode));
}

std::unique_ptr<FileLock> NewMemFileLock(std::shared_ptr<MemState> state, std::string key) {
  return std::make_unique<MemFileLock>(std::move(state), std::move(key));
}

}  // namespace cassette
