// Mutation: the changes to one partition of one table, applied atomically
// (Cassandra's partition update). Built with INSERT / UPDATE / DELETE
// semantics; the engine checks it against the schema when it is applied and
// either applies all of it or nothing. Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cassette/value.h"

namespace cassette {

// One end of a clustering range: values for the leading clustering columns
// (an empty prefix is unbounded), inclusive or exclusive.
struct ClusteringBound {
  std::vector<Value> prefix;
  bool inclusive = true;
};

enum class CellOp : uint8_t {
  kSet,               // column = value (a null value writes a tombstone)
  kDelete,            // DELETE column / column = null
  kCollectionSet,     // whole collection replaced: deletes old elements first
  kCollectionAdd,     // set + {..}, map + {..}, list + [..] (append)
  kListPrepend,       // [..] + list
  kCollectionRemove,  // set - {..}, map - {keys}
  kMapPut,            // map[key] = value (null value removes the key); on a non-frozen
                      // user type, key = the field's position (smallint): one field
  kCounterSet,        // a counter's new total (the caller read-modify-writes it)
  kListSetAt,         // l[i] = v: the list element at `path` takes `value`
  kListDeleteAt,      // DELETE l[i], l - [v]: the list element at `path` is deleted
};

struct ColumnOperation {
  std::string column;
  CellOp op = CellOp::kSet;
  Value value;  // kSet / kMapPut value
  Value key;    // kMapPut key
  std::vector<Value>
      elements;      // list/set elements, map keys (remove) or entries (alternating k, v)
  std::string path;  // kListSetAt / kListDeleteAt: the element (ElementCell::path)
};

struct RowOperation {
  enum class Kind : uint8_t { kInsert, kUpdate, kDeleteRow } kind = Kind::kUpdate;
  std::vector<Value> clustering;  // empty for static-only updates
  std::vector<ColumnOperation> columns;
};

class Mutation;

// Fluent access to one row operation of a Mutation.
class RowBuilder {
 public:
  RowBuilder& Set(std::string column, Value value);
  RowBuilder& SetNull(std::string column);
  RowBuilder& MapPut(std::string column, Value key, Value value);
  RowBuilder& Add(std::string column, std::vector<Value> elements);
  RowBuilder& Prepend(std::string column, std::vector<Value> elements);
  RowBuilder& Remove(std::string column, std::vector<Value> elements);
  // Replaces a whole collection (as `c = {...}` does for non-frozen collections).
  RowBuilder& ReplaceCollection(std::string column, std::vector<Value> elements);
  // Sets or deletes one element of a non-frozen list, named by the path
  // a read with cell metadata returned for it (ElementCell::path). The
  // other elements keep their own timestamps and TTLs, as Cassandra's
  // `l[i] = v`, `DELETE l[i]` and `l = l - [v]` do: they read the list and
  // write only the cells of the elements they change.
  RowBuilder& SetListElementAt(std::string column, std::string path, Value value);
  RowBuilder& DeleteListElementAt(std::string column, std::string path);
  // Writes a counter column's new total. Counters are read-modify-write
  // here (no distributed counter shards): the caller reads the current
  // value and writes the sum under its own lock, as the CQL layer does for
  // `c = c + n`. The only way to write a counter column.
  RowBuilder& SetCounter(std::string column, int64_t total);

 private:
  friend class Mutation;
  RowBuilder(Mutation* m, size_t index) : m_(m), index_(index) {}
  RowOperation& op();
  ColumnOperation& NewColumn(std::string column, CellOp cell_op);
  Mutation* m_;
  size_t index_;
};

class Mutation {
 public:
  Mutation(std::string keyspace, std::string table, std::vector<Value> partition_key)
      : keyspace_(std::move(keyspace)),
        table_(std::move(table)),
        partition_key_(std::move(partition_key)) {}

  // Every cell and deletion of this mutation gets this write timestamp
  // (microseconds). Default: assigned at apply as Cassandra's coordinator
  // does: the clock's milliseconds x 1000, strictly increasing (one more
  // than the last when the clock has not moved on).
  Mutation& UsingTimestamp(int64_t micros) {
    timestamp_ = micros;
    return *this;
  }
  // TTL in seconds for written cells (0 = no expiry). Default: the table's
  // default_time_to_live.
  Mutation& UsingTtl(int32_t seconds) {
    ttl_ = seconds;
    return *this;
  }

  // INSERT: the row also gets primary-key liveness, so it stays visible
  // with null columns.
  RowBuilder Insert(std::vector<Value> clustering);
  // UPDATE: cells only; the row vanishes when all its cells do. Use an empty
  // clustering to touch static columns only.
  RowBuilder Update(std::vector<Value> clustering);
  // DELETE of columns of one row: Update(...).SetNull(...) or Remove(...).
  // DELETE of a whole row.
  void DeleteRow(std::vector<Value> clustering);
  // DELETE over a clustering range (a prefix: both bounds = the prefix, inclusive).
  void DeleteRange(ClusteringBound start, ClusteringBound end);
  // DELETE of the whole partition.
  void DeletePartition() { delete_partition_ = true; }

  const std::string& keyspace() const { return keyspace_; }
  const std::string& table() const { return table_; }
  const std::vector<Value>& partition_key() const { return partition_key_; }
  std::optional<int64_t> timestamp() const { return timestamp_; }
  std::optional<int32_t> ttl() const { return ttl_; }
  const std::vector<RowOperation>& rows() const { return rows_; }
  std::vector<RowOperation>& mutable_rows() { return rows_; }
  const std::vector<std::pair<ClusteringBound, ClusteringBound>>& range_deletions() const {
    return ranges_;
  }
  bool deletes_partition() const { return delete_partition_; }

 private:
  friend class RowBuilder;
  std::string keyspace_;
  std::string table_;
  std::vector<Value> partition_key_;
  std::optional<int64_t> timestamp_;
  std::optional<int32_t> ttl_;
  std::vector<RowOperation> rows_;
  std::vector<std::pair<ClusteringBound, ClusteringBound>> ranges_;
  bool delete_partition_ = false;
};

}  // namespace cassette
