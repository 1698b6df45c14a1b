// The WITH properties of CREATE TABLE / ALTER TABLE, turned into
// TableOptions with Cassandra's checks and messages (TableAttributes,
// PropertyDefinitions, CompressionParams): unknown or repeated properties,
// values of the wrong shape, integers and doubles that do not parse.
//
// Range checks of the options the engine uses (TTL, gc_grace, bloom filter,
// compression codec, compaction strategy) stay with the db, which returns
// Cassandra's messages when the table is created or altered.
//
// Options cassette accepts but does not act on (caching, speculative_retry,
// cdc, memtable, ...) go to TableOptions::other, keyed by name, holding the
// value exactly as DESCRIBE prints it after `=` ('99p', false, {...}).
#pragma once

#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

// Applies `properties` over `base` (the defaults for CREATE TABLE, the
// table's current options for ALTER TABLE ... WITH). A map property
// replaces the whole previous map, as in Cassandra.
Result<TableOptions> ApplyTableProperties(const std::vector<Property>& properties,
                                          TableOptions base);

// The options cassette keeps in TableOptions::other, in DESCRIBE order,
// with the value Cassandra shows when the option was never set.
struct OtherTableOption {
  const char* name;
  const char* default_value;
};
const std::vector<OtherTableOption>& OtherTableOptionDefaults();

// Cassandra's PropertyDefinitions.parseBoolean: 1/true/yes and 0/false/no
// in any case; SyntaxException otherwise.
Result<bool> ParsePropertyBoolean(const std::string& name, const std::string& value);

// Rejects a property given twice: SyntaxException "Multiple definition for
// property 'x'".
Status CheckNoRepeatedProperty(const std::vector<Property>& properties);

// A map value as Cassandra prints it: {'a': 'x', 'b': 'y'} (keys sorted).
std::string FormatCqlMap(const std::map<std::string, std::string>& map);

}  // namespace cassette::cql
