// CREATE TYPE, ALTER TYPE, DROP TYPE and DESCRIBE TYPE(S): their grammar
// lives apart from parser.cc, which hands these statements here.
#pragma once

#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/lexer.h"

namespace cassette::cql {

// Whether the statement's first tokens make it one of these.
bool IsUserTypeStatement(const std::vector<Token>& tokens);

// The statement, as ParseStatement returns it.
Result<ParsedStatement> ParseUserTypeStatement(std::string_view text, std::vector<Token> tokens);

}  // namespace cassette::cql
