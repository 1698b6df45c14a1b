// Collection and tuple literals: [..], {..}, {k: v}, (..). Parsed
// structurally; each element goes through ParseLiteral. Sets come out
// sorted and de-duplicated, maps sorted by key with the last duplicate
// winning, as Cassandra builds them.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "cassette/value.h"
#include "engine/types/literal_syntax.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

// Splits `body` at top-level `sep` characters, skipping quoted strings and
// nested brackets. False on unbalanced input.
bool SplitTopLevel(std::string_view body, char sep, std::vector<std::string_view>* parts) {
  parts->clear();
  if (TrimLiteral(body).empty()) return true;
  std::string stack;
  size_t start = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\'') {
      for (++i; i < body.size(); ++i) {
        if (body[i] == '\'') {
          if (i + 1 < body.size() && body[i + 1] == '\'') {
            ++i;
          } else {
            break;
          }
        }
      }
      if (i >= body.size()) return false;
    } else if (c == '$' && body.substr(i, 2) == "$$") {
      size_t end = body.find("$$", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      stack.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty() || stack.back() != c) return false;
      stack.pop_back();
    } else if (c == sep && stack.empty()) {
      parts->push_back(TrimLiteral(body.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!stack.empty()) return false;
  parts->push_back(TrimLiteral(body.substr(start)));
  for (std::string_view p : *parts) {
    if (p.empty()) return false;
  }
  return true;
}

Status BadLiteral(const char* kind, const DataType& type, std::string_view literal) {
  return Status::InvalidRequest("Invalid " + std::string(kind) + " literal " +
                                std::string(literal) + " for type " + type.ToString());
}

bool IsNull(std::string_view element) { return EqualsIgnoreCase(element, "null"); }

}  // namespace

Result<std::string> ParseCompositeLiteral(const DataType& type, std::string_view literal) {
  const char* kind = type.kind() == TypeKind::kList  ? "list"
                     : type.kind() == TypeKind::kSet ? "set"
                     : type.kind() == TypeKind::kMap ? "map"
                     : type.kind() == TypeKind::kUdt ? "user type"
                                                     : "tuple";
  char open = type.kind() == TypeKind::kList ? '[' : type.kind() == TypeKind::kTuple ? '(' : '{';
  char close = open == '[' ? ']' : open == '(' ? ')' : '}';
  if (literal.size() < 2 || literal.front() != open || literal.back() != close) {
    return BadLiteral(kind, type, literal);
  }
  std::vector<std::string_view> items;
  if (!SplitTopLevel(literal.substr(1, literal.size() - 2), ',', &items)) {
    return BadLiteral(kind, type, literal);
  }
  if (type.kind() == TypeKind::kTuple) {
    if (items.size() > type.params().size()) {
      return Status::InvalidRequest("Invalid tuple literal " + std::string(literal) +
                                    ": too many elements. Type " + type.ToString() + " expects " +
                                    std::to_string(type.params().size()) + " but got " +
                                    std::to_string(items.size()));
    }
    std::vector<std::optional<std::string>> components;
    for (size_t i = 0; i < items.size(); ++i) {
      if (IsNull(items[i])) {
        components.push_back(std::nullopt);
        continue;
      }
      CASSETTE_ASSIGN_OR_RETURN(std::string c, ParseLiteral(type.params()[i], items[i]));
      components.push_back(std::move(c));
    }
    return SerializeTuple(components);
  }
  if (type.kind() == TypeKind::kUdt) {
    // {field: value, ...}: fields in any order, missing ones null.
    std::vector<std::optional<std::string>> fields(type.params().size());
    for (std::string_view item : items) {
      std::vector<std::string_view> kv;
      if (!SplitTopLevel(item, ':', &kv) || kv.size() != 2) return BadLiteral(kind, type, literal);
      std::string name(kv[0]);
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
        name = name.substr(1, name.size() - 2);
      } else {
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      const int index = type.FieldIndex(name);
      if (index < 0) {
        return Status::InvalidRequest("Unknown field '" + name +
                                      "' in value of user defined type " + type.udt_name());
      }
      if (IsNull(kv[1])) continue;
      CASSETTE_ASSIGN_OR_RETURN(fields[static_cast<size_t>(index)],
                                ParseLiteral(type.params()[static_cast<size_t>(index)], kv[1]));
    }
    return SerializeTuple(fields);
  }
  Status null_inside = Status::InvalidRequest("null is not supported inside collections");
  if (type.kind() == TypeKind::kMap) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (std::string_view item : items) {
      std::vector<std::string_view> kv;
      if (!SplitTopLevel(item, ':', &kv) || kv.size() != 2) return BadLiteral(kind, type, literal);
      if (IsNull(kv[0]) || IsNull(kv[1])) return null_inside;
      CASSETTE_ASSIGN_OR_RETURN(std::string k, ParseLiteral(type.params()[0], kv[0]));
      CASSETTE_ASSIGN_OR_RETURN(std::string v, ParseLiteral(type.params()[1], kv[1]));
      entries.emplace_back(std::move(k), std::move(v));
    }
    const DataType& key_type = type.params()[0];
    std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
      return CompareValues(key_type, a.first, b.first) < 0;
    });
    std::vector<std::pair<std::string, std::string>> unique;
    for (auto& e : entries) {
      if (!unique.empty() && CompareValues(key_type, unique.back().first, e.first) == 0) {
        unique.back() = std::move(e);  // the last duplicate wins
      } else {
        unique.push_back(std::move(e));
      }
    }
    return SerializeMap(unique);
  }
  std::vector<std::string> elements;
  for (std::string_view item : items) {
    if (IsNull(item)) return null_inside;
    std::vector<std::string_view> kv;
    if (type.kind() == TypeKind::kSet && SplitTopLevel(item, ':', &kv) && kv.size() > 1) {
      return BadLiteral(kind, type, literal);  // a map literal
    }
    CASSETTE_ASSIGN_OR_RETURN(std::string e, ParseLiteral(type.params()[0], item));
    elements.push_back(std::move(e));
  }
  if (type.kind() == TypeKind::kSet) {
    const DataType& element_type = type.params()[0];
    std::sort(elements.begin(), elements.end(), [&](const std::string& a, const std::string& b) {
      return CompareValues(element_type, a, b) < 0;
    });
    elements.erase(std::unique(elements.begin(), elements.end(),
                               [&](const std::string& a, const std::string& b) {
                                 return CompareValues(element_type, a, b) == 0;
                               }),
                   elements.end());
  }
  return SerializeCollection(elements);
}

}  // namespace cassette
