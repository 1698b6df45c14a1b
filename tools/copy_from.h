// COPY FROM: CSV records into a table (cqlsh's ImportTask). Lines are
// pushed in (from files, or from the shell's input for STDIN); records are
// parsed as they complete and applied CHUNKSIZE rows at a time, so the
// rows held at once never exceed CHUNKSIZE whatever the input's size.
//
// A record that does not parse is reported ("Failed to import 1 rows:
// ParseError - ..., given up without retries"), written to ERRFILE and
// skipped whole: a row is applied only after every value of it converted.
// A row the database refuses is reported the same way as an insert error.
// Past MAXPARSEERRORS or MAXINSERTERRORS the import stops ("Exceeded
// maximum number of parse errors 10"); rows applied before stay.
//
// HEADER skips the first record of each file, SKIPROWS the next ones,
// MAXROWS stops after that many records; cassette counts records, where
// cqlsh counts lines (a quoted field holding line breaks counts once).
// Blank lines are no records. Counter tables are updated (c = c + v), as
// cqlsh does; TTL applies USING TTL.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/cql.h"
#include "cassette/status.h"
#include "tools/copy_command.h"
#include "tools/copy_csv.h"
#include "tools/copy_options.h"
#include "tools/copy_progress.h"
#include "tools/copy_streams.h"
#include "tools/copy_table.h"

namespace cassette::tools {

struct CopyFromSummary {
  int64_t imported = 0;
  int64_t skipped = 0;  // SKIPROWS
  int64_t failed = 0;   // rows reported and written to ERRFILE
  int files = 0;
  int64_t max_rows_held = 0;  // the most parsed rows held before applying
};

class CopyFromLoader {
 public:
  // Checks the command (columns, primary key present) and prints cqlsh's
  // "Starting copy of ..." on streams.out.
  static Result<std::unique_ptr<CopyFromLoader>> Start(CqlSession* session,
                                                       const CopyCommand& command,
                                                       const CopyOptions& options,
                                                       const CopyStreams& streams);

  // The start of another input file (HEADER skips its first record).
  void BeginFile();
  // One line of input, '\n' included or not. Ignored once stopped().
  void AddLine(std::string_view line);
  // After MAXROWS records, or past an error maximum.
  bool stopped() const { return done_reading_ || error_limit_; }
  // Applies what is pending and prints the summary ("N rows imported from
  // F files in T (S skipped).").
  CopyFromSummary Finish();

  // Reads the files of a COPY FROM: a comma-separated list of names or
  // glob patterns, as cqlsh takes them. Errors as cqlsh's ("Can't open
  // 'x' for reading: no matching file found").
  Status LoadFiles(const std::string& patterns);

 private:
  CopyFromLoader(CqlSession* session, const CopyOptions& options, const CopyStreams& streams);
  Status Prepare(const CopyCommand& command);
  void AddRecord(std::vector<std::string> fields);
  void ApplyPending();
  void ReportFailure(const std::string& error_class, const std::string& message,
                     const std::vector<std::string>& fields, bool parse_error);
  void CheckErrorLimits();

  CqlSession* session_;
  const CopyOptions options_;
  const CopyStreams streams_;
  std::unique_ptr<CopyTable> table_;
  // The columns of the file minus SKIPCOLS, and which file fields they take.
  std::vector<const ColumnDefinition*> columns_;
  std::vector<size_t> field_indexes_;
  size_t file_fields_ = 0;
  bool counter_table_ = false;
  // Bind order of the statement: for counters the increments come first,
  // then the primary key (UPDATE .. SET c = c + ? WHERE k = ?).
  std::vector<size_t> bind_order_;
  CqlPreparedStatement statement_;

  CsvRecordReader reader_;
  std::vector<std::vector<Value>> pending_;
  std::vector<std::vector<std::string>> pending_fields_;
  bool skip_header_ = false;
  int64_t records_read_ = 0;
  int64_t parse_errors_ = 0;
  int64_t insert_errors_ = 0;
  bool done_reading_ = false;  // MAXROWS reached
  bool error_limit_ = false;   // MAXPARSEERRORS or MAXINSERTERRORS exceeded
  std::unique_ptr<std::ofstream> error_file_;
  CopyFromSummary summary_;
  CopyProgressMeter meter_;
};

}  // namespace cassette::tools
