// Shell: `cassette shell` without the terminal. Takes script text or lines,
// splits them into statements (SplitCqlStatements), runs shell directives
// itself and CQL through a CqlSession, and prints results as cqlsh does
// (--format table) or as one JSON line per result (--format json).
//
// Failed statements are reported and counted; the shell goes on unless
// --fail-fast, then ignores everything after the first failure.
// Thread-compatible: one thread drives a Shell.
#pragma once

#include <atomic>
#include <cstdint>
#include <fstream>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/file_system.h"
#include "cassette/status.h"
#include "tools/command_line.h"
#include "tools/shell_directives.h"

namespace cassette::tools {

class CopyFromLoader;

// Where the shell writes, and whether a person is typing.
struct ShellIo {
  std::ostream* out = nullptr;  // results (and json error lines)
  std::ostream* err = nullptr;  // table-mode errors, json-mode warnings
  // Input from a terminal: errors carry no "<file>:<line>:" prefix and
  // cqlsh's terminal layout is used.
  bool tty = false;
  // Set when the user presses Ctrl-C (shell_interrupt.h): the running
  // statement stops at its next page or cancellation point, the statements
  // after it on the line are dropped. Null: statements are never cancelled.
  const std::atomic<bool>* interrupted = nullptr;
  // On a terminal, asked between the pages of a SELECT as cqlsh does
  // ("---MORE---"; never while capturing): false ends the listing.
  std::function<bool()> more = nullptr;
};

// "0.1.0": the project's version (`cassette --version`, SHOW VERSION).
std::string CassetteVersion();

class Shell {
 public:
  // Opens settings.data_dir on `file_system`. With a manual clock, jobs go
  // to a ManualScheduler the shell drains after each statement (a memtable
  // that filled is flushed then) and compaction runs only on COMPACT.
  static Result<std::unique_ptr<Shell>> Open(const ShellSettings& settings,
                                             std::shared_ptr<FileSystem> file_system,
                                             const ShellIo& io);
  ~Shell();
  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  // Runs every statement of `text` (-e, -f, SOURCE); errors are located as
  // "<source>:<line>:". An unfinished last statement is an error.
  void RunScript(std::string_view text, const std::string& source);
  // The same, read from `in` a line at a time (-f, SOURCE): never more
  // than one statement's text (at most Options::native_transport_max_frame_size
  // bytes) is held; a longer one is refused and the rest of `in` left unread.
  void RunStream(std::istream& in, const std::string& source);
  // Standard input that is not a terminal, read as RunStream reads.
  void RunInput(std::istream& in);
  // Line by line from a terminal; a statement past the size limit is refused.
  void FeedLine(std::string_view line);
  // End of standard input.
  void FinishInput();
  // The statements of -e: as cqlsh does, the last may lack its ';'.
  void RunCommandLine(std::string_view text);
  // Ctrl-C while a line was being typed: the unfinished statement is
  // dropped, as cqlsh drops it.
  void CancelInput();

  // What the interactive shell prints first: the data directory, the clock,
  // the version (and a warning when opening created the directory).
  std::string Banner() const;
  // SHOW VERSION / SHOW HOST lines.
  std::string VersionLine() const;
  std::string HostLine() const;
  // Tab completion (shell_completion.h) of `word` after `before` on the
  // line being typed, in the context of the unfinished statement.
  std::vector<std::string> Complete(const std::string& before, const std::string& word) const;
  // Whether Open created the data directory (it did not exist).
  bool created_data_directory() const { return created_data_directory_; }

  // "cassette> ", "cassette:ks> ", or "   ... " inside a statement.
  std::string Prompt() const;
  // After EXIT/QUIT, or the first failure with --fail-fast.
  bool stopped() const { return stopped_; }
  int failed_statements() const { return failed_statements_; }
  // 0 when every statement succeeded, else 1.
  int ExitCode() const { return failed_statements_ > 0 ? 1 : 0; }

  // Closes the database (syncing the commit log); a failure counts.
  Status Close();

  Database* database() const { return db_.get(); }
  CqlSession* session() const { return session_.get(); }

 private:
  // Prints on io_.err what opening the directory found and did (a torn
  // write dropped, damage skipped, files removed or left alone).
  void ReportRecovery(const std::string& data_dir);

  // Statements being read from one source.
  struct Input {
    std::string source;
    int line = 0;
    std::string pending;  // text of an unfinished statement
    bool show_location = true;
    int depth = 0;  // SOURCE nesting
  };
  // Whether a directive's failure is the shell's (printed as its bare
  // message) or the database's (printed as cqlsh prints server errors).
  enum class ErrorOrigin : uint8_t { kShell, kServer };

  Shell(const ShellSettings& settings, const ShellIo& io);

  // Every line of `text`, then the end of the source.
  void RunLines(Input* input, std::string_view text);
  enum class LineRead : uint8_t { kLine, kEnd, kTooLong };
  // The next line of `in` without its '\n', or kTooLong past `limit` bytes.
  static LineRead ReadBoundedLine(std::istream& in, size_t limit, std::string* line);
  void ReadLines(Input* input, std::istream& in);
  size_t MaxStatementBytes() const;
  void RefuseLongStatement(Input* input);
  void ProcessLine(Input* input, std::string_view line);
  void FinishSource(Input* input);
  void ExecuteStatement(std::string_view statement, const Input& input);
  void ExecuteCql(std::string_view statement, const Input& input);
  // The page after `paging_state`; a page that does not advance fails.
  Result<CqlResult> NextPage(const CqlPreparedStatement& prepared, CqlQueryOptions* options,
                             const std::string& paging_state);
  // Appends every further page to `result` (statements other than SELECT).
  Status FetchRemainingPages(const CqlPreparedStatement& prepared, CqlQueryOptions options,
                             CqlResult* result);
  // A SELECT's pages, each printed as it arrives.
  void PrintSelectPages(const CqlPreparedStatement& prepared, CqlResult page,
                        CqlQueryOptions options, const Input& input);
  void PrintResult(std::string_view statement, const CqlResult& result);
  void ReportFailure(const Status& status, ErrorOrigin origin, const Input& input);
  // Runs jobs queued on the manual scheduler (flushes of full memtables).
  void RunQueuedWork();
  // Whether Ctrl-C was pressed since the line was read.
  bool Interrupted() const;
  // Where results go: the CAPTURE file, else io_.out.
  std::ostream& Out();
  // TRACING ON: the statement's time, as cqlsh's "Request complete" row.
  void PrintTiming(int64_t elapsed_micros);

  // shell_directives_runner.cc
  void RunDirective(const Directive& directive, const Input& input);
  Status ForEachTable(const Directive& directive,
                      const std::function<Status(const std::string&, const std::string&)>& run);
  Status SetClock(const Directive& directive);
  void PrintInfo(const std::string& line);
  void PrintNotice(const std::string& line);
  void RunSwitch(const Directive& directive, const char* command, const char* description,
                 bool* state);
  void RunCapture(const Directive& directive, const Input& input);
  void RunShow(const Directive& directive, const Input& input);
  void RunHelp(const Directive& directive, const Input& input);

  const std::string data_dir_;
  const std::optional<int64_t> clock_start_micros_;
  // copy_shell.cc: COPY TO / COPY FROM; for COPY FROM STDIN the lines that
  // follow are CSV until a line "\." (or ".") or the end of the input.
  void RunCopy(const Directive& directive, const Input& input);
  void FeedCopyInput(std::string_view line);
  void FinishCopyInput();
  std::unique_ptr<CopyFromLoader> copy_input_;

  const OutputFormat format_;
  const bool fail_fast_;
  const ShellIo io_;
  std::shared_ptr<ManualClock> manual_clock_;
  std::shared_ptr<ManualScheduler> manual_scheduler_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
  Input stdin_input_;

  bool tracing_ = false;
  bool expand_ = false;
  bool paging_ = true;
  int32_t page_size_ = kDefaultPageSize;
  std::string consistency_ = "ONE";
  std::string serial_consistency_ = "SERIAL";

  // CAPTURE 'file': results are appended there instead of io_.out.
  std::ofstream capture_;
  std::string capture_path_;
  bool created_data_directory_ = false;

  bool stopped_ = false;
  bool closed_ = false;
  int failed_statements_ = 0;

  static constexpr int32_t kDefaultPageSize = 100;
  static constexpr int kMaxSourceDepth = 16;
};

}  // namespace cassette::tools
