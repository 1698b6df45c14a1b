#include "engine/db/insert_batch_converter.h"

#include <algorithm>
#include <span>
#include <string_view>

#include "engine/mutation/timestamps.h"
#include "engine/schema/key_codec.h"
#include "engine/types/comparable.h"
#include "engine/util/murmur3.h"

namespace cassette {

namespace {

constexpr size_t kMaxClusteringValueLength = 65535;

// Where each column of the batch goes, found once per batch.
struct ColumnRoles {
  std::vector<size_t> key;         // partition key component i: value index
  std::vector<size_t> clustering;  // clustering column i: value index
  struct Regular {
    const ColumnDefinition* column;
    size_t value;
  };
  std::vector<Regular> regulars;  // sorted by column id
};

// False when a column is unknown, named twice, a static, collection or
// counter column, or a primary key column is missing.
bool FindRoles(const TableSchema& schema, const std::vector<std::string>& names,
               ColumnRoles* roles) {
  constexpr size_t kAbsent = static_cast<size_t>(-1);
  roles->key.assign(schema.partition_key().size(), kAbsent);
  roles->clustering.assign(schema.clustering().size(), kAbsent);
  for (size_t i = 0; i < names.size(); ++i) {
    const ColumnDefinition* column = schema.Find(names[i]);
    if (column == nullptr) return false;
    const size_t position = static_cast<size_t>(column - schema.columns().data());
    std::vector<size_t>* primary = nullptr;
    if (column->kind == ColumnKind::kPartitionKey) primary = &roles->key;
    if (column->kind == ColumnKind::kClustering) primary = &roles->clustering;
    if (primary != nullptr) {
      const std::vector<size_t>& order =
          primary == &roles->key ? schema.partition_key() : schema.clustering();
      const size_t k =
          static_cast<size_t>(std::find(order.begin(), order.end(), position) - order.begin());
      if (k == order.size() || (*primary)[k] != kAbsent) return false;
      (*primary)[k] = i;
      continue;
    }
    if (column->kind != ColumnKind::kRegular || column->type.IsMultiCell() ||
        column->type.kind() == TypeKind::kCounter) {
      return false;
    }
    roles->regulars.push_back({column, i});
  }
  const auto missing = [](size_t v) { return v == kAbsent; };
  if (std::any_of(roles->key.begin(), roles->key.end(), missing) ||
      std::any_of(roles->clustering.begin(), roles->clustering.end(), missing)) {
    return false;
  }
  std::sort(roles->regulars.begin(), roles->regulars.end(),
            [](const ColumnRoles::Regular& a, const ColumnRoles::Regular& b) {
              return a.column->id < b.column->id;
            });
  for (size_t i = 1; i < roles->regulars.size(); ++i) {
    if (roles->regulars[i].column->id == roles->regulars[i - 1].column->id) return false;
  }
  return true;
}

}  // namespace

bool ConvertInsertBatch(const TableSchema& schema, const InsertBatch& batch,
                        const ConversionContext& context, ConvertedInserts* out) {
  ColumnRoles roles;
  if (!FindRoles(schema, batch.columns(), &roles)) return false;
  // A row of primary key columns only still writes its marker (an INSERT).
  const int64_t ttl = batch.ttl().value_or(schema.options().default_time_to_live);
  if (!CheckTtl(ttl).ok()) return false;

  const size_t rows = batch.rows();
  // Where each row's key and clustering start in out->keys, and its end.
  std::vector<size_t> bounds;
  bounds.reserve(2 * rows + 1);
  out->columns.reserve(rows * roles.regulars.size());
  std::string_view components[8];
  std::vector<std::string_view> more;
  std::span<std::string_view> key_views(components, roles.key.size());
  if (roles.key.size() > std::size(components)) {
    more.resize(roles.key.size());
    key_views = more;
  }
  for (size_t r = 0; r < rows; ++r) {
    const std::span<const Value> values = batch.row(r);
    for (size_t k = 0; k < roles.key.size(); ++k) {
      const Value& value = values[roles.key[k]];
      const ColumnDefinition& column = schema.columns()[schema.partition_key()[k]];
      if (!CheckValue(column, value, "partition key part").ok()) return false;
      key_views[k] = value.bytes();
    }
    bounds.push_back(out->keys.size());
    if (!AppendPartitionKey(schema, key_views, &out->keys).ok()) return false;
    bounds.push_back(out->keys.size());
    for (size_t c = 0; c < roles.clustering.size(); ++c) {
      const Value& value = values[roles.clustering[c]];
      const ColumnDefinition& column = schema.columns()[schema.clustering()[c]];
      if (!CheckValue(column, value, "clustering key part").ok() ||
          value.bytes().size() > kMaxClusteringValueLength) {
        return false;
      }
      EncodeComparable(column.type, value.bytes(), column.order == ClusteringOrder::kDesc,
                       &out->keys);
    }
    for (const ColumnRoles::Regular& regular : roles.regulars) {
      const Value& value = values[regular.value];
      // A null is a tombstone, which a plain row does not hold.
      if (!CheckValue(*regular.column, value, "column").ok()) return false;
      out->columns.push_back({regular.column->id, value.bytes()});
    }
  }
  bounds.push_back(out->keys.size());

  const std::string_view keys = out->keys;
  const size_t width = roles.regulars.size();
  out->writes.reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    PlainRowWrite& write = out->writes.emplace_back();
    write.key = keys.substr(bounds[2 * r], bounds[2 * r + 1] - bounds[2 * r]);
    write.clustering = keys.substr(bounds[2 * r + 1], bounds[2 * r + 2] - bounds[2 * r + 1]);
    write.token = Murmur3Token(write.key);
    write.row.has_marker = true;
    write.row.timestamp = context.timestamp;
    write.row.ttl = static_cast<int32_t>(ttl);
    write.row.expiry = ttl > 0 ? context.now_sec + ttl : kNoDeletionTime;
    write.row.columns = std::span<const PlainColumn>(out->columns).subspan(r * width, width);
  }
  return true;
}

std::vector<Mutation> InsertBatchMutations(const TableSchema& schema, const InsertBatch& batch,
                                           int64_t timestamp) {
  // The primary key values go to each Mutation by position, up to the
  // first one missing (which the conversion then names); every other
  // column, known or not, is Set by name, so that the conversion says
  // what is wrong with it.
  constexpr size_t kAbsent = static_cast<size_t>(-1);
  std::vector<size_t> key(schema.partition_key().size(), kAbsent);
  std::vector<size_t> clustering(schema.clustering().size(), kAbsent);
  std::vector<size_t> set;
  const std::vector<std::string>& names = batch.columns();
  for (size_t i = 0; i < names.size(); ++i) {
    const ColumnDefinition* column = schema.Find(names[i]);
    size_t* slot = nullptr;
    if (column != nullptr) {
      const size_t position = static_cast<size_t>(column - schema.columns().data());
      const auto slot_in = [&](const std::vector<size_t>& order, std::vector<size_t>& slots) {
        const auto at = std::find(order.begin(), order.end(), position);
        return at == order.end() ? nullptr : &slots[static_cast<size_t>(at - order.begin())];
      };
      slot = column->kind == ColumnKind::kPartitionKey ? slot_in(schema.partition_key(), key)
             : column->kind == ColumnKind::kClustering ? slot_in(schema.clustering(), clustering)
                                                       : nullptr;
    }
    if (slot != nullptr && *slot == kAbsent) {
      *slot = i;
    } else {
      set.push_back(i);
    }
  }
  const auto prefix = [&](const std::vector<size_t>& slots, std::span<const Value> values) {
    std::vector<Value> out;
    for (size_t at : slots) {
      if (at == kAbsent) break;
      out.push_back(values[at]);
    }
    return out;
  };

  std::vector<Mutation> mutations;
  mutations.reserve(batch.rows());
  for (size_t r = 0; r < batch.rows(); ++r) {
    const std::span<const Value> values = batch.row(r);
    Mutation& m = mutations.emplace_back(batch.keyspace(), batch.table(), prefix(key, values));
    m.UsingTimestamp(timestamp);
    if (batch.ttl()) m.UsingTtl(*batch.ttl());
    RowBuilder row = m.Insert(prefix(clustering, values));
    for (size_t i : set) row.Set(names[i], values[i]);
  }
  return mutations;
}

}  // namespace cassette
