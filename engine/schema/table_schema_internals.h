// What the engine does to a TableSchema and an embedding program does not:
// give it the id the database assigns when the table is created, and
// rebuild one read back from storage with its column ids, dropped columns
// and id counter as they were stored. Kept out of include/cassette/schema.h
// so the public class offers only what a user may call; a friend of
// TableSchema.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"

namespace cassette {

class TableSchemaInternals {
 public:
  // The table's id within the database (schema file, SSTable directories).
  static void SetId(TableSchema& schema, uint64_t id) { schema.id_ = id; }

  // Rebuilds a schema read back from storage: the columns in declaration
  // order with their ids, the dropped columns and the id counter. Corruption
  // when they are inconsistent (duplicate ids or names, ids not below
  // next_column_id, bad kinds).
  static Result<TableSchema> Restore(std::string keyspace, std::string name, uint64_t id,
                                     std::vector<ColumnDefinition> columns, TableOptions options,
                                     std::map<uint32_t, int64_t> dropped, uint32_t next_column_id);
};

}  // namespace cassette
