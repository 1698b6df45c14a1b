#include "engine/env/durable_directory.h"

#include <vector>

namespace cassette {

std::string ParentDirectory(const std::string& path) {
  size_t end = path.size();
  while (end > 1 && path[end - 1] == '/') --end;  // "/a/b/" is "/a/b"
  const size_t slash = path.find_last_of('/', end - 1);
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status CreateDirsDurably(FileSystem* fs, const std::string& dir) {
  // The directories to create, deepest first.
  std::vector<std::string> missing;
  for (std::string p = dir; p != "/" && p != "." && !fs->FileExists(p); p = ParentDirectory(p)) {
    missing.push_back(p);
  }
  if (missing.empty()) return Status::OK();
  CASSETTE_RETURN_IF_ERROR(fs->CreateDirs(dir));
  // Outermost first: a parent's entry is durable before its child's.
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    CASSETTE_RETURN_IF_ERROR(fs->SyncDir(ParentDirectory(*it)));
  }
  return Status::OK();
}

}  // namespace cassette
