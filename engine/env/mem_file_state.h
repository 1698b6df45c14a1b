// Internal to MemFileSystem (mem_file_system.cc): the state that the file
// system and its open files share, and the file handle factories. See
// mem_file_system.cc for the durability model.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "cassette/file_system.h"

namespace cassette {

// A file's bytes, independent of the names it has (an inode).
struct MemInode {
  std::string data;
  // data[0, synced) survives a crash; the rest is in the "page cache".
  uint64_t synced = 0;
  // Reachable from the current namespace, so its bytes count as used space.
  bool linked = false;
};

struct MemDir;

// A directory entry: exactly one of file and dir is set.
struct MemEntry {
  std::shared_ptr<MemInode> file;
  std::shared_ptr<MemDir> dir;
  bool is_dir() const { return dir != nullptr; }
};

// A directory inode with two views of its entries: what a lookup sees now,
// and what a crash would leave (updated only by SyncDir of this directory).
struct MemDir {
  std::map<std::string, MemEntry> current;
  std::map<std::string, MemEntry> durable;
};

struct MemState {
  MemState();
  ~MemState();

  // Fails with "No space left on device" when n more bytes do not fit.
  // REQUIRES: mu held.
  Status Reserve(const std::string& path, uint64_t n) const;
  // Removes a file inode from the current namespace's accounting.
  // REQUIRES: mu held.
  void Unlink(MemInode* inode);

  mutable std::mutex mu;
  std::shared_ptr<MemDir> root;  // GUARDED_BY(mu), as is everything it reaches
  uint64_t capacity;             // GUARDED_BY(mu): used + free space
  uint64_t used = 0;             // GUARDED_BY(mu): bytes of linked inodes
  std::set<std::string> locks;   // GUARDED_BY(mu): normalized paths
};

// REQUIRES: state->mu held (the file starts at the inode's current size).
std::unique_ptr<WritableFile> NewMemWritableFile(std::shared_ptr<MemState> state,
                                                 std::shared_ptr<MemInode> inode, std::string path);
std::unique_ptr<RandomAccessFile> NewMemRandomAccessFile(std::shared_ptr<MemState> state,
                                                         std::shared_ptr<MemInode> inode);
std::unique_ptr<SequentialFile> NewMemSequentialFile(std::shared_ptr<MemState> state,
                                                     std::shared_ptr<MemInode> inode);
// Holds `key` in state->locks until destroyed. REQUIRES: the caller inserted it.
std::unique_ptr<FileLock> NewMemFileLock(std::shared_ptr<MemState> state, std::string key);

}  // namespace cassette
