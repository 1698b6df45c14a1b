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
bool ReadByte(int fd, const std::atomic<bool>& interrupted, unsigned char* byte) {
  for (;;) {
    if (interrupted.load(std::memory_order_relaxed)) return false;
    pollfd wait{fd, POLLIN, 0};
    const int ready = ::poll(&wait, 1, 100);
    if (ready < 0 || ready == 0) continue;  // a signal, or a wake-up to look at the flag
    // The signal may have come with the key that woke poll(): that key was
    // typed after the Ctrl-C (the terminal drops what came before when it
    // sends the signal), so it stays unread, for the next line.
    if (interrupted.load(std::memory_order_relaxed)) return false;
    const ssize_t n = ::read(fd, byte, 1);
    if (n == 1) return true;
    if (n == 0) return false;
    if (errno != EINTR && errno != EAGAIN) return false;
  }
}

int held_back_key = -1;

// libedit takes what the key reader returns as one wide character, so a
// key is a whole UTF-8 sequence decoded to its code point (the characters'
// locale is UTF-8, see above); a malformed sequence is U+FFFD, as a UTF-8
// decoder shows it.
int ReadKey(FILE* in) {
  constexpr int kReplacement = 0xFFFD;
  const std::atomic<bool>& interrupted = *InstallInterruptHandler();
  const int fd = fileno(in);
  unsigned char lead = 0;
  if (held_back_key >= 0) {
    if (interrupted.load(std::memory_order_relaxed)) return EOF;
    lead = static_cast<unsigned char>(held_back_key);
    held_back_key = -1;
  } else {
    if (!ReadByte(fd, interrupted, &lead)) return EOF;
    // A Ctrl-C that landed while the key was being read: the key came
    // after it, as above, and is held back for the next line.
    if (interrupted.load(std::memory_order_relaxed)) {
      held_back_key = lead;
      return EOF;
    }
  }
  if (lead < 0x80) return lead;
  int length = 0;
  int code_point = 0;
  int smallest = 0;  // below this the sequence is overlong
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code_point = lead & 0x1F, smallest = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code_point = lead & 0x0F, smallest = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code_point = lead & 0x07, smallest = 0x10000;
  } else {
    return kReplacement;
  }
  for (int i = 1; i < length; ++i) {
    unsigned char next = 0;
    if (!ReadByte(fd, interrupted, &next)) return EOF;
    if ((next & 0xC0) != 0x80) return kReplacement;
    code_point = (code_point << 6) | (next & 0x3F);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < smallest || code_point > 0x10FFFF || surrogate) return kReplacement;
  return code_point;
}

}  // namespace

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {
  ReadCharactersAsUtf8();
  // Before anything initializes libedit: it takes the key reader only when
  // it initializes (using_history() does), and kept its own read() when
  // this came after, so ReadKey went unused and a Ctrl-C was now and then
  // lost (the builtin read goes back to waiting after the signal).
  rl_getc_function = ReadKey;
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_file_.empty()) read_history(history_file_.c_str());
  // As cqlsh: '.' ends a word too, so "ks.ta" completes the table "ta...".
  rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{(,.";
  rl_attempted_completion_function = Complete;
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
