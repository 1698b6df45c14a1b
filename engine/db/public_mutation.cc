// Implementation of the public Mutation builder (include/cassette/mutation.h).
#include "cassette/mutation.h"

namespace cassette {

RowOperation& RowBuilder::op() { return m_->rows_[index_]; }

RowBuilder& RowBuilder::Set(std::string column, Value value) {
  op().columns.push_back({std::move(column), CellOp::kSet, std::move(value), {}, {}});
  return *this;
}

RowBuilder& RowBuilder::SetNull(std::string column) {
  op().columns.push_back({std::move(column), CellOp::kDelete, {}, {}, {}});
  return *this;
}

RowBuilder& RowBuilder::MapPut(std::string column, Value key, Value value) {
  op().columns.push_back(
      {std::move(column), CellOp::kMapPut, std::move(value), std::move(key), {}});
  return *this;
}

RowBuilder& RowBuilder::Add(std::string column, std::vector<Value> elements) {
  op().columns.push_back({std::move(column), CellOp::kCollectionAdd, {}, {}, std::move(elements)});
  return *this;
}

RowBuilder& RowBuilder::Prepend(std::string column, std::vector<Value> elements) {
  op().columns.push_back({std::move(column), CellOp::kListPrepend, {}, {}, std::move(elements)});
  return *this;
}

RowBuilder& RowBuilder::Remove(std::string column, std::vector<Value> elements) {
  op().columns.push_back(
      {std::move(column), CellOp::kCollectionRemove, {}, {}, std::move(elements)});
  return *this;
}

RowBuilder& RowBuilder::ReplaceCollection(std::string column, std::vector<Value> elements) {
  op().columns.push_back({std::move(column), CellOp::kCollectionSet, {}, {}, std::move(elements)});
  return *this;
}

RowBuilder& RowBuilder::SetCounter(std::string column, int64_t total) {
  op().columns.push_back({std::move(column), CellOp::kCounterSet, Value::Counter(total), {}, {}});
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
