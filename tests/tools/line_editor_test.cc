// The interactive shell's line editor, typed at through a pseudo-terminal:
// non-ASCII text arrives whole whatever the locale the shell starts in
// (under LANG=C libedit used to drop every byte above 127, so '°C' was
// stored as 'C').
#include "tools/line_editor.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cassette::tools {
namespace {

std::string Hex(const std::string& bytes) {
  std::string out;
  char digits[3];
  for (unsigned char c : bytes) {
    std::snprintf(digits, sizeof(digits), "%02x", c);
    out += digits;
  }
  return out;
}

enum class Until { kMarker, kLineAfterMarker };

// What the terminal shows until `marker` (and the rest of its line), or
// what it showed by the deadline.
std::string ReadUntil(int fd, const std::string& marker, Until until) {
  std::string seen;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    const size_t at = seen.find(marker);
    if (at != std::string::npos &&
        (until == Until::kMarker || seen.find('\n', at) != std::string::npos)) {
      break;
    }
    pollfd wait{fd, POLLIN, 0};
    if (::poll(&wait, 1, 100) <= 0) continue;
    char buffer[256];
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n <= 0) break;
    seen.append(buffer, static_cast<size_t>(n));
  }
  return seen;
}

// Types `typed` at a LineEditor started under `lang` in a pseudo-terminal;
// the bytes of the line it read, in hex.
std::string LineTypedUnder(const char* lang, const std::string& typed) {
  int terminal = -1;
  const pid_t pid = ::forkpty(&terminal, nullptr, nullptr, nullptr);
  if (pid < 0) return "forkpty failed";
  if (pid == 0) {
    // The child: a shell started from a bare environment.
    ::unsetenv("LC_ALL");
    ::unsetenv("LC_CTYPE");
    ::setenv("LANG", lang, 1);
    ::setenv("TERM", "xterm", 1);
    std::string line;
    {
      LineEditor editor("");
      line = editor.ReadLine("> ").value_or("<end of input>");
    }
    std::printf("\nLINE=%s\n", Hex(line).c_str());
    std::fflush(stdout);
    ::_exit(0);
  }
  // Typed once the editor shows its prompt, as a person would.
  ReadUntil(terminal, "> ", Until::kMarker);
  const std::string keys = typed + "\r";
  EXPECT_EQ(::write(terminal, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  const std::string shown = ReadUntil(terminal, "LINE=", Until::kLineAfterMarker);
  ::close(terminal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const size_t at = shown.find("LINE=");
  if (at == std::string::npos) return "no line in: " + shown;
  const size_t end = shown.find_first_of("\r\n", at);
  return shown.substr(at + 5, end - at - 5);
}

TEST(LineEditorTest, NonAsciiTextArrivesWholeUnderTheCLocale) {
  const std::string typed =
      "INSERT INTO t (u) VALUES ('\xc2\xb0"
      "C \xe6\x97\xa5\xe6\x9c\xac')";
  EXPECT_EQ(LineTypedUnder("C", typed), Hex(typed));
}

TEST(LineEditorTest, NonAsciiTextArrivesWholeUnderAUtf8Locale) {
  const std::string typed =
      "'\xc2\xb0"
      "C \xf0\x9f\x8c\xa1'";  // two- and four-byte characters
  EXPECT_EQ(LineTypedUnder("C.UTF-8", typed), Hex(typed));
}

// A byte that starts no UTF-8 character is shown as U+FFFD, as a UTF-8
// terminal shows it, and the text around it arrives whole.
TEST(LineEditorTest, AMalformedByteArrivesAsTheReplacementCharacter) {
  EXPECT_EQ(LineTypedUnder("C.UTF-8",
                           "'a\xff"
                           "b'"),
            Hex("'a\xef\xbf\xbd"
                "b'"));
}

}  // namespace
}  // namespace cassette::tools
