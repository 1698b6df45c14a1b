// CQL text to the AST: a hand-written recursive-descent parser over the
// lexer's tokens. Syntax errors are SyntaxException with cqlsh's message
// shape: "line 1:14 no viable alternative at input 'FROM'" / "line 1:7
// mismatched input 'x' expecting ...".
#pragma once

#include <string_view>

#include "cassette/status.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

// One statement; a trailing ';' is allowed, anything after it is an error.
Result<ParsedStatement> ParseStatement(std::string_view text);

}  // namespace cassette::cql
