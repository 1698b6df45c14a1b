#include "tools/command_line.h"

#include <optional>
#include <utility>

#include "tools/time_text.h"

namespace cassette::tools {

namespace {

// Walks the arguments; a flag's value is the next argument or follows '='
// (--format=json).
class ArgumentCursor {
 public:
  explicit ArgumentCursor(const std::vector<std::string>& args) : args_(args) {}
  bool done() const { return index_ >= args_.size(); }
  // The next argument's flag part ("--format" of "--format=json").
  std::string NextFlag() {
    const std::string& arg = args_[index_++];
    inline_value_.reset();
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value_ = arg.substr(eq + 1);
      return arg.substr(0, eq);
    }
    return arg;
  }
  Result<std::string> Value(const std::string& flag) {
    if (inline_value_) return *std::exchange(inline_value_, std::nullopt);
    if (done()) return Status::InvalidArgument(flag + " needs a value");
    return args_[index_++];
  }

 private:
  const std::vector<std::string>& args_;
  size_t index_ = 0;
  std::optional<std::string> inline_value_;
};

Result<OutputFormat> ParseFormat(const std::string& text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "json") return OutputFormat::kJson;
  return Status::InvalidArgument("--format must be table or json, not '" + text + "'");
}

Result<std::optional<int64_t>> ParseClock(const std::string& text) {
  if (text == "system") return std::optional<int64_t>();
  const std::string prefix = "manual:";
  if (text.rfind(prefix, 0) != 0) {
    return Status::InvalidArgument("--clock must be system or manual:<ISO-8601>, not '" + text +
                                   "'");
  }
  CASSETTE_ASSIGN_OR_RETURN(int64_t micros, ParseIsoMicros(text.substr(prefix.size())));
  Status in_range = CheckManualClockMicros(micros, "--clock");
  if (!in_range.ok()) return Status::InvalidArgument(in_range.message());
  return std::optional<int64_t>(micros);
}

Result<CommitLogSync> ParseSync(const std::string& text) {
  if (text == "periodic") return CommitLogSync::kPeriodic;
  if (text == "group") return CommitLogSync::kGroup;
  if (text == "batch") return CommitLogSync::kBatch;
  return Status::InvalidArgument("--commitlog-sync must be periodic, group or batch, not '" + text +
                                 "'");
}

Result<CommitFailurePolicy> ParseCommitFailurePolicy(const std::string& text) {
  if (text == "stop") return CommitFailurePolicy::kStop;
  if (text == "ignore") return CommitFailurePolicy::kIgnore;
  if (text == "die") return CommitFailurePolicy::kDie;
  return Status::InvalidArgument("--commit-failure-policy must be stop, ignore or die, not '" +
                                 text + "'");
}

Result<DiskFailurePolicy> ParseDiskFailurePolicy(const std::string& text) {
  if (text == "stop") return DiskFailurePolicy::kStop;
  if (text == "best_effort") return DiskFailurePolicy::kBestEffort;
  if (text == "ignore") return DiskFailurePolicy::kIgnore;
  return Status::InvalidArgument(
      "--disk-failure-policy must be stop, best_effort or ignore, not '" + text + "'");
}

}  // namespace

Result<ShellSettings> ParseShellArguments(const std::vector<std::string>& args) {
  ShellSettings settings;
  ArgumentCursor cursor(args);
  while (!cursor.done()) {
    const std::string flag = cursor.NextFlag();
    if (flag == "--data") {
      CASSETTE_ASSIGN_OR_RETURN(settings.data_dir, cursor.Value(flag));
    } else if (flag == "--clock") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.manual_clock_micros, ParseClock(value));
    } else if (flag == "--format") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.format, ParseFormat(value));
    } else if (flag == "--commitlog-sync") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.commitlog_sync, ParseSync(value));
    } else if (flag == "--commit-failure-policy") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.commit_failure_policy, ParseCommitFailurePolicy(value));
    } else if (flag == "--disk-failure-policy") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.disk_failure_policy, ParseDiskFailurePolicy(value));
    } else if (flag == "-e" || flag == "--execute") {
      if (settings.execute) return Status::InvalidArgument("-e given twice");
      CASSETTE_ASSIGN_OR_RETURN(settings.execute, cursor.Value(flag));
    } else if (flag == "-f" || flag == "--file") {
      if (settings.file) return Status::InvalidArgument("-f given twice");
      CASSETTE_ASSIGN_OR_RETURN(settings.file, cursor.Value(flag));
    } else if (flag == "--fail-fast") {
      settings.fail_fast = true;
    } else {
      return Status::InvalidArgument("unknown argument to cassette shell: '" + flag + "'");
    }
  }
  if (settings.execute && settings.file) {
    return Status::InvalidArgument("-e and -f cannot be used together");
  }
  if (settings.data_dir.empty()) return Status::InvalidArgument("--data needs a directory");
  return settings;
}

Result<StatsSettings> ParseStatsArguments(const std::vector<std::string>& args) {
  StatsSettings settings;
  ArgumentCursor cursor(args);
  while (!cursor.done()) {
    const std::string flag = cursor.NextFlag();
    if (flag == "--data") {
      CASSETTE_ASSIGN_OR_RETURN(settings.data_dir, cursor.Value(flag));
    } else if (flag == "--format") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.format, ParseFormat(value));
    } else if (flag == "--clock") {
      CASSETTE_ASSIGN_OR_RETURN(std::string value, cursor.Value(flag));
      CASSETTE_ASSIGN_OR_RETURN(settings.manual_clock_micros, ParseClock(value));
    } else if (!flag.empty() && flag[0] != '-' && settings.table.empty()) {
      settings.table = flag;
    } else {
      return Status::InvalidArgument("unknown argument to cassette stats: '" + flag + "'");
    }
  }
  if (settings.data_dir.empty()) return Status::InvalidArgument("--data needs a directory");
  return settings;
}

std::string UsageText() {
  return R"(Usage:
  cassette shell [--data DIR] [--clock system|manual:<ISO-8601>] [--format table|json]
                 [--commitlog-sync periodic|group|batch] [--commit-failure-policy stop|ignore|die]
                 [--disk-failure-policy stop|best_effort|ignore]
                 [-e STATEMENTS] [-f FILE] [--fail-fast]
  cassette stats [--data DIR] [--clock system|manual:<ISO-8601>] [--format table|json]
                 [ks.table]
  cassette commitlog verify|dump [--data DIR]
  cassette simulate WORKLOAD_FILE | --from-data DIR ks.table
                    [--strategy SPEC]... [--duration 3d] [--seed N] [--jobs N]
                    [--format table|json] [--csv FILE] [--report FILE.html]
                    [--sample F] [--sample-check 3d] [--scratch DIR]
  cassette advise --rate R --row-bytes B [--ttl T] [--identifiers N]
                  [--target-partition-mb M] [--format table|json]
  cassette advise --data DIR [--clock system|manual:<ISO-8601>] [--target-partition-mb M]
                  [--format table|json] ks.table
  cassette sstable dump FILE [--key K] [--now TIME] [--data DIR ks.table]
  cassette sstable meta FILE [--gc-before TIME] [--format table|json]
  cassette sstable verify FILE|DIR
  cassette sstable expired-blockers|layout --data DIR ks.table [--now TIME] [--format table|json]
  cassette --version
  cassette --help

cassette shell runs CQL statements separated by ';' from -e, -f or standard
input (interactive, with line editing and history, on a terminal) against the
embedded database in DIR (default ./data). Besides CQL it takes these
directives:
  FLUSH [ks.table];                 write memtables to SSTables
  COMPACT [ks.table];               run the compaction strategy until it rests
  COMPACT MAJOR [ks.table];         compact all SSTables of a table into one
  CLOCK SET '<ISO-8601>';           set the manual clock (never backwards)
  CLOCK ADVANCE <n> SECONDS|MINUTES|HOURS|DAYS;
  TRACING ON|OFF;  PAGING ON|OFF|<n>;  EXPAND ON|OFF;  CONSISTENCY [level];
  CAPTURE 'file'|OFF;  SHOW VERSION|HOST;  CLEAR;  HELP [topic];  STATS [ks.table];
  SOURCE 'file';  USE ks;  DESCRIBE ...;  EXIT;
On a terminal: Tab completes keywords, keyspaces, tables and columns; Ctrl-C
cancels the line or the running statement; history is kept in
~/.cassette_history; PAGING pauses between pages (---MORE---).
With --clock manual:<time> nothing runs in the background: flushes happen on
FLUSH or when a memtable fills, compactions only on COMPACT.
Opening DIR replays its commit log; damage other than a write torn by a crash
stops the open (--commit-failure-policy stop, the default), is replayed past
(ignore), or terminates the process (die, also on a commit-log failure while
running). An SSTable that fails its checks stops the open
(--disk-failure-policy stop, the default), is taken out of service for good
(best_effort: kept on disk, never read again; reads then miss its data and
may see data it deleted) or is skipped this time (ignore); with best_effort
an SSTable a read or compaction finds damaged is taken out of service too.
What the open found and did is printed on standard error.

cassette stats prints per-table statistics (SSTables, bytes, write
amplification, partition sizes, tombstones, TWCS windows and why their data
is still on disk, damaged SSTables, write stalls, compaction history, and
each SSTable's size, timestamps and expiry), opening DIR read-only beside a
running process; an SSTable that does not load is listed, not fatal. With
--clock manual:<time> expiry is judged at that time (as the shell's clock).

cassette commitlog verify checks the commit log of DIR as opening it would
(torn final write, damaged records, unsealed or missing segments) and exits
1 where the open would refuse; dump lists every record and marker.

cassette simulate replays a workload (a TOML file, docs/LAB.md) through the
engine on a virtual clock, once per compaction strategy (--strategy
'twcs:compaction_window_unit=HOURS,compaction_window_size=1', stcs, lcs,
'ucs:scaling_parameters=T4', or the file's run.strategies), and compares write,
space and read amplification, disk use and expiry. --csv writes the time
series; --report writes one self-contained HTML page with its charts and the
summary table.

cassette advise recommends a time bucket for the partition key, hash
sub-buckets and a TWCS window (docs/ADVISE.md) for R rows per second per
identifier (0.1/s, 6/min, 1/10s) of B bytes each (60, 1.5KB) living T
(7d, 12h, none), aiming under M MB per partition (default 100); with
--data it derives them from the table's data, read-only, and says whether
the table's bucketing and window fit.

cassette sstable reads SSTables as Cassandra's sstable tools do: dump prints
a file's partitions, rows and cells as JSON (sstabledump), meta its metadata
(sstablemetadata), verify checks every checksum and the index against the
data; expired-blockers lists the SSTables that keep fully expired ones on
disk (sstableexpiredblockers), layout a TWCS table's windows. See
docs/TOOLS.md.

Exit status: 0 success, 1 a statement or the command failed, 2 usage error.
)";
}

}  // namespace cassette::tools
