// The options of cqlsh's COPY TO / COPY FROM (pylib/cqlshlib/copyutil.py,
// CopyTask.parse_options), with cqlsh's defaults. cqlsh accepts every
// option in either direction and refuses only names it does not know
// ("Unrecognized COPY FROM options: x"); so does cassette. Options about
// spreading work over a cluster (NUMPROCESSES, MAXREQUESTS, PAGETIMEOUT,
// MAXATTEMPTS, INGESTRATE, BEGINTOKEN/ENDTOKEN, PREPAREDSTATEMENTS, ...) are
// checked as cqlsh checks them and otherwise have nothing to do on one node;
// docs/TOOLS.md lists what each does here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cassette/status.h"

namespace cassette::tools {

// Python's csv dialect as cqlsh builds it: QUOTE_MINIMAL, and when QUOTE
// and ESCAPE are the same character the quote is doubled instead of
// escaped (doublequote) and there is no escape character.
struct CsvDialect {
  char delimiter = ',';
  char quote = '"';
  std::optional<char> escape = '\\';
  bool double_quote = false;
};

// How values are written and read as text.
struct CopyValueFormat {
  std::string null_text;  // NULL: the text of a null value
  // DATETIMEFORMAT: a strftime format ("%Y-%m-%d %H:%M:%S.%f%z" by
  // default, cqlsh's time_format); written to millisecond precision.
  std::string datetime_format = "%Y-%m-%d %H:%M:%S.%f%z";
  int float_precision = 5;    // FLOATPRECISION (float and decimal)
  int double_precision = 12;  // DOUBLEPRECISION
  std::string decimal_separator = ".";
  std::string thousands_separator;
  std::string true_text = "True";  // BOOLSTYLE
  std::string false_text = "False";
};

struct CopyOptions {
  CsvDialect dialect;
  CopyValueFormat format;
  bool header = false;
  int64_t page_size = 1000;            // COPY TO: rows per page read
  int64_t max_output_size = -1;        // COPY TO: lines per file, -1 unlimited
  std::optional<int64_t> begin_token;  // COPY TO: Murmur3 tokens, (begin, end]
  std::optional<int64_t> end_token;
  int64_t chunk_size = 5000;  // COPY FROM: rows parsed and applied at a time
  int64_t max_batch_size = 20;
  int64_t min_batch_size = 10;
  int64_t max_rows = -1;  // COPY FROM: -1 means no maximum
  int64_t skip_rows = 0;
  std::vector<std::string> skip_columns;
  int64_t max_parse_errors = -1;  // -1 means no maximum
  int64_t max_insert_errors = 1000;
  std::string error_file;          // ERRFILE; default import_<ks>_<table>.err
  int64_t ttl = -1;                // COPY FROM: USING TTL when >= 0
  double report_frequency = 0.25;  // seconds between progress lines
};

// `options` as written (names in any case, values unquoted), with those of
// CONFIGFILE's sections under them as cqlsh reads them, for a COPY
// of ks.table in the direction named ("FROM" or "TO"). Errors are the
// messages cqlsh prints: "Unrecognized COPY TO options: x", Python's
// "invalid literal for int() with base 10: 'x'", "Invalid boolean styles
// ['a', 'b']".
Result<CopyOptions> ResolveCopyOptions(
    const std::string& direction, const std::string& keyspace, const std::string& table,
    const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace cassette::tools
