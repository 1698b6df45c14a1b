// A term as Cassandra prints it in error messages (Term.Raw.getText):
// strings quoted, other constants as written, collections and tuples in
// their literal syntax, function calls as name(args).
#pragma once

#include <string>

#include "engine/cql/ast.h"

namespace cassette::cql {

std::string TermSourceText(const Term& term);

}  // namespace cassette::cql
