// CSV fields to values as cqlsh's COPY FROM converts them
// (pylib/cqlshlib/copyutil.py, ImportConversion): Python's int() and
// float() syntax after removing THOUSANDSSEP and reading DECIMALSEP as the
// point, booleans in BOOLSTYLE, timestamps in DATETIMEFORMAT or any CQL
// timestamp form or a millisecond count, dates as yyyy-mm-dd or a day
// count, blobs as 0x.., collections and tuples split at their top-level
// commas with each element unquoted ('it''s') and converted in turn.
//
// Where cqlsh accepts text cassette refuses, the row is a parse error
// rather than a guess: cqlsh reads any boolean other than the true style
// as false, and a timestamp in ISO form with 'T' as its date at midnight.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "tools/copy_options.h"

namespace cassette::tools {

// One field for a column of `type`: the null text is null; an empty field
// that does not convert is null too (CASSANDRA-12794). Errors carry the
// reason; the caller prefixes "Failed to parse <field> : ".
Result<Value> ParseCopyField(const DataType& type, const std::string& field,
                             const CopyValueFormat& format);

// A CSV record to the values of `columns` (in order), or the ParseError
// message cqlsh gives: "Invalid row length 2 should be 3", "Cannot insert
// null value for primary key column 'k'. ...", "Failed to parse x : ...".
Result<std::vector<Value>> ParseCopyRecord(const std::vector<const ColumnDefinition*>& columns,
                                           const std::vector<std::string>& fields,
                                           const CopyValueFormat& format);

}  // namespace cassette::tools
