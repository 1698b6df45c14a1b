#include "tools/copy_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>

namespace cassette::tools {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Strip(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// Python's int(text): surrounding blanks, a sign, digits (underscores
// between digits allowed).
Result<int64_t> PythonInt(const std::string& text) {
  std::string digits;
  const std::string stripped = Strip(text);
  for (size_t i = 0; i < stripped.size(); ++i) {
    const char c = stripped[i];
    if (c == '_' && i > 0 && i + 1 < stripped.size() &&
        std::isdigit(static_cast<unsigned char>(stripped[i - 1])) != 0 &&
        std::isdigit(static_cast<unsigned char>(stripped[i + 1])) != 0) {
      continue;
    }
    digits.push_back(c);
  }
  if (!digits.empty() && digits[0] == '+') digits.erase(0, 1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    return Status::InvalidRequest("invalid literal for int() with base 10: '" + text + "'");
  }
  return value;
}

Result<double> PythonFloat(const std::string& text) {
  const std::string stripped = Strip(text);
  double value = 0;
  const auto [end, error] =
      std::from_chars(stripped.data(), stripped.data() + stripped.size(), value);
  if (stripped.empty() || error != std::errc() || end != stripped.data() + stripped.size()) {
    return Status::InvalidRequest("could not convert string to float: '" + text + "'");
  }
  return value;
}

// A one-character dialect option. Python's csv refuses anything else
// with these messages.
Result<char> DialectChar(const std::string& name, const std::string& value) {
  if (value.size() != 1) {
    return Status::InvalidRequest("\"" + name + "\" must be a 1-character string");
  }
  return value[0];
}

// Python's repr of a list of strings: ['a', 'b'].
std::string ListRepr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += "'" + items[i] + "'";
  }
  return out + "]";
}

std::vector<std::string> SplitStripped(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(Strip(text.substr(start, end - start)));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

// cqlsh's maybe_read_config_file: the options of the sections [copy],
// [copy-<direction>], [copy:<ks>.<table>] and [copy-<direction>:<ks>.<table>]
// of an INI file (Python's RawConfigParser: "name = value" or "name: value",
// names folded to lower case, '#' and ';' comment lines), later sections
// overriding earlier ones. A path that is no file gives nothing, as in cqlsh.
std::map<std::string, std::string> ReadConfigFile(const std::string& path,
                                                  const std::string& direction,
                                                  const std::string& keyspace,
                                                  const std::string& table) {
  std::map<std::string, std::map<std::string, std::string>> sections;
  std::ifstream in(path);
  std::string line, section;
  while (std::getline(in, line)) {
    const std::string text = Strip(line);
    if (text.empty() || text[0] == '#' || text[0] == ';') continue;
    if (text.front() == '[' && text.back() == ']') {
      section = Strip(text.substr(1, text.size() - 2));
      continue;
    }
    const size_t separator = text.find_first_of("=:");
    if (separator == std::string::npos || section.empty()) continue;
    sections[section][Lower(Strip(text.substr(0, separator)))] = Strip(text.substr(separator + 1));
  }
  const std::string dir = Lower(direction);
  const std::string target = keyspace + "." + table;
  std::map<std::string, std::string> merged;
  for (const std::string& name :
       {std::string("copy"), "copy-" + dir, "copy:" + target, "copy-" + dir + ":" + target}) {
    auto it = sections.find(name);
    if (it == sections.end()) continue;
    for (const auto& [key, value] : it->second) merged[key] = value;
  }
  return merged;
}

}  // namespace

Result<CopyOptions> ResolveCopyOptions(
    const std::string& direction, const std::string& keyspace, const std::string& table,
    const std::vector<std::pair<std::string, std::string>>& options) {
  std::map<std::string, std::string> opts;
  for (const auto& [name, value] : options) opts[Lower(name)] = value;
  // CONFIGFILE's options first; those of the command override them.
  if (auto it = opts.find("configfile"); it != opts.end()) {
    const std::string path = it->second;
    opts.erase(it);
    for (auto& [name, value] : ReadConfigFile(path, direction, keyspace, table)) {
      opts.emplace(name, value);
    }
  }
  auto pop = [&opts](const char* name) -> std::optional<std::string> {
    auto it = opts.find(name);
    if (it == opts.end()) return std::nullopt;
    std::string value = std::move(it->second);
    opts.erase(it);
    return value;
  };
  auto pop_int = [&](const char* name, int64_t fallback) -> Result<int64_t> {
    std::optional<std::string> value = pop(name);
    if (!value) return fallback;
    return PythonInt(*value);
  };

  CopyOptions out;
  CsvDialect& dialect = out.dialect;
  if (auto v = pop("quote")) {
    CASSETTE_ASSIGN_OR_RETURN(dialect.quote, DialectChar("quotechar", *v));
  }
  if (auto v = pop("escape")) {
    CASSETTE_ASSIGN_OR_RETURN(dialect.escape, DialectChar("escapechar", *v));
  }
  if (auto v = pop("delimiter")) {
    CASSETTE_ASSIGN_OR_RETURN(dialect.delimiter, DialectChar("delimiter", *v));
  }
  if (dialect.escape == dialect.quote) {
    dialect.double_quote = true;
    dialect.escape.reset();
  }

  CopyValueFormat& format = out.format;
  if (auto v = pop("null")) format.null_text = *v;
  if (auto v = pop("header")) out.header = Lower(*v) == "true";
  if (auto v = pop("encoding")) {
    // Python names UTF-8 in many ways; cassette reads and writes UTF-8 only.
    const std::string name = Lower(*v);
    if (name != "utf8" && name != "utf-8" && name != "utf_8" && name != "u8") {
      return Status::InvalidRequest("Unsupported encoding '" + *v +
                                    "': cassette reads and writes CSV in UTF-8 only");
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(out.page_size, pop_int("pagesize", 1000));
  if (out.page_size <= 0 || out.page_size > INT32_MAX) {
    return Status::InvalidRequest("PAGESIZE must be between 1 and 2147483647");
  }
  CASSETTE_ASSIGN_OR_RETURN(int64_t page_timeout, pop_int("pagetimeout", 10));
  CASSETTE_ASSIGN_OR_RETURN(int64_t max_attempts, pop_int("maxattempts", 5));
  if (auto v = pop("datetimeformat")) format.datetime_format = *v;
  CASSETTE_ASSIGN_OR_RETURN(int64_t float_precision, pop_int("floatprecision", 5));
  CASSETTE_ASSIGN_OR_RETURN(int64_t double_precision, pop_int("doubleprecision", 12));
  if (float_precision < 0 || float_precision > 100 || double_precision < 0 ||
      double_precision > 100) {
    return Status::InvalidRequest("FLOATPRECISION and DOUBLEPRECISION must be between 0 and 100");
  }
  format.float_precision = static_cast<int>(float_precision);
  format.double_precision = static_cast<int>(double_precision);
  CASSETTE_ASSIGN_OR_RETURN(out.chunk_size, pop_int("chunksize", 5000));
  if (out.chunk_size <= 0) return Status::InvalidRequest("CHUNKSIZE must be positive");
  CASSETTE_ASSIGN_OR_RETURN(int64_t ingest_rate, pop_int("ingestrate", 100000));
  CASSETTE_ASSIGN_OR_RETURN(out.max_batch_size, pop_int("maxbatchsize", 20));
  CASSETTE_ASSIGN_OR_RETURN(out.min_batch_size, pop_int("minbatchsize", 10));
  if (auto v = pop("reportfrequency")) {
    CASSETTE_ASSIGN_OR_RETURN(out.report_frequency, PythonFloat(*v));
  }
  if (auto v = pop("decimalsep")) format.decimal_separator = *v;
  if (auto v = pop("thousandssep")) format.thousands_separator = *v;
  const std::vector<std::string> bool_styles =
      SplitStripped(pop("boolstyle").value_or("True, False"), ',');
  if (bool_styles.size() != 2 || bool_styles[0] == bool_styles[1] || bool_styles[0].empty() ||
      bool_styles[1].empty()) {
    return Status::InvalidRequest("Invalid boolean styles " + ListRepr(bool_styles));
  }
  format.true_text = bool_styles[0];
  format.false_text = bool_styles[1];
  CASSETTE_ASSIGN_OR_RETURN(int64_t num_processes, pop_int("numprocesses", 1));
  for (const char* name : {"begintoken", "endtoken"}) {
    std::optional<std::string> value = pop(name);
    if (!value || value->empty()) continue;
    CASSETTE_ASSIGN_OR_RETURN(int64_t token, PythonInt(*value));
    (std::string_view(name) == "begintoken" ? out.begin_token : out.end_token) = token;
  }
  if (out.begin_token && out.end_token && *out.begin_token > *out.end_token) {
    return Status::InvalidRequest("Begin token " + std::to_string(*out.begin_token) +
                                  " must be smaller than end token " +
                                  std::to_string(*out.end_token));
  }
  CASSETTE_ASSIGN_OR_RETURN(out.max_rows, pop_int("maxrows", -1));
  CASSETTE_ASSIGN_OR_RETURN(out.skip_rows, pop_int("skiprows", 0));
  if (auto v = pop("skipcols")) {
    for (std::string& name : SplitStripped(*v, ',')) {
      if (!name.empty()) out.skip_columns.push_back(std::move(name));
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(out.max_parse_errors, pop_int("maxparseerrors", -1));
  CASSETTE_ASSIGN_OR_RETURN(out.max_insert_errors, pop_int("maxinserterrors", 1000));
  out.error_file = pop("errfile").value_or("import_" + keyspace + "_" + table + ".err");
  pop("ratefile");
  CASSETTE_ASSIGN_OR_RETURN(out.max_output_size, pop_int("maxoutputsize", -1));
  pop("preparedstatements");
  CASSETTE_ASSIGN_OR_RETURN(out.ttl, pop_int("ttl", -1));
  CASSETTE_ASSIGN_OR_RETURN(int64_t max_requests, pop_int("maxrequests", 6));
  CASSETTE_ASSIGN_OR_RETURN(int64_t in_flight, pop_int("maxinflightmessages", 512));
  CASSETTE_ASSIGN_OR_RETURN(int64_t backoff, pop_int("maxbackoffattempts", 12));
  CASSETTE_ASSIGN_OR_RETURN(int64_t pending, pop_int("maxpendingchunks", 24));
  CASSETTE_ASSIGN_OR_RETURN(int64_t request_timeout, pop_int("requesttimeout", 60));
  CASSETTE_ASSIGN_OR_RETURN(int64_t child_timeout, pop_int("childtimeout", 90));
  // Checked like cqlsh (a malformed number is an error), used by nothing:
  // they tune worker processes, parallel requests and retries against
  // remote replicas, none of which a single in-process node has.
  (void)page_timeout, (void)max_attempts, (void)ingest_rate, (void)num_processes,
      (void)max_requests, (void)in_flight, (void)backoff, (void)pending, (void)request_timeout,
      (void)child_timeout;

  if (!opts.empty()) {
    // Named in the order written, as cqlsh's dict keeps them.
    std::string names;
    for (const auto& [name, value] : options) {
      const std::string lower = Lower(name);
      if (opts.erase(lower) > 0) names += (names.empty() ? "" : ", ") + lower;
    }
    for (const auto& [name, value] : opts) names += (names.empty() ? "" : ", ") + name;
    return Status::InvalidRequest("Unrecognized COPY " + direction + " options: " + names);
  }
  return out;
}

}  // namespace cassette::tools
