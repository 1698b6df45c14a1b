// The shell's --format json lines (README.md, "The cassette shell"): one
// line per statement that returns rows, one per failed statement, one per
// traced read. Each function returns the line without its newline.
#pragma once

#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/query.h"
#include "cassette/status.h"

namespace cassette::tools {

// [{"col":value,...},...]: keys are the result's column names in order,
// values encoded as SELECT JSON encodes them (Value::ToJson).
std::string JsonRowsLine(const CqlResult& result);
// One element of that array; the shell writes a paged result's line a
// page at a time: "[", the objects separated by ",", "]".
std::string JsonRowObject(const std::vector<ColumnSpec>& columns, const std::vector<Value>& row);
// {"error":"<Cassandra class>","message":"<text>"}
std::string JsonErrorLine(const Status& status);
// {"trace":{"partitions_read":N,"sstables_read":N,"live_rows":N,"tombstone_cells":N,...}}
std::string JsonTraceLine(const ReadStats& stats);

}  // namespace cassette::tools
