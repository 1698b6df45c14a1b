#include "tools/shell_directives.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "tools/copy_command.h"

namespace cassette::tools {

namespace {

struct Token {
  std::string text;  // a string literal's content, or the word as written
  bool is_string = false;
};

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Words, 'string literals' ('' escapes a quote) and "quoted names" (kept
// with their quotes inside the word). False on an unterminated quote.
bool Tokenize(std::string_view text, std::vector<Token>* tokens) {
  size_t i = 0;
  while (i < text.size()) {
    if (IsSpace(text[i])) {
      ++i;
      continue;
    }
    Token token;
    if (text[i] == '\'') {
      token.is_string = true;
      ++i;
      for (;;) {
        if (i >= text.size()) return false;
        if (text[i] == '\'') {
          if (i + 1 < text.size() && text[i + 1] == '\'') {
            token.text += '\'';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        token.text += text[i++];
      }
    } else {
      while (i < text.size() && !IsSpace(text[i]) && text[i] != '\'') {
        if (text[i] == '"') {
          const size_t close = text.find('"', i + 1);
          if (close == std::string_view::npos) return false;
          token.text += text.substr(i, close - i + 1);
          i = close + 1;
          continue;
        }
        token.text += text[i++];
      }
    }
    tokens->push_back(std::move(token));
  }
  return true;
}

// One part of a table name: "Quoted" keeps its case, a bare name folds to
// lower case as CQL does.
std::string NamePart(std::string_view part) {
  if (part.size() >= 2 && part.front() == '"' && part.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < part.size(); ++i) {
      out += part[i];
      if (part[i] == '"' && part[i + 1] == '"') ++i;
    }
    return out;
  }
  return Lower(part);
}

}  // namespace

bool ParseTableName(std::string_view text, std::string* keyspace, std::string* table) {
  size_t dot = std::string_view::npos;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (text[i] == '.' && !quoted) {
      if (dot != std::string_view::npos) return false;
      dot = i;
    }
  }
  if (quoted) return false;
  keyspace->clear();
  if (dot == std::string_view::npos) {
    *table = NamePart(text);
  } else {
    *keyspace = NamePart(text.substr(0, dot));
    *table = NamePart(text.substr(dot + 1));
  }
  return !table->empty() && (dot == std::string_view::npos || !keyspace->empty());
}

namespace {

Status Improper(std::string_view command, std::string_view usage = {}) {
  std::string message = "Improper " + std::string(command) + " command.";
  if (!usage.empty()) message += " Usage: " + std::string(usage);
  return Status::SyntaxError(message);
}

std::optional<int64_t> ParseCount(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// Microseconds per CLOCK ADVANCE unit (singular or plural).
std::optional<int64_t> UnitMicros(const std::string& unit) {
  static constexpr std::array<std::pair<const char*, int64_t>, 4> kUnits = {{
      {"SECOND", 1'000'000LL},
      {"MINUTE", 60'000'000LL},
      {"HOUR", 3'600'000'000LL},
      {"DAY", 86'400'000'000LL},
  }};
  for (const auto& [name, micros] : kUnits) {
    if (unit == name || unit == std::string(name) + "S") return micros;
  }
  return std::nullopt;
}

Result<Directive> ParseSwitch(Directive::Kind kind, std::string_view command,
                              const std::vector<Token>& args) {
  Directive directive;
  directive.kind = kind;
  if (args.empty()) return directive;
  if (args.size() == 1 && !args[0].is_string) {
    const std::string word = Upper(args[0].text);
    if (word == "ON" || word == "OFF") {
      directive.on = word == "ON";
      return directive;
    }
    if (kind == Directive::Kind::kPaging) {
      std::optional<int64_t> size = ParseCount(word);
      if (size && *size > 0 && *size <= INT32_MAX) {
        directive.page_size = static_cast<int32_t>(*size);
        return directive;
      }
    }
  }
  return Improper(command);
}

Result<Directive> ParseClock(const std::vector<Token>& args) {
  constexpr std::string_view kUsage =
      "CLOCK SET '<ISO-8601>'; or CLOCK ADVANCE <n> SECONDS|MINUTES|HOURS|DAYS;";
  Directive directive;
  if (args.empty()) {
    directive.kind = Directive::Kind::kClockShow;
    return directive;
  }
  const std::string verb = args[0].is_string ? "" : Upper(args[0].text);
  if (verb == "SET" && args.size() == 2 && args[1].is_string) {
    directive.kind = Directive::Kind::kClockSet;
    directive.argument = args[1].text;
    return directive;
  }
  if (verb == "ADVANCE" && args.size() == 3 && !args[1].is_string && !args[2].is_string) {
    std::optional<int64_t> count = ParseCount(args[1].text);
    std::optional<int64_t> unit = UnitMicros(Upper(args[2].text));
    if (count && unit && *count <= INT64_MAX / *unit) {
      directive.kind = Directive::Kind::kClockAdvance;
      directive.micros = *count * *unit;
      return directive;
    }
  }
  return Improper("CLOCK", kUsage);
}

Result<Directive> ParseConsistency(Directive::Kind kind, std::string_view command,
                                   const std::vector<Token>& args) {
  static constexpr std::array<const char*, 11> kLevels = {
      "ANY",       "ONE",          "TWO",         "THREE",  "QUORUM",      "ALL",
      "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL"};
  Directive directive;
  directive.kind = kind;
  if (args.empty()) return directive;
  if (args.size() == 1 && !args[0].is_string) {
    const std::string level = Upper(args[0].text);
    const bool serial_only = kind == Directive::Kind::kSerialConsistency;
    const bool known = serial_only
                           ? (level == "SERIAL" || level == "LOCAL_SERIAL")
                           : std::find(kLevels.begin(), kLevels.end(), level) != kLevels.end();
    if (known) {
      directive.argument = level;
      return directive;
    }
  }
  return Improper(command);
}

Result<Directive> ParseTableDirective(Directive::Kind kind, std::string_view command,
                                      const std::vector<Token>& args) {
  Directive directive;
  directive.kind = kind;
  if (args.empty()) return directive;
  if (args.size() == 1 && !args[0].is_string &&
      ParseTableName(args[0].text, &directive.keyspace, &directive.table)) {
    return directive;
  }
  return Improper(command, std::string(command) + " [keyspace.table];");
}

// cqlsh's CAPTURE: a file name in quotes, OFF, or nothing (show).
Result<Directive> ParseCapture(const std::vector<Token>& args) {
  Directive directive;
  directive.kind = Directive::Kind::kCapture;
  if (args.empty()) return directive;
  if (args.size() == 1 && args[0].is_string && !args[0].text.empty()) {
    directive.argument = args[0].text;
    return directive;
  }
  if (args.size() == 1 && !args[0].is_string && Upper(args[0].text) == "OFF") {
    directive.on = false;
    return directive;
  }
  return Improper("CAPTURE", "CAPTURE '<file>'; or CAPTURE OFF;");
}

std::string_view StripTerminator(std::string_view text) {
  while (!text.empty() && (IsSpace(text.back()) || text.back() == ';')) text.remove_suffix(1);
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  return text;
}

std::string FirstWord(std::string_view text) {
  text = StripTerminator(text);
  size_t end = 0;
  while (end < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) {
    ++end;
  }
  return Upper(text.substr(0, end));
}

}  // namespace

std::optional<Result<Directive>> ParseDirective(std::string_view statement) {
  if (IsCopyCommand(statement)) {
    Directive directive;
    directive.kind = Directive::Kind::kCopy;
    directive.argument = std::string(StripTerminator(statement));
    return directive;
  }
  const std::string command = FirstWord(statement);
  static constexpr std::array<const char*, 17> kCommands = {
      "FLUSH",       "COMPACT", "CLOCK",  "TRACING", "PAGING", "EXPAND",
      "CONSISTENCY", "SERIAL",  "SOURCE", "CAPTURE", "SHOW",   "HELP",
      "CLEAR",       "CLS",     "STATS",  "EXIT",    "QUIT"};
  if (std::find(kCommands.begin(), kCommands.end(), command) == kCommands.end()) {
    return std::nullopt;
  }
  std::vector<Token> tokens;
  if (!Tokenize(StripTerminator(statement), &tokens) || tokens.empty() ||
      Upper(tokens[0].text) != command) {
    return Result<Directive>(Improper(command));
  }
  std::vector<Token> args(tokens.begin() + 1, tokens.end());
  using Kind = Directive::Kind;
  if (command == "FLUSH") return ParseTableDirective(Kind::kFlush, command, args);
  if (command == "COMPACT") {
    if (!args.empty() && !args[0].is_string && Upper(args[0].text) == "MAJOR") {
      args.erase(args.begin());
      return ParseTableDirective(Kind::kCompactMajor, "COMPACT MAJOR", args);
    }
    return ParseTableDirective(Kind::kCompact, command, args);
  }
  if (command == "STATS") return ParseTableDirective(Kind::kStats, command, args);
  if (command == "CLOCK") return ParseClock(args);
  if (command == "TRACING") return ParseSwitch(Kind::kTracing, command, args);
  if (command == "EXPAND") return ParseSwitch(Kind::kExpand, command, args);
  if (command == "PAGING") return ParseSwitch(Kind::kPaging, command, args);
  if (command == "CONSISTENCY") return ParseConsistency(Kind::kConsistency, command, args);
  if (command == "SERIAL") {
    if (args.empty() || args[0].is_string || Upper(args[0].text) != "CONSISTENCY") {
      return Result<Directive>(Improper("SERIAL"));
    }
    args.erase(args.begin());
    return ParseConsistency(Kind::kSerialConsistency, "SERIAL", args);
  }
  if (command == "SOURCE") {
    if (args.size() != 1 || !args[0].is_string) {
      return Result<Directive>(Improper("SOURCE", "SOURCE '<file>';"));
    }
    Directive directive;
    directive.kind = Kind::kSource;
    directive.argument = args[0].text;
    return directive;
  }
  if (command == "CAPTURE") return ParseCapture(args);
  if (command == "SHOW") {
    const std::string what = args.size() == 1 && !args[0].is_string ? Upper(args[0].text) : "";
    if (what != "VERSION" && what != "HOST") {
      return Result<Directive>(Improper("SHOW", "SHOW VERSION; or SHOW HOST;"));
    }
    Directive directive;
    directive.kind = Kind::kShow;
    directive.argument = what;
    return directive;
  }
  if (command == "HELP") {
    Directive directive;
    directive.kind = Kind::kHelp;
    for (const Token& arg : args) directive.topics.push_back(Upper(arg.text));
    return directive;
  }
  // CLEAR / CLS / EXIT / QUIT.
  if (!args.empty()) return Result<Directive>(Improper(command));
  if (command == "CLEAR" || command == "CLS") {
    Directive directive;
    directive.kind = Kind::kClear;
    return directive;
  }
  Directive directive;
  directive.kind = Kind::kExit;
  return directive;
}

bool EndsAtNewline(std::string_view line) {
  static constexpr std::array<const char*, 16> kCommands = {
      "TRACING", "PAGING", "EXPAND", "CONSISTENCY", "SERIAL", "SOURCE", "CAPTURE",  "SHOW",
      "HELP",    "CLEAR",  "CLS",    "STATS",       "EXIT",   "QUIT",   "DESCRIBE", "DESC"};
  const std::string command = FirstWord(line);
  return std::find(kCommands.begin(), kCommands.end(), command) != kCommands.end();
}

}  // namespace cassette::tools
