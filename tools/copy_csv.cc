#include "tools/copy_csv.h"

namespace cassette::tools {

std::string FormatCsvRow(const std::vector<std::string>& fields, const CsvDialect& dialect) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back(dialect.delimiter);
    const std::string& field = fields[i];
    std::string body;
    bool quoted = fields.size() == 1 && field.empty();
    for (char c : field) {
      const bool special = c == dialect.delimiter || c == dialect.quote || c == '\r' || c == '\n' ||
                           (dialect.escape && c == *dialect.escape);
      if (special) {
        bool escape = false;
        if (c == dialect.quote) {
          if (dialect.double_quote) {
            body.push_back(dialect.quote);
          } else {
            escape = true;
          }
        } else if (dialect.escape && c == *dialect.escape) {
          escape = true;
        }
        if (escape && dialect.escape) {
          body.push_back(*dialect.escape);
        } else if (!escape) {
          quoted = true;
        }
      }
      body.push_back(c);
    }
    if (quoted) out.push_back(dialect.quote);
    out += body;
    if (quoted) out.push_back(dialect.quote);
  }
  out += "\r\n";
  return out;
}

void CsvRecordReader::Reset() {
  state_ = State::kStartRecord;
  field_.clear();
  record_.clear();
  too_long_ = false;
  pending_cr_ = false;
}

void CsvRecordReader::SaveField() {
  if (record_.size() >= kMaxFields) {
    too_long_ = true;
    field_.clear();
    return;
  }
  record_.push_back(std::move(field_));
  field_.clear();
}

// One character of Python's _csv.c parse_process_char; false at the end of
// the record. Line ends arrive as '\n' or '\r'.
bool CsvRecordReader::AddChar(char c) {
  const bool eol = c == '\n' || c == '\r';
  auto add = [this](char ch) {
    if (field_.size() >= kFieldSizeLimit) {
      too_long_ = true;
      return;
    }
    field_.push_back(ch);
  };
  const bool is_escape = dialect_.escape && c == *dialect_.escape;
  switch (state_) {
    case State::kStartRecord:
      if (eol) return false;  // a blank line: no record
      state_ = State::kStartField;
      [[fallthrough]];
    case State::kStartField:
      if (eol) {
        SaveField();
        return false;
      }
      if (c == dialect_.quote) {
        state_ = State::kInQuotedField;
      } else if (is_escape) {
        state_ = State::kEscapedChar;
      } else if (c == dialect_.delimiter) {
        SaveField();
      } else {
        add(c);
        state_ = State::kInField;
      }
      return true;
    case State::kEscapedChar:
      add(c);
      state_ = State::kInField;
      return true;
    case State::kInField:
      if (eol) {
        SaveField();
        return false;
      }
      if (is_escape) {
        state_ = State::kEscapedChar;
      } else if (c == dialect_.delimiter) {
        SaveField();
        state_ = State::kStartField;
      } else {
        add(c);
      }
      return true;
    case State::kInQuotedField:
      if (is_escape) {
        state_ = State::kEscapeInQuotedField;
      } else if (c == dialect_.quote) {
        state_ = dialect_.double_quote ? State::kQuoteInQuotedField : State::kInField;
      } else {
        add(c);
      }
      return true;
    case State::kEscapeInQuotedField:
      add(c);
      state_ = State::kInQuotedField;
      return true;
    case State::kQuoteInQuotedField:
      if (c == dialect_.quote) {
        add(c);
        state_ = State::kInQuotedField;
      } else if (c == dialect_.delimiter) {
        SaveField();
        state_ = State::kStartField;
      } else if (eol) {
        SaveField();
        return false;
      } else {
        add(c);
        state_ = State::kInField;
      }
      return true;
  }
  return true;
}

void CsvRecordReader::AddText(std::string_view text) {
  for (char c : text) {
    if (pending_cr_) {
      pending_cr_ = false;
      AddChar('\r');
    }
    if (c == '\r') {
      pending_cr_ = true;
      continue;
    }
    AddChar(c);
  }
}

CsvRecordReader::Outcome CsvRecordReader::EndLine(std::vector<std::string>* fields,
                                                  std::string* error) {
  pending_cr_ = false;
  bool ended;
  if (state_ == State::kInQuotedField || state_ == State::kEscapeInQuotedField ||
      state_ == State::kEscapedChar) {
    AddChar('\n');
    ended = false;
  } else {
    const bool blank = state_ == State::kStartRecord;
    ended = !AddChar('\n');
    if (blank) {
      Reset();
      return Outcome::kNeedMore;  // a blank line is no record
    }
  }
  if (too_long_) {
    *error = "field larger than field limit (" + std::to_string(kFieldSizeLimit) + ")";
    Reset();
    return Outcome::kError;
  }
  if (!ended) return Outcome::kNeedMore;
  *fields = std::move(record_);
  Reset();
  return Outcome::kRecord;
}

bool CsvRecordReader::Finish(std::vector<std::string>* fields) {
  if (state_ == State::kStartRecord) return false;
  SaveField();
  *fields = std::move(record_);
  Reset();
  return true;
}

}  // namespace cassette::tools
