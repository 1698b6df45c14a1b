// COPY TO: a table's rows as CSV (cqlsh's ExportTask), read a page at a
// time (PAGESIZE rows) and written as each page arrives, so the memory
// held is one page whatever the table's size. BEGINTOKEN / ENDTOKEN
// restrict the export to partitions whose token is in (begin, end], as on
// a cluster. MAXOUTPUTSIZE splits the output into file, file.1, ... of at
// most that many rows.
#pragma once

#include <cstdint>

#include "cassette/cql.h"
#include "cassette/status.h"
#include "tools/copy_command.h"
#include "tools/copy_options.h"
#include "tools/copy_streams.h"

namespace cassette::tools {

struct CopyToSummary {
  int64_t rows = 0;
  int files = 0;  // 0 for STDOUT
  // The most rows held at once (one page): what bounds the memory.
  int64_t max_rows_held = 0;
};

// Prints cqlsh's "Starting copy of ..." and "N rows exported to F files in
// T." on streams.out (nothing for STDOUT, whose data goes to streams.out).
Result<CopyToSummary> RunCopyTo(CqlSession* session, const CopyCommand& command,
                                const CopyOptions& options, const CopyStreams& streams);

}  // namespace cassette::tools
