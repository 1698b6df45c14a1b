#include "engine/cql/term_text.h"

namespace cassette::cql {
namespace {

std::string JoinTexts(const std::vector<Term>& terms) {
  std::string out;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) out += ", ";
    out += TermSourceText(terms[i]);
  }
  return out;
}

std::string FirstText(const Term& term) {
  return term.elements.empty() ? std::string() : TermSourceText(term.elements[0]);
}

}  // namespace

std::string TermSourceText(const Term& term) {
  switch (term.kind) {
    case Term::Kind::kConstant:
      return term.literal == Term::Literal::kString ? "'" + term.text + "'" : term.text;
    case Term::Kind::kNull:
      return "NULL";
    case Term::Kind::kBindMarker:
      return term.bind_name.empty() ? "?" : ":" + term.bind_name;
    case Term::Kind::kList:
      return "[" + JoinTexts(term.elements) + "]";
    case Term::Kind::kSet:
      return "{" + JoinTexts(term.elements) + "}";
    case Term::Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
        if (i > 0) out += ", ";
        out += TermSourceText(term.elements[i]) + ": " + TermSourceText(term.elements[i + 1]);
      }
      return out + "}";
    }
    case Term::Kind::kEmptyBraces:
      return "{}";
    case Term::Kind::kUserType: {
      std::string out = "{";
      for (size_t i = 0; i < term.elements.size() && i < term.field_names.size(); ++i) {
        if (i > 0) out += ", ";
        out += term.field_names[i] + ": " + TermSourceText(term.elements[i]);
      }
      return out + "}";
    }
    case Term::Kind::kTuple:
      return "(" + JoinTexts(term.elements) + ")";
    case Term::Kind::kFunction:
      return term.text + "(" + JoinTexts(term.elements) + ")";
    case Term::Kind::kCast:
      return "CAST(" + FirstText(term) + " AS " + term.text + ")";
    case Term::Kind::kTypeHint:
      return "(" + term.text + ")" + FirstText(term);
    case Term::Kind::kNegate:
      return "-" + FirstText(term);
    case Term::Kind::kArithmetic:
      if (term.elements.size() != 2) return term.text;
      return TermSourceText(term.elements[0]) + " " + term.text + " " +
             TermSourceText(term.elements[1]);
  }
  return term.text;
}

}  // namespace cassette::cql
