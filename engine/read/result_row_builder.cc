#include "engine/read/result_row_builder.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "engine/mutation/plain_row_parse.h"
#include "engine/schema/key_codec.h"
#include "engine/types/comparable.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

Result<std::string> DecodePath(const DataType& type, const Cell& cell) {
  std::string_view path = cell.path;
  std::string serialized;
  CASSETTE_RETURN_IF_ERROR(DecodeComparable(type, /*descending=*/false, &path, &serialized));
  if (!path.empty()) return Status::Corruption("trailing bytes in a collection element path");
  return serialized;
}

std::optional<int32_t> RemainingTtl(const Cell& cell, int64_t now_sec) {
  if (!cell.IsExpiring()) return std::nullopt;
  int64_t left = cell.local_deletion_time - now_sec;
  return static_cast<int32_t>(std::clamp<int64_t>(left, 0, std::numeric_limits<int32_t>::max()));
}

}  // namespace

ResultRowBuilder::ResultRowBuilder(const TableSchema& schema, std::vector<size_t> selection,
                                   bool with_cell_metadata, int64_t now_sec)
    : schema_(schema),
      selection_(std::move(selection)),
      with_cell_metadata_(with_cell_metadata),
      now_sec_(now_sec) {}

void ResultRowBuilder::Prepare() {
  prepared_ = true;
  // A key column's position in the partition key or clustering.
  auto key_position = [](const std::vector<size_t>& key, size_t index) {
    return static_cast<size_t>(std::find(key.begin(), key.end(), index) - key.begin());
  };
  for (size_t index : selection_) {
    const ColumnDefinition& column = schema_.columns()[index];
    size_t position = 0;
    if (column.kind == ColumnKind::kPartitionKey) {
      position = key_position(schema_.partition_key(), index);
    } else if (column.kind == ColumnKind::kClustering) {
      position = key_position(schema_.clustering(), index);
      needs_clustering_ = true;
    }
    if (column.kind == ColumnKind::kRegular && column.type.IsMultiCell()) takes_plain_rows_ = false;
    slots_.push_back({&column, position, 0});
  }
  // Sized once: every row sets each slot, and its views point into these.
  values_.resize(selection_.size());
  if (with_cell_metadata_) {
    writetimes_.resize(selection_.size());
    ttls_.resize(selection_.size());
    elements_.resize(selection_.size());
  }
  collection_bytes_.resize(selection_.size());
  // A plain body can be selected straight into the slots unless a value
  // needs more than the body: cell metadata, a static row.
  selects_plain_bodies_ = takes_plain_rows_ && !with_cell_metadata_ &&
                          std::none_of(slots_.begin(), slots_.end(), [](const Slot& s) {
                            return s.column->kind == ColumnKind::kStatic;
                          });
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    const ColumnDefinition& column = *slots_[slot].column;
    if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
      key_slots_.push_back(slot);
    }
    if (column.kind != ColumnKind::kRegular) continue;
    regular_slots_.push_back(slot);
    if (column.id >= slot_by_id_.size()) slot_by_id_.resize(column.id + 1, -1);
    if (slot_by_id_[column.id] >= 0) selects_plain_bodies_ = false;  // selected twice
    slot_by_id_[column.id] = static_cast<int32_t>(slot);
  }
}

std::vector<ColumnSpec> ResultRowBuilder::Columns() const {
  std::vector<ColumnSpec> specs;
  specs.reserve(selection_.size());
  for (size_t index : selection_) {
    const ColumnDefinition& column = schema_.columns()[index];
    specs.push_back({column.name, column.type});
  }
  return specs;
}

Status ResultRowBuilder::StartPartition(const DecoratedKey& key) {
  if (!prepared_) Prepare();
  statics_ = Row{};
  CASSETTE_ASSIGN_OR_RETURN(key_values_, DeserializePartitionKey(schema_, key.key));
  if (key_values_.size() != schema_.partition_key().size()) {
    return Status::Corruption("partition key has " + std::to_string(key_values_.size()) +
                              " components, the table " +
                              std::to_string(schema_.partition_key().size()));
  }
  return Status::OK();
}

Status ResultRowBuilder::SelectKeyColumns(const std::string* clustering) {
  size_t clustering_values = 0;
  if (needs_clustering_ && clustering != nullptr) {
    CASSETTE_RETURN_IF_ERROR(DecodeClustering(schema_, *clustering, &clustering_));
    clustering_values = clustering_.size();
  }
  for (size_t slot : key_slots_) {
    const Slot& s = slots_[slot];
    if (s.column->kind == ColumnKind::kPartitionKey) {
      values_[slot] = ValueView(s.column->type, key_values_[s.key_position]);
    } else {
      values_[slot] = s.key_position < clustering_values
                          ? ValueView(s.column->type, clustering_[s.key_position])
                          : ValueView::Null(s.column->type);
    }
    // Key columns have neither WRITETIME nor TTL.
    if (with_cell_metadata_) {
      writetimes_[slot].reset();
      ttls_[slot].reset();
      elements_[slot].clear();
    }
  }
  return Status::OK();
}

template <class SetRegular>
Status ResultRowBuilder::Select(const std::string* clustering, SetRegular set_regular) {
  CASSETTE_RETURN_IF_ERROR(SelectKeyColumns(clustering));
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    const Slot& s = slots_[slot];
    if (s.column->kind == ColumnKind::kStatic) {
      CASSETTE_RETURN_IF_ERROR(SetColumnValue(*s.column, &statics_, slot));
    } else if (s.column->kind == ColumnKind::kRegular) {
      CASSETTE_RETURN_IF_ERROR(set_regular(slot));
    }
  }
  return Status::OK();
}

Status ResultRowBuilder::BuildView(const Row* live_row, RowView* view) {
  *view = {values_, writetimes_, ttls_, elements_};
  return Select(live_row != nullptr ? &live_row->clustering : nullptr,
                [&](size_t slot) { return SetColumnValue(*slots_[slot].column, live_row, slot); });
}

Status ResultRowBuilder::BuildView(const std::string& clustering, const PlainRowView& row,
                                   RowView* view) {
  *view = {values_, writetimes_, ttls_, elements_};
  return Select(&clustering, [&](size_t slot) {
    SetPlainValue(slot, row);
    return Status::OK();
  });
}

Status ResultRowBuilder::SelectPlainBody(const std::string& clustering, std::string_view body,
                                         const EncodingStats& bases, const ColumnFilter& columns,
                                         bool* selected) {
  *selected = false;
  // A row may lack a selected column: each starts null.
  for (size_t slot : regular_slots_) values_[slot] = ValueView::Null(slots_[slot].column->type);
  PlainRowHead head;
  const int32_t* slot_by_id = slot_by_id_.data();
  const size_t ids = slot_by_id_.size();
  const bool plain = ParsePlainRow(&body, bases, &head,
                                   [&](uint32_t id, bool /*row_ttl*/, std::string_view value) {
                                     if (!columns.Keeps(id))
                                       return false;  // a dropped column: the row needs filtering
                                     if (id < ids && slot_by_id[id] >= 0) {
                                       const auto slot = static_cast<size_t>(slot_by_id[id]);
                                       values_[slot] = ValueView(slots_[slot].column->type, value);
                                     }
                                     return true;
                                   });
  if (!plain || !body.empty() || !head.LiveAt(now_sec_)) return Status::OK();
  // Guarded: most selections have no key column, and a call per row shows.
  if (!key_slots_.empty()) CASSETTE_RETURN_IF_ERROR(SelectKeyColumns(&clustering));
  *selected = true;
  return Status::OK();
}

namespace {

void CopyView(const RowView& view, ResultRow* out) {
  out->values.reserve(view.values.size());
  for (const ValueView& value : view.values) out->values.push_back(value.ToValue());
  out->writetimes.assign(view.writetimes.begin(), view.writetimes.end());
  out->ttls.assign(view.ttls.begin(), view.ttls.end());
  out->elements.assign(view.elements.begin(), view.elements.end());
}

}  // namespace

void ResultRowBuilder::BuildSelected(ResultRow* out) const { CopyView(SelectedView(), out); }

Status ResultRowBuilder::Build(const Row* live_row, ResultRow* out) {
  RowView view;
  CASSETTE_RETURN_IF_ERROR(BuildView(live_row, &view));
  CopyView(view, out);
  return Status::OK();
}

Status ResultRowBuilder::Build(const std::string& clustering, const PlainRowView& row,
                               ResultRow* out) {
  RowView view;
  CASSETTE_RETURN_IF_ERROR(BuildView(clustering, row, &view));
  CopyView(view, out);
  return Status::OK();
}

const PlainRowView::Column* ResultRowBuilder::FindPlainColumn(Slot* s,
                                                              const PlainRowView::Column* columns,
                                                              size_t n) {
  const uint32_t id = s->column->id;
  // Rows of a table mostly have the same columns: the column sits where it
  // sat in the previous row. Otherwise a scan (a handful of columns,
  // sorted by id) finds it.
  if (s->plain_hint < n && columns[s->plain_hint].id == id) return &columns[s->plain_hint];
  for (size_t i = 0; i < n && columns[i].id <= id; ++i) {
    if (columns[i].id == id) {
      s->plain_hint = i;
      return &columns[i];
    }
  }
  return nullptr;
}

void ResultRowBuilder::SetPlainValue(size_t slot, const PlainRowView& row) {
  Slot& s = slots_[slot];
  const PlainRowView::Column* found = FindPlainColumn(&s, row.columns.data(), row.columns.size());
  values_[slot] =
      found != nullptr ? ValueView(s.column->type, found->value) : ValueView::Null(s.column->type);
  if (!with_cell_metadata_) return;
  writetimes_[slot].reset();
  ttls_[slot].reset();
  elements_[slot].clear();
  if (found == nullptr) return;
  writetimes_[slot] = row.timestamp;
  if (found->row_ttl && row.ttl > 0) {
    const int64_t left = row.local_deletion_time - now_sec_;
    ttls_[slot] =
        static_cast<int32_t>(std::clamp<int64_t>(left, 0, std::numeric_limits<int32_t>::max()));
  }
}

Status ResultRowBuilder::SetColumnValue(const ColumnDefinition& column, const Row* row,
                                        size_t slot) {
  const ColumnData* data = row != nullptr ? row->Find(column.id) : nullptr;
  if (data == nullptr || data->cells.empty()) {
    values_[slot] = ValueView::Null(column.type);
    if (with_cell_metadata_) {
      writetimes_[slot].reset();
      ttls_[slot].reset();
      elements_[slot].clear();
    }
    return Status::OK();
  }
  if (!column.type.IsMultiCell()) {
    const Cell& cell = data->cells.front();
    values_[slot] = ValueView(column.type, cell.value);
    if (with_cell_metadata_) {
      writetimes_[slot] = cell.timestamp;
      ttls_[slot] = RemainingTtl(cell, now_sec_);
      elements_[slot].clear();
    }
    return Status::OK();
  }
  std::string& bytes = collection_bytes_[slot];
  CASSETTE_RETURN_IF_ERROR(CollectionBytes(column, *data, &bytes));
  values_[slot] = ValueView(column.type, bytes);
  if (with_cell_metadata_) {
    std::optional<int64_t> writetime;
    std::optional<int32_t> ttl;
    std::vector<ElementCell>& elements = elements_[slot];
    elements.clear();
    for (const Cell& cell : data->cells) {
      if (!writetime || cell.timestamp > *writetime) writetime = cell.timestamp;
      std::optional<int32_t> left = RemainingTtl(cell, now_sec_);
      if (left && (!ttl || *left < *ttl)) ttl = left;
      elements.push_back({cell.path, cell.timestamp, left});
    }
    writetimes_[slot] = writetime;
    ttls_[slot] = ttl;
  }
  return Status::OK();
}

Status ResultRowBuilder::CollectionBytes(const ColumnDefinition& column, const ColumnData& data,
                                         std::string* out) const {
  const DataType& type = column.type;
  switch (type.kind()) {
    case TypeKind::kList: {
      // Elements are ordered by their timeuuid path: list order.
      std::vector<std::string> values;
      values.reserve(data.cells.size());
      for (const Cell& cell : data.cells) values.push_back(cell.value);
      *out = SerializeCollection(values);
      return Status::OK();
    }
    case TypeKind::kSet: {
      std::vector<std::string> elements;
      elements.reserve(data.cells.size());
      for (const Cell& cell : data.cells) {
        CASSETTE_ASSIGN_OR_RETURN(std::string element, DecodePath(type.params()[0], cell));
        elements.push_back(std::move(element));
      }
      *out = SerializeCollection(elements);
      return Status::OK();
    }
    case TypeKind::kMap: {
      std::vector<std::pair<std::string, std::string>> entries;
      entries.reserve(data.cells.size());
      for (const Cell& cell : data.cells) {
        CASSETTE_ASSIGN_OR_RETURN(std::string key, DecodePath(type.params()[0], cell));
        entries.emplace_back(std::move(key), cell.value);
      }
      *out = SerializeMap(entries);
      return Status::OK();
    }
    case TypeKind::kUdt: {
      // One cell per field present, its path the field's position.
      std::vector<std::optional<std::string>> fields(type.params().size());
      for (const Cell& cell : data.cells) {
        CASSETTE_ASSIGN_OR_RETURN(std::string position, DecodePath(DataType::Smallint(), cell));
        const int64_t field = ValueView(DataType::Smallint(), position).AsInt64();
        if (field < 0 || static_cast<size_t>(field) >= fields.size()) {
          return Status::Corruption("column " + column.name + " holds a cell for field " +
                                    std::to_string(field) + " of " + type.ToString());
        }
        fields[static_cast<size_t>(field)] = cell.value;
      }
      *out = SerializeTuple(fields);
      return Status::OK();
    }
    default:
      return Status::Corruption("column " + column.name + " holds collection cells but is " +
                                type.ToString());
  }
}

std::string ResultRowBuilder::DescribePosition(const std::string* clustering) const {
  std::string key;
  for (size_t i = 0; i < key_values_.size(); ++i) {
    if (i > 0) key += ", ";
    key += FormatValue(schema_.columns()[schema_.partition_key()[i]].type, key_values_[i]);
  }
  if (clustering == nullptr || clustering->empty()) return key;
  std::string out = "(" + key + ")";
  Result<std::vector<std::string>> values = DecodeClustering(schema_, *clustering);
  if (!values.ok()) return out;
  for (size_t i = 0; i < values->size() && i < schema_.clustering().size(); ++i) {
    out += ", " + FormatValue(schema_.columns()[schema_.clustering()[i]].type, (*values)[i]);
  }
  return out;
}

}  // namespace cassette
