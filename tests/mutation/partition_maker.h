// Builders of raw rows and partitions as sources hand them out, and a
// PartitionIterator over a vector of partition updates: what the merge
// iterators' tests (here) and the read path's tests (tests/read) feed them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/mutation/partition_source.h"
#include "engine/mutation/partition_update.h"

namespace cassette::mutation_test {

// Builds a raw row; keeps columns sorted by id and elements by path.
class RowMaker {
 public:
  explicit RowMaker(std::string clustering = {}) { row_.clustering = std::move(clustering); }
  RowMaker& Marker(int64_t ts) {
    row_.marker = LivenessInfo{ts, 0, kNoDeletionTime};
    return *this;
  }
  RowMaker& ExpiringMarker(int64_t ts, int32_t ttl, int64_t expiry) {
    row_.marker = LivenessInfo{ts, ttl, expiry};
    return *this;
  }
  RowMaker& Delete(int64_t ts, int64_t ldt) {
    row_.deletion = DeletionTime{ts, ldt};
    return *this;
  }
  RowMaker& Set(uint32_t column, Cell cell) {
    ColumnData& data = Column(column, false);
    data.cells = {std::move(cell)};
    return *this;
  }
  RowMaker& Element(uint32_t column, Cell cell) {
    ColumnData& data = Column(column, true);
    auto it = std::lower_bound(data.cells.begin(), data.cells.end(), cell.path,
                               [](const Cell& c, const std::string& p) { return c.path < p; });
    data.cells.insert(it, std::move(cell));
    return *this;
  }
  RowMaker& CollectionDeletion(uint32_t column, int64_t ts, int64_t ldt) {
    Column(column, true).complex_deletion = DeletionTime{ts, ldt};
    return *this;
  }
  Row Build() const { return row_; }
  operator Row() const { return row_; }  // NOLINT: builder

 private:
  ColumnData& Column(uint32_t id, bool complex) {
    auto it = std::lower_bound(row_.columns.begin(), row_.columns.end(), id,
                               [](const ColumnData& c, uint32_t i) { return c.column_id < i; });
    if (it == row_.columns.end() || it->column_id != id) {
      ColumnData data;
      data.column_id = id;
      data.is_complex = complex;
      it = row_.columns.insert(it, std::move(data));
    }
    return *it;
  }
  Row row_;
};

// Builds one source's raw data for one partition.
class PartitionMaker {
 public:
  explicit PartitionMaker(DecoratedKey key) { update_.key = std::move(key); }
  PartitionMaker& Add(Row row) {
    auto it = std::lower_bound(update_.rows.begin(), update_.rows.end(), row.clustering,
                               [](const Row& r, const std::string& c) { return r.clustering < c; });
    update_.rows.insert(it, std::move(row));
    return *this;
  }
  PartitionMaker& Static(Row row) {
    update_.static_row = std::move(row);
    return *this;
  }
  PartitionMaker& DeletePartition(int64_t ts, int64_t ldt) {
    update_.partition_deletion = DeletionTime{ts, ldt};
    return *this;
  }
  PartitionMaker& DeleteRange(Bound start, Bound end, int64_t ts, int64_t ldt) {
    update_.range_tombstones.push_back(
        RangeTombstone{ClusteringRange{std::move(start), std::move(end)}, DeletionTime{ts, ldt}});
    return *this;
  }
  PartitionUpdate Build() const { return update_; }
  operator PartitionUpdate() const { return update_; }  // NOLINT: builder

 private:
  PartitionUpdate update_;
};

// Iterates partition updates as one source's scan (sorted here into
// partition order, as a source hands them out), optionally ending with an
// error: a memtable stand-in for the merge, read and compaction tests.
class VectorPartitionIterator final : public PartitionIterator {
 public:
  explicit VectorPartitionIterator(std::vector<PartitionUpdate> partitions,
                                   Status end_status = Status::OK())
      : partitions_(std::move(partitions)), end_status_(std::move(end_status)) {
    std::sort(partitions_.begin(), partitions_.end(),
              [](const PartitionUpdate& a, const PartitionUpdate& b) { return a.key < b.key; });
    Load();
  }
  bool Valid() const override { return pos_ < partitions_.size(); }
  PartitionContent& partition() override { return content_; }
  void Next() override {
    ++pos_;
    Load();
  }
  Status status() const override { return Valid() ? Status::OK() : end_status_; }

 private:
  void Load() {
    if (!Valid()) return;
    const PartitionUpdate& p = partitions_[pos_];
    content_.key = p.key;
    content_.partition_deletion = p.partition_deletion;
    content_.static_row = p.static_row;
    content_.range_tombstones = p.range_tombstones;
    content_.rows = std::make_unique<VectorRowIterator>(p.rows);
  }

  std::vector<PartitionUpdate> partitions_;
  Status end_status_;
  size_t pos_ = 0;
  PartitionContent content_;
};

}  // namespace cassette::mutation_test
