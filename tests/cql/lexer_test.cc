#include "engine/cql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cassette::cql {
namespace {

struct Seen {
  TokenKind kind;
  std::string value;
  friend bool operator==(const Seen&, const Seen&) = default;
};

std::ostream& operator<<(std::ostream& os, const Seen& seen) {
  return os << static_cast<int>(seen.kind) << ":" << seen.value;
}

std::vector<Seen> Lex(std::string_view text) {
  Result<std::vector<Token>> tokens = Tokenize(text);
  EXPECT_TRUE(tokens.ok()) << tokens.status().ToString();
  std::vector<Seen> out;
  if (!tokens.ok()) return out;
  for (const Token& token : *tokens) {
    if (token.kind != TokenKind::kEnd) out.push_back({token.kind, token.value});
  }
  return out;
}

Seen Kind(std::string_view text) {
  std::vector<Seen> tokens = Lex(text);
  EXPECT_EQ(tokens.size(), 1u) << text;
  return tokens.empty() ? Seen{TokenKind::kEnd, ""} : tokens[0];
}

TEST(LexerTest, KeywordsAndNamesAreLowerCasedQuotedNamesKept) {
  EXPECT_EQ(Lex("SELECT Foo FROM \"MyTable\""),
            (std::vector<Seen>{{TokenKind::kIdentifier, "select"},
                               {TokenKind::kIdentifier, "foo"},
                               {TokenKind::kIdentifier, "from"},
                               {TokenKind::kQuotedName, "MyTable"}}));
  EXPECT_EQ(Kind("\"a\"\"b\""), (Seen{TokenKind::kQuotedName, "a\"b"}));
}

TEST(LexerTest, Strings) {
  EXPECT_EQ(Kind("'it''s'"), (Seen{TokenKind::kString, "it's"}));
  EXPECT_EQ(Kind("''"), (Seen{TokenKind::kString, ""}));
  EXPECT_EQ(Kind("$$a 'b' -- c$$"), (Seen{TokenKind::kString, "a 'b' -- c"}));
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(Kind("42"), (Seen{TokenKind::kInteger, "42"}));
  EXPECT_EQ(Kind("1.5"), (Seen{TokenKind::kFloat, "1.5"}));
  EXPECT_EQ(Kind("2e10"), (Seen{TokenKind::kFloat, "2e10"}));
  EXPECT_EQ(Kind("1.5E-3"), (Seen{TokenKind::kFloat, "1.5E-3"}));
  // A minus sign is its own token; the parser makes negative constants.
  EXPECT_EQ(Lex("-7"), (std::vector<Seen>{{TokenKind::kSymbol, "-"}, {TokenKind::kInteger, "7"}}));
}

TEST(LexerTest, UuidsHexAndDurations) {
  EXPECT_EQ(Kind("5b6962dd-3f90-4c93-8f61-eabfa4a803e2"),
            (Seen{TokenKind::kUuid, "5b6962dd-3f90-4c93-8f61-eabfa4a803e2"}));
  EXPECT_EQ(Kind("abcdef01-0000-1111-2222-333344445555").kind, TokenKind::kUuid);
  EXPECT_EQ(Kind("0x0A0b"), (Seen{TokenKind::kHex, "0x0A0b"}));
  EXPECT_EQ(Kind("0x"), (Seen{TokenKind::kHex, "0x"}));
  for (const char* duration : {"1h30m", "12mo", "1y2mo3w4d5h6m7s8ms9us10ns", "3\xC2\xB5s", "1H",
                               "P1DT2H", "P2W", "PT30M", "p1y"}) {
    EXPECT_EQ(Kind(duration), (Seen{TokenKind::kDuration, duration}));
  }
}

TEST(LexerTest, WordsThatLookLikeDurationsAreNames) {
  EXPECT_EQ(Kind("p50_value"), (Seen{TokenKind::kIdentifier, "p50_value"}));
  EXPECT_EQ(Kind("P"), (Seen{TokenKind::kIdentifier, "p"}));
  EXPECT_EQ(Kind("PT"), (Seen{TokenKind::kIdentifier, "pt"}));
  // Digits followed by a non-unit word: a number then a name.
  EXPECT_EQ(Lex("1x"),
            (std::vector<Seen>{{TokenKind::kInteger, "1"}, {TokenKind::kIdentifier, "x"}}));
}

TEST(LexerTest, SymbolsAndMarkers) {
  EXPECT_EQ(Lex("a<=b != ?:n"), (std::vector<Seen>{{TokenKind::kIdentifier, "a"},
                                                   {TokenKind::kSymbol, "<="},
                                                   {TokenKind::kIdentifier, "b"},
                                                   {TokenKind::kSymbol, "!="},
                                                   {TokenKind::kSymbol, "?"},
                                                   {TokenKind::kSymbol, ":"},
                                                   {TokenKind::kIdentifier, "n"}}));
  // Nested type brackets stay separate tokens.
  EXPECT_EQ(Lex("list<int>>").size(), 5u);
}

TEST(LexerTest, CommentsAreSkipped) {
  EXPECT_EQ(Lex("a -- one\nb // two\n c /* three \n */ d"),
            (std::vector<Seen>{{TokenKind::kIdentifier, "a"},
                               {TokenKind::kIdentifier, "b"},
                               {TokenKind::kIdentifier, "c"},
                               {TokenKind::kIdentifier, "d"}}));
}

TEST(LexerTest, PositionsAreLineAndCharacterColumn) {
  Result<std::vector<Token>> tokens = Tokenize("SELECT\n  '\xC3\xA9' x");
  ASSERT_TRUE(tokens.ok());
  ASSERT_EQ(tokens->size(), 4u);
  EXPECT_EQ((*tokens)[1].line, 2);
  EXPECT_EQ((*tokens)[1].column, 2);
  EXPECT_EQ((*tokens)[2].column, 6);  // the é counts as one character
  EXPECT_EQ((*tokens)[2].text, "x");
  EXPECT_EQ((*tokens)[3].kind, TokenKind::kEnd);
}

TEST(LexerTest, Errors) {
  Result<std::vector<Token>> unknown = Tokenize("SELECT @ FROM t");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), Status::Code::kSyntaxError);
  EXPECT_EQ(unknown.status().message(), "line 1:7 no viable alternative at character '@'");

  Result<std::vector<Token>> open_string = Tokenize("SELECT 'abc");
  ASSERT_FALSE(open_string.ok());
  EXPECT_EQ(open_string.status().message(), "line 1:11 mismatched character '<EOF>' expecting '''");

  EXPECT_FALSE(Tokenize("a /* never closed").ok());
  EXPECT_FALSE(Tokenize("\"unclosed").ok());
  EXPECT_FALSE(Tokenize("$$unclosed").ok());
  EXPECT_FALSE(Tokenize("\"\"").ok());
}

}  // namespace
}  // namespace cassette::cql
