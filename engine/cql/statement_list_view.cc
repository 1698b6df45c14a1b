#include "engine/cql/statement_list_view.h"

#include <utility>

namespace cassette::cql {

namespace {

// Of two values written to one cell at one timestamp, the one
// reconciliation keeps: the larger, comparing the serialized bytes
// unsigned (as engine/mutation/reconcile.h's CellWins does).
const Value& Larger(const Value& a, const Value& b) { return b.bytes() > a.bytes() ? b : a; }

}  // namespace

StatementListView::StatementListView(std::string column, std::vector<Value> values,
                                     std::vector<ElementCell> cells)
    : column_(std::move(column)) {
  entries_.reserve(values.size());
  for (size_t i = 0; i < values.size() && i < cells.size(); ++i) {
    entries_.push_back({std::move(values[i]), std::move(cells[i].path), std::nullopt, 0, false});
  }
}

void StatementListView::Replay(const std::vector<ColumnOperation>& operations, size_t index) {
  const ColumnOperation& operation = operations[index];
  std::vector<Entry> written;
  auto take = [&](const std::vector<Value>& elements) {
    for (size_t at = 0; at < elements.size(); ++at) {
      written.push_back({elements[at], "", index, at, false});
    }
  };
  switch (operation.op) {
    case CellOp::kSet:  // `l = null` (the CQL layer writes `l = [..]` as kCollectionSet)
    case CellOp::kDelete:
      entries_.clear();
      return;
    case CellOp::kCollectionSet:
      entries_.clear();
      take(operation.elements);
      break;
    case CellOp::kCollectionAdd:
      take(operation.elements);
      break;
    case CellOp::kListPrepend:
      take(operation.elements);
      entries_.insert(entries_.begin(), written.begin(), written.end());
      return;
    default:
      return;  // the element operations update the view themselves
  }
  entries_.insert(entries_.end(), written.begin(), written.end());
}

void StatementListView::SetAt(size_t i, const Value& v, RowBuilder& row,
                              std::vector<ColumnOperation>& operations) {
  if (v.is_null()) return DeleteAt(i, row, operations);
  Entry& entry = entries_[i];
  if (entry.op) {
    Value& pending = operations[*entry.op].elements[entry.at];
    pending = Larger(pending, v);
    entry.value = pending;
    return;
  }
  row.SetListElementAt(column_, entry.path, v);
  entry.value = entry.set_by_statement ? Larger(entry.value, v) : v;
  entry.set_by_statement = true;
}

void StatementListView::DeleteAt(size_t i, RowBuilder& row,
                                 std::vector<ColumnOperation>& operations) {
  const Entry entry = entries_[i];
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
  if (!entry.op) {
    row.DeleteListElementAt(column_, entry.path);
    return;
  }
  // A deletion at the write's own timestamp wins over it: the element is
  // never written. The later elements of that operation move down one.
  std::vector<Value>& elements = operations[*entry.op].elements;
  elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(entry.at));
  for (Entry& other : entries_) {
    if (other.op == entry.op && other.at > entry.at) --other.at;
  }
}

}  // namespace cassette::cql
