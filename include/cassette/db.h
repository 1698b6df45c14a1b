// Database: an embedded cassette store in one data directory.
//
//   Options options;                       // POSIX files, system clock
//   auto db = Database::Open(options, "./data");
//   if (!db.ok()) ...                      // db.status().ToString()
//   (*db)->CreateKeyspace({.name = "iot"});
//   (*db)->CreateTable(TableSchema("iot", "readings")...);
//   Mutation m("iot", "readings", {Value::Text("s1")});
//   m.Insert({Value::Timestamp(t)}).Set("v", Value::Double(1.5));
//   Status s = (*db)->Apply(m);
//
// Ownership: Open returns the only owner. Injected services (file system,
// clock, scheduler) are shared with the caller. string_view arguments are
// only used during the call.
//
// A Database is safe for concurrent access from multiple threads without any
// external synchronization. Each Mutation is applied atomically: a reader
// sees all of it or none of it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/options.h"
#include "cassette/query.h"
#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette {

struct TableStats {
  std::string keyspace;
  std::string table;
  int64_t sstable_count = 0;
  int64_t memtable_bytes = 0;
  int64_t live_bytes = 0;     // uncompressed data bytes in live SSTables
  int64_t bytes_on_disk = 0;  // size of live SSTable files
  int64_t bytes_written_by_users = 0;
  int64_t bytes_flushed = 0;
  int64_t bytes_compacted = 0;
  double write_amplification = 0;  // (flushed + compacted) / written by users
  int64_t partition_count = 0;     // summed over SSTables (upper bound)
  int64_t partition_size_p50 = 0;
  int64_t partition_size_p99 = 0;
  int64_t partition_size_max = 0;
  int64_t tombstone_cells = 0;
  // TWCS tables: window start (ISO-8601) -> SSTable count.
  std::map<std::string, int64_t> sstables_per_window;
};

class Database {
 public:
  // Opens (creating when allowed) the store in `path`, replaying the commit
  // log. Busy when another process holds the directory.
  static Result<std::unique_ptr<Database>> Open(const Options& options, const std::string& path);

  virtual ~Database() = default;

  // Schema. Errors: AlreadyExists / InvalidRequest / ConfigurationException
  // with Cassandra's messages. Each change is durable and atomic.
  virtual Status CreateKeyspace(const KeyspaceSchema& keyspace, bool if_not_exists = false) = 0;
  virtual Status DropKeyspace(const std::string& name, bool if_exists = false) = 0;
  virtual Status CreateTable(const TableSchema& table, bool if_not_exists = false) = 0;
  virtual Status DropTable(const std::string& keyspace, const std::string& table,
                           bool if_exists = false) = 0;
  // Replaces a table's options (ALTER TABLE ... WITH); existing data is not rewritten.
  virtual Status AlterTableOptions(const std::string& keyspace, const std::string& table,
                                   const TableOptions& options) = 0;
  virtual Result<TableSchema> GetTable(const std::string& keyspace,
                                       const std::string& table) const = 0;
  virtual Result<KeyspaceSchema> GetKeyspace(const std::string& name) const = 0;
  virtual std::vector<std::string> ListKeyspaces() const = 0;
  virtual Result<std::vector<std::string>> ListTables(const std::string& keyspace) const = 0;

  // Writes. A mutation is validated whole before anything is applied.
  virtual Status Apply(const Mutation& mutation) = 0;
  // Applies every mutation of the batch or none (one commit-log record).
  virtual Status ApplyBatch(const std::vector<Mutation>& batch) = 0;

  virtual Result<ResultSet> Read(const ReadQuery& query) = 0;

  // Writes every non-empty memtable (or one table's) to SSTables.
  virtual Status Flush() = 0;
  virtual Status FlushTable(const std::string& keyspace, const std::string& table) = 0;

  virtual Result<TableStats> GetTableStats(const std::string& keyspace,
                                           const std::string& table) = 0;

  // The database's current time (from its clock), microseconds.
  virtual int64_t NowMicros() const = 0;

  // Syncs the commit log and releases the directory. Further calls fail.
  virtual Status Close() = 0;
};

}  // namespace cassette
