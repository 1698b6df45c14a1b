#include "engine/cql/parser_expressions.h"

#include <utility>

namespace cassette::cql {
namespace {

Selector MakeOperation(std::string op, std::vector<Selector> operands, std::string source) {
  Selector out;
  out.kind = Selector::Kind::kOperation;
  out.function = std::move(op);
  out.args = std::move(operands);
  out.source_text = std::move(source);
  return out;
}

bool ParseUnary(const SelectorExpressionHooks& hooks, Selector* out) {
  const size_t first = hooks.position();
  if (!hooks.next_is_negation()) return hooks.operand(out);
  hooks.take();  // -
  std::vector<Selector> operand(1);
  if (!ParseUnary(hooks, &operand[0])) return false;
  *out = MakeOperation("-", std::move(operand), hooks.source_between(first, hooks.position()));
  return true;
}

// Left-associative chain of `next` joined by any of `ops`.
template <class Next>
bool ParseChain(const SelectorExpressionHooks& hooks, std::initializer_list<const char*> ops,
                Next next, Selector* out) {
  const size_t first = hooks.position();
  if (!next(out)) return false;
  for (;;) {
    const char* found = nullptr;
    for (const char* op : ops) {
      if (hooks.next_is_operator(op)) found = op;
    }
    if (found == nullptr) return true;
    hooks.take();
    std::vector<Selector> operands(2);
    operands[0] = std::move(*out);
    if (!next(&operands[1])) return false;
    *out = MakeOperation(found, std::move(operands), hooks.source_between(first, hooks.position()));
  }
}

}  // namespace

bool ParseSelectorExpression(const SelectorExpressionHooks& hooks, Selector* out) {
  auto multiplicative = [&](Selector* s) {
    return ParseChain(
        hooks, {"*", "/", "%"}, [&](Selector* u) { return ParseUnary(hooks, u); }, s);
  };
  return ParseChain(hooks, {"+", "-"}, multiplicative, out);
}

}  // namespace cassette::cql
