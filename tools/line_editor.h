// Reading the interactive shell's lines: libedit (BSD-licensed editline)
// gives emacs-style editing, and history kept across sessions in
// ~/.cassette_history. Only for a terminal; piped input is read plainly.
// One LineEditor per process (libedit's readline interface is global).
#pragma once

#include <optional>
#include <string>

namespace cassette::tools {

class LineEditor {
 public:
  // `history_file` may be empty (no history kept across sessions).
  explicit LineEditor(std::string history_file);
  ~LineEditor();  // saves the history
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The next line typed after `prompt`, without its newline; nullopt at
  // end of input (Ctrl-D).
  std::optional<std::string> ReadLine(const std::string& prompt);

  // The history file in $HOME, or empty when HOME is not set.
  static std::string DefaultHistoryFile();

 private:
  std::string history_file_;
};

}  // namespace cassette::tools
