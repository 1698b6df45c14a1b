#include "engine/db/mutation_converter.h"

#include <algorithm>

#include "engine/mutation/expiry.h"
#include "engine/mutation/reconcile.h"
#include "engine/mutation/timestamps.h"
#include "engine/schema/column_value.h"
#include "engine/schema/key_codec.h"
#include "engine/schema/ttl_limit.h"
#include "engine/types/cell_path.h"
#include "engine/types/comparable.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"
#include "engine/util/murmur3.h"

namespace cassette {

namespace {

// Builds the cells of one row from its column operations.
class RowCellBuilder {
 public:
  RowCellBuilder(const ConversionContext& context, int32_t ttl) : context_(context), ttl_(ttl) {}

  Cell LiveCell(std::string value, std::string path = {}) const {
    if (ttl_ > 0) {
      return Cell::Expiring(context_.timestamp, ttl_, context_.now_sec, std::move(value),
                            std::move(path));
    }
    return Cell::Live(context_.timestamp, std::move(value), std::move(path));
  }
  Cell Tombstone(std::string path = {}) const {
    return Cell::Tombstone(context_.timestamp, context_.now_sec, std::move(path));
  }
  DeletionTime Deletion(int64_t timestamp) const { return {timestamp, context_.now_sec}; }

  // A simple column's only cell, built where it is stored: every column of
  // every row written comes through here, and building a Cell elsewhere
  // and moving it in would move its two strings twice.
  void SetOnlyLiveCell(ColumnData* data, std::string_view value) const {
    Cell& cell = OnlyCell(data);
    cell.timestamp = context_.timestamp;
    cell.ttl = ttl_ > 0 ? ttl_ : 0;
    cell.local_deletion_time = ExpiryTime(context_.now_sec, ttl_);
    cell.value.assign(value);
  }
  void SetOnlyTombstone(ColumnData* data) const {
    Cell& cell = OnlyCell(data);
    cell.timestamp = context_.timestamp;
    cell.ttl = 0;
    cell.local_deletion_time = context_.now_sec;
  }

  // Appends the effect of `op` on `column` to `data`.
  Status Apply(const ColumnDefinition& column, const ColumnOperation& op, ColumnData* data) {
    data->column_id = column.id;
    data->is_complex = column.type.IsMultiCell();
    if (!data->is_complex) return ApplySimple(column, op, data);
    return ApplyCollection(column, op, data);
  }

 private:
  Status ApplySimple(const ColumnDefinition& column, const ColumnOperation& op, ColumnData* data) {
    switch (op.op) {
      case CellOp::kSet:
        if (op.value.is_null()) {
          SetOnlyTombstone(data);
          return Status::OK();
        }
        CASSETTE_RETURN_IF_ERROR(CheckValue(column, op.value, "column"));
        SetOnlyLiveCell(data, op.value.bytes());
        return Status::OK();
      case CellOp::kDelete:
        SetOnlyTombstone(data);
        return Status::OK();
      case CellOp::kCounterSet:
        CASSETTE_RETURN_IF_ERROR(CheckValue(column, op.value, "column"));
        SetOnlyLiveCell(data, op.value.bytes());
        return Status::OK();
      default:
        return Status::InvalidRequest("Invalid operation for non-collection column " + column.name);
    }
  }

  Status ElementPath(const DataType& type, const Value& element, const std::string& column,
                     std::string* path) {
    if (element.is_null()) {
      return Status::InvalidRequest("null is not supported inside collections");
    }
    if (!ValueTypeFitsColumn(type, element.type())) {
      return Status::InvalidRequest("Invalid element type for collection column " + column);
    }
    CASSETTE_RETURN_IF_ERROR(ValidateValue(type, element.bytes()));
    EncodeComparable(type, element.bytes(), false, path);
    return Status::OK();
  }

  // A list element path names an element by its timeuuid (as ListPath
  // writes it): anything else would store a cell no list read can place.
  static Status CheckListPath(const std::string& path, const std::string& column) {
    std::string_view rest = path;
    std::string uuid;
    if (path.empty() || !DecodeComparable(DataType::Timeuuid(), false, &rest, &uuid).ok() ||
        !rest.empty()) {
      return Status::InvalidRequest("Invalid list element path for column " + column);
    }
    return Status::OK();
  }

  // List element paths are version-1 timeuuids. Their time orders them by
  // write timestamp: appends count up from 2^56 + the timestamp (in tenths
  // of microseconds, below 2^56 until the year 2198), prepends down from
  // 2^56, so prepended elements sort first (as Cassandra's) and later
  // prepends before earlier ones. Their clock sequence and node order
  // those of one timestamp: the element's number in list_sequence, rising
  // for appends and falling for prepends. Compared as signed bytes (as
  // Cassandra compares them), each of those bytes holds 7 bits of it.
  std::string ListPath(bool prepend) {
    const uint64_t number = context_.list_sequence != nullptr
                                ? context_.list_sequence->fetch_add(1, std::memory_order_relaxed)
                                : list_counter_++;
    constexpr uint64_t kNumbers = uint64_t{1} << 55;  // 6 bits in byte 8, 7 in bytes 9-15
    const uint64_t order = prepend ? kNumbers - 1 - (number % kNumbers) : number % kNumbers;
    const int64_t base = context_.timestamp * 10;
    const int64_t ticks = prepend ? (int64_t{1} << 56) - base : base + (int64_t{1} << 56);
    const uint64_t t = static_cast<uint64_t>(ticks) & ((uint64_t{1} << 60) - 1);
    std::string uuid;
    PutBigEndian32(&uuid, static_cast<uint32_t>(t));                   // time_low
    PutBigEndian16(&uuid, static_cast<uint16_t>(t >> 32));             // time_mid
    PutBigEndian16(&uuid, static_cast<uint16_t>(0x1000 | (t >> 48)));  // version 1
    uuid.push_back(static_cast<char>(0x80 | (order >> 49)));           // variant 10
    for (int shift = 42; shift >= 0; shift -= 7) {
      uuid.push_back(static_cast<char>((order >> shift) & 0x7f));
    }
    std::string path;
    EncodeComparable(DataType::Timeuuid(), uuid, false, &path);
    return path;
  }

  // A non-frozen user type: one cell per non-null field, its path the
  // field's position (UserTypeFieldPath).
  Status SetField(const ColumnDefinition& column, size_t field, const Value& value,
                  ColumnData* data) {
    if (value.is_null()) {
      data->cells.push_back(Tombstone(UserTypeFieldPath(field)));
      return Status::OK();
    }
    const DataType& field_type = column.type.params()[field];
    if (!ValueTypeFitsColumn(field_type, value.type())) {
      return Status::InvalidRequest("Invalid value for field " + column.type.field_names()[field] +
                                    " of column " + column.name);
    }
    CASSETTE_RETURN_IF_ERROR(ValidateValue(field_type, value.bytes()));
    data->cells.push_back(LiveCell(value.bytes(), UserTypeFieldPath(field)));
    return Status::OK();
  }

  Status ApplyUserType(const ColumnDefinition& column, const ColumnOperation& op,
                       ColumnData* data) {
    const size_t field_count = column.type.params().size();
    switch (op.op) {
      case CellOp::kDelete:
        data->complex_deletion = Deletion(context_.timestamp);
        return Status::OK();
      case CellOp::kSet:
      case CellOp::kCollectionSet: {
        // As for collections: the old fields go, the new ones stay.
        data->complex_deletion = Deletion(context_.timestamp - 1);
        std::vector<Value> fields = op.elements;
        if (op.op == CellOp::kSet) {
          if (op.value.is_null()) return Status::OK();
          CASSETTE_RETURN_IF_ERROR(CheckValue(column, op.value, "column"));
          fields = op.value.Elements();
        }
        if (fields.size() > field_count) {
          return Status::InvalidRequest("Too many fields for column " + column.name);
        }
        for (size_t i = 0; i < fields.size(); ++i) {
          if (!fields[i].is_null()) CASSETTE_RETURN_IF_ERROR(SetField(column, i, fields[i], data));
        }
        return Status::OK();
      }
      case CellOp::kMapPut: {  // key: the field's position (smallint)
        if (op.key.is_null() || op.key.type().kind() != TypeKind::kSmallint ||
            op.key.bytes().size() != 2) {
          return Status::InvalidRequest("A field of user type column " + column.name +
                                        " is named by its position (smallint)");
        }
        const int64_t field = op.key.AsInt64();
        if (field < 0 || static_cast<size_t>(field) >= field_count) {
          return Status::InvalidRequest("No field " + std::to_string(field) + " in column " +
                                        column.name);
        }
        return SetField(column, static_cast<size_t>(field), op.value, data);
      }
      default:
        return Status::InvalidRequest("Invalid operation for user type column " + column.name);
    }
  }

  Status ApplyCollection(const ColumnDefinition& column, const ColumnOperation& op,
                         ColumnData* data) {
    const DataType& type = column.type;
    if (type.IsUserType()) return ApplyUserType(column, op, data);
    const bool is_map = type.kind() == TypeKind::kMap;
    const bool is_list = type.kind() == TypeKind::kList;
    const DataType& element_type = type.params()[0];
    switch (op.op) {
      case CellOp::kDelete:
        data->complex_deletion = Deletion(context_.timestamp);
        return Status::OK();
      case CellOp::kSet:
      case CellOp::kCollectionSet: {
        // Overwrite: a deletion just below the write timestamp clears the
        // old elements and keeps the new ones.
        data->complex_deletion = Deletion(context_.timestamp - 1);
        std::vector<Value> elements = op.elements;
        if (op.op == CellOp::kSet) {
          if (op.value.is_null()) return Status::OK();
          CASSETTE_RETURN_IF_ERROR(CheckValue(column, op.value, "column"));
          elements = op.value.Elements();
        }
        return AddElements(column, elements, is_map, is_list, false, data);
      }
      case CellOp::kCollectionAdd:
        return AddElements(column, op.elements, is_map, is_list, false, data);
      case CellOp::kListPrepend:
        if (!is_list) return Status::InvalidRequest("Invalid operation for column " + column.name);
        return AddElements(column, op.elements, false, true, true, data);
      case CellOp::kCollectionRemove: {
        if (is_list) {
          return Status::InvalidRequest(
              "Removing list elements by value needs the current list; use ReplaceCollection");
        }
        for (const Value& element : op.elements) {
          std::string path;
          CASSETTE_RETURN_IF_ERROR(ElementPath(element_type, element, column.name, &path));
          data->cells.push_back(Tombstone(std::move(path)));
        }
        return Status::OK();
      }
      case CellOp::kMapPut: {
        if (!is_map) return Status::InvalidRequest("Invalid operation for column " + column.name);
        std::string path;
        CASSETTE_RETURN_IF_ERROR(ElementPath(element_type, op.key, column.name, &path));
        if (op.value.is_null()) {
          data->cells.push_back(Tombstone(std::move(path)));
          return Status::OK();
        }
        if (!ValueTypeFitsColumn(type.params()[1], op.value.type())) {
          return Status::InvalidRequest("Invalid map value type for column " + column.name);
        }
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[1], op.value.bytes()));
        data->cells.push_back(LiveCell(op.value.bytes(), std::move(path)));
        return Status::OK();
      }
      case CellOp::kListSetAt:
      case CellOp::kListDeleteAt: {
        if (!is_list) return Status::InvalidRequest("Invalid operation for column " + column.name);
        CASSETTE_RETURN_IF_ERROR(CheckListPath(op.path, column.name));
        if (op.op == CellOp::kListDeleteAt || op.value.is_null()) {
          data->cells.push_back(Tombstone(op.path));
          return Status::OK();
        }
        if (!ValueTypeFitsColumn(element_type, op.value.type())) {
          return Status::InvalidRequest("Invalid list element type for column " + column.name);
        }
        CASSETTE_RETURN_IF_ERROR(ValidateValue(element_type, op.value.bytes()));
        data->cells.push_back(LiveCell(op.value.bytes(), op.path));
        return Status::OK();
      }
      case CellOp::kCounterSet:  // counters are never collections
        break;
    }
    return Status::InvalidRequest("Invalid operation for column " + column.name);
  }

  Status AddElements(const ColumnDefinition& column, const std::vector<Value>& elements,
                     bool is_map, bool is_list, bool prepend, ColumnData* data) {
    const DataType& type = column.type;
    if (is_map) {
      if (elements.size() % 2 != 0) {
        return Status::InvalidRequest("Map entries must come as key, value pairs for " +
                                      column.name);
      }
      for (size_t i = 0; i < elements.size(); i += 2) {
        std::string path;
        CASSETTE_RETURN_IF_ERROR(ElementPath(type.params()[0], elements[i], column.name, &path));
        const Value& value = elements[i + 1];
        if (value.is_null())
          return Status::InvalidRequest("null is not supported inside collections");
        if (!ValueTypeFitsColumn(type.params()[1], value.type())) {
          return Status::InvalidRequest("Invalid map value type for column " + column.name);
        }
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[1], value.bytes()));
        data->cells.push_back(LiveCell(value.bytes(), std::move(path)));
      }
      return Status::OK();
    }
    if (is_list) {
      CellVector cells;
      for (const Value& element : elements) {
        if (element.is_null())
          return Status::InvalidRequest("null is not supported inside collections");
        if (!ValueTypeFitsColumn(type.params()[0], element.type())) {
          return Status::InvalidRequest("Invalid list element type for column " + column.name);
        }
        CASSETTE_RETURN_IF_ERROR(ValidateValue(type.params()[0], element.bytes()));
        cells.push_back(LiveCell(element.bytes()));
      }
      // Prepending [a, b] puts a first: assign descending paths in reverse.
      if (prepend) {
        for (size_t i = cells.size(); i-- > 0;) cells[i].path = ListPath(true);
      } else {
        for (Cell& cell : cells) cell.path = ListPath(false);
      }
      for (Cell& cell : cells) data->cells.push_back(std::move(cell));
      return Status::OK();
    }
    for (const Value& element : elements) {  // set
      std::string path;
      CASSETTE_RETURN_IF_ERROR(ElementPath(type.params()[0], element, column.name, &path));
      data->cells.push_back(LiveCell(std::string(), std::move(path)));
    }
    return Status::OK();
  }

  // The column's cells reduced to one empty cell (its path empty too),
  // reusing what storage they have.
  static Cell& OnlyCell(ColumnData* data) {
    data->cells.resize(1);
    Cell& cell = data->cells[0];
    cell.value.clear();
    cell.path.clear();
    return cell;
  }

  const ConversionContext& context_;
  int32_t ttl_;
  uint64_t list_counter_ = 0;
};

// Sorts and merges the column data of a row so each column appears once
// with its cells in path order (operations on one column may repeat).
// True when every column appears once, in id order, with its cells in
// path order: what a mutation setting each column once already is.
bool ColumnsAreNormal(const std::vector<ColumnData>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0 && columns[i - 1].column_id >= columns[i].column_id) return false;
    const CellVector& cells = columns[i].cells;
    for (size_t c = 1; c < cells.size(); ++c) {
      if (!(cells[c - 1].path < cells[c].path)) return false;
    }
  }
  return true;
}

void NormalizeColumns(std::vector<ColumnData>* columns) {
  // The common case costs a scan, not two sorts and a copy.
  if (ColumnsAreNormal(*columns)) return;
  std::stable_sort(columns->begin(), columns->end(), [](const ColumnData& a, const ColumnData& b) {
    return a.column_id < b.column_id;
  });
  std::vector<ColumnData> merged;
  for (ColumnData& data : *columns) {
    std::stable_sort(data.cells.begin(), data.cells.end(),
                     [](const Cell& a, const Cell& b) { return a.path < b.path; });
    if (!merged.empty() && merged.back().column_id == data.column_id) {
      Row into, from;
      into.columns.push_back(std::move(merged.back()));
      from.columns.push_back(std::move(data));
      MergeRow(&into, from);
      merged.back() = std::move(into.columns[0]);
    } else {
      merged.push_back(std::move(data));
    }
  }
  *columns = std::move(merged);
}

Result<Bound> ConvertBound(const TableSchema& schema, const ClusteringBound& bound) {
  Bound result;
  result.inclusive = bound.inclusive;
  CASSETTE_ASSIGN_OR_RETURN(result.prefix, EncodeClusteringValues(schema, bound.prefix));
  return result;
}

}  // namespace

Status ConvertMutation(const TableSchema& schema, const Mutation& mutation,
                       const ConversionContext& context, PartitionUpdate* update) {
  update->table_id = context.table_id;
  CASSETTE_ASSIGN_OR_RETURN(std::string key,
                            EncodePartitionKeyValues(schema, mutation.partition_key()));
  update->key = DecoratedKey::FromKey(std::move(key));

  const int64_t ttl = mutation.ttl().value_or(schema.options().default_time_to_live);
  CASSETTE_RETURN_IF_ERROR(CheckTtl(ttl));
  RowCellBuilder cells(context, static_cast<int32_t>(ttl));
  const DeletionTime deletion{context.timestamp, context.now_sec};
  const size_t clustering_count = schema.clustering().size();

  if (mutation.deletes_partition()) update->partition_deletion = deletion;

  for (const auto& [start, end] : mutation.range_deletions()) {
    RangeTombstone rt;
    CASSETTE_ASSIGN_OR_RETURN(rt.range.start, ConvertBound(schema, start));
    CASSETTE_ASSIGN_OR_RETURN(rt.range.end, ConvertBound(schema, end));
    // Bounds arrive in CQL order; when the deepest bounded column is DESC,
    // storage order runs the other way.
    const size_t depth = std::max(start.prefix.size(), end.prefix.size());
    if (depth > 0 &&
        schema.columns()[schema.clustering()[depth - 1]].order == ClusteringOrder::kDesc) {
      std::swap(rt.range.start, rt.range.end);
    }
    rt.deletion = deletion;
    if (!rt.range.IsEmpty()) update->range_tombstones.push_back(std::move(rt));
  }

  // Rows are built where they are kept, in the update's own vector: a
  // mutation mostly writes one row, and a Row moved into place costs as
  // much again as building it.
  std::vector<Row>& rows = update->rows;
  rows.reserve(mutation.rows().size());
  Row static_row;
  for (const RowOperation& op : mutation.rows()) {
    const bool static_only = op.clustering.empty() && clustering_count > 0;
    if (op.clustering.size() > clustering_count) {
      return Status::InvalidRequest("Too many clustering values: the table has " +
                                    std::to_string(clustering_count) + " clustering columns");
    }
    if (!static_only && op.clustering.size() != clustering_count) {
      return Status::InvalidRequest(
          "Some clustering keys are missing: " +
          schema
              .columns()[schema.clustering()[std::min(op.clustering.size(), clustering_count - 1)]]
              .name);
    }
    Row& row = rows.emplace_back();
    static_row.columns.clear();
    if (!static_only) {
      CASSETTE_ASSIGN_OR_RETURN(row.clustering, EncodeClusteringValues(schema, op.clustering));
    }
    if (op.kind == RowOperation::Kind::kDeleteRow) {
      if (static_only) {
        return Status::InvalidRequest("A row deletion needs every clustering column");
      }
      row.deletion = deletion;
    }
    row.columns.reserve(op.columns.size());
    if (op.kind == RowOperation::Kind::kInsert && !static_only) {
      row.marker = LivenessInfo{context.timestamp, static_cast<int32_t>(ttl),
                                ExpiryTime(context.now_sec, ttl)};
    }
    for (const ColumnOperation& column_op : op.columns) {
      const ColumnDefinition* column = schema.Find(column_op.column);
      if (column == nullptr) {
        return Status::InvalidRequest("Undefined column name " + column_op.column + " in table " +
                                      schema.keyspace() + "." + schema.name());
      }
      if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
        return Status::InvalidRequest("PRIMARY KEY part " + column->name + " found in SET part");
      }
      const bool is_counter = column->type.kind() == TypeKind::kCounter;
      if (is_counter && column_op.op != CellOp::kCounterSet && column_op.op != CellOp::kDelete) {
        return Status::InvalidRequest("Cannot set the value of counter column " + column->name +
                                      " (counters can only be incremented/decremented)");
      }
      if (!is_counter && column_op.op == CellOp::kCounterSet) {
        return Status::InvalidRequest("Invalid counter operation for non counter column " +
                                      column->name);
      }
      if (static_only && column->kind != ColumnKind::kStatic) {
        return Status::InvalidRequest("Some clustering keys are missing: " +
                                      schema.columns()[schema.clustering()[0]].name);
      }
      ColumnData& data =
          (column->kind == ColumnKind::kStatic ? static_row : row).columns.emplace_back();
      CASSETTE_RETURN_IF_ERROR(cells.Apply(*column, column_op, &data));
    }
    NormalizeColumns(&static_row.columns);
    NormalizeColumns(&row.columns);
    if (!static_row.columns.empty()) MergeRow(&update->static_row, static_row);
    if (static_only || row.IsEmpty()) rows.pop_back();
  }

  if (rows.size() > 1) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.clustering < b.clustering; });
  }
  // Rows of the same clustering merge, in place.
  size_t kept = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (kept > 0 && rows[kept - 1].clustering == rows[i].clustering) {
      MergeRow(&rows[kept - 1], std::move(rows[i]));
    } else {
      if (kept != i) rows[kept] = std::move(rows[i]);
      ++kept;
    }
  }
  rows.resize(kept);
  return Status::OK();
}

bool ConvertPlainMutation(const TableSchema& schema, const Mutation& mutation,
                          const ConversionContext& context, PlainMutation* out) {
  // The shape first, then what ConvertMutation checks on the way, in any
  // order: the answer is only yes or "ask ConvertMutation".
  if (mutation.deletes_partition() || !mutation.range_deletions().empty() ||
      mutation.rows().size() != 1) {
    return false;
  }
  const RowOperation& op = mutation.rows().front();
  // A full clustering (not a static-only update), and a row that is not
  // empty: an UPDATE without columns writes nothing.
  if (op.kind == RowOperation::Kind::kDeleteRow ||
      op.clustering.size() != schema.clustering().size() ||
      (op.kind == RowOperation::Kind::kUpdate && op.columns.empty())) {
    return false;
  }
  const int64_t ttl = mutation.ttl().value_or(schema.options().default_time_to_live);
  if (!TtlInRange(ttl)) return false;

  out->columns.clear();
  for (const ColumnOperation& column_op : op.columns) {
    if (column_op.op != CellOp::kSet || column_op.value.is_null()) return false;
    const ColumnDefinition* column = schema.Find(column_op.column);
    if (column == nullptr || column->kind != ColumnKind::kRegular || column->type.IsMultiCell() ||
        column->type.kind() == TypeKind::kCounter ||
        !CheckValue(*column, column_op.value, "column").ok()) {
      return false;
    }
    // Kept sorted by id as they come (a row sets a handful of columns);
    // a column set twice is ConvertMutation's to merge.
    auto at = std::lower_bound(out->columns.begin(), out->columns.end(), column->id,
                               [](const PlainColumn& c, uint32_t id) { return c.id < id; });
    if (at != out->columns.end() && at->id == column->id) return false;
    out->columns.insert(at, PlainColumn{column->id, column_op.value.bytes()});
  }

  Result<std::string> key = EncodePartitionKeyValues(schema, mutation.partition_key());
  if (!key.ok()) return false;
  Result<std::string> clustering = EncodeClusteringValues(schema, op.clustering);
  if (!clustering.ok()) return false;
  out->key = std::move(key).value();
  out->token = Murmur3Token(out->key);
  out->clustering = std::move(clustering).value();
  out->has_marker = op.kind == RowOperation::Kind::kInsert;
  out->timestamp = context.timestamp;
  out->ttl = static_cast<int32_t>(ttl);
  out->expiry = ExpiryTime(context.now_sec, ttl);
  return true;
}

}  // namespace cassette
