// CQL over an embedded Database: a session executes statement text (or a
// prepared statement with bound values) and returns rows or a status whose
// class and message are Cassandra's (SyntaxException, InvalidRequest,
// ConfigurationException, AlreadyExists, ...).
//
// A session holds the current keyspace (USE) and is thread-compatible;
// several sessions may share one Database. Lightweight transactions (IF
// NOT EXISTS, IF conditions) and counter updates are serialized across
// every session of the same Database, which makes them linearizable on one
// node as Paxos does on a cluster.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/db.h"
#include "cassette/query.h"
#include "cassette/status.h"
#include "cassette/value.h"

namespace cassette {

struct CqlQueryOptions {
  // Rows per page for SELECT (0 = every row at once). With paging, pass the
  // returned paging_state back to fetch the next page.
  int32_t page_size = 0;
  std::string paging_state;
  // When set (an interactive shell's Ctrl-C), a SELECT stops between the
  // engine reads it makes and between the rows an aggregate folds, failing
  // with ReadFailure "Statement cancelled". Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

struct CqlResult {
  // What the statement produced.
  enum class Kind : uint8_t {
    kVoid,          // writes, DDL that did nothing visible
    kRows,          // SELECT, conditional updates ([applied] row), DESCRIBE
    kSetKeyspace,   // USE
    kSchemaChange,  // CREATE / ALTER / DROP / TRUNCATE
  };
  Kind kind = Kind::kVoid;
  // Result columns named as Cassandra names them: the alias, the column,
  // or e.g. "ttl(v)", "writetime(v)", "system.count(*)" shown as "count",
  // "[json]" for SELECT JSON, "[applied]" for conditional updates.
  std::vector<ColumnSpec> columns;
  std::vector<std::vector<Value>> rows;
  std::string paging_state;  // empty when there are no more pages
  ReadStats stats;           // reads: what the query touched (TRACING)
  std::vector<std::string> warnings;
  // DESCRIBE: the CQL text cqlsh prints (also in rows, one per object).
  std::string describe_text;
};

class CqlPreparedStatement {
 public:
  int bind_marker_count() const;
  // Per marker, its :name (empty for ?).
  const std::vector<std::string>& bind_names() const;
  const std::string& text() const;

 private:
  friend class CqlSession;
  // The parsed statement and what executions resolved (the table, an
  // INSERT's column layout, kept while Database::SchemaVersion() is
  // unchanged); shared by copies.
  struct State;
  std::shared_ptr<const State> state_;
};

class CqlSession {
 public:
  explicit CqlSession(Database* db);
  ~CqlSession();
  CqlSession(const CqlSession&) = delete;
  CqlSession& operator=(const CqlSession&) = delete;

  // One statement (a trailing ';' is allowed). Bind markers take `values`
  // in order.
  Result<CqlResult> Execute(std::string_view statement, const std::vector<Value>& values = {},
                            const CqlQueryOptions& options = {});
  // Parses once; execute many times. A prepared INSERT, UPDATE or DELETE
  // also keeps the table it resolved (and an INSERT where each column goes)
  // until the schema changes (Database::SchemaVersion()): after any CREATE,
  // ALTER or DROP it resolves again, so it behaves as if prepared anew.
  Result<CqlPreparedStatement> Prepare(std::string_view statement);
  Result<CqlResult> Execute(const CqlPreparedStatement& prepared, const std::vector<Value>& values,
                            const CqlQueryOptions& options = {});
  // Binds by :name (every marker must be named).
  Result<CqlResult> Execute(const CqlPreparedStatement& prepared,
                            const std::map<std::string, Value>& named_values,
                            const CqlQueryOptions& options = {});

  // The keyspace of USE (empty before any).
  const std::string& keyspace() const;
  Database* database() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Splits a script into statements at top-level ';' (not inside strings,
// quoted names or comments; the ';' between the statements of BEGIN BATCH
// ... APPLY BATCH do not end the batch). Comments are dropped. Text after the last ';' that is not
// only blanks and comments is returned in `*rest` (an incomplete statement), not in the result.
std::vector<std::string> SplitCqlStatements(std::string_view script, std::string* rest);

}  // namespace cassette
