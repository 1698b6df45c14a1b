#include "tools/copy_to.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include "tools/copy_csv.h"
#include "tools/copy_progress.h"
#include "tools/copy_table.h"
#include "tools/copy_value_format.h"

namespace cassette::tools {

namespace {

// Python's IOError text, as cqlsh prints it.
Status CannotOpen(const std::string& path, const char* mode, int error) {
  return Status::IOError("Can't open '" + path + "' for " + mode + ": [Errno " +
                         std::to_string(error) + "] " + std::strerror(error) + ": '" + path + "'");
}

// The output files of one export: file, file.1, file.2, ... when
// MAXOUTPUTSIZE splits it; or standard output.
class ExportWriter {
 public:
  ExportWriter(const CopyCommand& command, const CopyOptions& options, std::ostream* stdout_stream)
      : options_(options), stdout_(stdout_stream) {
    if (command.file) path_ = ExpandUserPath(*command.file);
  }

  Status Open(const std::vector<std::string>& header) {
    CASSETTE_RETURN_IF_ERROR(OpenDestination(path_));
    if (options_.header) *current_ << FormatCsvRow(header, options_.dialect);
    return Status::OK();
  }

  Status WriteRow(const std::string& line) {
    if (file_ && options_.max_output_size > 0 && rows_in_file_ >= options_.max_output_size) {
      CASSETTE_RETURN_IF_ERROR(OpenDestination(path_ + "." + std::to_string(files_)));
    }
    *current_ << line;
    ++rows_in_file_;
    if (!*current_) return Status::IOError("Error writing " + (path_.empty() ? "<stdout>" : path_));
    return Status::OK();
  }

  Status Close() {
    if (!file_) {
      current_->flush();
      return Status::OK();
    }
    file_->close();
    if (file_->fail()) return Status::IOError("Error writing " + path_);
    return Status::OK();
  }

  int files() const { return files_; }

 private:
  Status OpenDestination(const std::string& path) {
    rows_in_file_ = 0;
    if (path_.empty()) {
      current_ = stdout_;
      return Status::OK();
    }
    if (file_) {
      file_->close();
      if (file_->fail()) return Status::IOError("Error writing " + path_);
    }
    file_ = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*file_) return CannotOpen(path, "writing", errno);
    current_ = file_.get();
    ++files_;
    return Status::OK();
  }

  const CopyOptions& options_;
  std::ostream* stdout_;
  std::string path_;
  std::unique_ptr<std::ofstream> file_;
  std::ostream* current_ = nullptr;
  int64_t rows_in_file_ = 0;
  int files_ = 0;
};

std::string SelectStatement(const CopyTable& table, const CopyOptions& options) {
  std::string select = "SELECT ";
  for (size_t i = 0; i < table.columns.size(); ++i) {
    select += (i > 0 ? ", " : "") + QuoteCqlName(table.columns[i]->name);
  }
  select +=
      " FROM " + QuoteCqlName(table.schema.keyspace()) + "." + QuoteCqlName(table.schema.name());
  if (options.begin_token || options.end_token) {
    std::string token = "token(";
    for (size_t i = 0; i < table.schema.partition_key().size(); ++i) {
      const size_t index = table.schema.partition_key()[i];
      token += (i > 0 ? ", " : "") + QuoteCqlName(table.schema.columns()[index].name);
    }
    token += ")";
    std::string where;
    if (options.begin_token) where = token + " > " + std::to_string(*options.begin_token);
    if (options.end_token) {
      where += (where.empty() ? "" : " AND ") + token + " <= " + std::to_string(*options.end_token);
    }
    select += " WHERE " + where;
  }
  return select;
}

}  // namespace

Result<CopyToSummary> RunCopyTo(CqlSession* session, const CopyCommand& command,
                                const CopyOptions& options, const CopyStreams& streams) {
  CopyTable table;
  CASSETTE_RETURN_IF_ERROR(ResolveCopyTable(session, command, &table));
  // cqlsh says nothing while exporting to STDOUT: the data is the output.
  std::ostream* messages = command.file ? streams.out : nullptr;
  CASSETTE_ASSIGN_OR_RETURN(CqlPreparedStatement select,
                            session->Prepare(SelectStatement(table, options)));
  ExportWriter writer(command, options, streams.out);
  std::vector<std::string> header;
  for (const ColumnDefinition* column : table.columns) header.push_back(column->name);
  CASSETTE_RETURN_IF_ERROR(writer.Open(header));
  if (messages != nullptr) {
    *messages << "\nStarting copy of " << table.schema.keyspace() << "." << table.schema.name()
              << " with columns " << ColumnList(table.columns) << ".\n";
  }
  CopyProgressMeter meter(streams.tty ? messages : nullptr, options.report_frequency);
  CopyToSummary summary;
  CqlQueryOptions query;
  query.page_size = static_cast<int32_t>(options.page_size);
  std::vector<std::string> fields(table.columns.size());
  Status status;
  while (true) {
    Result<CqlResult> page = session->Execute(select, std::vector<Value>(), query);
    if (!page.ok()) {
      status = page.status();
      break;
    }
    summary.max_rows_held =
        std::max(summary.max_rows_held, static_cast<int64_t>(page->rows.size()));
    for (const std::vector<Value>& row : page->rows) {
      for (size_t i = 0; i < row.size() && i < fields.size(); ++i) {
        fields[i] = FormatCopyValue(row[i].view(), options.format);
      }
      status = writer.WriteRow(FormatCsvRow(fields, options.dialect));
      if (!status.ok()) break;
      ++summary.rows;
    }
    if (!status.ok()) break;
    meter.Add(static_cast<int64_t>(page->rows.size()));
    if (page->paging_state.empty()) break;
    if (page->paging_state == query.paging_state) {
      status = Status::ReadFailure("paging did not advance past the same position");
      break;
    }
    query.paging_state = std::move(page->paging_state);
  }
  Status closed = writer.Close();
  if (status.ok()) status = closed;
  meter.Finish();
  summary.files = writer.files();
  if (!status.ok()) return status;
  if (messages != nullptr) {
    *messages << "\n"
              << summary.rows << " rows exported to " << summary.files << " files in "
              << DescribeInterval(meter.ElapsedSeconds()) << ".\n";
  }
  return summary;
}

}  // namespace cassette::tools
