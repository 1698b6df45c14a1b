// CSV as cqlsh's COPY reads and writes it: Python's csv module with the
// dialect CopyOptions builds (QUOTE_MINIMAL, "\r\n" after each row, an
// escape character or doubled quotes, strict=False), reproduced so that a
// file goes both ways between cassette and cqlsh.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "tools/copy_options.h"

namespace cassette::tools {

// One row as Python's csv.writer writes it, "\r\n" included. A field is
// quoted when it holds the delimiter, the quote (with doubled quotes), a
// '\r' or '\n'; the quote (without doubled quotes) and the escape
// character are escaped. A row of one empty field is written `""`.
std::string FormatCsvRow(const std::vector<std::string>& fields, const CsvDialect& dialect);

// Python's csv.reader fed a line at a time: a quoted field may span
// lines, so a record is complete only when a line ends outside quotes.
// Memory is bounded by the field size limit (Python's default,
// csv.field_size_limit(), which cqlsh keeps).
class CsvRecordReader {
 public:
  static constexpr size_t kFieldSizeLimit = 131072;
  // Fields in one record: past it the record is an error (no table has
  // that many columns), so a line of delimiters cannot fill memory.
  static constexpr size_t kMaxFields = 65536;

  explicit CsvRecordReader(const CsvDialect& dialect) : dialect_(dialect) {}

  enum class Outcome { kRecord, kNeedMore, kError };
  // Consumes one line (with or without its '\n'). kRecord: `*fields` holds
  // the record; kNeedMore: the record goes on in the next line; kError:
  // `*error` says why (Python's message) and the record is dropped.
  Outcome AddLine(std::string_view line, std::vector<std::string>* fields, std::string* error) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    AddText(line);
    return EndLine(fields, error);
  }
  // The same in pieces, for lines of any length: text without line
  // breaks (a '\r' just before EndLine is the line end's), then the end.
  void AddText(std::string_view text);
  Outcome EndLine(std::vector<std::string>* fields, std::string* error);
  // End of input: the unfinished record, if any (an unterminated quote
  // keeps what was read, as Python does with strict=False).
  bool Finish(std::vector<std::string>* fields);
  // Whether a record has begun and not yet ended (a quoted field open
  // across lines, say).
  bool in_record() const { return state_ != State::kStartRecord; }

 private:
  enum class State {
    kStartRecord,
    kStartField,
    kEscapedChar,
    kInField,
    kInQuotedField,
    kEscapeInQuotedField,
    kQuoteInQuotedField,
  };
  bool AddChar(char c);
  void SaveField();
  void Reset();

  CsvDialect dialect_;
  State state_ = State::kStartRecord;
  std::string field_;
  std::vector<std::string> record_;
  bool too_long_ = false;
  // A '\r' not yet known to be part of a "\r\n" line end.
  bool pending_cr_ = false;
};

}  // namespace cassette::tools
