#include "tools/line_editor.h"

#include <editline/readline.h>
#include <langinfo.h>

#include <clocale>
#include <cstdlib>
#include <string_view>

namespace cassette::tools {

namespace {
constexpr int kHistoryEntries = 1000;

// libedit reads the terminal through the C library's multibyte conversion:
// under the "C" locale (LANG unset or C, as in a bare ssh session or a
// container) every byte above 127 fails it and is dropped, so '°C' was
// stored as 'C'. CQL text is UTF-8 whatever the terminal's settings say:
// the characters' locale is the user's when it is UTF-8, else C.UTF-8.
// Only LC_CTYPE changes: numbers and messages stay as they are.
void ReadCharactersAsUtf8() {
  if (std::setlocale(LC_CTYPE, "") != nullptr &&
      std::string_view(nl_langinfo(CODESET)) == "UTF-8") {
    return;
  }
  if (std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) std::setlocale(LC_CTYPE, "C.utf8");
}
}  // namespace

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {
  ReadCharactersAsUtf8();
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
