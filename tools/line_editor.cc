#include "tools/line_editor.h"

#include <editline/readline.h>
#include <langinfo.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "tools/shell_interrupt.h"

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

// libedit's completion hooks are plain functions: they reach the one
// editor's completer here.
LineEditor::Completer* active_completer = nullptr;
std::vector<std::string> pending_matches;

char* NextMatch(const char* /*text*/, int state) {
  static size_t next = 0;
  if (state == 0) next = 0;
  if (next >= pending_matches.size()) return nullptr;
  return strdup(pending_matches[next++].c_str());
}

char** Complete(const char* text, int start, int /*end*/) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  if (active_completer == nullptr || !*active_completer) return nullptr;
  const std::string before(rl_line_buffer, static_cast<size_t>(start));
  pending_matches = (*active_completer)(before, text);
  // "ks." goes on with a table name, not a blank.
  rl_completion_append_character =
      pending_matches.size() == 1 && !pending_matches[0].empty() && pending_matches[0].back() == '.'
          ? '\0'
          : ' ';
  if (pending_matches.empty()) return nullptr;
  return rl_completion_matches(text, NextMatch);
}

// libedit reads each key through this. libedit returns from readline on
// Ctrl-C only when the SIGINT lands while its own handler is installed and
// its read() is blocked; a SIGINT an instant earlier ran the shell's handler
// alone (whose SA_RESTART keeps output whole), and the read then went on
// waiting, so the Ctrl-C was shown but not acted upon until the next key.
// Waiting with poll() instead (never restarted after a signal) and looking
// at the interrupt flag before every wait makes every Ctrl-C end the line:
// end of input is reported, and the shell sees the flag (shell_command.cc).
int ReadKey(FILE* in) {
  std::atomic<bool>* interrupted = InstallInterruptHandler();
  const int fd = fileno(in);
  for (;;) {
    if (interrupted->load(std::memory_order_relaxed)) return EOF;
    pollfd wait{fd, POLLIN, 0};
    const int ready = ::poll(&wait, 1, 100);
    if (ready < 0 || ready == 0) continue;  // a signal, or a wake-up to look at the flag
    unsigned char key = 0;
    const ssize_t n = ::read(fd, &key, 1);
    if (n == 1) return key;
    if (n == 0) return EOF;
    if (errno != EINTR && errno != EAGAIN) return EOF;
  }
}

}  // namespace

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {
  ReadCharactersAsUtf8();
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_file_.empty()) read_history(history_file_.c_str());
  // As cqlsh: '.' ends a word too, so "ks.ta" completes the table "ta...".
  rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{(,.";
  rl_attempted_completion_function = Complete;
  rl_getc_function = ReadKey;
}

LineEditor::~LineEditor() {
  rl_attempted_completion_function = nullptr;
  active_completer = nullptr;
  if (!history_file_.empty()) write_history(history_file_.c_str());
}

void LineEditor::SetCompleter(Completer completer) {
  static Completer stored;
  stored = std::move(completer);
  active_completer = &stored;
}

std::optional<std::string> LineEditor::ReadLine(const std::string& prompt, Remember remember) {
  char* raw = readline(prompt.c_str());
  if (raw == nullptr) return std::nullopt;
  std::string line(raw);
  std::free(raw);
  if (remember == Remember::kYes && line.find_first_not_of(" \t") != std::string::npos) {
    add_history(line.c_str());
    // Saved as typed: a shell that is killed, or a second one open at the
    // same time, loses nothing already entered.
    if (!history_file_.empty()) write_history(history_file_.c_str());
  }
  return line;
}

std::string LineEditor::DefaultHistoryFile() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return {};
  return std::string(home) + "/.cassette_history";
}

}  // namespace cassette::tools
