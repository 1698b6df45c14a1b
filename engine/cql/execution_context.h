// What executing one statement needs: the database, the session's current
// keyspace, the bound values, the query options and the statement's "now".
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"

namespace cassette::cql {

class PlanCache;

struct ExecutionContext {
  Database* db = nullptr;
  // The session's keyspace; USE changes it.
  std::string* keyspace = nullptr;
  // Bound values by marker index (as many as the statement has markers).
  const std::vector<Value>* values = nullptr;
  const CqlQueryOptions* options = nullptr;
  // Serializes lightweight transactions and counter updates across every
  // session of one Database (read-then-write must not interleave).
  std::mutex* serial_mutex = nullptr;
  // The statement's time: now() and currentTimestamp() see one instant.
  int64_t now_micros = 0;
  // The prepared statement's cache of its resolved table (plan_cache.h);
  // inside a BATCH, the inner statement's own (null when not prepared).
  PlanCache* plan_cache = nullptr;
  // The table an INSERT, UPDATE or DELETE writes, once resolved: token() in
  // a term takes its partition key's types, as Cassandra's FunctionResolver
  // builds the token function from the receiver's table. Null elsewhere.
  const TableSchema* table = nullptr;
};

// The keyspace a statement names, or the current one. InvalidRequest
// "No keyspace has been specified. USE a keyspace, or explicitly specify
// keyspace.tablename" when neither is set.
Result<std::string> ResolveKeyspace(const QualifiedName& name, const ExecutionContext& context);

}  // namespace cassette::cql
