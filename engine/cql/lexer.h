// CQL text to tokens, with Cassandra's lexical rules: keywords and
// unquoted names are case-insensitive (folded to lower case), "quoted"
// names keep their case ("" escapes a quote), strings are '...' ('' escapes
// a quote) or $$...$$, comments (-- and // to the end of the line, /* */)
// are skipped. Constants keep their source text; the parser decides what
// they mean from where they stand.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"

namespace cassette::cql {

enum class TokenKind : uint8_t {
  kIdentifier,  // name or keyword; value lower-cased
  kQuotedName,  // "Name"; value unescaped, case kept
  kString,      // 'text' or $$text$$; value unquoted
  kInteger,     // 42 (a leading '-' is a separate kSymbol token)
  kFloat,       // 1.5, 2e10, 1.5E-3
  kUuid,        // 8-4-4-4-12 hex digits
  kHex,         // 0x0102 (blob)
  kDuration,    // 1h30m, 12mo, 2µs, P1DT2H, P2W
  kSymbol,      // punctuation and operators: ( ) [ ] { } , ; . : ? + - * / % = != < <= > >=
  kEnd,         // end of input
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;  // the source slice (for errors and source_text)
  std::string value;      // see TokenKind
  int line = 1;           // 1-based, as ANTLR reports it
  int column = 0;         // 0-based character position in the line, as ANTLR
  size_t offset = 0;      // byte offset in the source
};

// Every token of `text`, ending with a kEnd token. An unknown character or
// an unterminated string, quoted name or comment is a SyntaxException
// ("line 1:7 token recognition error at: '@'").
Result<std::vector<Token>> Tokenize(std::string_view text);

}  // namespace cassette::cql
