// The COPY command of cqlsh (pylib/cqlshlib/cqlshhandling.py,
// <copyCommand>):
//   COPY [ks.]table [(col, ...)] FROM ('file' | STDIN) [WITH opt = v [AND ...]]
//   COPY [ks.]table [(col, ...)] TO ('file' | STDOUT) [WITH opt = v [AND ...]]
// Names fold to lower case unless "quoted"; option values are words,
// numbers or 'quoted strings'.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cassette/status.h"

namespace cassette::tools {

struct CopyCommand {
  std::string keyspace;  // empty: the session's keyspace
  std::string table;
  std::vector<std::string> columns;  // empty: every column, in table order
  bool from = false;                 // COPY FROM (else COPY TO)
  std::optional<std::string> file;   // nullopt: STDIN / STDOUT
  std::vector<std::pair<std::string, std::string>> options;
};

// Whether `statement` starts with the word COPY.
bool IsCopyCommand(std::string_view statement);

// SyntaxError ("Improper COPY command.") when malformed.
Result<CopyCommand> ParseCopyCommand(std::string_view statement);

}  // namespace cassette::tools
