// Whole-file read and write through a FileSystem, for tests that set up or
// inspect files directly.
#pragma once

#include <string>
#include <string_view>

#include "cassette/file_system.h"

namespace cassette {

// Creates or truncates `path` and writes `data`; syncs the file when `sync`
// (the directory entry still needs SyncDir to survive a crash).
Status WriteStringToFile(FileSystem& fs, const std::string& path, std::string_view data, bool sync);

// The whole content of `path`.
Result<std::string> ReadFileToString(FileSystem& fs, const std::string& path);

}  // namespace cassette
