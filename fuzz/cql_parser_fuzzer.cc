// libFuzzer target: the CQL lexer, parser and statement splitter, which see
// whatever a user types or pastes. Any input must come back as a statement
// or a SyntaxException (InvalidRequest for a few semantic checks the parser
// makes), never a crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/cql.h"
#include "engine/cql/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  auto parsed = cassette::cql::ParseStatement(text);
  if (!parsed.ok() && parsed.status().message().empty()) std::abort();

  std::string rest;
  std::vector<std::string> statements = cassette::SplitCqlStatements(text, &rest);
  // Each piece the splitter returns goes through the parser as the shell
  // would send it.
  for (const std::string& statement : statements) {
    auto piece = cassette::cql::ParseStatement(statement);
    if (!piece.ok() && piece.status().message().empty()) std::abort();
  }
  return 0;
}
