#include "tools/line_editor.h"

#include <editline/readline.h>

#include <cstdlib>

namespace cassette::tools {

namespace {
constexpr int kHistoryEntries = 1000;
}

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_file_.empty()) read_history(history_file_.c_str());
}

LineEditor::~LineEditor() {
  if (!history_file_.empty()) write_history(history_file_.c_str());
}

std::optional<std::string> LineEditor::ReadLine(const std::string& prompt) {
  char* raw = readline(prompt.c_str());
  if (raw == nullptr) return std::nullopt;
  std::string line(raw);
  std::free(raw);
  if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
  return line;
}

std::string LineEditor::DefaultHistoryFile() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return {};
  return std::string(home) + "/.cassette_history";
}

}  // namespace cassette::tools
