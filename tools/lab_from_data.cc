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
  // The first clustering column is the time, or a sequence number beside
  // a regular timestamp column (a tick table); the rest the lab fills per
  // row (tools/lab_row_maker.h says which types it can).
  std::string time_column;
  std::string sequence_column;
  if (!schema.clustering().empty()) {
    const ColumnDefinition& first = schema.columns()[schema.clustering()[0]];
    if (first.type.kind() == TypeKind::kTimestamp) {
      time_column = first.name;
    } else if (first.type.kind() == TypeKind::kInt || first.type.kind() == TypeKind::kBigint) {
      sequence_column = first.name;
      for (const ColumnDefinition& c : schema.columns()) {
        if (c.kind == ColumnKind::kRegular && c.type.kind() == TypeKind::kTimestamp) {
          time_column = c.name;
          break;
        }
      }
    }
  }
  if (time_column.empty()) {
    return Status::InvalidArgument(
        name +
        ": the lab replays tables whose first clustering column is a timestamp, or an int or "
        "bigint sequence number beside a regular timestamp column");
  }
  Result<ObservedWorkload> observation = ObserveTable(db, keyspace, table);
  if (!observation.ok()) {
    return Status(observation.status().code(), name + ": " + observation.status().message());
  }
  const ObservedWorkload& observed = *observation;
  if (observed.identifier_columns.empty() || observed.bucket_columns.size() > 1 ||
      observed.sub_bucket_columns.size() > 1) {
    return Status::InvalidArgument(
        name +
        ": the lab replays a partition key of identifier columns, at most one time-bucket "
        "column and at most one sub-bucket column; this one has " +
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
  // The other identifier columns are filled from the same identifier.
  spec.identifier_column = observed.identifier_columns.front();
  if (!observed.bucket_columns.empty()) {
    spec.bucket_column = observed.bucket_columns.front();
    spec.bucket_seconds = observed.bucket_seconds.value_or(86400);
  }
  if (!observed.sub_bucket_columns.empty()) {
    spec.hash_column = observed.sub_bucket_columns.front();
    spec.hash_buckets = std::max<int64_t>(1, observed.sub_buckets);
  }
  spec.time_column = time_column;
  spec.sequence_column = sequence_column;
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
