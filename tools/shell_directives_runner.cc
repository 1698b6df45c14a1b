// Shell::RunDirective: what each shell directive does. Messages of the
// cqlsh commands (TRACING, PAGING, EXPAND, CONSISTENCY, SOURCE) are cqlsh's.
#include <cerrno>
#include <cstring>
#include <fstream>

#include "tools/json_output.h"
#include "tools/shell.h"
#include "tools/stats_command.h"
#include "tools/time_text.h"

namespace cassette::tools {

void Shell::PrintInfo(const std::string& line) {
  if (format_ == OutputFormat::kTable) *io_.out << line << "\n";
}

void Shell::PrintNotice(const std::string& line) {
  io_.out->flush();
  *io_.err << line << "\n";
}

// cqlsh's SwitchCommand: ON, OFF, or no argument to show the setting.
void Shell::RunSwitch(const Directive& directive, const char* command, const char* description,
                      bool* state) {
  const std::string name(description);
  const std::string word(command);
  if (!directive.on.has_value()) {
    if (directive.page_size.has_value()) return;  // PAGING <n> sets the size silently
    PrintInfo(*state ? name + " is currently enabled. Use " + word + " OFF to disable"
                     : name + " is currently disabled. Use " + word + " ON to enable.");
    return;
  }
  if (*directive.on) {
    if (*state) {
      PrintNotice(name + " is already enabled. Use " + word + " OFF to disable.");
      return;
    }
    PrintInfo("Now " + name + " is enabled");
    *state = true;
    return;
  }
  if (!*state) {
    PrintNotice(name + " is not enabled.");
    return;
  }
  PrintInfo("Disabled " + name + ".");
  *state = false;
}

Status Shell::ForEachTable(
    const Directive& directive,
    const std::function<Status(const std::string&, const std::string&)>& run) {
  if (!directive.table.empty()) {
    std::string keyspace = directive.keyspace.empty() ? session_->keyspace() : directive.keyspace;
    if (keyspace.empty()) {
      return Status::InvalidRequest(
          "No keyspace has been specified. USE a keyspace, or explicitly specify "
          "keyspace.tablename");
    }
    return run(keyspace, directive.table);
  }
  for (const std::string& keyspace : db_->ListKeyspaces()) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<std::string> tables, db_->ListTables(keyspace));
    for (const std::string& table : tables) CASSETTE_RETURN_IF_ERROR(run(keyspace, table));
  }
  return Status::OK();
}

Status Shell::SetClock(const Directive& directive) {
  const char* verb = directive.kind == Directive::Kind::kClockSet ? "CLOCK SET" : "CLOCK ADVANCE";
  if (manual_clock_ == nullptr) {
    return Status::InvalidRequest(std::string(verb) +
                                  " needs a manual clock: start the shell with --clock "
                                  "manual:<ISO-8601>");
  }
  const int64_t now = manual_clock_->WallMicros();
  if (directive.kind == Directive::Kind::kClockAdvance) {
    if (directive.micros > INT64_MAX - now) {
      return Status::InvalidRequest("CLOCK ADVANCE would move the clock past the year 292277");
    }
    CASSETTE_RETURN_IF_ERROR(CheckManualClockMicros(now + directive.micros, "CLOCK ADVANCE to"));
    return manual_clock_->Advance(directive.micros);
  }
  Result<int64_t> target = ParseIsoMicros(directive.argument);
  if (!target.ok()) return Status::InvalidRequest(target.status().message());
  if (*target < now) {
    return Status::InvalidRequest("CLOCK SET '" + directive.argument + "' is before the clock (" +
                                  FormatIsoMicros(now) + "): the clock never goes backwards");
  }
  CASSETTE_RETURN_IF_ERROR(CheckManualClockMicros(*target, "CLOCK SET"));
  return manual_clock_->Set(*target);
}

void Shell::RunDirective(const Directive& directive, const Input& input) {
  using Kind = Directive::Kind;
  switch (directive.kind) {
    case Kind::kFlush:
    case Kind::kCompact:
    case Kind::kCompactMajor: {
      Status status;
      if (directive.kind == Kind::kFlush && directive.table.empty()) {
        status = db_->Flush();
      } else {
        status =
            ForEachTable(directive, [&](const std::string& keyspace, const std::string& table) {
              if (directive.kind == Kind::kFlush) return db_->FlushTable(keyspace, table);
              if (directive.kind == Kind::kCompact) return db_->Compact(keyspace, table);
              return db_->CompactMajor(keyspace, table);
            });
      }
      if (!status.ok()) ReportFailure(status, ErrorOrigin::kServer, input);
      return;
    }
    case Kind::kClockShow:
      PrintInfo("Clock: " + FormatIsoMicros(db_->NowMicros()) +
                (manual_clock_ ? " (manual)" : " (system)"));
      return;
    case Kind::kClockSet:
    case Kind::kClockAdvance: {
      Status status = SetClock(directive);
      if (!status.ok()) ReportFailure(status, ErrorOrigin::kShell, input);
      return;
    }
    case Kind::kTracing:
      RunSwitch(directive, "TRACING", "Tracing", &tracing_);
      return;
    case Kind::kExpand:
      RunSwitch(directive, "EXPAND", "Expanded output", &expand_);
      return;
    case Kind::kPaging:
      RunSwitch(directive, "PAGING", "Query paging", &paging_);
      if (directive.page_size) {
        paging_ = true;
        page_size_ = *directive.page_size;
      }
      if (paging_) {
        PrintInfo("Page size: " + std::to_string(page_size_));
      } else {
        page_size_ = kDefaultPageSize;
      }
      return;
    case Kind::kConsistency:
      // One node: every level reads and writes the same single replica.
      if (directive.argument.empty()) {
        PrintInfo("Current consistency level is " + consistency_ + ".");
      } else {
        consistency_ = directive.argument;
        PrintInfo("Consistency level set to " + consistency_ + ".");
      }
      return;
    case Kind::kSerialConsistency:
      if (directive.argument.empty()) {
        PrintInfo("Current serial consistency level is " + serial_consistency_ + ".");
      } else {
        serial_consistency_ = directive.argument;
        PrintInfo("Serial consistency level set to " + serial_consistency_ + ".");
      }
      return;
    case Kind::kSource: {
      if (input.depth >= kMaxSourceDepth) {
        ReportFailure(Status::InvalidRequest("SOURCE nested more than " +
                                             std::to_string(kMaxSourceDepth) + " deep"),
                      ErrorOrigin::kShell, input);
        return;
      }
      std::ifstream file(directive.argument, std::ios::binary);
      if (!file) {
        ReportFailure(
            Status::IOError("Could not open '" + directive.argument + "': " + std::strerror(errno)),
            ErrorOrigin::kShell, input);
        return;
      }
      Input nested;
      nested.source = directive.argument;
      nested.depth = input.depth + 1;
      ReadLines(&nested, file);
      return;
    }
    case Kind::kCapture:
      RunCapture(directive, input);
      return;
    case Kind::kShow:
      RunShow(directive, input);
      return;
    case Kind::kHelp:
      RunHelp(directive, input);
      return;
    case Kind::kStats: {
      // The open database's own view: its write stalls and compaction
      // history are the ones this process has seen.
      Status status =
          ForEachTable(directive, [&](const std::string& keyspace, const std::string& table) {
            CASSETTE_ASSIGN_OR_RETURN(std::string report,
                                      TableReport(db_.get(), db_->options().file_system.get(),
                                                  data_dir_, keyspace, table, format_));
            if (format_ == OutputFormat::kTable) Out() << "Keyspace : " << keyspace << "\n";
            Out() << report;
            return Status::OK();
          });
      if (!status.ok()) ReportFailure(status, ErrorOrigin::kServer, input);
      return;
    }
    case Kind::kClear:
      // What `clear` writes (cqlsh runs it): cursor home, erase the screen.
      if (io_.tty) *io_.out << "\x1b[H\x1b[2J" << std::flush;
      return;
    case Kind::kCopy:
      RunCopy(directive, input);
      return;
    case Kind::kExit:
      stopped_ = true;
      return;
  }
}

}  // namespace cassette::tools
