// What the script-driven tests in tests/tools share: a Shell on a fresh
// in-memory database as `cassette shell --format json --clock
// manual:2024-01-15T00:00:00Z` runs it, fed a line at a time (as a pipe
// would) so that every output line can be traced back to the statement
// that printed it, and the small file helpers the runners need.
#pragma once

#include <dirent.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/shell.h"

namespace cassette::tools::script_testing {

constexpr int64_t kClockStart = 1705276800000000;  // 2024-01-15T00:00:00Z

// A directory of the source tree (CASSETTE_SOURCE_DIR wins when set).
inline std::string SourcePath(const std::string& relative) {
  const char* dir = std::getenv("CASSETTE_SOURCE_DIR");
  return std::string(dir != nullptr ? dir : CASSETTE_SOURCE_DIR) + "/" + relative;
}

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

inline std::string ReadFile(const std::string& path, bool* found) {
  std::ifstream in(path, std::ios::binary);
  *found = in.good();
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Names in `dir` that start with `prefix` and end with `suffix`, sorted.
inline std::vector<std::string> FileNames(const std::string& dir, std::string_view prefix,
                                          std::string_view suffix) {
  std::vector<std::string> names;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return names;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() >= prefix.size() + suffix.size() &&
        name.compare(0, prefix.size(), prefix) == 0 && EndsWith(name, suffix)) {
      names.push_back(name);
    }
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

// A shell printing JSON on a fresh in-memory database under the manual
// clock; TRACING is off in a new shell, so no trace lines appear.
class ScriptShell {
 public:
  // Empty `*error` on success.
  static std::unique_ptr<ScriptShell> Open(std::string* error) {
    auto script_shell = std::unique_ptr<ScriptShell>(new ScriptShell);
    ShellSettings settings;
    settings.data_dir = "/data";
    settings.manual_clock_micros = kClockStart;
    settings.format = OutputFormat::kJson;
    auto shell = Shell::Open(settings, NewMemFileSystem(),
                             ShellIo{.out = &script_shell->out_, .err = &script_shell->err_});
    if (!shell.ok()) {
      *error = shell.status().ToString();
      return nullptr;
    }
    script_shell->shell_ = std::move(*shell);
    return script_shell;
  }

  // Feeds one line; returns the lines it made the shell print.
  std::vector<std::string> Feed(std::string_view line) {
    shell_->FeedLine(line);
    return TakeOutput();
  }
  // Whether the lines fed so far end inside an unfinished statement.
  bool InsideStatement() const { return shell_->Prompt() == "   ... "; }
  // End of input: what an unfinished statement made the shell print.
  std::vector<std::string> Finish() {
    shell_->FinishInput();
    return TakeOutput();
  }
  // Closes the database; returns its failure and whatever went to stderr.
  std::string Close() {
    const Status closed = shell_->Close();
    return (closed.ok() ? std::string() : closed.ToString()) + err_.str();
  }
  // Warnings and notices printed so far (not part of the JSON stream).
  std::string Stderr() const { return err_.str(); }

 private:
  ScriptShell() = default;

  std::vector<std::string> TakeOutput() {
    const std::string printed = out_.str().substr(consumed_);
    consumed_ = out_.str().size();
    return SplitLines(printed);
  }

  std::ostringstream out_;
  std::ostringstream err_;
  size_t consumed_ = 0;
  std::unique_ptr<Shell> shell_;
};

}  // namespace cassette::tools::script_testing
