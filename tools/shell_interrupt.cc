#include "tools/shell_interrupt.h"

#include <csignal>
#include <cstring>

namespace cassette::tools {

namespace {

std::atomic<bool> interrupt_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void OnInterrupt(int /*signal*/) { interrupt_requested.store(true, std::memory_order_relaxed); }

}  // namespace

std::atomic<bool>* InstallInterruptHandler() {
  static const bool installed = [] {
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_handler = OnInterrupt;
    sigemptyset(&action.sa_mask);
    // Writes and reads in progress restart: output is never cut short by
    // the signal. The line editor still returns on Ctrl-C: libedit catches
    // the signal itself while it reads, then passes it on here.
    action.sa_flags = SA_RESTART;
    return sigaction(SIGINT, &action, nullptr) == 0;
  }();
  (void)installed;
  return &interrupt_requested;
}

}  // namespace cassette::tools
