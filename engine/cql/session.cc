// CqlSession: parse (or take a prepared statement), bind, dispatch to the
// statement's executor.
#include <mutex>
#include <type_traits>
#include <variant>

#include "cassette/cql.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/modification_statement.h"
#include "engine/cql/parser.h"
#include "engine/cql/plan_cache.h"
#include "engine/cql/schema_statement.h"
#include "engine/cql/select_statement.h"
#include "engine/cql/user_type_statement.h"

namespace cassette {

namespace {

// One mutex for the read-then-write of LWTs and counters of every session
// in the process: simpler than one per Database and, with one node's worth
// of conditional writes, never the bottleneck.
std::mutex& SerialMutex() {
  static std::mutex mutex;
  return mutex;
}

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

Result<CqlResult> Dispatch(const cql::Statement& statement, const cql::ExecutionContext& context) {
  using namespace cql;  // NOLINT: the statement types
  return std::visit(
      Overloaded{
          [&](const SelectStatement& s) { return ExecuteSelect(s, context); },
          [&](const InsertStatement& s) { return ExecuteInsert(s, context); },
          [&](const UpdateStatement& s) { return ExecuteUpdate(s, context); },
          [&](const DeleteStatement& s) { return ExecuteDelete(s, context); },
          [&](const BatchStatement& s) { return ExecuteBatch(s, context); },
          [&](const CreateKeyspaceStatement& s) { return ExecuteCreateKeyspace(s, context); },
          [&](const AlterKeyspaceStatement& s) { return ExecuteAlterKeyspace(s, context); },
          [&](const DropKeyspaceStatement& s) { return ExecuteDropKeyspace(s, context); },
          [&](const CreateTableStatement& s) { return ExecuteCreateTable(s, context); },
          [&](const AlterTableStatement& s) { return ExecuteAlterTable(s, context); },
          [&](const DropTableStatement& s) { return ExecuteDropTable(s, context); },
          [&](const TruncateStatement& s) { return ExecuteTruncate(s, context); },
          [&](const UseStatement& s) { return ExecuteUse(s, context); },
          [&](const DescribeStatement& s) { return ExecuteDescribe(s, context); },
          [&](const UserTypeStatement& s) { return ExecuteUserTypeStatement(s, context); },
      },
      statement);
}

}  // namespace

namespace cql {

Result<std::string> ResolveKeyspace(const QualifiedName& name, const ExecutionContext& context) {
  if (!name.keyspace.empty()) return name.keyspace;
  if (context.keyspace != nullptr && !context.keyspace->empty()) return *context.keyspace;
  return Status::InvalidRequest(
      "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename");
}

}  // namespace cql

struct CqlPreparedStatement::State {
  cql::ParsedStatement parsed;
  // Null for a statement executed once (CqlSession::Execute of text).
  std::unique_ptr<cql::PlanCache> plan_cache;
};

int CqlPreparedStatement::bind_marker_count() const { return state_->parsed.bind_marker_count; }
const std::vector<std::string>& CqlPreparedStatement::bind_names() const {
  return state_->parsed.bind_names;
}
const std::string& CqlPreparedStatement::text() const { return state_->parsed.text; }

struct CqlSession::State {
  Database* db;
  std::string keyspace;
};

CqlSession::CqlSession(Database* db) : state_(std::make_unique<State>(State{db, {}})) {}
CqlSession::~CqlSession() = default;

const std::string& CqlSession::keyspace() const { return state_->keyspace; }
Database* CqlSession::database() const { return state_->db; }

namespace {

// A statement travels in one request frame: past native_transport_max_frame_size
// Cassandra refuses it before reading it, so nothing is built from it here.
Status CheckStatementSize(std::string_view statement, const Options& options) {
  if (statement.size() <= options.native_transport_max_frame_size) return Status::OK();
  return Status::InvalidRequest("Request is too big: length " + std::to_string(statement.size()) +
                                " exceeds maximum allowed length " +
                                std::to_string(options.native_transport_max_frame_size) + ".");
}

Status CheckValueSizes(const std::vector<Value>& values, const Options& options) {
  for (const Value& value : values) {
    if (value.bytes().size() > options.max_value_size) {
      return Status::InvalidRequest(
          "Value length " + std::to_string(value.bytes().size()) + " exceeds the maximum of " +
          std::to_string(options.max_value_size) + ", which is set via max_value_size");
    }
  }
  return Status::OK();
}

}  // namespace

Result<CqlPreparedStatement> CqlSession::Prepare(std::string_view statement) {
  CASSETTE_RETURN_IF_ERROR(CheckStatementSize(statement, state_->db->options()));
  CASSETTE_ASSIGN_OR_RETURN(cql::ParsedStatement parsed, cql::ParseStatement(statement));
  auto plan_cache = std::make_unique<cql::PlanCache>();
  if (const auto* batch = std::get_if<cql::BatchStatement>(&parsed.statement)) {
    plan_cache->AddStatementCaches(batch->statements.size());
  }
  CqlPreparedStatement prepared;
  prepared.state_ = std::make_shared<const CqlPreparedStatement::State>(
      CqlPreparedStatement::State{std::move(parsed), std::move(plan_cache)});
  return prepared;
}

Result<CqlResult> CqlSession::Execute(std::string_view statement, const std::vector<Value>& values,
                                      const CqlQueryOptions& options) {
  // Executed once: no plan cache to fill.
  CASSETTE_RETURN_IF_ERROR(CheckStatementSize(statement, state_->db->options()));
  CASSETTE_ASSIGN_OR_RETURN(cql::ParsedStatement parsed, cql::ParseStatement(statement));
  CqlPreparedStatement prepared;
  prepared.state_ = std::make_shared<const CqlPreparedStatement::State>(
      CqlPreparedStatement::State{std::move(parsed), nullptr});
  return Execute(prepared, values, options);
}

Result<CqlResult> CqlSession::Execute(const CqlPreparedStatement& prepared,
                                      const std::vector<Value>& values,
                                      const CqlQueryOptions& options) {
  const cql::ParsedStatement& parsed = prepared.state_->parsed;
  if (static_cast<int>(values.size()) != parsed.bind_marker_count) {
    return Status::InvalidRequest("There were " + std::to_string(parsed.bind_marker_count) +
                                  " markers(?) in CQL but " + std::to_string(values.size()) +
                                  " bound variables");
  }
  CASSETTE_RETURN_IF_ERROR(CheckValueSizes(values, state_->db->options()));
  cql::ExecutionContext context;
  context.db = state_->db;
  context.keyspace = &state_->keyspace;
  context.values = &values;
  context.options = &options;
  context.serial_mutex = &SerialMutex();
  context.now_micros = state_->db->NowMicros();
  context.plan_cache = prepared.state_->plan_cache.get();
  return Dispatch(parsed.statement, context);
}

Result<CqlResult> CqlSession::Execute(const CqlPreparedStatement& prepared,
                                      const std::map<std::string, Value>& named_values,
                                      const CqlQueryOptions& options) {
  const std::vector<std::string>& names = prepared.state_->parsed.bind_names;
  std::vector<Value> values;
  values.reserve(names.size());
  for (const std::string& name : names) {
    if (name.empty()) {
      return Status::InvalidRequest("Cannot bind by name: the statement has unnamed markers (?)");
    }
    auto it = named_values.find(name);
    if (it == named_values.end()) {
      return Status::InvalidRequest("Invalid unset value for column " + name);
    }
    values.push_back(it->second);
  }
  return Execute(prepared, values, options);
}

}  // namespace cassette
