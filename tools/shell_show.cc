// Shell::RunCapture and RunShow (cqlsh's CAPTURE and SHOW VERSION / SHOW
// HOST, pylib/cqlshlib/cqlshmain.py do_capture / do_show), and the banner
// the interactive shell opens with (cqlsh's "Connected to ... Use HELP for
// help.").
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cassette/version.h"
#include "tools/shell.h"
#include "tools/time_text.h"

namespace cassette::tools {

namespace {

// cqlsh expands '~' to $HOME (os.path.expanduser).
std::string ExpandHome(const std::string& path) {
  if (path.empty() || path[0] != '~' || (path.size() > 1 && path[1] != '/')) return path;
  const char* home = std::getenv("HOME");
  if (home == nullptr) return path;
  return std::string(home) + path.substr(1);
}

// Python's %r of a plain path: in single quotes.
std::string Quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace

std::string CassetteVersion() { return std::string(cassette::Version()); }

std::string Shell::VersionLine() const {
  // cqlsh: [cqlsh 6.2.0 | Cassandra 5.0.2 | CQL spec 3.4.7 | Native protocol v5].
  // The CQL spec is Cassandra 5.0's; nothing speaks the native protocol.
  return "[cassette " + CassetteVersion() + " | CQL spec 3.4.7 | embedded]";
}

std::string Shell::HostLine() const {
  std::string clock = manual_clock_ ? "manual clock, now " : "system clock, now ";
  clock += FormatIsoMicros(db_->NowMicros());
  return "Connected to the database in " + data_dir_ + " (" + clock + ").";
}

std::string Shell::Banner() const {
  std::string out = HostLine() + "\n" + VersionLine() + "\nUse HELP for help.\n";
  if (created_data_directory_) {
    out += "Warning: " + data_dir_ +
           " did not exist: a new, empty database was created there (check --data).\n";
  }
  return out;
}

void Shell::RunCapture(const Directive& directive, const Input& input) {
  if (directive.argument.empty() && !directive.on.has_value()) {
    PrintInfo(capture_.is_open()
                  ? "Currently capturing query output to " + Quoted(capture_path_) + "."
                  : "Currently not capturing query output.");
    return;
  }
  if (directive.on.has_value()) {  // CAPTURE OFF
    if (!capture_.is_open()) {
      ReportFailure(Status::InvalidRequest("Not currently capturing output."), ErrorOrigin::kShell,
                    input);
      return;
    }
    capture_.close();
    capture_path_.clear();
    return;
  }
  if (capture_.is_open()) {
    ReportFailure(Status::InvalidRequest("Already capturing output to " + capture_path_ +
                                         ". Use CAPTURE OFF to disable."),
                  ErrorOrigin::kShell, input);
    return;
  }
  const std::string path = ExpandHome(directive.argument);
  capture_.open(path, std::ios::app | std::ios::binary);
  if (!capture_.is_open()) {
    ReportFailure(
        Status::IOError("Could not open " + Quoted(path) + " for append: " + std::strerror(errno)),
        ErrorOrigin::kShell, input);
    return;
  }
  capture_path_ = path;
  PrintInfo("Now capturing query output to " + Quoted(path) + ".");
}

void Shell::RunShow(const Directive& directive, const Input& /*input*/) {
  PrintInfo(directive.argument == "VERSION" ? VersionLine() : HostLine());
}

}  // namespace cassette::tools
