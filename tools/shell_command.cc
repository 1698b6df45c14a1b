#include "tools/shell_command.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iostream>

#include "tools/line_editor.h"
#include "tools/shell.h"
#include "tools/shell_interrupt.h"

namespace cassette::tools {

namespace {

constexpr int kExitFailure = 1;

// Lines typed at a terminal until EXIT or Ctrl-D. Ctrl-C drops the line
// being typed, or stops the running statement, and the shell goes on (as
// cqlsh's cmdloop does on KeyboardInterrupt).
void RunInteractive(Shell& shell, LineEditor& editor, std::atomic<bool>& interrupted) {
  std::cout << shell.Banner() << std::flush;
  editor.SetCompleter([&shell](const std::string& before, const std::string& word) {
    return shell.Complete(before, word);
  });
  while (!shell.stopped()) {
    std::optional<std::string> line = editor.ReadLine(shell.Prompt());
    const bool cancelled = interrupted.exchange(false);
    if (!line) {
      std::cout << "\n";
      if (!cancelled) break;  // Ctrl-D
      shell.CancelInput();
      continue;
    }
    // Ctrl-C in the instant between the prompt and libedit reading: the
    // terminal dropped what was typed ahead and this line came after it,
    // so only the unfinished statement before it is dropped.
    if (cancelled) shell.CancelInput();
    shell.FeedLine(*line);
    // A Ctrl-C while the line was handled stopped its statement (or landed
    // just after it): it drops what was typed so far, and is spent. Left
    // set, it would end the next line before a key was read.
    if (interrupted.exchange(false)) shell.CancelInput();
  }
  shell.FinishInput();
}

}  // namespace

int RunShellCommand(const ShellSettings& settings) {
  const bool interactive = !settings.execute && !settings.file && isatty(STDIN_FILENO) != 0;
  std::ifstream script;
  if (settings.file) {
    script.open(*settings.file, std::ios::binary);
    if (!script) {
      std::cerr << "cassette shell: cannot open " << *settings.file << "\n";
      return kExitFailure;
    }
  }
  ShellIo io{.out = &std::cout, .err = &std::cerr, .tty = interactive};
  std::atomic<bool>* interrupted = nullptr;
  std::unique_ptr<LineEditor> editor;
  if (interactive) {
    interrupted = InstallInterruptHandler();
    io.interrupted = interrupted;
    editor = std::make_unique<LineEditor>(LineEditor::DefaultHistoryFile());
    // cqlsh's pause between pages: Enter goes on; Ctrl-C or Ctrl-D stops.
    // Read straight from the terminal (in its cooked mode between prompts),
    // not through the line editor: the wait polls the interrupt flag, so a
    // Ctrl-C that lands before the read begins still ends the listing
    // (through libedit, the read restarted after the signal and the next
    // line typed was taken as the answer).
    io.more = [interrupted] {
      std::cout << "---MORE---" << std::flush;
      constexpr int kPollMillis = 100;
      while (!interrupted->load()) {
        pollfd terminal{STDIN_FILENO, POLLIN, 0};
        const int ready = poll(&terminal, 1, kPollMillis);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return false;
        if (ready == 0) continue;
        char key = 0;
        if (read(STDIN_FILENO, &key, 1) != 1) return false;  // Ctrl-D on an empty line
        if (key == '\n' || key == '\r') return !interrupted->load();
        if (key == '\x03' || key == '\x04') return false;
      }
      return false;
    };
  }
  auto shell = Shell::Open(settings, NewPosixFileSystem(), io);
  if (!shell.ok()) {
    std::cerr << "cassette shell: cannot open " << settings.data_dir << ": "
              << shell.status().ToString() << "\n";
    return kExitFailure;
  }
  if (settings.execute) {
    (*shell)->RunCommandLine(*settings.execute);
  } else if (settings.file) {
    (*shell)->RunStream(script, *settings.file);
  } else if (interactive) {
    RunInteractive(**shell, *editor, *interrupted);
  } else {
    (*shell)->RunInput(std::cin);
  }
  Status closed = (*shell)->Close();
  if (!closed.ok()) {
    std::cerr << "cassette shell: closing " << settings.data_dir << ": " << closed.ToString()
              << "\n";
    return kExitFailure;
  }
  return (*shell)->ExitCode();
}

}  // namespace cassette::tools
