// PLACEHOLDER (replaced by the parser work).
#include "engine/cql/parser.h"
namespace cassette::cql {
Result<ParsedStatement> ParseStatement(std::string_view) { return Status::NotSupported("pending"); }
}  // namespace cassette::cql
