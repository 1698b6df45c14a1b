// DatabaseImpl's schema operations. Each change is validated, written to
// the manifest (atomically) and only then made visible.
#include <algorithm>
#include <atomic>

#include "engine/compaction/time_window_compaction_strategy.h"
#include "engine/compaction/twcs_guardrail.h"
#include "engine/db/database_impl.h"
#include "engine/db/table_history.h"
#include "engine/schema/table_schema_internals.h"

namespace cassette {

namespace {

// The compaction option must build a strategy (Cassandra validates it on
// CREATE/ALTER); TWCS tables also get the guardrail warnings.
Status CheckCompactionOptions(const TableOptions& options, std::vector<std::string>* warnings) {
  CASSETTE_ASSIGN_OR_RETURN(std::unique_ptr<CompactionStrategy> strategy,
                            CreateCompactionStrategy(options.compaction));
  if (warnings != nullptr &&
      dynamic_cast<TimeWindowCompactionStrategy*>(strategy.get()) != nullptr) {
    for (std::string& warning :
         TwcsGuardrailWarnings(options.compaction, options.default_time_to_live)) {
      warnings->push_back(std::move(warning));
    }
  }
  return Status::OK();
}

}  // namespace

namespace {

Status CheckKeyspaceName(const std::string& name) {
  if (!IsValidTableOrKeyspaceName(name)) {
    return Status::InvalidRequest(
        "Keyspace name must not be empty, more than 48 characters long, or contain "
        "non-alphanumeric-underscore characters (got \"" +
        name + "\")");
  }
  return Status::OK();
}

// SchemaVersion() values: one sequence for every Database of the process.
std::atomic<uint64_t> g_schema_versions{0};

}  // namespace

void DatabaseImpl::BumpSchemaVersion() {
  schema_version_.store(g_schema_versions.fetch_add(1, std::memory_order_relaxed) + 1,
                        std::memory_order_release);
}

Status DatabaseImpl::CreateKeyspace(const KeyspaceSchema& keyspace, bool if_not_exists) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_RETURN_IF_ERROR(CheckKeyspaceName(keyspace.name));
  std::unique_lock lock(state_mutex_);
  if (state_.keyspaces.count(keyspace.name)) {
    if (if_not_exists) return Status::OK();
    return Status::AlreadyExists("Cannot add existing keyspace \"" + keyspace.name + "\"");
  }
  state_.keyspaces[keyspace.name] = keyspace;
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    state_.keyspaces.erase(keyspace.name);
    return s;
  }
  BumpSchemaVersion();
  return Status::OK();
}

Status DatabaseImpl::DropKeyspace(const std::string& name, bool if_exists) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  std::vector<std::string> tables;
  {
    std::shared_lock lock(state_mutex_);
    if (!state_.keyspaces.count(name)) {
      if (if_exists) return Status::OK();
      return Status::InvalidRequest("Cannot drop non existing keyspace '" + name + "'.");
    }
    for (const auto& [id, table] : state_.tables) {
      if (table.schema.keyspace() == name) tables.push_back(table.schema.name());
    }
  }
  for (const std::string& table : tables) CASSETTE_RETURN_IF_ERROR(DropTable(name, table, true));
  std::unique_lock lock(state_mutex_);
  KeyspaceSchema removed = state_.keyspaces[name];
  state_.keyspaces.erase(name);
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    state_.keyspaces[name] = removed;
    return s;
  }
  BumpSchemaVersion();
  fs_->DeleteDir(path_ + "/" + name).IgnoreError();  // only when empty
  return Status::OK();
}

Status DatabaseImpl::CreateTable(const TableSchema& table, bool if_not_exists,
                                 std::vector<std::string>* warnings) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_RETURN_IF_ERROR(table.Validate());
  std::vector<std::string> guardrails;
  CASSETTE_RETURN_IF_ERROR(CheckCompactionOptions(table.options(), &guardrails));
  for (const std::string& warning : guardrails) {
    Log(LogLevel::kWarn, "CREATE TABLE " + table.keyspace() + "." + table.name() + ": " + warning);
    if (warnings != nullptr) warnings->push_back(warning);
  }
  std::unique_lock lock(state_mutex_);
  if (!state_.keyspaces.count(table.keyspace())) {
    return Status::InvalidRequest("Keyspace " + table.keyspace() + " doesn't exist");
  }
  if (state_.FindTable(table.keyspace(), table.name()) != nullptr) {
    if (if_not_exists) return Status::OK();
    return Status::AlreadyExists("Cannot add already existing table \"" + table.name() +
                                 "\" to keyspace \"" + table.keyspace() + "\"");
  }
  const uint64_t id = state_.next_table_id++;
  TableState table_state;
  table_state.schema = table;
  TableSchemaInternals::SetId(table_state.schema, id);
  // Everything already in the commit log predates this table.
  if (commit_log_) table_state.persisted = commit_log_->CurrentPosition();
  const std::string dir = TableDir(table_state.schema, id);
  Status s = CreateDirsDurably(fs_, dir);
  if (s.ok()) {
    state_.tables[id] = table_state;
    s = PersistManifestLocked();
    if (!s.ok()) state_.tables.erase(id);
  }
  if (!s.ok()) {
    --state_.next_table_id;
    return s;
  }
  auto created =
      std::make_shared<Table>(id, table_state.schema, dir, std::vector<Table::LiveSSTable>{});
  {
    std::lock_guard compaction_lock(created->compaction().mutex);
    CASSETTE_RETURN_IF_ERROR(EnsureStrategy(*created, table_state.schema));  // validated above
    created->compaction().history =
        std::make_unique<TableHistory>(fs_, options_.clock.get(), dir, options_.read_only);
  }
  tables_[id] = std::move(created);
  BumpSchemaVersion();
  return Status::OK();
}

Status DatabaseImpl::DropTable(const std::string& keyspace, const std::string& table,
                               bool if_exists) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  std::shared_ptr<Table> dropped;
  TableState removed;
  {
    std::unique_lock lock(state_mutex_);
    auto it = std::find_if(state_.tables.begin(), state_.tables.end(), [&](const auto& entry) {
      return entry.second.schema.keyspace() == keyspace && entry.second.schema.name() == table;
    });
    if (it == state_.tables.end()) {
      if (if_exists) return Status::OK();
      if (!state_.keyspaces.count(keyspace)) {
        return Status::InvalidRequest("Keyspace " + keyspace + " doesn't exist");
      }
      return Status::InvalidRequest("Table '" + keyspace + "." + table + "' doesn't exist");
    }
    const uint64_t id = it->first;
    removed = it->second;
    state_.tables.erase(it);
    Status s = PersistManifestLocked();
    if (!s.ok()) {
      state_.tables[id] = removed;
      return s;
    }
    dropped = tables_[id];
    tables_.erase(id);
    BumpSchemaVersion();
  }
  // Readers holding an old view keep their open files; POSIX unlink and
  // the in-memory file system both let them finish.
  for (const SSTableEntry& entry : removed.sstables) {
    fs_->DeleteFile(SSTablePath(dropped->dir(), entry.generation)).IgnoreError();
  }
  // Its history goes with it (as a dropped table's statistics do in
  // Cassandra); a compaction finishing meanwhile appends nothing.
  if (dropped->compaction().history) dropped->compaction().history->Remove();
  fs_->DeleteDir(dropped->dir()).IgnoreError();
  return Status::OK();
}

Status DatabaseImpl::AlterTableOptions(const std::string& keyspace, const std::string& table,
                                       const TableOptions& options,
                                       std::vector<std::string>* warnings) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> target, FindTable(keyspace, table));
  std::unique_lock lock(state_mutex_);
  TableState& state = state_.tables.at(target->id());
  TableSchema updated = state.schema;
  updated.WithOptions(options);
  CASSETTE_RETURN_IF_ERROR(updated.Validate());
  std::vector<std::string> guardrails;
  CASSETTE_RETURN_IF_ERROR(CheckCompactionOptions(updated.options(), &guardrails));
  for (const std::string& warning : guardrails) {
    Log(LogLevel::kWarn, "ALTER TABLE " + keyspace + "." + table + ": " + warning);
    if (warnings != nullptr) warnings->push_back(warning);
  }
  TableSchema previous = state.schema;
  state.schema = updated;
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    state.schema = previous;
    return s;
  }
  target->set_schema(updated);
  BumpSchemaVersion();
  {
    std::lock_guard compaction_lock(target->compaction().mutex);
    CASSETTE_RETURN_IF_ERROR(EnsureStrategy(*target, updated));
  }
  return Status::OK();
}

Status DatabaseImpl::AlterTableSchema(const std::string& keyspace, const std::string& table,
                                      const std::function<Status(TableSchema&)>& change) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> target, FindTable(keyspace, table));
  std::unique_lock lock(state_mutex_);
  auto state = state_.tables.find(target->id());
  if (state == state_.tables.end()) {  // dropped meanwhile
    return Status::InvalidRequest("table " + table + " does not exist");
  }
  TableSchema updated = state->second.schema;
  CASSETTE_RETURN_IF_ERROR(change(updated));
  CASSETTE_RETURN_IF_ERROR(updated.Validate());
  TableSchema previous = state->second.schema;
  state->second.schema = updated;
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    state->second.schema = previous;
    return s;
  }
  target->set_schema(std::move(updated));
  BumpSchemaVersion();
  return Status::OK();
}

Status DatabaseImpl::AddColumns(const std::string& keyspace, const std::string& table,
                                const std::vector<ColumnDefinition>& columns) {
  return AlterTableSchema(keyspace, table, [&](TableSchema& schema) {
    for (const ColumnDefinition& column : columns) {
      CASSETTE_RETURN_IF_ERROR(schema.AddColumn(column));
    }
    return Status::OK();
  });
}

Status DatabaseImpl::DropColumns(const std::string& keyspace, const std::string& table,
                                 const std::vector<std::string>& columns, int64_t drop_timestamp) {
  return AlterTableSchema(keyspace, table, [&](TableSchema& schema) {
    for (const std::string& column : columns) {
      CASSETTE_RETURN_IF_ERROR(schema.DropColumn(column, drop_timestamp));
    }
    return Status::OK();
  });
}

Status DatabaseImpl::RenameColumns(
    const std::string& keyspace, const std::string& table,
    const std::vector<std::pair<std::string, std::string>>& renames) {
  return AlterTableSchema(keyspace, table, [&](TableSchema& schema) -> Status {
    std::vector<ColumnDefinition> columns = schema.columns();
    const std::string qualified = schema.keyspace() + "." + schema.name();
    for (const auto& rename : renames) {
      // Named copies, not a structured binding: clang 14 cannot capture
      // one in the lambdas below.
      const std::string& from = rename.first;
      const std::string& to = rename.second;
      auto column = std::find_if(columns.begin(), columns.end(),
                                 [&](const ColumnDefinition& c) { return c.name == from; });
      if (column == columns.end()) {
        return Status::InvalidRequest("Column " + from + " was not found in table " + qualified);
      }
      if (column->kind != ColumnKind::kPartitionKey && column->kind != ColumnKind::kClustering) {
        return Status::InvalidRequest("Cannot rename non PRIMARY KEY column " + from);
      }
      if (std::any_of(columns.begin(), columns.end(),
                      [&](const ColumnDefinition& c) { return c.name == to; })) {
        return Status::InvalidRequest("Cannot rename column " + from + " to " + to + " in table '" +
                                      qualified +
                                      "'; another column with that name already exists");
      }
      column->name = to;
    }
    CASSETTE_ASSIGN_OR_RETURN(
        TableSchema renamed,
        TableSchemaInternals::Restore(schema.keyspace(), schema.name(), schema.id(),
                                      std::move(columns), schema.options(),
                                      schema.dropped_columns(), schema.next_column_id()));
    schema = std::move(renamed);
    return Status::OK();
  });
}

Status DatabaseImpl::AlterKeyspace(const KeyspaceSchema& keyspace) {
  CASSETTE_RETURN_IF_ERROR(CheckWritable());
  std::unique_lock lock(state_mutex_);
  auto it = state_.keyspaces.find(keyspace.name);
  if (it == state_.keyspaces.end()) {
    return Status::InvalidRequest("Keyspace '" + keyspace.name + "' doesn't exist");
  }
  const KeyspaceSchema previous = it->second;
  it->second = keyspace;
  it->second.user_types = previous.user_types;
  Status s = PersistManifestLocked();
  if (!s.ok()) {
    it->second = previous;
    return s;
  }
  BumpSchemaVersion();
  return Status::OK();
}

Result<TableSchema> DatabaseImpl::GetTable(const std::string& keyspace,
                                           const std::string& table) const {
  CASSETTE_ASSIGN_OR_RETURN(std::shared_ptr<Table> found, FindTable(keyspace, table));
  return found->schema();
}

Result<KeyspaceSchema> DatabaseImpl::GetKeyspace(const std::string& name) const {
  std::shared_lock lock(state_mutex_);
  auto it = state_.keyspaces.find(name);
  if (it == state_.keyspaces.end()) {
    return Status::InvalidRequest("Keyspace " + name + " does not exist");
  }
  return it->second;
}

std::vector<std::string> DatabaseImpl::ListKeyspaces() const {
  std::shared_lock lock(state_mutex_);
  std::vector<std::string> names;
  for (const auto& [name, keyspace] : state_.keyspaces) names.push_back(name);
  return names;
}

Result<std::vector<std::string>> DatabaseImpl::ListTables(const std::string& keyspace) const {
  std::shared_lock lock(state_mutex_);
  if (!state_.keyspaces.count(keyspace)) {
    return Status::InvalidRequest("Keyspace " + keyspace + " does not exist");
  }
  std::vector<std::string> names;
  for (const auto& [id, table] : state_.tables) {
    if (table.schema.keyspace() == keyspace) names.push_back(table.schema.name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace cassette
