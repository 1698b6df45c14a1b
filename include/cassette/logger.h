// Logger: where the database tells what it did and what went wrong in the
// background (LevelDB's Logger, RocksDB's info log). The engine formats
// each message; a logger decides where it goes. The default one
// (Options::logger left null) writes the file LOG in the data directory,
// one line per message, `<ISO-8601 time> <LEVEL> <message>`, with the time
// taken from Options::clock, and rotates it by size (docs/TOOLS.md, "The
// LOG file").
//
// Implementations must be safe for concurrent calls from several threads
// (flushes and compactions log from background threads) and must not call
// back into the database. Log never fails: a logger that cannot write
// drops the message.
#pragma once

#include <cstdint>
#include <string_view>

namespace cassette {

enum class LogLevel : uint8_t {
  kDebug,  // detail for whoever is debugging the engine
  kInfo,   // what the database did: open, close, flush, compaction
  kWarn,   // something to look at: a write stall, a guardrail
  kError,  // something failed: a background flush or compaction, an open
};

// "DEBUG", "INFO", "WARN", "ERROR".
std::string_view LogLevelName(LogLevel level);

class Logger {
 public:
  virtual ~Logger() = default;
  // One message, without a trailing newline and without a time (a logger
  // adds its own).
  virtual void Log(LogLevel level, std::string_view message) = 0;
};

}  // namespace cassette
