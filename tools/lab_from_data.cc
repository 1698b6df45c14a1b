#include "tools/lab_from_data.h"

#include <algorithm>
#include <cmath>

#include "engine/cql/schema_statement.h"
#include "tools/advise_observed.h"

namespace cassette::tools {

Result<WorkloadSpec> WorkloadFromTable(Database* db, const std::string& keyspace,
                                       const std::string& table) {
  CASSETTE_ASSIGN_OR_RETURN(TableSchema schema, db->GetTable(keyspace, table));
  const std::string name = keyspace + "." + table;
  if (schema.clustering().size() != 1 ||
      schema.columns()[schema.clustering()[0]].type.kind() != TypeKind::kTimestamp) {
    return Status::InvalidArgument(
        name + ": the lab replays tables whose only clustering column is a timestamp");
  }
  Result<ObservedWorkload> observation = ObserveTable(db, keyspace, table);
  if (!observation.ok()) {
    return Status(observation.status().code(), name + ": " + observation.status().message());
  }
  const ObservedWorkload& observed = *observation;
  if (observed.identifier_columns.size() != 1 || observed.bucket_columns.size() > 1 ||
      !observed.sub_bucket_columns.empty()) {
    return Status::InvalidArgument(
        name +
        ": the lab replays a partition key of one identifier column and at most one "
        "time-bucket column; this one has " +
        std::to_string(observed.identifier_columns.size()) + " identifier, " +
        std::to_string(observed.bucket_columns.size()) + " bucket and " +
        std::to_string(observed.sub_bucket_columns.size()) + " sub-bucket columns");
  }
  if (!(observed.mean_rows_per_second > 0)) {
    return Status::InvalidArgument(name + ": the data gives no write rate");
  }
  WorkloadSpec spec;
  spec.create_table_cql = cql::DescribeTableCql(schema);
  spec.keyspace = keyspace;
  spec.table = table;
  spec.identifier_column = observed.identifier_columns.front();
  if (!observed.bucket_columns.empty()) {
    spec.bucket_column = observed.bucket_columns.front();
    spec.bucket_seconds = observed.bucket_seconds.value_or(86400);
  }
  spec.time_column = schema.columns()[schema.clustering()[0]].name;
  for (const ColumnDefinition& c : schema.columns()) {
    if (c.kind == ColumnKind::kRegular &&
        (c.type.kind() == TypeKind::kBlob || c.type.kind() == TypeKind::kText)) {
      spec.payload_column = c.name;
      break;
    }
  }
  spec.identifiers = std::max<int64_t>(1, observed.identifiers);
  spec.interval_seconds = std::max(0.001, 1.0 / observed.mean_rows_per_second);
  // The lab's row counts 32 bytes of key and time; the rest is payload.
  spec.row_bytes =
      spec.payload_column.empty() ? 0 : std::max<int64_t>(0, std::llround(observed.row_bytes) - 32);
  int64_t rows = 0;
  for (const auto& [ttl, count] : observed.ttl_mix) rows += count;
  for (const auto& [ttl, count] : observed.ttl_mix) {
    if (rows == 0) break;
    spec.ttl_mix.push_back(TtlShare{ttl, static_cast<double>(count) / static_cast<double>(rows)});
  }
  // Reads: the lab's default mix, one a second.
  spec.read_interval_seconds = 1;
  spec.newest_fraction = 0.7;
  spec.range_fraction = 0.2;
  spec.point_fraction = 0.05;
  spec.missing_fraction = 0.05;
  spec.duration_seconds = 7 * 86400;
  spec.memtable_bytes = 8 << 20;
  return spec;
}

}  // namespace cassette::tools
