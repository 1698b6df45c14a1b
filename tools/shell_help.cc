// Shell::RunHelp: cqlsh's HELP. Without a topic it lists the shell's
// commands and the CQL topics in columns (Python's cmd.Cmd.print_topics,
// as cqlsh prints them); HELP <topic> prints that command's usage or the
// CQL statement's synopsis (cqlsh opens the online CQL reference there;
// an embedded shell prints the syntax it accepts instead). The topic names
// are cqlsh's (pylib/cqlshlib/cqlshmain.py do_* docstrings, cqldocs),
// keeping those that apply to one embedded node.
#include <algorithm>
#include <array>
#include <string_view>

#include "tools/shell.h"

namespace cassette::tools {

namespace {

struct HelpTopic {
  std::string_view name;
  std::string_view text;
};

// The shell's own commands (cqlsh's, and cassette's nodetool-like ones).
constexpr std::array<HelpTopic, 19> kShellTopics = {{
    {"CAPTURE",
     "CAPTURE '<file>';  CAPTURE OFF;  CAPTURE;\n"
     "  Appends query results to <file> (~ is $HOME) instead of showing them.\n"
     "  Errors and the shell's own messages are still shown. CAPTURE OFF stops;\n"
     "  CAPTURE alone shows where output goes."},
    {"CLEAR", "CLEAR;  CLS;\n  Clears the terminal."},
    {"CLOCK",
     "CLOCK;  CLOCK SET '<ISO-8601>';  CLOCK ADVANCE <n> SECONDS|MINUTES|HOURS|DAYS;\n"
     "  Shows the database's clock, or moves a manual clock (--clock manual:<time>)\n"
     "  forwards. Time never goes backwards."},
    {"CLS", "CLEAR;  CLS;\n  Clears the terminal."},
    {"COMPACT",
     "COMPACT [ks.table];  COMPACT MAJOR [ks.table];\n"
     "  Runs the table's compaction strategy until it rests (every table when none\n"
     "  is named); MAJOR compacts all SSTables of the table into one (nodetool compact)."},
    {"COPY",
     "COPY <ks.table> [(<columns>)] TO '<file>' | STDOUT [WITH <option> = <value> [AND ...]];\n"
     "COPY <ks.table> [(<columns>)] FROM '<file>' | STDIN [WITH <option> = <value> [AND ...]];\n"
     "  Exports a table to CSV or imports CSV into it, with cqlsh's options (HEADER,\n"
     "  DELIMITER, QUOTE, ESCAPE, NULL, DATETIMEFORMAT, MAXROWS, SKIPROWS, CHUNKSIZE,\n"
     "  MAXPARSEERRORS, ERRFILE, ...) and value formats (docs/TOOLS.md, COPY)."},
    {"CONSISTENCY",
     "CONSISTENCY [<level>];\n"
     "  Shows or sets the consistency level (ANY, ONE, TWO, THREE, QUORUM, ALL,\n"
     "  LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL). On one node\n"
     "  every level reads and writes the same single replica."},
    {"DESC", "DESCRIBE ...;  (see HELP DESCRIBE)"},
    {"DESCRIBE",
     "DESCRIBE KEYSPACES | TABLES | KEYSPACE [<ks>] | TABLE <table> | SCHEMA\n"
     "         | FULL SCHEMA | <name>;\n"
     "  Prints the CQL that creates the objects, as cqlsh does."},
    {"EXIT", "EXIT;  QUIT;\n  Leaves the shell (Ctrl-D does too)."},
    {"EXPAND",
     "EXPAND [ON|OFF];\n  Shows each row as a block of column = value lines (vertical output)."},
    {"FLUSH",
     "FLUSH [ks.table];\n  Writes memtables to SSTables (every table when none is named)."},
    {"HELP", "HELP [<topic> ...];\n  Lists the topics, or shows help on each topic named."},
    {"PAGING",
     "PAGING [ON|OFF|<n>];\n"
     "  Fetches SELECT results a page of <n> rows at a time (100 by default). On a\n"
     "  terminal the shell pauses between pages (---MORE---: Enter shows the next\n"
     "  page, Ctrl-C stops)."},
    {"SERIAL",
     "SERIAL CONSISTENCY [SERIAL|LOCAL_SERIAL];\n"
     "  Shows or sets the serial consistency level of conditional updates."},
    {"SHOW",
     "SHOW VERSION;  SHOW HOST;\n"
     "  The shell's and the CQL version; the data directory and clock in use."},
    {"SOURCE", "SOURCE '<file>';\n  Runs the statements of <file>."},
    {"STATS",
     "STATS [ks.table];\n"
     "  `cassette stats` of the open database (every table when none is named): its\n"
     "  SSTables, write stalls and compaction history as this shell has seen them."},
    {"TRACING",
     "TRACING [ON|OFF];\n"
     "  After each statement, shows what a read touched (partitions, SSTables,\n"
     "  memtables, rows, tombstones, blocks) and how long the statement took."},
}};

// CQL statements and types (cqlsh's cqldocs topics that one node supports).
constexpr std::array<HelpTopic, 32> kCqlTopics = {{
    {"AGGREGATES",
     "SELECT count(*) | count(col) | min(col) | max(col) | sum(col) | avg(col) FROM ...;"},
    {"ALTER_KEYSPACE", "ALTER KEYSPACE <ks> WITH replication = {...} [AND durable_writes = ...];"},
    {"ALTER_TABLE",
     "ALTER TABLE <table> ADD <col> <type> [, ...] | DROP <col> [, ...]\n"
     "                   | RENAME <key col> TO <name> | WITH <option> = <value> ...;"},
    {"APPLY", "BEGIN [UNLOGGED | COUNTER] BATCH ... APPLY BATCH;"},
    {"ASCII", "ascii: US-ASCII text, written as a string literal: 'text'."},
    {"BATCH",
     "BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP <n>]\n"
     "  <insert, update or delete>; ...\n"
     "APPLY BATCH;"},
    {"BEGIN", "BEGIN [UNLOGGED | COUNTER] BATCH ... APPLY BATCH;  (see HELP BATCH)"},
    {"BLOB", "blob: bytes, written as 0x followed by hexadecimal digits: 0xcafe."},
    {"BOOLEAN", "boolean: true or false (case-insensitive)."},
    {"COUNTER",
     "counter: a 64-bit count changed only by UPDATE ... SET c = c + <n> (or - <n>);\n"
     "  a counter table has only counter columns besides its primary key."},
    {"CREATE_KEYSPACE",
     "CREATE KEYSPACE [IF NOT EXISTS] <ks>\n"
     "  WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"},
    {"CREATE_TABLE",
     "CREATE TABLE [IF NOT EXISTS] [<ks>.]<table> (\n"
     "  <col> <type> [STATIC | PRIMARY KEY], ...,\n"
     "  PRIMARY KEY ((<partition cols>), <clustering cols>)\n"
     ") [WITH CLUSTERING ORDER BY (<col> ASC|DESC, ...) AND <option> = <value> ...];"},
    {"DATE", "date: a day without time: '2024-01-15', or days since the epoch."},
    {"DELETE",
     "DELETE [<col>, <col>[<key>] ...] FROM <table> [USING TIMESTAMP <n>]\n"
     "  WHERE <primary key relations> [IF EXISTS | IF <conditions>];"},
    {"DROP_KEYSPACE", "DROP KEYSPACE [IF EXISTS] <ks>;"},
    {"DROP_TABLE", "DROP TABLE [IF EXISTS] [<ks>.]<table>;"},
    {"FUNCTIONS",
     "Native functions: token, now, uuid, to_date, to_timestamp, to_unix_timestamp,\n"
     "min_timeuuid, max_timeuuid, current_timestamp, <type>_as_blob, blob_as_<type>,\n"
     "writetime, maxwritetime, ttl, cast(<term> AS <type>), ..."},
    {"INSERT",
     "INSERT INTO [<ks>.]<table> (<col>, ...) VALUES (<value>, ...)\n"
     "  [IF NOT EXISTS] [USING TTL <seconds> [AND TIMESTAMP <micros>]];"},
    {"INSERT_JSON",
     "INSERT INTO [<ks>.]<table> JSON '<object>' [DEFAULT NULL | DEFAULT UNSET] [USING ...];"},
    {"INT", "int: 32-bit signed integer (also tinyint, smallint, bigint, varint)."},
    {"JSON", "SELECT JSON ... returns each row as one JSON object; INSERT ... JSON takes one."},
    {"KEYWORDS",
     "Keywords are case-insensitive; reserved ones (SELECT, FROM, WHERE, KEY, ...)\n"
     "need \"double quotes\" to be used as names."},
    {"SELECT",
     "SELECT [JSON | DISTINCT] <selectors> | * FROM [<ks>.]<table>\n"
     "  [WHERE <relations>] [GROUP BY <cols>] [ORDER BY <clustering col> ASC|DESC]\n"
     "  [PER PARTITION LIMIT <n>] [LIMIT <n>] [ALLOW FILTERING];"},
    {"SELECT_JSON", "SELECT JSON <selectors> FROM ...;  (see HELP SELECT)"},
    {"TEXT", "text (varchar): UTF-8 text, written as a string literal: 'text'."},
    {"TIME", "time: a time of day with nanoseconds: '08:12:54.123456789'."},
    {"TIMESTAMP",
     "timestamp: an instant with milliseconds: '2024-01-15 10:15:00+0000', or\n"
     "milliseconds since the epoch."},
    {"TRUNCATE", "TRUNCATE [TABLE] [<ks>.]<table>;"},
    {"TYPES",
     "ascii, bigint, blob, boolean, counter, date, decimal, double, duration, float,\n"
     "inet, int, smallint, text, time, timestamp, timeuuid, tinyint, uuid, varchar,\n"
     "varint, list<t>, set<t>, map<k, v>, tuple<...>, frozen<...>."},
    {"UPDATE",
     "UPDATE [<ks>.]<table> [USING TTL <seconds> [AND TIMESTAMP <micros>]]\n"
     "  SET <col> = <value>, <col> = <col> + <value>, <col>[<key>] = <value>, ...\n"
     "  WHERE <primary key relations> [IF EXISTS | IF <conditions>];"},
    {"USE", "USE <ks>;  makes <ks> the keyspace of unqualified table names."},
    {"UUID", "uuid: 123e4567-e89b-12d3-a456-426614174000; timeuuid: a version 1 uuid."},
}};

// Python's cmd.Cmd.columnize: the fewest rows whose columns (two spaces
// apart) fit in `width`, filled column by column.
std::string Columnize(const std::vector<std::string>& words, size_t width) {
  if (words.empty()) return "<empty>\n";
  const size_t size = words.size();
  size_t rows = 1;
  std::vector<size_t> widths;
  for (; rows < size; ++rows) {
    const size_t columns = (size + rows - 1) / rows;
    widths.assign(columns, 0);
    size_t total = 0;
    for (size_t column = 0; column < columns; ++column) {
      for (size_t row = 0; row < rows; ++row) {
        const size_t i = row + rows * column;
        if (i < size) widths[column] = std::max(widths[column], words[i].size());
      }
      total += widths[column] + (column + 1 < columns ? 2 : 0);
    }
    if (total <= width) break;
  }
  if (rows >= size) {
    rows = size;
    widths.assign(1, 0);
    for (const std::string& word : words) widths[0] = std::max(widths[0], word.size());
  }
  const size_t columns = (size + rows - 1) / rows;
  std::string out;
  for (size_t row = 0; row < rows; ++row) {
    std::string line;
    for (size_t column = 0; column < columns; ++column) {
      const size_t i = row + rows * column;
      if (i >= size) break;
      if (column > 0) line += "  ";
      line += words[i];
      if (column + 1 < columns) line.append(widths[column] - words[i].size(), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

template <size_t N>
std::string TopicList(std::string_view header, const std::array<HelpTopic, N>& topics) {
  std::vector<std::string> names;
  for (const HelpTopic& topic : topics) names.emplace_back(topic.name);
  // cmd.Cmd.print_topics: the header, a rule of '=' as long, the columns.
  return std::string(header) + "\n" + std::string(header.size(), '=') + "\n" +
         Columnize(names, 79) + "\n";
}

template <size_t N>
const HelpTopic* FindTopic(const std::array<HelpTopic, N>& topics, std::string_view name) {
  for (const HelpTopic& topic : topics) {
    if (topic.name == name) return &topic;
  }
  return nullptr;
}

}  // namespace

void Shell::RunHelp(const Directive& directive, const Input& input) {
  if (directive.topics.empty()) {
    PrintInfo("\n" + TopicList("Documented shell commands:", kShellTopics) +
              TopicList("CQL help topics:", kCqlTopics));
    return;
  }
  for (const std::string& name : directive.topics) {
    const HelpTopic* topic = FindTopic(kShellTopics, name);
    if (topic == nullptr) topic = FindTopic(kCqlTopics, name);
    if (topic == nullptr) {
      ReportFailure(Status::InvalidRequest("*** No help on " + name), ErrorOrigin::kShell, input);
      continue;
    }
    PrintInfo(std::string(topic->text) + "\n");
  }
}

}  // namespace cassette::tools
