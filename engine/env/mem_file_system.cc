// MemFileSystem: an in-memory file system that can be "crashed".
//
// Durability model (what CrashClone keeps), after a Linux file system such as
// ext4 without special mount options:
//
// - File contents live in inodes, apart from names. Appended bytes reach
//   the inode at once (readers see them: the page cache) but only the prefix
//   up to the last WritableFile::Sync is durable. Truncation (opening an
//   existing file with NewWritableFile) empties the inode and its durable
//   prefix alike.
// - Each directory keeps two views of its entries: `current`, which every
//   lookup uses, and `durable`, which is what a crash leaves. Creating,
//   renaming and deleting a file change only `current`; SyncDir(dir) copies
//   dir's `current` view to its `durable` view. So a file that was created
//   and synced but whose directory was never synced is gone after a crash;
//   a deleted file comes back; a rename not followed by SyncDir is undone.
//   A rename across directories needs both directories synced.
// - Directories are entries like files: CreateDirs and DeleteDir change
//   only the parent's `current` view, and a crash forgets a directory
//   (with everything in it, synced or not) whose parent was not synced
//   after its creation, or brings back one whose removal was not synced.
//   CreateDirsDurably (durable_directory.h) is how the engine creates them.
//   The root always exists.
// - CrashClone(keep_unsynced_pct, seed) walks the durable views from the
//   root. Each file keeps its durable prefix; with keep_unsynced_pct == 100
//   it keeps its whole unsynced tail too (the OS wrote everything back
//   before the power went), and with 0 < pct < 100 each file, with
//   probability pct%, keeps a random-length prefix of its unsynced tail (a
//   torn write). Locks are not cloned: the process holding them is gone.
//
// Free space: used bytes are the sizes of files reachable from the current
// namespace; an Append beyond capacity fails with "No space left on device"
// and writes nothing.
#include <algorithm>
#include <vector>

#include "cassette/file_system.h"
#include "engine/env/mem_file_state.h"
#include "engine/util/random.h"

namespace cassette {
namespace {

// Path components with "." and ".." resolved; relative paths are taken
// from the root, since there is no working directory.
std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.emplace_back(part);
    }
    i = j + 1;
  }
  return parts;
}

std::string JoinPath(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

Status Missing(std::string_view op, const std::string& path) {
  return Status::NotFound(std::string(op) + " " + path + ": No such file or directory");
}

Status Failed(std::string_view op, const std::string& path, std::string_view why) {
  return Status::IOError(std::string(op) + " " + path + ": " + std::string(why));
}

class MemFileSystemImpl final : public MemFileSystem {
 public:
  MemFileSystemImpl() : state_(std::make_shared<MemState>()) {}

  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override {
    return OpenForWrite(path, /*truncate=*/true);
  }
  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override {
    return OpenForWrite(path, /*truncate=*/false);
  }

  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override {
    std::lock_guard<std::mutex> l(state_->mu);
    CASSETTE_ASSIGN_OR_RETURN(auto inode, FindFile("open", path));
    return NewMemRandomAccessFile(state_, std::move(inode));
  }

  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override {
    std::lock_guard<std::mutex> l(state_->mu);
    CASSETTE_ASSIGN_OR_RETURN(auto inode, FindFile("open", path));
    return NewMemSequentialFile(state_, std::move(inode));
  }

  bool FileExists(const std::string& path) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(path);
    if (parts.empty()) return true;
    MemDir* parent = FindDir(parts, parts.size() - 1);
    return parent != nullptr && parent->current.count(parts.back()) > 0;
  }

  Result<std::vector<std::string>> GetChildren(const std::string& dir) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(dir);
    MemDir* d = FindDir(parts, parts.size());
    if (d == nullptr) return Missing("opendir", dir);
    std::vector<std::string> names;
    for (const auto& [name, e] : d->current) names.push_back(name);  // std::map: sorted
    return names;
  }

  Result<uint64_t> GetFileSize(const std::string& path) override {
    std::lock_guard<std::mutex> l(state_->mu);
    CASSETTE_ASSIGN_OR_RETURN(auto inode, FindFile("stat", path));
    return static_cast<uint64_t>(inode->data.size());
  }

  Status DeleteFile(const std::string& path) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(path);
    MemDir* parent = nullptr;
    MemEntry* e = FindEntry(parts, &parent);
    if (e == nullptr) return Missing("unlink", path);
    if (e->is_dir()) return Failed("unlink", path, "Is a directory");
    state_->Unlink(e->file.get());
    parent->current.erase(parts.back());
    return Status::OK();
  }

  Status CreateDirs(const std::string& dir) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(dir);
    MemDir* d = state_->root.get();
    for (size_t i = 0; i < parts.size(); ++i) {
      auto it = d->current.find(parts[i]);
      if (it == d->current.end()) {
        MemEntry e{nullptr, std::make_shared<MemDir>()};
        it = d->current.emplace(parts[i], std::move(e)).first;
      } else if (!it->second.is_dir()) {
        return Failed("mkdir", JoinPath({parts.begin(), parts.begin() + i + 1}), "Not a directory");
      }
      d = it->second.dir.get();
    }
    return Status::OK();
  }

  Status DeleteDir(const std::string& dir) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(dir);
    if (parts.empty()) return Failed("rmdir", dir, "Device or resource busy");
    MemDir* parent = nullptr;
    MemEntry* e = FindEntry(parts, &parent);
    if (e == nullptr) return Missing("rmdir", dir);
    if (!e->is_dir()) return Failed("rmdir", dir, "Not a directory");
    if (!e->dir->current.empty()) return Failed("rmdir", dir, "Directory not empty");
    parent->current.erase(parts.back());
    return Status::OK();
  }

  Status RenameFile(const std::string& from, const std::string& to) override {
    std::lock_guard<std::mutex> l(state_->mu);
    const std::string what = from + " to " + to;
    std::vector<std::string> src = SplitPath(from);
    std::vector<std::string> dst = SplitPath(to);
    if (src.empty() || dst.empty()) return Failed("rename", what, "Device or resource busy");
    MemDir* src_dir = FindDir(src, src.size() - 1);
    MemDir* dst_dir = FindDir(dst, dst.size() - 1);
    if (src_dir == nullptr || dst_dir == nullptr) return Missing("rename", what);
    auto sit = src_dir->current.find(src.back());
    if (sit == src_dir->current.end()) return Missing("rename", what);
    if (src == dst) return Status::OK();
    MemEntry moving = sit->second;
    if (moving.is_dir() && dst.size() > src.size() &&
        std::equal(src.begin(), src.end(), dst.begin())) {
      return Failed("rename", what, "Invalid argument");
    }
    auto dit = dst_dir->current.find(dst.back());
    if (dit != dst_dir->current.end()) {
      const MemEntry& old = dit->second;
      if (old.is_dir() && !moving.is_dir()) return Failed("rename", what, "Is a directory");
      if (!old.is_dir() && moving.is_dir()) return Failed("rename", what, "Not a directory");
      if (old.is_dir() && !old.dir->current.empty()) {
        return Failed("rename", what, "Directory not empty");
      }
      if (old.file) state_->Unlink(old.file.get());
    }
    src_dir->current.erase(sit);
    dst_dir->current[dst.back()] = std::move(moving);
    return Status::OK();
  }

  Status SyncDir(const std::string& dir) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(dir);
    MemDir* d = FindDir(parts, parts.size());
    if (d == nullptr) return Missing("open directory", dir);
    d->durable = d->current;
    return Status::OK();
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    // Like the POSIX version, locking creates the (empty) lock file.
    CASSETTE_ASSIGN_OR_RETURN(auto file, OpenForWrite(path, /*truncate=*/false));
    file->Close().IgnoreError();  // closing a memory file cannot fail
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(path);
    std::string key = JoinPath(parts);
    if (!state_->locks.insert(key).second) {
      parts.pop_back();
      return Status::Busy("data directory " + JoinPath(parts) +
                          " is locked by another process (lock file " + path + ")");
    }
    return NewMemFileLock(state_, std::move(key));
  }

  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(dir);
    if (FindDir(parts, parts.size()) == nullptr) return Missing("statvfs", dir);
    return state_->capacity - state_->used;
  }

  void SetFreeSpace(uint64_t bytes) override {
    std::lock_guard<std::mutex> l(state_->mu);
    state_->capacity = bytes > UINT64_MAX - state_->used ? UINT64_MAX : state_->used + bytes;
  }

  std::shared_ptr<MemFileSystem> CrashClone(int keep_unsynced_pct, uint64_t seed) const override {
    auto clone = std::make_shared<MemFileSystemImpl>();
    std::lock_guard<std::mutex> l(state_->mu);
    MemState& to = *clone->state_;
    to.capacity = state_->capacity;
    Cloner cloner(to, seed, keep_unsynced_pct);
    // Walk the durable views breadth-first. A directory reachable twice
    // (possible after partly synced directory renames) keeps its first
    // name, so the clone is a tree.
    std::vector<std::pair<const MemDir*, MemDir*>> queue{{state_->root.get(), to.root.get()}};
    std::set<const MemDir*> seen{state_->root.get()};
    for (size_t i = 0; i < queue.size(); ++i) {
      auto [src, dst] = queue[i];
      for (const auto& [name, e] : src->durable) {
        MemEntry copy;
        if (e.is_dir()) {
          if (!seen.insert(e.dir.get()).second) continue;
          copy.dir = std::make_shared<MemDir>();
          queue.emplace_back(e.dir.get(), copy.dir.get());
        } else {
          copy.file = cloner.File(e.file);
        }
        dst->current[name] = copy;
        dst->durable[name] = std::move(copy);
      }
    }
    return clone;
  }

 private:
  // Copies file inodes for CrashClone, once each, keeping what survives.
  struct Cloner {
    Cloner(MemState& to_state, uint64_t seed, int keep_pct)
        : to(to_state), rng(seed), pct(keep_pct) {}

    std::shared_ptr<MemInode> File(const std::shared_ptr<MemInode>& src) {
      auto& copy = copies[src.get()];
      if (copy) return copy;
      copy = std::make_shared<MemInode>();
      uint64_t keep = src->synced;
      const uint64_t tail = src->data.size() - src->synced;
      if (tail > 0 && pct >= 100) {
        keep += tail;
      } else if (tail > 0 && pct > 0 && rng.Percent(pct)) {
        keep += 1 + rng.Uniform(tail);
      }
      copy->data = src->data.substr(0, keep);
      copy->synced = keep;
      copy->linked = true;
      to.used += keep;
      return copy;
    }

    MemState& to;
    Random rng;
    int pct;
    std::map<const MemInode*, std::shared_ptr<MemInode>> copies;
  };

  // The directory named by parts[0, n), or null. REQUIRES: mu held.
  MemDir* FindDir(const std::vector<std::string>& parts, size_t n) const {
    MemDir* d = state_->root.get();
    for (size_t i = 0; i < n; ++i) {
      auto it = d->current.find(parts[i]);
      if (it == d->current.end() || !it->second.is_dir()) return nullptr;
      d = it->second.dir.get();
    }
    return d;
  }

  // The entry named by parts (never the root), or null; *parent is set to
  // its directory when found. REQUIRES: mu held.
  MemEntry* FindEntry(const std::vector<std::string>& parts, MemDir** parent) const {
    if (parts.empty()) return nullptr;
    MemDir* d = FindDir(parts, parts.size() - 1);
    if (d == nullptr) return nullptr;
    auto it = d->current.find(parts.back());
    if (it == d->current.end()) return nullptr;
    *parent = d;
    return &it->second;
  }

  // REQUIRES: mu held.
  Result<std::shared_ptr<MemInode>> FindFile(std::string_view op, const std::string& path) const {
    std::vector<std::string> parts = SplitPath(path);
    if (parts.empty()) return Failed(op, path, "Is a directory");
    MemDir* parent = nullptr;
    MemEntry* e = FindEntry(parts, &parent);
    if (e == nullptr) return Missing(op, path);
    if (e->is_dir()) return Failed(op, path, "Is a directory");
    return e->file;
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path, bool truncate) {
    std::lock_guard<std::mutex> l(state_->mu);
    std::vector<std::string> parts = SplitPath(path);
    if (parts.empty()) return Failed("open", path, "Is a directory");
    MemDir* parent = FindDir(parts, parts.size() - 1);
    if (parent == nullptr) return Missing("open", path);
    MemEntry& e = parent->current[parts.back()];
    if (e.is_dir()) return Failed("open", path, "Is a directory");
    if (!e.file) {
      e.file = std::make_shared<MemInode>();
      e.file->linked = true;
    } else if (truncate) {
      if (e.file->linked) state_->used -= e.file->data.size();
      e.file->data.clear();
      e.file->synced = 0;
    }
    return NewMemWritableFile(state_, e.file, path);
  }

  std::shared_ptr<MemState> state_;
};

}  // namespace

std::shared_ptr<MemFileSystem> NewMemFileSystem() { return std::make_shared<MemFileSystemImpl>(); }

}  // namespace cassette
