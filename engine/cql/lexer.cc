#include "engine/cql/lexer.h"

#include <string>

namespace cassette::cql {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsNameChar(char c) { return IsLetter(c) || IsDigit(c) || c == '_'; }
// CQL's unquoted names and keywords are ASCII, so ASCII folding is exact
// (and, unlike std::tolower, costs no locale lookup per character).
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// The blanks of the C locale's isspace.
bool IsBlank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string Lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

// Length of a uuid (8-4-4-4-12 hex digits) at the start of `s`, or 0.
size_t UuidLength(std::string_view s) {
  static constexpr size_t kGroups[] = {8, 4, 4, 4, 12};
  size_t pos = 0;
  for (size_t g = 0; g < 5; ++g) {
    if (g > 0) {
      if (pos >= s.size() || s[pos] != '-') return 0;
      ++pos;
    }
    for (size_t i = 0; i < kGroups[g]; ++i, ++pos) {
      if (pos >= s.size() || !IsHexDigit(s[pos])) return 0;
    }
  }
  if (pos < s.size() && IsNameChar(s[pos])) return 0;
  return pos;
}

// Length of the duration unit at the start of `s` (y, mo, w, d, h, m, s,
// ms, us, µs, ns; case-insensitive), or 0.
size_t DurationUnitLength(std::string_view s) {
  auto at = [&](size_t i) { return i < s.size() ? Lower(s[i]) : '\0'; };
  const char c0 = at(0), c1 = at(1);
  if (c0 == 'm' && (c1 == 'o' || c1 == 's')) return 2;
  if ((c0 == 'u' || c0 == 'n') && c1 == 's') return 2;
  if (s.substr(0, 3) == "\xC2\xB5s" || s.substr(0, 3) == "\xCE\xBCs") return 3;  // µs
  if (c0 == 'y' || c0 == 'w' || c0 == 'd' || c0 == 'h' || c0 == 'm' || c0 == 's') return 1;
  return 0;
}

// Length of a `1h30m`-style duration at the start of `s` (digits then a
// unit, repeated, not followed by a name character), or 0.
size_t UnitDurationLength(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size() && IsDigit(s[pos])) {
    while (pos < s.size() && IsDigit(s[pos])) ++pos;
    const size_t unit = DurationUnitLength(s.substr(pos));
    if (unit == 0) return 0;
    pos += unit;
  }
  if (pos < s.size() && IsNameChar(s[pos])) return 0;
  return pos;
}

// Whether `word` is an ISO 8601 duration: P[nY][nM][nD][T[nH][nM][nS]] with
// at least one part, or PnW (case-insensitive, as Cassandra's lexer).
bool IsIsoDuration(std::string_view word) {
  if (word.size() < 3 || Lower(word[0]) != 'p') return false;
  size_t pos = 1;
  auto number_then = [&](char unit) {
    size_t end = pos;
    while (end < word.size() && IsDigit(word[end])) ++end;
    if (end == pos || end >= word.size() || Lower(word[end]) != unit) return false;
    pos = end + 1;
    return true;
  };
  if (number_then('w')) return pos == word.size();
  bool any = false;
  for (char unit : {'y', 'm', 'd'}) any |= number_then(unit);
  if (pos < word.size() && Lower(word[pos]) == 't') {
    ++pos;
    bool any_time = false;
    for (char unit : {'h', 'm', 's'}) any_time |= number_then(unit);
    if (!any_time) return false;
    any = true;
  }
  return any && pos == word.size();
}

// Length of an ISO 8601 alternative-format duration (PYYYY-MM-DDThh:mm:ss,
// Cassandra's Lexer.g DURATION rule) at the start of `s`, or 0.
size_t IsoAlternativeDurationLength(std::string_view s) {
  static constexpr std::string_view kShape = "P9999-99-99T99:99:99";
  if (s.size() < kShape.size()) return 0;
  for (size_t i = 0; i < kShape.size(); ++i) {
    const bool ok = kShape[i] == '9' ? IsDigit(s[i]) : Lower(s[i]) == Lower(kShape[i]);
    if (!ok) return 0;
  }
  if (s.size() > kShape.size() && IsNameChar(s[kShape.size()])) return 0;
  return kShape.size();
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    // A token per few characters is typical; growing the vector moves
    // every token (each holds a string).
    tokens.reserve(text_.size() / 4 + 2);
    while (true) {
      CASSETTE_RETURN_IF_ERROR(SkipBlanksAndComments());
      if (pos_ >= text_.size()) break;
      Token token;
      token.line = line_;
      token.column = Column();
      token.offset = pos_;
      CASSETTE_RETURN_IF_ERROR(Next(&token));
      token.text = text_.substr(token.offset, pos_ - token.offset);
      tokens.push_back(std::move(token));
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.line = line_;
    end.column = Column();
    end.offset = text_.size();
    end.text = "<EOF>";
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  int Column() const { return column_; }

  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  // Moves to `end`, keeping line bookkeeping.
  void AdvanceTo(size_t end) {
    for (; pos_ < end; ++pos_) {
      // ANTLR counts characters, not bytes: skip UTF-8 continuation bytes.
      if (text_[pos_] == '\n') {
        ++line_;
        column_ = 0;
      } else if ((static_cast<unsigned char>(text_[pos_]) & 0xC0) != 0x80) {
        ++column_;
      }
    }
  }

  Status ErrorHere(const std::string& what) const {
    return Status::SyntaxError("line " + std::to_string(line_) + ":" + std::to_string(Column()) +
                               " " + what);
  }

  Status SkipBlanksAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (IsBlank(c)) {
        AdvanceTo(pos_ + 1);
      } else if ((c == '-' && At(pos_ + 1) == '-') || (c == '/' && At(pos_ + 1) == '/')) {
        const size_t newline = text_.find('\n', pos_);
        AdvanceTo(newline == std::string_view::npos ? text_.size() : newline);
      } else if (c == '/' && At(pos_ + 1) == '*') {
        const size_t close = text_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) {
          AdvanceTo(text_.size());
          return ErrorHere("mismatched character '<EOF>' expecting '*'");
        }
        AdvanceTo(close + 2);
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Status Next(Token* token) {
    const std::string_view rest = text_.substr(pos_);
    const char c = rest[0];
    if (IsHexDigit(c)) {
      if (const size_t n = UuidLength(rest); n > 0) {
        token->kind = TokenKind::kUuid;
        token->value = std::string(rest.substr(0, n));
        AdvanceTo(pos_ + n);
        return Status::OK();
      }
    }
    if (c == '0' && (At(pos_ + 1) == 'x' || At(pos_ + 1) == 'X')) {
      size_t end = pos_ + 2;
      while (end < text_.size() && IsHexDigit(text_[end])) ++end;
      token->kind = TokenKind::kHex;
      token->value = std::string(text_.substr(pos_, end - pos_));
      AdvanceTo(end);
      return Status::OK();
    }
    if (IsDigit(c)) return Number(token);
    if (IsLetter(c)) return Word(token);
    if (c == '"') return QuotedName(token);
    if (c == '\'') return QuotedString(token);
    if (c == '$' && At(pos_ + 1) == '$') return DollarString(token);
    return Symbol(token);
  }

  Status Number(Token* token) {
    const std::string_view rest = text_.substr(pos_);
    size_t end = 0;
    while (end < rest.size() && IsDigit(rest[end])) ++end;
    bool is_float = false;
    if (end < rest.size() && rest[end] == '.' && At(pos_ + end + 1) != '.') {
      is_float = true;
      ++end;
      while (end < rest.size() && IsDigit(rest[end])) ++end;
    }
    if (end < rest.size() && (rest[end] == 'e' || rest[end] == 'E')) {
      size_t exponent = end + 1;
      if (exponent < rest.size() && (rest[exponent] == '+' || rest[exponent] == '-')) ++exponent;
      if (exponent < rest.size() && IsDigit(rest[exponent])) {
        while (exponent < rest.size() && IsDigit(rest[exponent])) ++exponent;
        is_float = true;
        end = exponent;
      }
    }
    if (!is_float) {
      if (const size_t n = UnitDurationLength(rest); n > 0 && n > end) {
        token->kind = TokenKind::kDuration;
        token->value = std::string(rest.substr(0, n));
        AdvanceTo(pos_ + n);
        return Status::OK();
      }
    }
    token->kind = is_float ? TokenKind::kFloat : TokenKind::kInteger;
    token->value = std::string(rest.substr(0, end));
    AdvanceTo(pos_ + end);
    return Status::OK();
  }

  Status Word(Token* token) {
    size_t end = pos_;
    while (end < text_.size() && IsNameChar(text_[end])) ++end;
    const std::string_view word = text_.substr(pos_, end - pos_);
    if (const size_t n = IsoAlternativeDurationLength(text_.substr(pos_)); n > 0) {
      token->kind = TokenKind::kDuration;
      token->value = std::string(text_.substr(pos_, n));
      AdvanceTo(pos_ + n);
      return Status::OK();
    }
    if (IsIsoDuration(word)) {
      token->kind = TokenKind::kDuration;
      token->value = std::string(word);
    } else {
      token->kind = TokenKind::kIdentifier;
      token->value = Lowered(word);
    }
    AdvanceTo(end);
    return Status::OK();
  }

  // Quoted content up to `quote`, where a doubled quote stands for one.
  Status Quoted(char quote, Token* token) {
    std::string value;
    size_t i = pos_ + 1;
    while (true) {
      if (i >= text_.size()) {
        AdvanceTo(text_.size());
        return ErrorHere(std::string("mismatched character '<EOF>' expecting '") + quote + "'");
      }
      if (text_[i] == quote) {
        if (At(i + 1) == quote) {
          value.push_back(quote);
          i += 2;
          continue;
        }
        break;
      }
      value.push_back(text_[i++]);
    }
    token->value = std::move(value);
    AdvanceTo(i + 1);
    return Status::OK();
  }

  Status QuotedName(Token* token) {
    token->kind = TokenKind::kQuotedName;
    CASSETTE_RETURN_IF_ERROR(Quoted('"', token));
    if (token->value.empty()) {
      return Status::SyntaxError("line " + std::to_string(token->line) + ":" +
                                 std::to_string(token->column) +
                                 " no viable alternative at input '\"\"'");
    }
    return Status::OK();
  }

  Status QuotedString(Token* token) {
    token->kind = TokenKind::kString;
    return Quoted('\'', token);
  }

  Status DollarString(Token* token) {
    const size_t close = text_.find("$$", pos_ + 2);
    if (close == std::string_view::npos) {
      AdvanceTo(text_.size());
      return ErrorHere("mismatched character '<EOF>' expecting '$'");
    }
    token->kind = TokenKind::kString;
    token->value = std::string(text_.substr(pos_ + 2, close - pos_ - 2));
    AdvanceTo(close + 2);
    return Status::OK();
  }

  Status Symbol(Token* token) {
    const char c = text_[pos_];
    const char next = At(pos_ + 1);
    size_t length = 0;
    if ((c == '!' || c == '<' || c == '>') && next == '=') {
      length = 2;
    } else if (std::string_view("()[]{},;.:?+-*/%=<>").find(c) != std::string_view::npos) {
      length = 1;
    } else {
      // One whole UTF-8 character in the message.
      size_t end = pos_ + 1;
      while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) ++end;
      return ErrorHere("no viable alternative at character '" +
                       std::string(text_.substr(pos_, end - pos_)) + "'");
    }
    token->kind = TokenKind::kSymbol;
    token->value = std::string(text_.substr(pos_, length));
    AdvanceTo(pos_ + length);
    return Status::OK();
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 0;  // characters since the start of the line
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view text) { return Lexer(text).Run(); }

}  // namespace cassette::cql
