// SplitCqlStatements: a script to statements, as cqlsh splits what is
// pasted into it. A small scanner of its own rather than the lexer: it
// must never fail (shell directives such as `CLOCK ADVANCE 2 DAYS` and
// half-typed statements are not CQL) and only needs to know where strings,
// quoted names and comments start and end.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/cql.h"

namespace cassette {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool IsBlank(std::string_view text) {
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string Trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

std::string Lowered(std::string_view word) {
  std::string out(word);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The statement being scanned: its text without comments, and the words
// that tell whether it is a batch whose inner ';' do not end it.
struct PendingStatement {
  std::string text;
  std::vector<std::string> first_words;  // up to three
  std::string previous_word, last_word;

  // A dropped comment still separates the words around it.
  void SeparateWords() {
    if (!text.empty() && !std::isspace(static_cast<unsigned char>(text.back()))) {
      text.push_back(' ');
    }
  }

  void AddWord(std::string_view word) {
    std::string lowered = Lowered(word);
    if (first_words.size() < 3) first_words.push_back(lowered);
    previous_word = std::move(last_word);
    last_word = std::move(lowered);
  }

  // BEGIN [UNLOGGED|LOGGED|COUNTER] BATCH ... not yet closed by APPLY BATCH.
  bool InsideBatch() const {
    if (first_words.empty() || first_words[0] != "begin") return false;
    const bool batch = (first_words.size() > 1 && first_words[1] == "batch") ||
                       (first_words.size() > 2 && first_words[2] == "batch");
    if (!batch) return false;
    return !(previous_word == "apply" && last_word == "batch");
  }
};

}  // namespace

std::vector<std::string> SplitCqlStatements(std::string_view script, std::string* rest) {
  std::vector<std::string> statements;
  PendingStatement pending;
  size_t pending_start = 0;  // where the unfinished statement's raw text starts
  size_t i = 0;
  while (i < script.size()) {
    const char c = script[i];
    const char next = i + 1 < script.size() ? script[i + 1] : '\0';
    if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
      const size_t newline = script.find('\n', i);
      i = newline == std::string_view::npos ? script.size() : newline;
      pending.SeparateWords();
      continue;
    }
    if (c == '/' && next == '*') {
      const size_t close = script.find("*/", i + 2);
      if (close == std::string_view::npos) {
        // Unterminated: the rest of the script is an incomplete statement.
        i = script.size();
        pending.text.push_back('\x01');  // marks the pending text as non-blank
        break;
      }
      i = close + 2;
      pending.SeparateWords();
      continue;
    }
    if (c == '\'' || c == '"' || (c == '$' && next == '$')) {
      // Copy the quoted text whole; a doubled quote is an escape.
      size_t end = i + (c == '$' ? 2 : 1);
      bool closed = false;
      while (end < script.size()) {
        if (c == '$') {
          if (script.compare(end, 2, "$$") == 0) {
            end += 2;
            closed = true;
            break;
          }
        } else if (script[end] == c) {
          if (end + 1 < script.size() && script[end + 1] == c) {
            end += 2;
            continue;
          }
          ++end;
          closed = true;
          break;
        }
        ++end;
      }
      pending.text.append(script.substr(i, end - i));
      pending.AddWord("'");  // a constant between words
      i = end;
      if (!closed) break;
      continue;
    }
    if (IsWordChar(c)) {
      size_t end = i;
      while (end < script.size() && IsWordChar(script[end])) ++end;
      pending.AddWord(script.substr(i, end - i));
      pending.text.append(script.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == ';' && !pending.InsideBatch()) {
      std::string statement = Trimmed(pending.text);
      if (!statement.empty()) statements.push_back(std::move(statement));
      pending = PendingStatement();
      pending_start = i + 1;
      ++i;
      continue;
    }
    pending.text.push_back(c);
    ++i;
  }
  if (rest != nullptr) {
    // The unfinished statement's raw text (comments kept, so that a caller
    // can append more lines and split again), unless it is only blanks and
    // comments.
    rest->clear();
    if (!IsBlank(pending.text)) *rest = Trimmed(script.substr(pending_start));
  }
  return statements;
}

}  // namespace cassette
