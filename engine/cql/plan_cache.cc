#include "engine/cql/plan_cache.h"

#include <utility>

#include "engine/cql/execution_context.h"

namespace cassette::cql {

Result<std::shared_ptr<const CachedPlan>> ResolveCachedTable(const QualifiedName& name,
                                                             const ExecutionContext& context) {
  const std::string* keyspace = &name.keyspace;
  if (keyspace->empty() && context.keyspace != nullptr) keyspace = context.keyspace;
  if (context.plan_cache != nullptr && !keyspace->empty()) {
    std::shared_ptr<const CachedPlan> cached = context.plan_cache->Get();
    if (cached != nullptr && cached->db == context.db &&
        cached->schema_version == context.db->SchemaVersion() && cached->keyspace == *keyspace) {
      return cached;
    }
  }
  CASSETTE_ASSIGN_OR_RETURN(std::string resolved, ResolveKeyspace(name, context));
  // Read before the lookup: a change in between makes the entry stale at
  // once, never a stale schema look current.
  const uint64_t version = context.db->SchemaVersion();
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, context.db->GetTable(resolved, name.name));
  auto plan = std::make_shared<CachedPlan>();
  plan->db = context.db;
  plan->schema_version = version;
  plan->keyspace = std::move(resolved);
  plan->schema = std::make_shared<const TableSchema>(std::move(schema));
  if (context.plan_cache != nullptr) context.plan_cache->Put(plan);
  return std::shared_ptr<const CachedPlan>(std::move(plan));
}

std::shared_ptr<const InsertLayout> BuildInsertLayout(const InsertStatement& statement,
                                                      const TableSchema& schema) {
  if (statement.json || statement.columns.empty() ||
      statement.columns.size() != statement.values.size()) {
    return nullptr;
  }
  auto layout = std::make_shared<InsertLayout>();
  std::vector<bool> partition_given(schema.partition_key().size(), false);
  std::vector<bool> clustering_given(schema.clustering().size(), false);
  bool writes_regular = false;
  bool writes_static = false;
  for (size_t i = 0; i < statement.columns.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (statement.columns[i] == statement.columns[j]) return nullptr;
    }
    const ColumnDefinition* column = schema.Find(statement.columns[i]);
    if (column == nullptr || column->type.kind() == TypeKind::kCounter) return nullptr;
    InsertLayout::Column entry;
    entry.definition = column;
    const bool partition = column->kind == ColumnKind::kPartitionKey;
    if (partition || column->kind == ColumnKind::kClustering) {
      const std::vector<size_t>& key = partition ? schema.partition_key() : schema.clustering();
      for (size_t k = 0; k < key.size(); ++k) {
        if (schema.columns()[key[k]].name == column->name) entry.key_index = k;
      }
      entry.role = partition ? InsertLayout::Role::kPartitionKey : InsertLayout::Role::kClustering;
      (partition ? partition_given : clustering_given)[entry.key_index] = true;
      if (!partition) ++layout->clustering_given;
    } else {
      (column->kind == ColumnKind::kStatic ? writes_static : writes_regular) = true;
    }
    layout->columns.push_back(entry);
  }
  // A counter column anywhere makes it a counter table (refused).
  for (const ColumnDefinition& column : schema.columns()) {
    if (column.type.kind() == TypeKind::kCounter) return nullptr;
  }
  for (bool given : partition_given) {
    if (!given) return nullptr;  // "Some partition key parts are missing"
  }
  layout->static_only = layout->clustering_given == 0 && !writes_regular && writes_static;
  // "Some clustering keys are missing" unless a static-only insert gives none.
  if (!layout->static_only && layout->clustering_given != clustering_given.size()) return nullptr;
  return layout;
}

}  // namespace cassette::cql
