#include "engine/mutation/reconcile.h"

#include <algorithm>
#include <utility>

namespace cassette {
namespace {

// "Expiring or tombstone": the cell carries a local deletion time.
bool HasDeletionTime(const Cell& c) { return c.local_deletion_time != kNoDeletionTime; }

int CompareBytes(std::string_view a, std::string_view b) {
  // std::string_view compares with char_traits<char>, which orders bytes as
  // unsigned char: exactly Cassandra's compareUnsigned.
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Keeps the winner of two versions of the same cell in *into.
void ReconcileInto(Cell* into, const Cell& from) {
  if (CellWins(from, *into)) *into = from;
}
void ReconcileInto(Cell* into, Cell&& from) {
  if (CellWins(from, *into)) *into = std::move(from);
}

// Merging from an rvalue moves the cells out of it; from an lvalue it copies.
template <bool kMove, class T>
decltype(auto) Take(T& x) {
  if constexpr (kMove) {
    return std::move(x);
  } else {
    return static_cast<const T&>(x);
  }
}

// Both sides sorted by path (memcmp); the result is too.
template <bool kMove, class Cells>
void MergeCellsByPath(CellVector* into, Cells& from) {
  if (from.empty()) return;
  if (into->empty()) {
    *into = Take<kMove>(from);
    return;
  }
  CellVector out;
  out.reserve(into->size() + from.size());
  auto a = into->begin();
  auto b = from.begin();
  while (a != into->end() && b != from.end()) {
    int c = CompareBytes(a->path, b->path);
    if (c < 0) {
      out.push_back(std::move(*a++));
    } else if (c > 0) {
      out.push_back(Take<kMove>(*b++));
    } else {
      Cell winner = std::move(*a++);
      ReconcileInto(&winner, Take<kMove>(*b++));
      out.push_back(std::move(winner));
    }
  }
  for (; a != into->end(); ++a) out.push_back(std::move(*a));
  for (; b != from.end(); ++b) out.push_back(Take<kMove>(*b));
  *into = std::move(out);
}

template <bool kMove, class Col>
void MergeColumn(ColumnData* into, Col& from) {
  if (!into->is_complex && !from.is_complex) {
    // Simple column: one cell each (an empty side contributes nothing).
    if (from.cells.empty()) return;
    if (into->cells.empty()) {
      into->cells = Take<kMove>(from.cells);
    } else {
      ReconcileInto(&into->cells[0], Take<kMove>(from.cells[0]));
    }
    return;
  }
  into->is_complex = true;
  if (from.complex_deletion.Supersedes(into->complex_deletion)) {
    into->complex_deletion = from.complex_deletion;
  }
  MergeCellsByPath<kMove>(&into->cells, from.cells);
}

template <bool kMove, class R>
void MergeRowImpl(Row* into, R& from) {
  if (LivenessSupersedes(from.marker, into->marker)) into->marker = from.marker;
  if (from.deletion.Supersedes(into->deletion)) into->deletion = from.deletion;
  if (from.columns.empty()) return;
  if (into->columns.empty()) {
    into->columns = Take<kMove>(from.columns);
    return;
  }
  // The same columns on both sides (rows written by statements of one
  // shape, the usual overwrite): merged in place, without a new vector.
  if (into->columns.size() == from.columns.size() &&
      std::equal(
          into->columns.begin(), into->columns.end(), from.columns.begin(),
          [](const ColumnData& a, const ColumnData& b) { return a.column_id == b.column_id; })) {
    for (size_t i = 0; i < into->columns.size(); ++i) {
      MergeColumn<kMove>(&into->columns[i], from.columns[i]);
    }
    return;
  }
  // Both sides sorted by column id; the result is too.
  std::vector<ColumnData> out;
  out.reserve(into->columns.size() + from.columns.size());
  auto a = into->columns.begin();
  auto b = from.columns.begin();
  while (a != into->columns.end() && b != from.columns.end()) {
    if (a->column_id < b->column_id) {
      out.push_back(std::move(*a++));
    } else if (a->column_id > b->column_id) {
      out.push_back(Take<kMove>(*b++));
    } else {
      ColumnData merged = std::move(*a++);
      MergeColumn<kMove>(&merged, *b++);
      out.push_back(std::move(merged));
    }
  }
  for (; a != into->columns.end(); ++a) out.push_back(std::move(*a));
  for (; b != from.columns.end(); ++b) out.push_back(Take<kMove>(*b));
  into->columns = std::move(out);
}

}  // namespace

bool CellWins(const Cell& a, const Cell& b) {
  // 1. Last write wins.
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
  // 2. A cell with a deletion time (expiring or tombstone) beats a live one,
  //    expired or not, so replicas converge whatever `now` they merge at.
  bool a_del = HasDeletionTime(a), b_del = HasDeletionTime(b);
  if (a_del != b_del) return a_del;
  if (a_del) {
    // 3. A tombstone beats an expiring cell.
    bool a_tomb = a.IsTombstone(), b_tomb = b.IsTombstone();
    if (a_tomb != b_tomb) return a_tomb;
    // 4. Same kind: the later deletion/expiry.
    if (a.local_deletion_time != b.local_deletion_time) {
      return a.local_deletion_time > b.local_deletion_time;
    }
  }
  // 5. The larger value as unsigned bytes.
  int c = CompareBytes(a.value, b.value);
  if (c != 0) return c > 0;
  // Cassandra leaves the rest to chance; a fixed order keeps merges
  // deterministic and commutative. The larger TTL wins (the equal expiry
  // then dates its write earlier, so an expired cell purges no sooner).
  return a.ttl > b.ttl;
}

const Cell& Reconcile(const Cell& a, const Cell& b) { return CellWins(b, a) ? b : a; }

bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b) {
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
  if (a.IsExpiring() != b.IsExpiring()) return a.IsExpiring();
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time > b.local_expiration_time;
  }
  // Same deterministic last resort as CellWins.
  return a.ttl > b.ttl;
}

void MergeRow(Row* into, const Row& from) { MergeRowImpl<false>(into, from); }

void MergeRow(Row* into, Row&& from) { MergeRowImpl<true>(into, from); }

void MergePartition(PartitionUpdate* into, const PartitionUpdate& from) {
  if (from.partition_deletion.Supersedes(into->partition_deletion)) {
    into->partition_deletion = from.partition_deletion;
  }
  MergeRow(&into->static_row, from.static_row);
  for (const RangeTombstone& rt : from.range_tombstones) {
    // Re-applying the same delete (commit log replay, repeated merges) must
    // not grow the list.
    if (std::find(into->range_tombstones.begin(), into->range_tombstones.end(), rt) ==
        into->range_tombstones.end()) {
      into->range_tombstones.push_back(rt);
    }
  }
  if (from.rows.empty()) return;
  std::vector<Row> out;
  out.reserve(into->rows.size() + from.rows.size());
  auto a = into->rows.begin();
  auto b = from.rows.begin();
  while (a != into->rows.end() && b != from.rows.end()) {
    int c = CompareBytes(a->clustering, b->clustering);
    if (c < 0) {
      out.push_back(std::move(*a++));
    } else if (c > 0) {
      out.push_back(*b++);
    } else {
      Row merged = std::move(*a++);
      MergeRow(&merged, *b++);
      out.push_back(std::move(merged));
    }
  }
  for (; a != into->rows.end(); ++a) out.push_back(std::move(*a));
  out.insert(out.end(), b, from.rows.end());
  into->rows = std::move(out);
}

bool RemoveShadowed(Row* row, const DeletionTime& deletion) {
  // The strongest deletion over the row. The row's own deletion is dropped
  // when the given one strictly supersedes it: the caller keeps the given
  // one (partition deletion or range tombstone) elsewhere. When they are
  // equal, the given one may be the row's own, so it stays.
  DeletionTime active = deletion;
  if (row->deletion.Supersedes(deletion)) {
    active = row->deletion;
  } else if (deletion.Supersedes(row->deletion)) {
    row->deletion = DeletionTime::Live();
  }

  if (!row->marker.IsEmpty() && active.Deletes(row->marker.timestamp)) {
    row->marker = LivenessInfo{};
  }

  auto col_out = row->columns.begin();
  for (auto col = row->columns.begin(); col != row->columns.end(); ++col) {
    // Cells shadowed by the collection's own deletion go too; the complex
    // deletion itself is redundant once `active` is at least as strong.
    const DeletionTime complex = col->complex_deletion;
    if (!complex.IsLive() && !complex.Supersedes(active) && !active.IsLive()) {
      col->complex_deletion = DeletionTime::Live();
    }
    erase_if(col->cells, [&](const Cell& c) {
      return active.Deletes(c.timestamp) || complex.Deletes(c.timestamp);
    });
    if (col->cells.empty() && col->complex_deletion.IsLive()) continue;
    if (col_out != col) *col_out = std::move(*col);
    ++col_out;
  }
  row->columns.erase(col_out, row->columns.end());
  return row->IsEmpty();
}

}  // namespace cassette
