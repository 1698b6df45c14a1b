// `cassette sstable dump`: the partitions, rows and cells of one SSTable as
// JSON, in the shape of Cassandra's sstabledump (tools/JsonTransformer):
// an array of {"partition": {"key", "position", "deletion_info"},
// "rows": [...]} with "static_block", "row" and "range_tombstone_bound"
// entries, "liveness_info" and per-cell "tstamp", "ttl", "expires_at",
// "expired" and "deletion_info". Instants are ISO-8601 (UTC), as
// sstabledump prints them without -t.
#include <map>

#include "engine/mutation/expiry.h"
#include "engine/schema/key_codec.h"
#include "engine/types/comparable.h"
#include "engine/types/type_codec.h"
#include "tools/sstable_inspect.h"

namespace cassette::tools {

namespace {

class JsonDumper {
 public:
  JsonDumper(const TableSchema* schema, int64_t now_micros)
      : schema_(schema), now_seconds_(now_micros / 1000000) {}

  std::string Partition(const PartitionContent& content, std::optional<uint64_t> position,
                        Status* row_status) {
    std::string out = "{\"partition\":{\"key\":" + Key(content.key.key);
    if (position) out += ",\"position\":" + std::to_string(*position);
    if (!content.partition_deletion.IsLive()) {
      out += ",\"deletion_info\":" + Deletion(content.partition_deletion);
    }
    out += "},\"rows\":[";
    bool first = true;
    auto add = [&](const std::string& entry) {
      if (!first) out += ",";
      first = false;
      out += entry;
    };
    if (!content.static_row.IsEmpty()) add(RowJson(content.static_row, "static_block"));
    size_t next_tombstone = 0;
    const std::vector<RangeTombstone>& tombstones = content.range_tombstones;
    for (RowIterator& rows = *content.rows; rows.Valid(); rows.Next()) {
      const Row& row = rows.row();
      if (!rows.status().ok()) break;
      // Range tombstones go before the first row at or after their start.
      while (next_tombstone < tombstones.size() &&
             tombstones[next_tombstone].range.start.prefix <= row.clustering) {
        add(TombstoneJson(tombstones[next_tombstone++]));
      }
      add(RowJson(row, "row"));
    }
    *row_status = content.rows->status();
    while (next_tombstone < tombstones.size()) add(TombstoneJson(tombstones[next_tombstone++]));
    return out + "]}";
  }

  std::string Key(std::string_view key) const {
    if (schema_ != nullptr) {
      Result<std::vector<std::string>> parts = DeserializePartitionKey(*schema_, key);
      if (parts.ok()) return Values(schema_->partition_key(), *parts);
    }
    return "[" + JsonQuote(HexBytes(key)) + "]";
  }

 private:
  std::string Values(const std::vector<size_t>& columns,
                     const std::vector<std::string>& parts) const {
    std::string out = "[";
    for (size_t i = 0; i < parts.size() && i < columns.size(); ++i) {
      if (i > 0) out += ",";
      out += JsonQuote(Text(schema_->columns()[columns[i]].type, parts[i]));
    }
    return out + "]";
  }

  static std::string Text(const DataType& type, std::string_view bytes) {
    if (!ValidateValue(type, bytes).ok()) return HexBytes(bytes);
    return FormatValue(type, bytes);
  }
  static std::string Json(const DataType& type, std::string_view bytes) {
    if (!ValidateValue(type, bytes).ok()) return JsonQuote(HexBytes(bytes));
    return FormatJson(type, bytes);
  }

  std::string Clustering(std::string_view clustering) const {
    if (schema_ != nullptr) {
      Result<std::vector<std::string>> parts = DecodeClustering(*schema_, clustering);
      if (parts.ok()) return Values(schema_->clustering(), *parts);
    }
    return "[" + JsonQuote(HexBytes(clustering)) + "]";
  }

  static std::string Deletion(const DeletionTime& deletion) {
    return "{\"marked_deleted\":" +
           JsonQuote(FormatTimestampMicros(deletion.marked_for_delete_at)) +
           ",\"local_delete_time\":" + JsonQuote(FormatLocalSeconds(deletion.local_deletion_time)) +
           "}";
  }

  // "ttl", "expires_at", "expired" of an expiring cell or marker.
  std::string Expiry(int32_t ttl, int64_t expires_at_seconds) const {
    return ",\"ttl\":" + std::to_string(ttl) +
           ",\"expires_at\":" + JsonQuote(FormatLocalSeconds(expires_at_seconds)) +
           ",\"expired\":" + (IsExpiredAt(expires_at_seconds, now_seconds_) ? "true" : "false");
  }

  std::string TombstoneJson(const RangeTombstone& tombstone) const {
    auto bound = [&](const Bound& b) {
      std::string out = "{\"type\":";
      out += b.inclusive ? "\"inclusive\"" : "\"exclusive\"";
      if (!b.prefix.empty()) out += ",\"clustering\":" + Clustering(b.prefix);
      return out + ",\"deletion_info\":" + Deletion(tombstone.deletion) + "}";
    };
    return "{\"type\":\"range_tombstone_bound\",\"start\":" + bound(tombstone.range.start) +
           ",\"end\":" + bound(tombstone.range.end) + "}";
  }

  std::string RowJson(const Row& row, const char* type) const {
    std::string out = "{\"type\":\"" + std::string(type) + "\"";
    if (!row.clustering.empty()) out += ",\"clustering\":" + Clustering(row.clustering);
    if (!row.marker.IsEmpty()) {
      out += ",\"liveness_info\":{\"tstamp\":" +
             JsonQuote(FormatTimestampMicros(row.marker.timestamp));
      if (row.marker.IsExpiring()) {
        out += Expiry(row.marker.ttl, row.marker.local_expiration_time);
      }
      out += "}";
    }
    if (!row.deletion.IsLive()) out += ",\"deletion_info\":" + Deletion(row.deletion);
    out += ",\"cells\":[";
    bool first = true;
    for (const ColumnData& column : row.columns) {
      const ColumnDefinition* definition =
          schema_ == nullptr ? nullptr : schema_->FindById(column.column_id);
      const std::string name =
          definition != nullptr ? definition->name : "#" + std::to_string(column.column_id);
      if (column.is_complex && !column.complex_deletion.IsLive()) {
        if (!first) out += ",";
        first = false;
        out += "{\"name\":" + JsonQuote(name) +
               ",\"deletion_info\":" + Deletion(column.complex_deletion) + "}";
      }
      for (const Cell& cell : column.cells) {
        if (!first) out += ",";
        first = false;
        out += CellJson(name, definition, cell);
      }
    }
    return out + "]}";
  }

  std::string CellJson(const std::string& name, const ColumnDefinition* definition,
                       const Cell& cell) const {
    std::string out = "{\"name\":" + JsonQuote(name);
    const DataType* value_type = definition == nullptr ? nullptr : &definition->type;
    if (!cell.path.empty()) {
      std::string path_text = HexBytes(cell.path);
      if (value_type != nullptr && value_type->IsMultiCell() && value_type->IsUserType()) {
        // A user type's field cell: its path is the field's position.
        std::string_view in(cell.path);
        std::string position;
        const DataType* field_type = nullptr;
        if (DecodeComparable(DataType::Smallint(), false, &in, &position).ok() && in.empty()) {
          const int64_t field = ValueView(DataType::Smallint(), position).AsInt64();
          if (field >= 0 && static_cast<size_t>(field) < value_type->params().size()) {
            path_text = value_type->field_names()[static_cast<size_t>(field)];
            field_type = &value_type->params()[static_cast<size_t>(field)];
          }
        }
        value_type = field_type;
      } else if (value_type != nullptr && value_type->IsMultiCell()) {
        const DataType path_type =
            value_type->kind() == TypeKind::kList ? DataType::Timeuuid() : value_type->params()[0];
        std::string_view in(cell.path);
        std::string serialized;
        if (DecodeComparable(path_type, false, &in, &serialized).ok() && in.empty()) {
          path_text = Text(path_type, serialized);
        }
        value_type = value_type->kind() == TypeKind::kMap    ? &value_type->params()[1]
                     : value_type->kind() == TypeKind::kList ? &value_type->params()[0]
                                                             : nullptr;
      } else {
        value_type = nullptr;
      }
      out += ",\"path\":[" + JsonQuote(path_text) + "]";
    }
    if (cell.IsTombstone()) {
      out += ",\"deletion_info\":{\"local_delete_time\":" +
             JsonQuote(FormatLocalSeconds(cell.local_deletion_time)) + "}";
    } else if (!cell.value.empty() || value_type != nullptr) {
      out += ",\"value\":" + (value_type != nullptr ? Json(*value_type, cell.value)
                                                    : JsonQuote(HexBytes(cell.value)));
    }
    out += ",\"tstamp\":" + JsonQuote(FormatTimestampMicros(cell.timestamp));
    if (cell.IsExpiring()) out += Expiry(cell.ttl, cell.local_deletion_time);
    return out + "}";
  }

  const TableSchema* schema_;
  int64_t now_seconds_;
};

// The partition key `literal` names (sstabledump -k): the key's CQL
// literal, components of a composite key separated by ':'.
Result<DecoratedKey> ParseKey(const TableSchema& schema, const std::string& literal) {
  std::vector<std::string> components;
  std::vector<std::string> texts;
  if (schema.partition_key().size() == 1) {
    texts.push_back(literal);
  } else {
    size_t start = 0;
    while (true) {
      const size_t colon = literal.find(':', start);
      texts.push_back(literal.substr(start, colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  if (texts.size() != schema.partition_key().size()) {
    return Status::InvalidArgument("--key '" + literal + "' needs " +
                                   std::to_string(schema.partition_key().size()) +
                                   " components separated by ':'");
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    const DataType& type = schema.columns()[schema.partition_key()[i]].type;
    // Text keys may be given bare, as sstabledump takes them.
    Result<std::string> value = ParseLiteral(type, texts[i]);
    if (!value.ok() && (type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii)) {
      value = std::string(texts[i]);
    }
    if (!value.ok()) return Status::InvalidArgument("--key: " + value.status().message());
    components.push_back(std::move(value).value());
  }
  CASSETTE_ASSIGN_OR_RETURN(std::string key, SerializePartitionKey(schema, components));
  return DecoratedKey::FromKey(std::move(key));
}

}  // namespace

int RunDump(const SSTableSettings& settings, std::shared_ptr<FileSystem> fs, std::ostream& out,
            std::ostream& err) {
  auto fail = [&err](const Status& status) {
    err << "cassette sstable dump: " << status.ToString() << "\n";
    return 1;
  };
  Result<std::shared_ptr<SSTableReader>> reader = SSTableReader::Open(fs.get(), settings.path);
  if (!reader.ok()) return fail(reader.status());
  std::string why;
  std::optional<TableSchema> schema = ResolveSchema(settings, fs, settings.path, &why);
  if (!schema) {
    if (settings.key)
      return fail(Status::InvalidArgument("--key needs the table's schema: " + why));
    err << "cassette sstable dump: no schema (" << why << "); values are printed as bytes\n";
  }
  Result<std::vector<IndexedPartition>> index = ReadPartitionIndex(**reader);
  if (!index.ok()) return fail(index.status());
  std::map<std::string, uint64_t> positions;
  for (const IndexedPartition& entry : *index) positions[entry.sort_key] = entry.data_position;
  auto position_of = [&positions](const DecoratedKey& key) -> std::optional<uint64_t> {
    auto it = positions.find(key.SortKey());
    if (it == positions.end()) return std::nullopt;
    return it->second;
  };
  JsonDumper dumper(schema ? &*schema : nullptr, NowMicros(settings));
  if (settings.key) {
    Result<DecoratedKey> key = ParseKey(*schema, *settings.key);
    if (!key.ok()) return fail(key.status());
    Result<std::optional<PartitionContent>> content =
        (*reader)->ReadPartition(*key, ClusteringRange::All(), false, nullptr);
    if (!content.ok()) return fail(content.status());
    out << "[";
    if (content->has_value()) {
      Status rows = Status::OK();
      out << "\n" << dumper.Partition(**content, position_of(key.value()), &rows) << "\n";
      if (!rows.ok()) return fail(rows);
    }
    out << "]\n";
    return 0;
  }
  std::unique_ptr<PartitionIterator> scanner = (*reader)->NewScanner(TokenInterval::All(), nullptr);
  out << "[";
  bool first = true;
  for (; scanner->Valid(); scanner->Next()) {
    PartitionContent& content = scanner->partition();
    Status rows = Status::OK();
    out << (first ? "\n" : ",\n") << dumper.Partition(content, position_of(content.key), &rows);
    first = false;
    if (!rows.ok()) return fail(rows);
  }
  if (!scanner->status().ok()) return fail(scanner->status());
  out << (first ? "]\n" : "\n]\n");
  return 0;
}

}  // namespace cassette::tools
