// How CQL writes a relation's operator, for messages that quote the
// relation as Cassandra prints it ("c >= 5", "(b, c) IN (...)").
#pragma once

#include "engine/cql/ast.h"

namespace cassette::cql {

// "=", "!=", "<", ..., "IN", "CONTAINS", "CONTAINS KEY", "LIKE", "IS NOT".
const char* OperatorText(Operator op);

}  // namespace cassette::cql
