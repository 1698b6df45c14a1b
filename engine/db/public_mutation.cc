// Implementation of the public Mutation builder (include/cassette/mutation.h).
#include "cassette/mutation.h"

namespace cassette {

RowOperation& RowBuilder::op() { return m_->rows_[index_]; }

// Built in place: a ColumnOperation is two Values, a name and a vector, and
// building one aside to move it in costs as much again (every column of
// every row written through the API comes here).
ColumnOperation& RowBuilder::NewColumn(std::string column, CellOp cell_op) {
  ColumnOperation& c = op().columns.emplace_back();
  c.column = std::move(column);
  c.op = cell_op;
  return c;
}

RowBuilder& RowBuilder::Set(std::string column, Value value) {
  NewColumn(std::move(column), CellOp::kSet).value = std::move(value);
  return *this;
}

RowBuilder& RowBuilder::SetNull(std::string column) {
  NewColumn(std::move(column), CellOp::kDelete);
  return *this;
}

RowBuilder& RowBuilder::MapPut(std::string column, Value key, Value value) {
  ColumnOperation& c = NewColumn(std::move(column), CellOp::kMapPut);
  c.value = std::move(value);
  c.key = std::move(key);
  return *this;
}

RowBuilder& RowBuilder::Add(std::string column, std::vector<Value> elements) {
  NewColumn(std::move(column), CellOp::kCollectionAdd).elements = std::move(elements);
  return *this;
}

RowBuilder& RowBuilder::Prepend(std::string column, std::vector<Value> elements) {
  NewColumn(std::move(column), CellOp::kListPrepend).elements = std::move(elements);
  return *this;
}

RowBuilder& RowBuilder::Remove(std::string column, std::vector<Value> elements) {
  NewColumn(std::move(column), CellOp::kCollectionRemove).elements = std::move(elements);
  return *this;
}

RowBuilder& RowBuilder::ReplaceCollection(std::string column, std::vector<Value> elements) {
  NewColumn(std::move(column), CellOp::kCollectionSet).elements = std::move(elements);
  return *this;
}

RowBuilder& RowBuilder::SetListElementAt(std::string column, std::string path, Value value) {
  ColumnOperation& c = NewColumn(std::move(column), CellOp::kListSetAt);
  c.path = std::move(path);
  c.value = std::move(value);
  return *this;
}

RowBuilder& RowBuilder::DeleteListElementAt(std::string column, std::string path) {
  NewColumn(std::move(column), CellOp::kListDeleteAt).path = std::move(path);
  return *this;
}

RowBuilder& RowBuilder::SetCounter(std::string column, int64_t total) {
  NewColumn(std::move(column), CellOp::kCounterSet).value = Value::Counter(total);
  return *this;
}

namespace {
// A row mostly sets a few columns: room for them up front spares the
// vector regrowing (moving every operation so far) as they are added.
constexpr size_t kTypicalColumnsPerRow = 4;
}  // namespace

RowBuilder Mutation::Insert(std::vector<Value> clustering) {
  rows_.push_back({RowOperation::Kind::kInsert, std::move(clustering), {}});
  rows_.back().columns.reserve(kTypicalColumnsPerRow);
  return RowBuilder(this, rows_.size() - 1);
}

RowBuilder Mutation::Update(std::vector<Value> clustering) {
  rows_.push_back({RowOperation::Kind::kUpdate, std::move(clustering), {}});
  rows_.back().columns.reserve(kTypicalColumnsPerRow);
  return RowBuilder(this, rows_.size() - 1);
}

void Mutation::DeleteRow(std::vector<Value> clustering) {
  rows_.push_back({RowOperation::Kind::kDeleteRow, std::move(clustering), {}});
}

void Mutation::DeleteRange(ClusteringBound start, ClusteringBound end) {
  ranges_.emplace_back(std::move(start), std::move(end));
}

}  // namespace cassette
