#include "tools/copy_from.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tools/copy_value_parse.h"

namespace cassette::tools {
namespace {

std::string Strip(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// The class name cqlsh prints for a failed insert (the driver's exception).
std::string ErrorClass(const Status& status) {
  switch (status.code()) {
    case Status::Code::kSyntaxError:
      return "SyntaxException";
    case Status::Code::kInvalidRequest:
      return "InvalidRequest";
    default:
      return "WriteFailure";
  }
}

}  // namespace

CopyFromLoader::CopyFromLoader(CqlSession* session, const CopyOptions& options,
                               const CopyStreams& streams)
    : session_(session),
      options_(options),
      streams_(streams),
      reader_(options.dialect),
      meter_(streams.tty ? streams.out : nullptr, options.report_frequency) {}

Result<std::unique_ptr<CopyFromLoader>> CopyFromLoader::Start(CqlSession* session,
                                                              const CopyCommand& command,
                                                              const CopyOptions& options,
                                                              const CopyStreams& streams) {
  std::unique_ptr<CopyFromLoader> loader(new CopyFromLoader(session, options, streams));
  CASSETTE_RETURN_IF_ERROR(loader->Prepare(command));
  *streams.out << "\nStarting copy of " << loader->table_->schema.keyspace() << "."
               << loader->table_->schema.name() << " with columns " << ColumnList(loader->columns_)
               << ".\n";
  return loader;
}

Status CopyFromLoader::Prepare(const CopyCommand& command) {
  table_ = std::make_unique<CopyTable>();
  CASSETTE_RETURN_IF_ERROR(ResolveCopyTable(session_, command, table_.get()));
  const TableSchema& schema = table_->schema;
  file_fields_ = table_->columns.size();
  for (size_t i = 0; i < table_->columns.size(); ++i) {
    const ColumnDefinition* column = table_->columns[i];
    if (std::find(options_.skip_columns.begin(), options_.skip_columns.end(), column->name) !=
        options_.skip_columns.end()) {
      continue;
    }
    columns_.push_back(column);
    field_indexes_.push_back(i);
  }
  if (columns_.empty()) return Status::InvalidRequest("No valid column specified");
  for (const std::vector<size_t>* key : {&schema.partition_key(), &schema.clustering()}) {
    for (size_t index : *key) {
      const std::string& name = schema.columns()[index].name;
      if (std::none_of(columns_.begin(), columns_.end(),
                       [&](const ColumnDefinition* c) { return c->name == name; })) {
        return Status::InvalidRequest("Primary key column '" + name + "' missing or skipped");
      }
    }
  }
  for (const ColumnDefinition* column : columns_) {
    if (column->type.kind() == TypeKind::kCounter) counter_table_ = true;
  }
  const std::string target = QuoteCqlName(schema.keyspace()) + "." + QuoteCqlName(schema.name());
  std::string text;
  if (counter_table_) {
    std::string set, where;
    for (size_t i = 0; i < columns_.size(); ++i) {
      const ColumnDefinition* column = columns_[i];
      const std::string name = QuoteCqlName(column->name);
      if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
        continue;
      }
      set += (set.empty() ? "" : ", ") + name + " = " + name + " + ?";
      bind_order_.push_back(i);
    }
    for (size_t i = 0; i < columns_.size(); ++i) {
      const ColumnDefinition* column = columns_[i];
      if (column->kind != ColumnKind::kPartitionKey && column->kind != ColumnKind::kClustering) {
        continue;
      }
      where += (where.empty() ? "" : " AND ") + QuoteCqlName(column->name) + " = ?";
      bind_order_.push_back(i);
    }
    if (set.empty()) return Status::InvalidRequest("No counter column to update in " + target);
    text = "UPDATE " + target + " SET " + set + " WHERE " + where;
  } else {
    std::string names, markers;
    for (size_t i = 0; i < columns_.size(); ++i) {
      names += (i > 0 ? ", " : "") + QuoteCqlName(columns_[i]->name);
      markers += i > 0 ? ", ?" : "?";
      bind_order_.push_back(i);
    }
    text = "INSERT INTO " + target + " (" + names + ") VALUES (" + markers + ")";
    if (options_.ttl >= 0) text += " USING TTL " + std::to_string(options_.ttl);
  }
  CASSETTE_ASSIGN_OR_RETURN(statement_, session_->Prepare(text));
  return Status::OK();
}

void CopyFromLoader::BeginFile() {
  ++summary_.files;
  skip_header_ = options_.header;
}

void CopyFromLoader::AddLine(std::string_view line) {
  if (stopped()) return;
  std::vector<std::string> fields;
  std::string error;
  switch (reader_.AddLine(line, &fields, &error)) {
    case CsvRecordReader::Outcome::kNeedMore:
      return;
    case CsvRecordReader::Outcome::kError:
      ReportFailure("ParseError", error, {}, true);
      return;
    case CsvRecordReader::Outcome::kRecord:
      AddRecord(std::move(fields));
      return;
  }
}

void CopyFromLoader::AddRecord(std::vector<std::string> fields) {
  if (skip_header_) {
    skip_header_ = false;
    return;
  }
  ++records_read_;
  if (options_.max_rows >= 0 && records_read_ > options_.max_rows) {
    done_reading_ = true;
    return;
  }
  if (records_read_ <= options_.skip_rows) {
    ++summary_.skipped;
    return;
  }
  std::vector<std::string> kept;
  if (fields.size() == file_fields_ && columns_.size() != file_fields_) {
    for (size_t index : field_indexes_) kept.push_back(fields[index]);
  } else {
    kept = fields;  // a wrong length is reported as cqlsh reports it
  }
  Result<std::vector<Value>> values = ParseCopyRecord(columns_, kept, options_.format);
  if (!values.ok()) {
    ReportFailure("ParseError", values.status().message(), fields, true);
    return;
  }
  pending_.push_back(std::move(*values));
  pending_fields_.push_back(std::move(fields));
  summary_.max_rows_held = std::max(summary_.max_rows_held, static_cast<int64_t>(pending_.size()));
  if (static_cast<int64_t>(pending_.size()) >= options_.chunk_size) ApplyPending();
}

void CopyFromLoader::ApplyPending() {
  std::vector<Value> bound;
  auto insert_limit_passed = [this] {
    return options_.max_insert_errors >= 0 && insert_errors_ > options_.max_insert_errors;
  };
  for (size_t row = 0; row < pending_.size() && !insert_limit_passed(); ++row) {
    bound.clear();
    for (size_t index : bind_order_) {
      Value value = std::move(pending_[row][index]);
      // cqlsh binds 0 for a missing counter increment (get_null_val).
      if (counter_table_ && value.is_null() && columns_[index]->type.kind() == TypeKind::kCounter) {
        value = Value::Counter(0);
      }
      bound.push_back(std::move(value));
    }
    Result<CqlResult> result = session_->Execute(statement_, bound);
    if (!result.ok()) {
      ReportFailure(ErrorClass(result.status()), result.status().message(), pending_fields_[row],
                    false);
      continue;
    }
    ++summary_.imported;
    meter_.Add(1);
  }
  pending_.clear();
  pending_fields_.clear();
}

void CopyFromLoader::ReportFailure(const std::string& error_class, const std::string& message,
                                   const std::vector<std::string>& fields, bool parse_error) {
  *streams_.err << "Failed to import 1 rows: " << error_class << " - " << message
                << (parse_error ? ",  given up without retries" : ",  given up after 1 attempts")
                << "\n";
  (parse_error ? parse_errors_ : insert_errors_) += 1;
  ++summary_.failed;
  if (!fields.empty()) {
    if (!error_file_) {
      error_file_ = std::make_unique<std::ofstream>(ExpandUserPath(options_.error_file),
                                                    std::ios::binary | std::ios::app);
    }
    if (*error_file_) *error_file_ << FormatCsvRow(fields, options_.dialect) << std::flush;
  }
  CheckErrorLimits();
}

void CopyFromLoader::CheckErrorLimits() {
  if (error_limit_) return;
  if (options_.max_insert_errors >= 0 && insert_errors_ > options_.max_insert_errors) {
    *streams_.err << "Exceeded maximum number of insert errors " << options_.max_insert_errors
                  << "\n";
    error_limit_ = true;
  } else if (options_.max_parse_errors >= 0 && parse_errors_ > options_.max_parse_errors) {
    *streams_.err << "Exceeded maximum number of parse errors " << options_.max_parse_errors
                  << "\n";
    error_limit_ = true;
  }
}

Status CopyFromLoader::LoadFiles(const std::string& patterns) {
  std::vector<std::string> paths;
  size_t start = 0;
  while (true) {
    const size_t comma = patterns.find(',', start);
    const std::string pattern = ExpandUserPath(Strip(patterns.substr(start, comma - start)));
    struct stat info;
    if (stat(pattern.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
      paths.push_back(pattern);
    } else {
      glob_t matches{};
      const int found = glob(pattern.c_str(), 0, nullptr, &matches);
      if (found != 0 || matches.gl_pathc == 0) {
        globfree(&matches);
        return Status::IOError("Can't open '" + pattern + "' for reading: no matching file found");
      }
      for (size_t i = 0; i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
      globfree(&matches);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (const std::string& path : paths) {
    if (stopped()) break;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      const int error = errno;
      return Status::IOError("Can't open '" + path + "' for reading: [Errno " +
                             std::to_string(error) + "] " + std::strerror(error) + ": '" + path +
                             "'");
    }
    BeginFile();
    // Read in blocks and hand the reader the pieces between line breaks,
    // so no line is ever held whole.
    char block[1 << 16];
    std::vector<std::string> fields;
    std::string error;
    bool line_open = false;
    while (!stopped() && in) {
      in.read(block, sizeof(block));
      const std::string_view data(block, static_cast<size_t>(in.gcount()));
      size_t from = 0;
      while (from < data.size() && !stopped()) {
        const size_t newline = data.find('\n', from);
        reader_.AddText(data.substr(
            from, newline == std::string_view::npos ? std::string_view::npos : newline - from));
        line_open = true;
        if (newline == std::string_view::npos) break;
        from = newline + 1;
        line_open = false;
        switch (reader_.EndLine(&fields, &error)) {
          case CsvRecordReader::Outcome::kNeedMore:
            break;
          case CsvRecordReader::Outcome::kError:
            ReportFailure("ParseError", error, {}, true);
            break;
          case CsvRecordReader::Outcome::kRecord:
            AddRecord(std::move(fields));
            break;
        }
      }
    }
    if (line_open && !stopped()) AddLine("");
    if (!stopped() && reader_.Finish(&fields)) AddRecord(std::move(fields));
  }
  return Status::OK();
}

CopyFromSummary CopyFromLoader::Finish() {
  std::vector<std::string> fields;
  if (!stopped() && reader_.Finish(&fields)) AddRecord(std::move(fields));
  // Rows parsed before an error limit was passed are applied, as cqlsh's
  // workers apply the chunks they already hold.
  ApplyPending();
  done_reading_ = true;
  meter_.Finish();
  if (summary_.failed > 0) {
    *streams_.err << "Failed to process " << summary_.failed << " rows; failed rows written to "
                  << options_.error_file << "\n";
  }
  *streams_.out << "\n"
                << summary_.imported << " rows imported from " << summary_.files << " files in "
                << DescribeInterval(meter_.ElapsedSeconds()) << " (" << summary_.skipped
                << " skipped).\n";
  return summary_;
}

}  // namespace cassette::tools
