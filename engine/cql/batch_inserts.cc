#include "engine/cql/batch_inserts.h"

#include <atomic>
#include <string>
#include <utility>

namespace cassette::cql {

namespace {

std::atomic<bool> fast_path_enabled{true};

// An INSERT of one whole row, every column written a value.
bool IsOneRowInsert(const WritePlan& plan) {
  if (plan.kind != WriteKind::kInsert || !plan.insert_marker || plan.static_only ||
      plan.is_counter || plan.condition_kind != ConditionKind::kNone ||
      plan.targets.partition_keys.size() != 1 ||
      plan.targets.partition_keys[0].size() != plan.schema().partition_key().size() ||
      plan.targets.clustering_prefixes.size() != 1 ||
      plan.targets.clustering_prefixes[0].size() != plan.schema().clustering().size()) {
    return false;
  }
  for (const ColumnWrite& write : plan.writes) {
    if (write.kind != ColumnWrite::Kind::kSet) return false;
  }
  return true;
}

bool SameShape(const WritePlan& a, const WritePlan& b) {
  if (a.table != b.table || a.timestamp != b.timestamp || a.ttl != b.ttl ||
      a.writes.size() != b.writes.size()) {
    return false;
  }
  for (size_t i = 0; i < a.writes.size(); ++i) {
    if (a.writes[i].column != b.writes[i].column) return false;
  }
  return true;
}

}  // namespace

void SetInsertBatchFastPathForTesting(bool enabled) {
  fast_path_enabled.store(enabled, std::memory_order_relaxed);
}

std::optional<InsertBatch> TakeInsertBatch(std::vector<WritePlan>& plans) {
  if (!fast_path_enabled.load(std::memory_order_relaxed)) return std::nullopt;
  if (plans.empty() || !IsOneRowInsert(plans[0])) return std::nullopt;
  for (size_t i = 1; i < plans.size(); ++i) {
    if (!IsOneRowInsert(plans[i]) || !SameShape(plans[0], plans[i])) return std::nullopt;
  }
  const WritePlan& first = plans[0];
  const TableSchema& schema = first.schema();
  std::vector<std::string> columns;
  for (size_t position : schema.partition_key()) columns.push_back(schema.columns()[position].name);
  for (size_t position : schema.clustering()) columns.push_back(schema.columns()[position].name);
  for (const ColumnWrite& write : first.writes) columns.push_back(write.column);

  InsertBatch batch(schema.keyspace(), schema.name(), std::move(columns));
  if (first.timestamp) batch.UsingTimestamp(*first.timestamp);
  if (first.ttl) batch.UsingTtl(*first.ttl);
  for (WritePlan& plan : plans) {
    std::span<Value> row = batch.AddRow();
    size_t at = 0;
    for (Value& value : plan.targets.partition_keys[0]) row[at++] = std::move(value);
    for (Value& value : plan.targets.clustering_prefixes[0]) row[at++] = std::move(value);
    for (ColumnWrite& write : plan.writes) row[at++] = std::move(write.value);
  }
  return batch;
}

}  // namespace cassette::cql
