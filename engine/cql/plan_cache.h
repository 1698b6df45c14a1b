// What a prepared statement keeps between executions: the table it
// resolved (a shared, immutable schema) and, for a prepared INSERT, where
// each of its columns goes. An entry is only used while the database's
// SchemaVersion() is the one it was resolved at, the statement resolves to
// the same keyspace and runs on the same Database; otherwise the table is
// looked up again, exactly as an unprepared statement would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cassette/db.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

struct ExecutionContext;

// Where each column of a prepared INSERT ... VALUES goes. Only built for a
// statement that passes every check that depends on the schema alone (the
// columns exist, no duplicates, no counter table, the whole primary key
// given, or no clustering column for a static-only insert).
struct InsertLayout {
  enum class Role : uint8_t { kValue, kPartitionKey, kClustering };
  struct Column {
    const ColumnDefinition* definition = nullptr;  // into CachedPlan::schema
    Role role = Role::kValue;
    size_t key_index = 0;  // kPartitionKey / kClustering: position in the key
  };
  std::vector<Column> columns;  // in the statement's order
  // No clustering column given and only static columns written.
  bool static_only = false;
  // Clustering columns given (0, or all of them).
  size_t clustering_given = 0;
};

struct CachedPlan {
  const Database* db = nullptr;
  uint64_t schema_version = 0;
  std::string keyspace;  // as resolved (the session's for an unqualified name)
  std::shared_ptr<const TableSchema> schema;
  // Prepared INSERT ... VALUES only; null until built or when not applicable.
  std::shared_ptr<const InsertLayout> insert;
};

// One per prepared statement, shared by its copies; safe to use from
// several threads (each execution takes a reference to the current entry).
class PlanCache {
 public:
  std::shared_ptr<const CachedPlan> Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return plan_;
  }
  void Put(std::shared_ptr<const CachedPlan> plan) {
    std::lock_guard<std::mutex> lock(mutex_);
    plan_ = std::move(plan);
  }

  // A prepared BATCH gives each of its statements a cache of its own,
  // made once when the batch is prepared (so reads need no lock).
  void AddStatementCaches(size_t count) {
    for (size_t i = 0; i < count; ++i) statements_.push_back(std::make_unique<PlanCache>());
  }
  // The cache of the batch's i-th statement; null when there is none.
  PlanCache* statement_cache(size_t i) const {
    return i < statements_.size() ? statements_[i].get() : nullptr;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const CachedPlan> plan_;
  std::vector<std::unique_ptr<PlanCache>> statements_;
};

// The statement's table: the cached entry when it is still valid, else a
// fresh lookup (cached when the context has a cache). Errors are
// GetTable's (and ResolveKeyspace's), as without a cache.
Result<std::shared_ptr<const CachedPlan>> ResolveCachedTable(const QualifiedName& name,
                                                             const ExecutionContext& context);

// The layout of a prepared INSERT ... VALUES over `plan`'s schema; null
// when the statement fails a schema-only check (the uncached path then
// reports it) or is not of that form.
std::shared_ptr<const InsertLayout> BuildInsertLayout(const InsertStatement& statement,
                                                      const TableSchema& schema);

}  // namespace cassette::cql
