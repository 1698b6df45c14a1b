#include "tools/shell.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <istream>

#include "tools/copy_from.h"
#include "tools/json_output.h"
#include "tools/table_output.h"

namespace cassette::tools {

namespace {

bool IsBlank(std::string_view text) {
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

// The statement's first keyword in lower case ("select", "describe", ...).
std::string FirstKeyword(std::string_view statement) {
  statement = Trim(statement);
  std::string word;
  for (char c : statement) {
    if (std::isalpha(static_cast<unsigned char>(c)) == 0) break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word;
}

void AddStats(const ReadStats& page, ReadStats* total) {
  total->partitions_read += page.partitions_read;
  total->sstables_read += page.sstables_read;
  total->sstables_skipped += page.sstables_skipped;
  total->memtables_read += page.memtables_read;
  total->live_rows += page.live_rows;
  total->tombstone_cells += page.tombstone_cells;
  total->blocks_read += page.blocks_read;
}

}  // namespace

Result<std::unique_ptr<Shell>> Shell::Open(const ShellSettings& settings,
                                           std::shared_ptr<FileSystem> file_system,
                                           const ShellIo& io) {
  std::unique_ptr<Shell> shell(new Shell(settings, io));
  Options options;
  options.file_system = std::move(file_system);
  options.commitlog_sync = settings.commitlog_sync;
  if (settings.manual_clock_micros) {
    // Nothing may happen by itself: the same script gives the same result.
    shell->manual_clock_ = std::make_shared<ManualClock>(*settings.manual_clock_micros);
    shell->manual_scheduler_ = std::make_shared<ManualScheduler>();
    options.clock = shell->manual_clock_;
    options.scheduler = shell->manual_scheduler_;
    options.auto_compaction = false;
  }
  options.commit_failure_policy = settings.commit_failure_policy;
  options.disk_failure_policy = settings.disk_failure_policy;
  // A mistyped --data opens a new, empty database: the banner says so.
  shell->created_data_directory_ = !options.file_system->FileExists(settings.data_dir);
  CASSETTE_ASSIGN_OR_RETURN(shell->db_, Database::Open(options, settings.data_dir));
  shell->ReportRecovery(settings.data_dir);
  shell->session_ = std::make_unique<CqlSession>(shell->db_.get());
  return shell;
}

Shell::Shell(const ShellSettings& settings, const ShellIo& io)
    : data_dir_(settings.data_dir),
      clock_start_micros_(settings.manual_clock_micros),
      format_(settings.format),
      fail_fast_(settings.fail_fast),
      io_(io) {
  stdin_input_.source = "<stdin>";
  stdin_input_.show_location = !io.tty;
}

Shell::~Shell() { Close().IgnoreError(); }

void Shell::ReportRecovery(const std::string& data_dir) {
  if (io_.err == nullptr) return;
  const RecoveryReport report = db_->GetRecoveryReport();
  std::ostream& err = *io_.err;
  if (report.commitlog_torn_bytes_dropped > 0) {
    err << "cassette: " << data_dir << ": dropped a commit-log write torn by a crash ("
        << report.commitlog_torn_bytes_dropped << " bytes)\n";
  }
  for (const std::string& damage : report.commitlog_damage_skipped) {
    err << "cassette: warning: " << damage << "\n";
  }
  if (!report.commitlog_damage_skipped.empty()) {
    err << "cassette: warning: " << report.commitlog_records_lost
        << " commit-log records known lost with the damage\n";
  }
  for (const std::string& path : report.removed_files) {
    err << "cassette: removed " << path << " (left by an interrupted flush or compaction, or a "
        << "dropped table)\n";
  }
  for (const std::string& path : report.unknown_files) {
    err << "cassette: warning: " << path << " is not a file this database accounts for; left "
        << "alone\n";
  }
  for (const SSTableFailure& failure : report.sstable_failures) {
    err << "cassette: warning: " << failure.path
        << (failure.out_of_service ? " is out of service (kept on disk, never read): "
                                   : " was not loaded this time: ")
        << failure.error << "\n";
  }
}

Status Shell::Close() {
  if (closed_ || db_ == nullptr) return Status::OK();
  closed_ = true;
  session_.reset();
  // Close waits for queued jobs (on a manual scheduler it runs them).
  return db_->Close();
}

std::string Shell::Prompt() const {
  if (copy_input_) return "[copy] ";
  if (!IsBlank(stdin_input_.pending)) return "   ... ";
  const std::string keyspace = session_ ? session_->keyspace() : std::string();
  return keyspace.empty() ? "cassette> " : "cassette:" + keyspace + "> ";
}

void Shell::RunScript(std::string_view text, const std::string& source) {
  Input input;
  input.source = source;
  input.show_location = true;
  RunLines(&input, text);
}

void Shell::RunLines(Input* input, std::string_view text) {
  size_t start = 0;
  while (start < text.size() && !stopped_) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ProcessLine(input, text.substr(start, end - start));
    start = end + 1;
  }
  FinishSource(input);
}

void Shell::RunStream(std::istream& in, const std::string& source) {
  Input input;
  input.source = source;
  input.show_location = true;
  ReadLines(&input, in);
}

void Shell::RunInput(std::istream& in) { ReadLines(&stdin_input_, in); }

Shell::LineRead Shell::ReadBoundedLine(std::istream& in, size_t limit, std::string* line) {
  line->clear();
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  while (true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) return any ? LineRead::kLine : LineRead::kEnd;
    any = true;
    if (c == '\n') return LineRead::kLine;
    if (line->size() >= limit) return LineRead::kTooLong;
    line->push_back(static_cast<char>(c));
  }
}

void Shell::ReadLines(Input* input, std::istream& in) {
  const size_t limit = MaxStatementBytes();
  std::string line;
  while (!stopped_) {
    const size_t room = limit - std::min(limit, input->pending.size());
    const LineRead read = ReadBoundedLine(in, room, &line);
    if (read == LineRead::kEnd) break;
    if (read == LineRead::kTooLong) {
      // Nothing more is read from this source: its end may be anywhere
      // (or nowhere, as in /dev/zero).
      ++input->line;
      RefuseLongStatement(input);
      return;
    }
    ProcessLine(input, line);
  }
  FinishSource(input);
}

size_t Shell::MaxStatementBytes() const {
  return static_cast<size_t>(db_->options().native_transport_max_frame_size);
}

void Shell::RefuseLongStatement(Input* input) {
  input->pending.clear();
  ReportFailure(Status::InvalidRequest("Statement too large: more than " +
                                       std::to_string(MaxStatementBytes()) +
                                       " bytes without its end (native_transport_max_frame_size); "
                                       "the rest of " +
                                       input->source + " is not read"),
                ErrorOrigin::kShell, *input);
}

void Shell::FeedLine(std::string_view line) {
  if (stdin_input_.pending.size() + line.size() > MaxStatementBytes()) {
    ++stdin_input_.line;
    RefuseLongStatement(&stdin_input_);
    return;
  }
  ProcessLine(&stdin_input_, line);
}

void Shell::FinishInput() { FinishSource(&stdin_input_); }

void Shell::RunCommandLine(std::string_view text) {
  std::string rest;
  SplitCqlStatements(text, &rest);
  if (rest.empty()) {
    RunScript(text, "<stdin>");
    return;
  }
  // cqlsh appends the missing ';' to -e's text. On a line of its own, so
  // a trailing line comment cannot swallow it.
  std::string terminated(text);
  terminated += "\n;";
  RunScript(terminated, "<stdin>");
}

void Shell::CancelInput() { stdin_input_.pending.clear(); }

bool Shell::Interrupted() const {
  return io_.interrupted != nullptr && io_.interrupted->load(std::memory_order_relaxed);
}

std::ostream& Shell::Out() { return capture_.is_open() ? capture_ : *io_.out; }

void Shell::ProcessLine(Input* input, std::string_view line) {
  ++input->line;
  if (stopped_) return;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (copy_input_) {
    FeedCopyInput(line);
    return;
  }
  // cqlsh's own commands end at the end of their line even without ';'.
  if (IsBlank(input->pending) && line.find(';') == std::string_view::npos && EndsAtNewline(line)) {
    input->pending.clear();
    ExecuteStatement(line, *input);
    return;
  }
  input->pending.append(line);
  input->pending.push_back('\n');
  // No statement ends on a line without ';'. Splitting the whole pending
  // text again for each line made a statement of n lines cost n^2; past a
  // small size (where comment-only text is still dropped as before) such
  // lines are only appended.
  constexpr size_t kResplitBelow = 4 << 10;
  if (input->pending.size() > kResplitBelow && line.find(';') == std::string_view::npos) return;
  std::string rest;
  const std::vector<std::string> statements = SplitCqlStatements(input->pending, &rest);
  // `rest` comes back trimmed; while no statement is complete the raw text
  // is kept whole, so a line comment or a word at the end of a line never
  // runs into the next line.
  if (rest.empty()) {
    input->pending.clear();  // only blanks and comments
  } else if (!statements.empty()) {
    input->pending = std::move(rest);
    input->pending.push_back('\n');
  }
  for (const std::string& statement : statements) {
    if (stopped_) break;
    ExecuteStatement(statement, *input);
    if (Interrupted()) {
      // Ctrl-C: the rest of what was typed is dropped with the statement.
      input->pending.clear();
      break;
    }
  }
}

void Shell::FinishSource(Input* input) {
  if (copy_input_) FinishCopyInput();
  if (!stopped_ && !IsBlank(input->pending)) {
    ReportFailure(Status::SyntaxError("Incomplete statement at end of file"), ErrorOrigin::kShell,
                  *input);
  }
  input->pending.clear();
}

void Shell::ExecuteStatement(std::string_view statement, const Input& input) {
  statement = Trim(statement);
  if (statement.empty()) return;
  if (std::optional<Result<Directive>> directive = ParseDirective(statement)) {
    if (directive->ok()) {
      RunDirective(**directive, input);
    } else {
      ReportFailure(directive->status(), ErrorOrigin::kShell, input);
    }
  } else {
    ExecuteCql(statement, input);
  }
  RunQueuedWork();
  if (Interrupted()) *io_.out << "\n";  // as cqlsh prints after Ctrl-C
  Out().flush();
  io_.out->flush();
}

void Shell::ExecuteCql(std::string_view statement, const Input& input) {
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed_micros = [started] {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 started)
        .count();
  };
  Result<CqlPreparedStatement> prepared = session_->Prepare(statement);
  if (!prepared.ok()) {
    ReportFailure(prepared.status(), ErrorOrigin::kServer, input);
    return;
  }
  CqlQueryOptions options;
  options.page_size = paging_ ? page_size_ : 0;
  options.cancel = io_.interrupted;
  Result<CqlResult> result = session_->Execute(*prepared, std::vector<Value>(), options);
  if (Interrupted()) return;  // cancelled: nothing more is printed
  if (!result.ok()) {
    ReportFailure(result.status(), ErrorOrigin::kServer, input);
    return;
  }
  if (FirstKeyword(statement) == "select" && result->kind == CqlResult::Kind::kRows) {
    PrintSelectPages(*prepared, std::move(*result), options, input);
    if (!Interrupted()) PrintTiming(elapsed_micros());
    return;
  }
  Status fetched = FetchRemainingPages(*prepared, options, &*result);
  if (Interrupted()) return;
  if (!fetched.ok()) {
    ReportFailure(fetched, ErrorOrigin::kServer, input);
    return;
  }
  PrintResult(statement, *result);
  PrintTiming(elapsed_micros());
}

void Shell::PrintTiming(int64_t elapsed_micros) {
  if (!tracing_ || format_ != OutputFormat::kTable) return;
  // cqlsh's trace ends with the coordinator's "Request complete" row, its
  // elapsed time in microseconds.
  Out() << "Request complete: " << elapsed_micros << " microseconds\n\n";
}

Result<CqlResult> Shell::NextPage(const CqlPreparedStatement& prepared, CqlQueryOptions* options,
                                  const std::string& paging_state) {
  options->paging_state = paging_state;
  CASSETTE_ASSIGN_OR_RETURN(CqlResult page,
                            session_->Execute(prepared, std::vector<Value>(), *options));
  if (page.paging_state == options->paging_state) {
    return Status::ReadFailure("paging did not advance past the same position");
  }
  return page;
}

Status Shell::FetchRemainingPages(const CqlPreparedStatement& prepared, CqlQueryOptions options,
                                  CqlResult* result) {
  while (!result->paging_state.empty() && !Interrupted()) {
    CASSETTE_ASSIGN_OR_RETURN(CqlResult page, NextPage(prepared, &options, result->paging_state));
    for (auto& row : page.rows) result->rows.push_back(std::move(row));
    for (auto& warning : page.warnings) result->warnings.push_back(std::move(warning));
    AddStats(page.stats, &result->stats);
    result->paging_state = std::move(page.paging_state);
  }
  return Status::OK();
}

void Shell::PrintSelectPages(const CqlPreparedStatement& prepared, CqlResult page,
                             CqlQueryOptions options, const Input& input) {
  // Like cqlsh, every page is printed as it arrives (print_all), so the
  // shell holds one page however many rows the SELECT returns.
  const bool json = format_ == OutputFormat::kJson;
  const TableLayout layout{.tty = io_.tty, .expand = expand_};
  std::vector<std::string> warnings;
  ReadStats stats;
  size_t rows = 0;
  bool first_page = true;
  Status failure;
  std::ostream& out = Out();
  // cqlsh pauses between pages on a terminal, unless capturing.
  const bool pause = io_.tty && io_.more && !json && !capture_.is_open();
  out << (json ? "[" : FormatSelectStart());
  while (true) {
    if (json) {
      for (const std::vector<Value>& row : page.rows) {
        if (rows++ > 0) out << ",";
        out << JsonRowObject(page.columns, row);
      }
    } else {
      out << FormatSelectPage(ToTextTable(page), layout, first_page, rows);
      rows += page.rows.size();
    }
    first_page = false;
    for (auto& warning : page.warnings) warnings.push_back(std::move(warning));
    AddStats(page.stats, &stats);
    if (page.paging_state.empty()) break;
    if (Interrupted()) return;
    if (pause) {
      out.flush();
      if (!io_.more() || Interrupted()) return;
    }
    Result<CqlResult> next = NextPage(prepared, &options, page.paging_state);
    if (!next.ok()) {
      failure = next.status();
      break;
    }
    page = std::move(*next);
  }
  if (Interrupted()) return;
  if (json) out << "]\n";
  if (!failure.ok()) {
    // The rows printed so far stay; the failure follows them, as in cqlsh.
    ReportFailure(failure, ErrorOrigin::kServer, input);
    return;
  }
  if (json) {
    if (tracing_) out << JsonTraceLine(stats) << "\n";
    *io_.err << FormatWarnings(warnings);
    return;
  }
  out << FormatSelectEnd(rows, layout) << FormatWarnings(warnings);
  if (tracing_) out << FormatReadTrace(stats, layout);
}

void Shell::PrintResult(std::string_view statement, const CqlResult& result) {
  const std::string keyword = FirstKeyword(statement);
  const bool is_select = keyword == "select";
  const bool is_describe = keyword == "describe" || keyword == "desc";
  const bool returns_rows = result.kind == CqlResult::Kind::kRows;
  if (format_ == OutputFormat::kJson) {
    if (returns_rows) {
      Out() << JsonRowsLine(result) << "\n";
      if (tracing_ && is_select) Out() << JsonTraceLine(result.stats) << "\n";
    }
    // The json stream stays machine-readable: warnings go to stderr.
    *io_.err << FormatWarnings(result.warnings);
    return;
  }
  const TableLayout layout{.tty = io_.tty, .expand = expand_};
  if (returns_rows) {
    if (is_describe && !result.describe_text.empty()) {
      Out() << result.describe_text;
      if (result.describe_text.back() != '\n') Out() << "\n";
    } else if (is_select) {
      Out() << FormatSelectTable(ToTextTable(result), layout);
    } else {
      Out() << FormatStatementRows(ToTextTable(result), layout);
    }
  }
  Out() << FormatWarnings(result.warnings);
  if (tracing_ && is_select) Out() << FormatReadTrace(result.stats, layout);
}

void Shell::ReportFailure(const Status& status, ErrorOrigin origin, const Input& input) {
  ++failed_statements_;
  if (fail_fast_) stopped_ = true;
  if (format_ == OutputFormat::kJson) {
    *io_.out << JsonErrorLine(status) << "\n";
    io_.out->flush();
    return;
  }
  std::string line;
  if (input.show_location) line = input.source + ":" + std::to_string(input.line) + ":";
  line += origin == ErrorOrigin::kShell ? status.message() : FormatCqlshError(status);
  io_.out->flush();
  *io_.err << line << "\n";
  io_.err->flush();
}

void Shell::RunQueuedWork() {
  if (manual_scheduler_) manual_scheduler_->RunUntilIdle();
}

}  // namespace cassette::tools
