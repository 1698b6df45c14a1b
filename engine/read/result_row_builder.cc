#include "engine/read/result_row_builder.h"

#include <algorithm>
#include <limits>
#include <utility>

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
      now_sec_(now_sec),
      key_position_(schema.columns().size(), -1) {
  for (size_t i = 0; i < schema.partition_key().size(); ++i) {
    key_position_[schema.partition_key()[i]] = static_cast<int64_t>(i);
  }
  for (size_t i = 0; i < schema.clustering().size(); ++i) {
    key_position_[schema.clustering()[i]] = static_cast<int64_t>(i);
  }
  for (size_t index : selection_) {
    const ColumnDefinition& column = schema.columns()[index];
    if (column.kind == ColumnKind::kClustering) needs_clustering_ = true;
    if (column.kind == ColumnKind::kRegular && column.type.IsMultiCell()) takes_plain_rows_ = false;
  }
  // Sized once: a row's views point into these strings.
  collection_bytes_.resize(selection_.size());
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
  statics_ = Row{};
  CASSETTE_ASSIGN_OR_RETURN(key_values_, DeserializePartitionKey(schema_, key.key));
  if (key_values_.size() != schema_.partition_key().size()) {
    return Status::Corruption("partition key has " + std::to_string(key_values_.size()) +
                              " components, the table " +
                              std::to_string(schema_.partition_key().size()));
  }
  return Status::OK();
}

template <class AppendRegular>
Result<RowView> ResultRowBuilder::Select(const std::string* clustering,
                                         AppendRegular append_regular) {
  size_t clustering_values = 0;
  if (needs_clustering_ && clustering != nullptr) {
    CASSETTE_RETURN_IF_ERROR(DecodeClustering(schema_, *clustering, &clustering_));
    clustering_values = clustering_.size();
  }
  values_.clear();
  writetimes_.clear();
  ttls_.clear();
  for (size_t slot = 0; slot < selection_.size(); ++slot) {
    const size_t index = selection_[slot];
    const ColumnDefinition& column = schema_.columns()[index];
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        values_.emplace_back(column.type, key_values_[key_position_[index]]);
        break;
      case ColumnKind::kClustering: {
        size_t position = static_cast<size_t>(key_position_[index]);
        values_.push_back(position < clustering_values
                              ? ValueView(column.type, clustering_[position])
                              : ValueView::Null(column.type));
        break;
      }
      case ColumnKind::kStatic:
        CASSETTE_RETURN_IF_ERROR(AppendColumnValue(column, &statics_, slot));
        continue;
      case ColumnKind::kRegular:
        CASSETTE_RETURN_IF_ERROR(append_regular(column, slot));
        continue;
    }
    // Key columns have neither WRITETIME nor TTL.
    if (with_cell_metadata_) {
      writetimes_.emplace_back();
      ttls_.emplace_back();
    }
  }
  return RowView{values_, writetimes_, ttls_};
}

Result<RowView> ResultRowBuilder::BuildView(const Row* live_row) {
  return Select(live_row != nullptr ? &live_row->clustering : nullptr,
                [&](const ColumnDefinition& column, size_t slot) {
                  return AppendColumnValue(column, live_row, slot);
                });
}

Result<RowView> ResultRowBuilder::BuildView(const std::string& clustering,
                                            const PlainRowView& row) {
  return Select(&clustering, [&](const ColumnDefinition& column, size_t /*slot*/) {
    AppendPlainValue(column, row);
    return Status::OK();
  });
}

namespace {

void CopyView(const RowView& view, ResultRow* out) {
  out->values.reserve(view.values.size());
  for (const ValueView& value : view.values) out->values.push_back(value.ToValue());
  out->writetimes.assign(view.writetimes.begin(), view.writetimes.end());
  out->ttls.assign(view.ttls.begin(), view.ttls.end());
}

}  // namespace

Status ResultRowBuilder::Build(const Row* live_row, ResultRow* out) {
  CASSETTE_ASSIGN_OR_RETURN(RowView view, BuildView(live_row));
  CopyView(view, out);
  return Status::OK();
}

Status ResultRowBuilder::Build(const std::string& clustering, const PlainRowView& row,
                               ResultRow* out) {
  CASSETTE_ASSIGN_OR_RETURN(RowView view, BuildView(clustering, row));
  CopyView(view, out);
  return Status::OK();
}

void ResultRowBuilder::AppendPlainValue(const ColumnDefinition& column, const PlainRowView& row) {
  // A handful of columns, sorted by id: a scan beats a search.
  const PlainRowView::Column* found = nullptr;
  for (const PlainRowView::Column& c : row.columns) {
    if (c.id >= column.id) {
      if (c.id == column.id) found = &c;
      break;
    }
  }
  if (found == nullptr) {
    values_.push_back(ValueView::Null(column.type));
    if (with_cell_metadata_) {
      writetimes_.emplace_back();
      ttls_.emplace_back();
    }
    return;
  }
  values_.emplace_back(column.type, found->value);
  if (with_cell_metadata_) {
    writetimes_.emplace_back(row.timestamp);
    if (found->row_ttl && row.ttl > 0) {
      const int64_t left = row.local_deletion_time - now_sec_;
      ttls_.emplace_back(
          static_cast<int32_t>(std::clamp<int64_t>(left, 0, std::numeric_limits<int32_t>::max())));
    } else {
      ttls_.emplace_back();
    }
  }
}

Status ResultRowBuilder::AppendColumnValue(const ColumnDefinition& column, const Row* row,
                                           size_t slot) {
  const ColumnData* data = row != nullptr ? row->Find(column.id) : nullptr;
  if (data == nullptr || data->cells.empty()) {
    values_.push_back(ValueView::Null(column.type));
    if (with_cell_metadata_) {
      writetimes_.emplace_back();
      ttls_.emplace_back();
    }
    return Status::OK();
  }
  if (!column.type.IsMultiCell()) {
    const Cell& cell = data->cells.front();
    values_.emplace_back(column.type, cell.value);
    if (with_cell_metadata_) {
      writetimes_.emplace_back(cell.timestamp);
      ttls_.push_back(RemainingTtl(cell, now_sec_));
    }
    return Status::OK();
  }
  std::string& bytes = collection_bytes_[slot];
  CASSETTE_RETURN_IF_ERROR(CollectionBytes(column, *data, &bytes));
  values_.emplace_back(column.type, bytes);
  if (with_cell_metadata_) {
    std::optional<int64_t> writetime;
    std::optional<int32_t> ttl;
    for (const Cell& cell : data->cells) {
      if (!writetime || cell.timestamp > *writetime) writetime = cell.timestamp;
      std::optional<int32_t> left = RemainingTtl(cell, now_sec_);
      if (left && (!ttl || *left < *ttl)) ttl = left;
    }
    writetimes_.push_back(writetime);
    ttls_.push_back(ttl);
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
