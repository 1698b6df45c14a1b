#include "tools/copy_command.h"

#include <cctype>

namespace cassette::tools {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '+';
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

struct Token {
  enum class Kind { kWord, kName, kString, kPunct } kind = Kind::kWord;
  std::string text;  // a word as written, a "name" or 'string' unquoted
};

// Words (with '.' kept out so ks.table splits), "names" ("" escapes),
// 'strings' ('' escapes) and single punctuation characters.
bool Tokenize(std::string_view text, std::vector<Token>* tokens) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (IsSpace(c) || c == ';') {
      ++i;
      continue;
    }
    Token token;
    if (c == '\'' || c == '"') {
      token.kind = c == '\'' ? Token::Kind::kString : Token::Kind::kName;
      ++i;
      while (true) {
        if (i >= text.size()) return false;
        if (text[i] == c) {
          if (i + 1 < text.size() && text[i + 1] == c) {
            token.text.push_back(c);
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        token.text.push_back(text[i++]);
      }
    } else if (IsWordChar(c)) {
      while (i < text.size() &&
             (IsWordChar(text[i]) ||
              (text[i] == '.' && i + 1 < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0 &&
               std::isdigit(static_cast<unsigned char>(token.text.back())) != 0))) {
        token.text.push_back(text[i++]);
      }
    } else {
      token.kind = Token::Kind::kPunct;
      token.text = std::string(1, c);
      ++i;
    }
    tokens->push_back(std::move(token));
  }
  return true;
}

Status Improper() { return Status::SyntaxError("Improper COPY command."); }

// A table or column name: a word folds to lower case, a "name" keeps its case.
bool TakeName(const std::vector<Token>& tokens, size_t* at, std::string* name) {
  if (*at >= tokens.size()) return false;
  const Token& token = tokens[*at];
  if (token.kind == Token::Kind::kName) {
    *name = token.text;
  } else if (token.kind == Token::Kind::kWord &&
             std::isalpha(static_cast<unsigned char>(token.text[0])) != 0) {
    *name = token.text;
    for (char& c : *name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  } else {
    return false;
  }
  ++*at;
  return true;
}

bool IsPunct(const std::vector<Token>& tokens, size_t at, char c) {
  return at < tokens.size() && tokens[at].kind == Token::Kind::kPunct && tokens[at].text[0] == c;
}

bool IsKeyword(const std::vector<Token>& tokens, size_t at, const char* word) {
  return at < tokens.size() && tokens[at].kind == Token::Kind::kWord &&
         Upper(tokens[at].text) == word;
}

}  // namespace

bool IsCopyCommand(std::string_view statement) {
  size_t i = 0;
  while (i < statement.size() && IsSpace(statement[i])) ++i;
  if (statement.size() - i < 4 || Upper(statement.substr(i, 4)) != "COPY") return false;
  return i + 4 == statement.size() || !IsWordChar(statement[i + 4]);
}

Result<CopyCommand> ParseCopyCommand(std::string_view statement) {
  std::vector<Token> tokens;
  if (!Tokenize(statement, &tokens) || !IsKeyword(tokens, 0, "COPY")) return Improper();
  CopyCommand command;
  size_t at = 1;
  if (!TakeName(tokens, &at, &command.table)) return Improper();
  if (IsPunct(tokens, at, '.')) {
    ++at;
    command.keyspace = std::move(command.table);
    if (!TakeName(tokens, &at, &command.table)) return Improper();
  }
  if (IsPunct(tokens, at, '(')) {
    ++at;
    while (true) {
      std::string column;
      if (!TakeName(tokens, &at, &column)) return Improper();
      command.columns.push_back(std::move(column));
      if (IsPunct(tokens, at, ',')) {
        ++at;
        continue;
      }
      if (!IsPunct(tokens, at, ')')) return Improper();
      ++at;
      break;
    }
  }
  if (IsKeyword(tokens, at, "FROM")) {
    command.from = true;
  } else if (!IsKeyword(tokens, at, "TO")) {
    return Improper();
  }
  ++at;
  if (at < tokens.size() && tokens[at].kind == Token::Kind::kString) {
    command.file = tokens[at].text;
  } else if (!IsKeyword(tokens, at, command.from ? "STDIN" : "STDOUT")) {
    return Improper();
  }
  ++at;
  if (at < tokens.size()) {
    if (!IsKeyword(tokens, at, "WITH")) return Improper();
    ++at;
    while (true) {
      if (at >= tokens.size() || tokens[at].kind != Token::Kind::kWord) return Improper();
      std::string name = tokens[at++].text;
      if (!IsPunct(tokens, at, '=')) return Improper();
      ++at;
      if (at >= tokens.size() || tokens[at].kind == Token::Kind::kName) return Improper();
      std::string value = tokens[at++].text;
      command.options.emplace_back(std::move(name), std::move(value));
      if (at >= tokens.size()) break;
      if (!IsKeyword(tokens, at, "AND")) return Improper();
      ++at;
    }
  }
  return command;
}

}  // namespace cassette::tools
