// `cassette shell` as main runs it: the settings' data directory on the
// real file system, standard input and output. At a terminal the shell is
// interactive (banner, line editing, history, tab completion, Ctrl-C
// cancelling, ---MORE--- between pages); -e, -f and piped input are
// scripts.
#pragma once

#include "tools/command_line.h"

namespace cassette::tools {

// The process's exit code.
int RunShellCommand(const ShellSettings& settings);

}  // namespace cassette::tools
