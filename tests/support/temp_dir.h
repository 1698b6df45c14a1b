// TempDir: a fresh directory under /tmp (or $TMPDIR) for tests of the POSIX
// file system, removed with its contents on destruction. Only tests that
// must touch the real file system use it; the rest use MemFileSystem.
#pragma once

#include <string>

namespace cassette {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name.
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace cassette
