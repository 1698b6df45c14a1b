// A non-frozen list as one statement sees it while it writes the list.
//
// Cassandra applies a statement's operations on one list in order, and an
// operation that needs the list (`l[i] = v`, `DELETE l[i]`, `l = l - [v]`)
// reads it with the statement's earlier operations applied
// (UpdateParameters merges its pending row into the prefetched one):
// `DELETE l[2], l[2]` removes two elements, `SET l = l + [3], l[2] = 7`
// sets the appended element. Other statements of a batch do not see each
// other's operations: the view lives for one statement's row.
//
// The view holds each element's value and where it comes from: a stored
// cell (its path), or an element an earlier operation of the statement
// writes (an append, a prepend or a replacement, whose path the engine
// only assigns when it applies the mutation). Changing a stored element
// writes that element's cell; changing a pending one edits the pending
// operation, with the outcome the engine's reconciliation would give two
// writes of one cell at one timestamp (a deletion wins; otherwise the
// larger value).
//
// Thread-compatible.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/query.h"
#include "cassette/status.h"

namespace cassette::cql {

class StatementListView {
 public:
  // The list as stored: its values and their element cells (in order).
  StatementListView(std::string column, std::vector<Value> values, std::vector<ElementCell> cells);

  // Takes in `operations[index]`, an operation of the statement on this
  // list that needs no read (set, delete, replace, append, prepend).
  void Replay(const std::vector<ColumnOperation>& operations, size_t index);

  size_t size() const { return entries_.size(); }
  const Value& value(size_t i) const { return entries_[i].value; }

  // l[i] = v (a null v deletes the element); REQUIRES i < size().
  // `row` is the statement's row, `operations` its operations so far.
  void SetAt(size_t i, const Value& v, RowBuilder& row, std::vector<ColumnOperation>& operations);
  // DELETE l[i]; REQUIRES i < size().
  void DeleteAt(size_t i, RowBuilder& row, std::vector<ColumnOperation>& operations);

 private:
  struct Entry {
    Value value;
    std::string path;  // a stored element's cell path
    // An element an earlier operation writes: operations[op].elements[at].
    std::optional<size_t> op;
    size_t at = 0;
    bool set_by_statement = false;  // a stored element this statement set
  };

  std::string column_;
  std::vector<Entry> entries_;
};

}  // namespace cassette::cql
