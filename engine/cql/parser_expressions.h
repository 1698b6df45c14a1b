// Arithmetic in the selection clause: `a + b * c`, `-a`, `(a - b) % c`,
// with Cassandra 5.0's precedence (Parser.g selectionAddition,
// selectionMultiplication, selectionGroup): * / % bind tighter than + -,
// both left-associative, unary minus tightest. The parser supplies the
// operands through hooks; operations become Selector::Kind::kOperation.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "engine/cql/ast.h"

namespace cassette::cql {

struct SelectorExpressionHooks {
  // Parses one operand (a column, function call, term, parenthesised
  // expression...) into *out; false with the parser's error set.
  std::function<bool(Selector* out)> operand;
  // Whether the next token is the symbol `op` followed by something an
  // operand can start with.
  std::function<bool(const char* op)> next_is_operator;
  // Whether the next token is a '-' negating a selector (not the sign of
  // a number, which the operand's term reads).
  std::function<bool()> next_is_negation;
  // Takes the next token.
  std::function<void()> take;
  // The position of the next token, and the source text of tokens
  // [first, end).
  std::function<size_t()> position;
  std::function<std::string(size_t first, size_t end)> source_between;
};

bool ParseSelectorExpression(const SelectorExpressionHooks& hooks, Selector* out);

}  // namespace cassette::cql
