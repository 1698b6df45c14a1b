// Ctrl-C in the interactive shell, as cqlsh treats it: it cancels the line
// being typed or the running statement and never ends the shell. A SIGINT
// handler sets a flag the line editor, the shell's paging loop and the CQL
// layer's cancellation points (CqlQueryOptions::cancel) read.
#pragma once

#include <atomic>

namespace cassette::tools {

// Installs the handler (once; later calls return the same flag). Until
// then SIGINT ends the process as usual: scripts (-e, -f, piped input)
// never install it.
std::atomic<bool>* InstallInterruptHandler();

}  // namespace cassette::tools
