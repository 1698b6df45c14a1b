// Reading the interactive shell's lines: libedit (BSD-licensed editline)
// gives emacs-style editing, tab completion, and history kept across
// sessions in ~/.cassette_history (written after every line, so a shell
// that is killed keeps what was typed). Only for a terminal; piped input is
// read plainly. One LineEditor per process (libedit's readline interface
// is global).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cassette::tools {

class LineEditor {
 public:
  // The words that may complete `word` (the text after the last word
  // break: blanks, punctuation and '.'), given the line before it.
  using Completer =
      std::function<std::vector<std::string>(const std::string& before, const std::string& word)>;
  enum class Remember : bool { kNo = false, kYes = true };

  // `history_file` may be empty (no history kept across sessions).
  explicit LineEditor(std::string history_file);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The next line typed after `prompt`, without its newline; nullopt at
  // end of input (Ctrl-D) or when Ctrl-C cancelled the line (the caller's
  // interrupt flag tells which). A non-blank line is added to the history
  // (and the file saved) unless `remember` is kNo.
  std::optional<std::string> ReadLine(const std::string& prompt,
                                      Remember remember = Remember::kYes);

  // Tab completes with `completer` (none: Tab inserts nothing).
  void SetCompleter(Completer completer);

  // The history file in $HOME, or empty when HOME is not set.
  static std::string DefaultHistoryFile();

 private:
  std::string history_file_;
};

}  // namespace cassette::tools
