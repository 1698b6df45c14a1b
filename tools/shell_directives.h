// The shell's own commands, handled before CQL (cqlsh's commands and
// nodetool's): FLUSH, COMPACT [MAJOR], CLOCK SET/ADVANCE, TRACING, PAGING,
// EXPAND, CONSISTENCY, SERIAL CONSISTENCY, SOURCE, CAPTURE, SHOW VERSION/HOST,
// HELP, CLEAR/CLS, STATS, COPY, EXIT/QUIT. Keywords are
// case-insensitive; a trailing ';' is optional.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette::tools {

struct Directive {
  enum class Kind : uint8_t {
    kFlush,
    kCompact,
    kCompactMajor,
    kClockShow,
    kClockSet,
    kClockAdvance,
    kTracing,
    kPaging,
    kExpand,
    kConsistency,
    kSerialConsistency,
    kSource,
    kCapture,  // CAPTURE 'file' (argument), CAPTURE OFF (on false), CAPTURE
    kShow,     // SHOW VERSION / SHOW HOST (argument)
    kHelp,     // HELP [topic ...] (topics)
    kClear,    // CLEAR / CLS
    kStats,    // STATS [ks.table]: `cassette stats` of the open database
    kCopy,
    kExit,
  };
  Kind kind = Kind::kExit;
  // FLUSH / COMPACT / STATS: the table (keyspace empty when not named); both empty
  // for every table.
  std::string keyspace;
  std::string table;
  // CLOCK SET: the time; CLOCK ADVANCE: the step (microseconds).
  int64_t micros = 0;
  // TRACING / PAGING / EXPAND: ON or OFF; nullopt shows the setting.
  std::optional<bool> on;
  // PAGING <n>.
  std::optional<int32_t> page_size;
  // SOURCE, CAPTURE: the file; CONSISTENCY: the level (upper case, empty
  // to show); SHOW: VERSION or HOST; COPY: the whole command
  // (tools/copy_command.h parses it).
  std::string argument;
  // HELP: the topics asked for, upper case.
  std::vector<std::string> topics;
};

// nullopt when `statement` is not a directive (it is CQL). A directive with
// bad arguments is a SyntaxError whose message is what the shell prints
// (e.g. "Improper CONSISTENCY command.").
std::optional<Result<Directive>> ParseDirective(std::string_view statement);

// "ks.table", "table" or "\"Ks\".\"T\"" split into its parts: a bare name
// folds to lower case as CQL does, a quoted one keeps its case. `keyspace`
// is left empty when not named. False when malformed.
bool ParseTableName(std::string_view text, std::string* keyspace, std::string* table);

// Whether a line starting with this command ends the statement without a
// ';' (as cqlsh's commands do: TRACING ON<newline>).
bool EndsAtNewline(std::string_view line);

}  // namespace cassette::tools
