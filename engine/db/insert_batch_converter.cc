#include "engine/db/insert_batch_converter.h"

#include <algorithm>
#include <span>
#include <string_view>

#include "engine/mutation/expiry.h"
#include "engine/mutation/timestamps.h"
#include "engine/schema/column_value.h"
#include "engine/schema/key_codec.h"
#include "engine/schema/ttl_limit.h"
#include "engine/util/murmur3.h"

namespace cassette {

namespace {

constexpr size_t kAbsent = static_cast<size_t>(-1);

// The batch's columns as a Mutation takes them, found once per batch: the
// value index of each primary key column by its place in the key (its
// first naming; kAbsent when it is not named), and every other naming by
// name: a regular or static column, a key column named again, or an
// unknown name (its column null).
struct ColumnSlots {
  std::vector<size_t> key;         // partition key component i
  std::vector<size_t> clustering;  // clustering column i
  struct Other {
    size_t value;
    const ColumnDefinition* column;  // null: no such column
  };
  std::vector<Other> others;  // in the batch's order
};

ColumnSlots SlotColumns(const TableSchema& schema, const std::vector<std::string>& names) {
  ColumnSlots slots;
  slots.key.assign(schema.partition_key().size(), kAbsent);
  slots.clustering.assign(schema.clustering().size(), kAbsent);
  for (size_t i = 0; i < names.size(); ++i) {
    const ColumnDefinition* column = schema.Find(names[i]);
    size_t* slot = nullptr;
    if (column != nullptr &&
        (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering)) {
      const bool in_key = column->kind == ColumnKind::kPartitionKey;
      const std::vector<size_t>& order = in_key ? schema.partition_key() : schema.clustering();
      const size_t position = static_cast<size_t>(column - schema.columns().data());
      const auto at = std::find(order.begin(), order.end(), position);
      if (at != order.end()) {
        slot = &(in_key ? slots.key : slots.clustering)[static_cast<size_t>(at - order.begin())];
      }
    }
    if (slot != nullptr && *slot == kAbsent) {
      *slot = i;
    } else {
      slots.others.push_back({i, column});
    }
  }
  return slots;
}

// The slots of a batch of plain rows: every primary key column named, and
// the others regular columns of single-cell, non-counter types, each named
// once, sorted by column id. False for anything else.
bool PlainSlots(const TableSchema& schema, const std::vector<std::string>& names,
                ColumnSlots* slots) {
  *slots = SlotColumns(schema, names);
  const auto missing = [](size_t v) { return v == kAbsent; };
  if (std::any_of(slots->key.begin(), slots->key.end(), missing) ||
      std::any_of(slots->clustering.begin(), slots->clustering.end(), missing)) {
    return false;
  }
  for (const ColumnSlots::Other& other : slots->others) {
    const ColumnDefinition* column = other.column;
    if (column == nullptr || column->kind != ColumnKind::kRegular || column->type.IsMultiCell() ||
        column->type.kind() == TypeKind::kCounter) {
      return false;
    }
  }
  auto& regulars = slots->others;
  std::sort(regulars.begin(), regulars.end(),
            [](const ColumnSlots::Other& a, const ColumnSlots::Other& b) {
              return a.column->id < b.column->id;
            });
  return std::adjacent_find(regulars.begin(), regulars.end(),
                            [](const ColumnSlots::Other& a, const ColumnSlots::Other& b) {
                              return a.column->id == b.column->id;
                            }) == regulars.end();
}

}  // namespace

bool ConvertInsertBatch(const TableSchema& schema, const InsertBatch& batch,
                        const ConversionContext& context, ConvertedInserts* out) {
  ColumnSlots slots;
  if (!PlainSlots(schema, batch.columns(), &slots)) return false;
  // A row of primary key columns only still writes its marker (an INSERT).
  const int64_t ttl = batch.ttl().value_or(schema.options().default_time_to_live);
  if (!TtlInRange(ttl)) return false;

  const size_t rows = batch.rows();
  // Where each row's key and clustering start in out->keys, and its end.
  std::vector<size_t> bounds;
  bounds.reserve(2 * rows + 1);
  out->columns.reserve(rows * slots.others.size());
  std::string_view components[8];
  std::vector<std::string_view> more;
  std::span<std::string_view> key_views(components, slots.key.size());
  if (slots.key.size() > std::size(components)) {
    more.resize(slots.key.size());
    key_views = more;
  }
  for (size_t r = 0; r < rows; ++r) {
    const std::span<const Value> values = batch.row(r);
    for (size_t k = 0; k < slots.key.size(); ++k) {
      const Value& value = values[slots.key[k]];
      const ColumnDefinition& column = schema.columns()[schema.partition_key()[k]];
      if (!CheckValue(column, value, "partition key part").ok()) return false;
      key_views[k] = value.bytes();
    }
    bounds.push_back(out->keys.size());
    if (!AppendPartitionKey(schema, key_views, &out->keys).ok()) return false;
    bounds.push_back(out->keys.size());
    for (size_t c = 0; c < slots.clustering.size(); ++c) {
      const Value& value = values[slots.clustering[c]];
      const ColumnDefinition& column = schema.columns()[schema.clustering()[c]];
      if (!AppendClusteringValue(column, value, &out->keys).ok()) return false;
    }
    for (const ColumnSlots::Other& regular : slots.others) {
      const Value& value = values[regular.value];
      // A null is a tombstone, which a plain row does not hold.
      if (!CheckValue(*regular.column, value, "column").ok()) return false;
      out->columns.push_back({regular.column->id, value.bytes()});
    }
  }
  bounds.push_back(out->keys.size());

  const std::string_view keys = out->keys;
  const size_t width = slots.others.size();
  out->writes.reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    PlainRowWrite& write = out->writes.emplace_back();
    write.key = keys.substr(bounds[2 * r], bounds[2 * r + 1] - bounds[2 * r]);
    write.clustering = keys.substr(bounds[2 * r + 1], bounds[2 * r + 2] - bounds[2 * r + 1]);
    write.token = Murmur3Token(write.key);
    write.row.has_marker = true;
    write.row.timestamp = context.timestamp;
    write.row.ttl = static_cast<int32_t>(ttl);
    write.row.expiry = ExpiryTime(context.now_sec, ttl);
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
  const ColumnSlots slots = SlotColumns(schema, batch.columns());
  const std::vector<std::string>& names = batch.columns();
  const auto prefix = [](const std::vector<size_t>& positions, std::span<const Value> values) {
    std::vector<Value> out;
    for (size_t at : positions) {
      if (at == kAbsent) break;
      out.push_back(values[at]);
    }
    return out;
  };

  std::vector<Mutation> mutations;
  mutations.reserve(batch.rows());
  for (size_t r = 0; r < batch.rows(); ++r) {
    const std::span<const Value> values = batch.row(r);
    Mutation& m =
        mutations.emplace_back(batch.keyspace(), batch.table(), prefix(slots.key, values));
    m.UsingTimestamp(timestamp);
    if (batch.ttl()) m.UsingTtl(*batch.ttl());
    RowBuilder row = m.Insert(prefix(slots.clustering, values));
    for (const ColumnSlots::Other& other : slots.others) {
      row.Set(names[other.value], values[other.value]);
    }
  }
  return mutations;
}

}  // namespace cassette
