// Tab completion for the interactive shell, as cqlsh offers it: CQL
// keywords and the shell's commands, keyspaces (after USE, KEYSPACE, or
// where a table may be named), tables (after FROM, INTO, UPDATE, TABLE,
// TRUNCATE, DESCRIBE, or "ks."), and the columns of the table a statement
// names. Names that need quoting come back "quoted".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/db.h"

namespace cassette::tools {

// The words that may replace `word`, sorted. `before` is the statement's
// text up to the word (earlier lines of an unfinished statement included);
// `keyspace` is the current one (USE), or empty. Keywords come back in
// the case typed: lower case when `word` is, else upper case.
std::vector<std::string> CompletionCandidates(const Database& db, const std::string& keyspace,
                                              std::string_view before, std::string_view word);

}  // namespace cassette::tools
