// Cassandra's reserved CQL keywords: names that need double quotes to be
// used as identifiers (DESCRIBE quotes them; the parser refuses them bare).
#pragma once

#include <string_view>

namespace cassette::cql {

// `word` in lower case.
bool IsReservedKeyword(std::string_view word);

}  // namespace cassette::cql
