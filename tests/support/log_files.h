// Reading the info log back in tests: a LOG file's text, its lines, and
// which LOG files a directory holds (tests/env/file_logger_test.cc for the
// file logger itself, tests/db/logger_test.cc for what the engine logs).
#pragma once

#include <string>
#include <vector>

#include "cassette/file_system.h"
#include "engine/env/file_logger.h"
#include "tests/support/file_contents.h"

namespace cassette {

// The whole file, or "" when it cannot be read (a LOG that does not exist
// reads as an empty log).
inline std::string ReadLogText(FileSystem& fs, const std::string& path) {
  Result<std::string> text = ReadFileToString(fs, path);
  return text.ok() ? *text : std::string();
}

// The complete lines of `text` (a last line without its newline is left
// out: a line being written is not yet in the log).
inline std::vector<std::string> LogLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The names of the LOG files (LOG, LOG.1, ...) in `dir`, as listed.
inline std::vector<std::string> LogFileNames(FileSystem& fs, const std::string& dir) {
  std::vector<std::string> logs;
  auto children = fs.GetChildren(dir);
  if (!children.ok()) return logs;
  for (const std::string& name : *children) {
    if (IsLogFileName(name)) logs.push_back(name);
  }
  return logs;
}

}  // namespace cassette
