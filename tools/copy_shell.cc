// Shell::RunCopy: cqlsh's COPY command in the shell (cqlsh.py do_copy).
// Messages go where cqlsh prints them (standard output; standard error
// under --format json, which keeps standard output for results), errors
// to standard error.
#include "tools/copy_command.h"
#include "tools/copy_from.h"
#include "tools/copy_options.h"
#include "tools/copy_to.h"
#include "tools/shell.h"

namespace cassette::tools {

void Shell::RunCopy(const Directive& directive, const Input& input) {
  Result<CopyCommand> command = ParseCopyCommand(directive.argument);
  if (!command.ok()) {
    ReportFailure(command.status(), ErrorOrigin::kShell, input);
    return;
  }
  const std::string keyspace = command->keyspace.empty() ? session_->keyspace() : command->keyspace;
  Result<CopyOptions> options =
      ResolveCopyOptions(command->from ? "FROM" : "TO", keyspace, command->table, command->options);
  if (!options.ok()) {
    ReportFailure(options.status(), ErrorOrigin::kShell, input);
    return;
  }
  CopyStreams streams;
  streams.out = format_ == OutputFormat::kJson ? io_.err : io_.out;
  streams.err = io_.err;
  streams.tty = io_.tty;
  if (!command->from) {
    if (!command->file) streams.out = io_.out;  // the CSV itself
    Result<CopyToSummary> exported = RunCopyTo(session_.get(), *command, *options, streams);
    if (!exported.ok()) ReportFailure(exported.status(), ErrorOrigin::kShell, input);
    return;
  }
  Result<std::unique_ptr<CopyFromLoader>> loader =
      CopyFromLoader::Start(session_.get(), *command, *options, streams);
  if (!loader.ok()) {
    ReportFailure(loader.status(), ErrorOrigin::kShell, input);
    return;
  }
  if (!command->file) {
    // The next lines of this input are the data (cqlsh's STDIN prompt).
    *streams.out << "[Use \\. on a line by itself to end input]\n";
    (*loader)->BeginFile();
    copy_input_ = std::move(*loader);
    return;
  }
  Status loaded = (*loader)->LoadFiles(*command->file);
  if (!loaded.ok()) ReportFailure(loaded, ErrorOrigin::kShell, input);
  (*loader)->Finish();
}

void Shell::FeedCopyInput(std::string_view line) {
  if (line == "\\." || line == ".") {
    FinishCopyInput();
    return;
  }
  copy_input_->AddLine(line);
}

void Shell::FinishCopyInput() {
  std::unique_ptr<CopyFromLoader> loader = std::move(copy_input_);
  loader->Finish();
}

}  // namespace cassette::tools
