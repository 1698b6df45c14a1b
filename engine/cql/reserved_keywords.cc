#include "engine/cql/reserved_keywords.h"

#include <algorithm>
#include <array>

namespace cassette::cql {

bool IsReservedKeyword(std::string_view word) {
  // Sorted, for a binary search: the parser asks several times per token.
  static constexpr std::array<std::string_view, 62> kReserved = {
      "add",    "allow",       "alter",  "and",          "apply",    "asc",      "authorize",
      "batch",  "begin",       "by",     "columnfamily", "create",   "default",  "delete",
      "desc",   "describe",    "drop",   "entries",      "execute",  "from",     "full",
      "grant",  "if",          "in",     "index",        "infinity", "insert",   "into",
      "is",     "keyspace",    "limit",  "materialized", "mbean",    "mbeans",   "modify",
      "nan",    "norecursive", "not",    "null",         "of",       "on",       "or",
      "order",  "primary",     "rename", "replace",      "revoke",   "schema",   "select",
      "set",    "table",       "to",     "token",        "truncate", "unlogged", "unset",
      "update", "use",         "using",  "view",         "where",    "with"};
  static_assert(std::is_sorted(kReserved.begin(), kReserved.end()));
  return std::binary_search(kReserved.begin(), kReserved.end(), word);
}

}  // namespace cassette::cql
