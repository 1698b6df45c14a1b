// What COPY TO and COPY FROM share: the table and columns a COPY names,
// resolved against the schema with cqlsh's checks and messages
// (copyutil.py CopyTask.validate_columns, ImportTask.validate_columns).
#pragma once

#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "tools/copy_command.h"

namespace cassette::tools {

struct CopyTable {
  TableSchema schema;
  // The columns of the COPY in file order: those named, or every column
  // in cqlsh's order (partition key, clustering, then the others by name).
  std::vector<const ColumnDefinition*> columns;
};

// "Not in any keyspace." without a keyspace; "Invalid column name x".
// The result points into its own schema: keep it whole (it is not copied
// or moved after the call returns, callers hold it by unique_ptr or
// build it in place).
Status ResolveCopyTable(CqlSession* session, const CopyCommand& command, CopyTable* table);

// A CQL identifier always quoted ("" inside doubled).
std::string QuoteCqlName(const std::string& name);

// "[a, b, c]", as cqlsh lists the columns it copies.
std::string ColumnList(const std::vector<const ColumnDefinition*>& columns);

}  // namespace cassette::tools
