#include "tools/shell_completion.h"

#include <algorithm>
#include <cctype>

#include "tools/shell.h"
#include "tools/shell_directives.h"

namespace cassette::tools {

namespace {

// The words a statement is made of, most of CQL's keywords included; the
// shell's own commands follow.
constexpr std::string_view kKeywords[] = {
    "ADD",         "AGGREGATE",   "ALL",     "ALLOW",
    "ALTER",       "AND",         "APPLY",   "AS",
    "ASC",         "BATCH",       "BEGIN",   "BY",
    "CAPTURE",     "CAST",        "CLEAR",   "CLOCK",
    "CLS",         "CLUSTERING",  "COMPACT", "COMPACTION",
    "CONSISTENCY", "CONTAINS",    "COPY",    "COUNTER",
    "CREATE",      "DEFAULT",     "DELETE",  "DESC",
    "DESCRIBE",    "DISTINCT",    "DROP",    "DURABLE_WRITES",
    "EXISTS",      "EXIT",        "EXPAND",  "FILTERING",
    "FLUSH",       "FROM",        "FROZEN",  "FULL",
    "GROUP",       "HELP",        "IF",      "IN",
    "INSERT",      "INTO",        "JSON",    "KEY",
    "KEYSPACE",    "KEYSPACES",   "LIMIT",   "LIST",
    "MAJOR",       "MAP",         "NOT",     "NULL",
    "OFF",         "ON",          "ORDER",   "PAGING",
    "PARTITION",   "PER",         "PRIMARY", "QUIT",
    "RENAME",      "REPLICATION", "SCHEMA",  "SELECT",
    "SERIAL",      "SET",         "SHOW",    "SOURCE",
    "STATIC",      "STATS",       "TABLE",   "TABLES",
    "TIMESTAMP",   "TO",          "TOKEN",   "TRACING",
    "TRUNCATE",    "TTL",         "TUPLE",   "TYPE",
    "UNLOGGED",    "UNSET",       "UPDATE",  "USE",
    "USING",       "VALUES",      "VERSION", "WHERE",
    "WITH",        "WRITETIME",   "HOST",
};

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Words of `text` (identifiers, "quoted names" with their quotes, and a
// '.' of its own), enough to find the keyword before the cursor and the
// table a statement names.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) close = text.size() - 1;
      words.emplace_back(text.substr(i, close - i + 1));
      i = close + 1;
    } else if (c == '\'') {
      const size_t close = text.find('\'', i + 1);
      i = close == std::string_view::npos ? text.size() : close + 1;
      words.emplace_back("'");
    } else if (IsWordChar(c)) {
      size_t end = i;
      while (end < text.size() && IsWordChar(text[end])) ++end;
      words.emplace_back(text.substr(i, end - i));
      i = end;
    } else {
      if (c == '.' || c == ';' || c == '(' || c == ',') words.emplace_back(1, c);
      ++i;
    }
  }
  // Only the statement being typed counts.
  const auto last_end = std::find(words.rbegin(), words.rend(), ";");
  if (last_end != words.rend()) words.erase(words.begin(), last_end.base());
  return words;
}

// A name as CQL is typed: bare when it is a lower-case identifier.
std::string CqlName(const std::string& name) {
  const bool bare = !name.empty() && std::islower(static_cast<unsigned char>(name[0])) != 0 &&
                    std::all_of(name.begin(), name.end(), [](char c) {
                      return std::islower(static_cast<unsigned char>(c)) != 0 ||
                             std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
                    });
  if (bare) return name;
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

// ks.table, "Ks".t or table as the statement wrote it.
bool NamedTable(const std::vector<std::string>& words, size_t at, const std::string& current,
                std::string* keyspace, std::string* table) {
  if (at >= words.size()) return false;
  std::string text = words[at];
  if (at + 2 < words.size() && words[at + 1] == ".") text += "." + words[at + 2];
  if (!ParseTableName(text, keyspace, table)) return false;
  if (keyspace->empty()) *keyspace = current;
  return !keyspace->empty();
}

}  // namespace

std::vector<std::string> CompletionCandidates(const Database& db, const std::string& keyspace,
                                              std::string_view before, std::string_view word) {
  const std::vector<std::string> words = Words(before);
  const std::string previous = words.empty() ? "" : Upper(words.back());
  std::vector<std::string> names;  // schema names, matched as typed
  bool keywords = true;
  if (previous == ".") {
    // "ks." then a table of ks.
    std::string named;
    std::string unused;
    if (words.size() >= 2 && ParseTableName(words[words.size() - 2], &unused, &named)) {
      Result<std::vector<std::string>> tables = db.ListTables(named);
      if (tables.ok()) {
        for (const std::string& table : *tables) names.push_back(CqlName(table));
      }
    }
    keywords = false;
  } else if (previous == "USE" || previous == "KEYSPACE") {
    for (const std::string& name : db.ListKeyspaces()) names.push_back(CqlName(name));
    keywords = false;
  } else if (previous == "FROM" || previous == "INTO" || previous == "UPDATE" ||
             previous == "TABLE" || previous == "TRUNCATE" || previous == "DESCRIBE" ||
             previous == "DESC" || previous == "FLUSH" || previous == "COMPACT" ||
             previous == "STATS" || previous == "MAJOR") {
    if (!keyspace.empty()) {
      Result<std::vector<std::string>> tables = db.ListTables(keyspace);
      if (tables.ok()) {
        for (const std::string& table : *tables) names.push_back(CqlName(table));
      }
    }
    for (const std::string& name : db.ListKeyspaces()) names.push_back(CqlName(name) + ".");
    keywords = previous == "DESCRIBE" || previous == "DESC";
  } else {
    // Columns of the table the statement names (SELECT ... FROM t, INSERT
    // INTO t, UPDATE t, DELETE ... FROM t).
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string upper = Upper(words[i]);
      if (upper != "FROM" && upper != "INTO" && upper != "UPDATE") continue;
      std::string table_keyspace;
      std::string table;
      if (!NamedTable(words, i + 1, keyspace, &table_keyspace, &table)) continue;
      Result<TableSchema> schema = db.GetTable(table_keyspace, table);
      if (!schema.ok()) continue;
      for (const ColumnDefinition& column : schema->columns())
        names.push_back(CqlName(column.name));
    }
    // In a column list ("INSERT INTO t (a, ") only columns fit. In
    // "SELECT a, b FROM t" the columns come before the table, which
    // completion cannot see yet: the keywords still help there.
    keywords = names.empty() || (previous != "(" && previous != ",");
  }
  std::vector<std::string> out;
  const std::string typed_upper = Upper(word);
  for (const std::string& name : names) {
    if (name.compare(0, word.size(), word) == 0) out.push_back(name);
  }
  if (keywords) {
    const bool lower =
        std::none_of(word.begin(), word.end(),
                     [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }) &&
        !word.empty();
    for (std::string_view keyword : kKeywords) {
      if (keyword.compare(0, typed_upper.size(), typed_upper) != 0) continue;
      std::string candidate(keyword);
      if (lower) {
        for (char& c : candidate)
          c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      out.push_back(std::move(candidate));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> Shell::Complete(const std::string& before, const std::string& word) const {
  if (db_ == nullptr || session_ == nullptr) return {};
  return CompletionCandidates(*db_, session_->keyspace(), stdin_input_.pending + before, word);
}

}  // namespace cassette::tools
