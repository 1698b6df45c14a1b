// ObsoleteFileDeleter: deletes an SSTable file once nothing reads it any
// more. Every published View shares the deleter of each of its SSTables; a
// compaction that replaces a file marks it obsolete after the manifest
// stops naming it, and the file goes when the last View holding it (a
// read that started before the swap) is released. A crash before that
// leaves a file the manifest does not name, which the next open deletes.
//
// Thread-safe.
#pragma once

#include <atomic>
#include <string>

#include "cassette/file_system.h"

namespace cassette {

class ObsoleteFileDeleter {
 public:
  ObsoleteFileDeleter(FileSystem* fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  ObsoleteFileDeleter(const ObsoleteFileDeleter&) = delete;
  ObsoleteFileDeleter& operator=(const ObsoleteFileDeleter&) = delete;

  ~ObsoleteFileDeleter() {
    // A failed delete leaves an orphan that the next open removes.
    if (obsolete_.load(std::memory_order_acquire)) fs_->DeleteFile(path_).IgnoreError();
  }

  void MarkObsolete() { obsolete_.store(true, std::memory_order_release); }

 private:
  FileSystem* const fs_;
  const std::string path_;
  std::atomic<bool> obsolete_{false};
};

}  // namespace cassette
