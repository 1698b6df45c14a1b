// Selectors that look inside a set or map: element selection (`m['k']`,
// `s[3]`), slice selection (`m['a'..'c']`, `s[..3]`, `s[2..]`), and the
// WRITETIME / TTL / MAXWRITETIME of a collection, of one element or of a
// slice, or of a user type's field, as Cassandra 5 returns them:
//   - a non-frozen set, list or map has one cell per element, so
//     WRITETIME(c) and TTL(c) are lists with one entry per element (TTL's
//     entry null for an element that never expires), WRITETIME(s[k]) the
//     element's own and WRITETIME(s[a..b]) a list of those in the range;
//     MAXWRITETIME is the newest of them;
//   - a frozen collection is one cell: each of these is that cell's (when
//     the element or a slice element is there, else null);
//   - a non-frozen user type has one cell per field: WRITETIME(u.f) is
//     that cell's, null when the field is not set;
//   - a list's elements are not selectable by index or slice (refused with
//     Cassandra's messages).
#pragma once

#include <string>

#include "engine/cql/ast.h"
#include "engine/cql/selection.h"
#include "engine/cql/selector_node.h"

namespace cassette::cql {

// `collection[key]` or `collection[from..to]` over the node selecting the
// collection; `text` names the collection in errors.
Result<SelectorNodePtr> BuildElementSelector(SelectorNodePtr collection, const std::string& text,
                                             const Term& key, SelectionContext* selection);
Result<SelectorNodePtr> BuildSliceSelector(SelectorNodePtr collection, const std::string& text,
                                           const std::optional<Term>& from,
                                           const std::optional<Term>& to,
                                           SelectionContext* selection);

// The position of `field` in `type` (InvalidRequest, with Cassandra's
// Selectable.WithFieldSelection messages, when `type` is not a user type
// or has no such field); `text` names the value in errors.
Result<size_t> FieldPosition(const DataType& type, const std::string& text,
                             const std::string& field);

// WRITETIME / TTL / MAXWRITETIME (`function`, lower-case) of `target`: a
// column, or an element, slice or field selector over one.
Result<SelectorNodePtr> BuildCellMetadataSelector(const Selector& target, const char* function,
                                                  SelectionContext* selection);

}  // namespace cassette::cql
