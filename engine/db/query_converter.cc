#include "engine/db/query_converter.h"

#include "engine/schema/key_codec.h"
#include "engine/schema/select_star_order.h"

namespace cassette {

Result<ReadCommand> ConvertReadQuery(const TableSchema& schema, const ReadQuery& query,
                                     int64_t now_sec, const ReadLimits& limits) {
  ReadCommand command;
  command.schema = &schema;
  command.now_sec = now_sec;
  command.tombstone_warn_threshold = limits.tombstone_warn_threshold;
  command.tombstone_failure_threshold = limits.tombstone_failure_threshold;

  for (const std::vector<Value>& key : query.partition_keys) {
    CASSETTE_ASSIGN_OR_RETURN(std::string serialized, EncodePartitionKeyValues(schema, key));
    command.keys.push_back(DecoratedKey::FromKey(std::move(serialized)));
  }
  if (command.keys.empty()) command.token_range = query.token_range;

  const size_t clustering_count = schema.clustering().size();
  const size_t prefix_size = query.clustering_prefix.size();
  CASSETTE_ASSIGN_OR_RETURN(std::string prefix,
                            EncodeClusteringValues(schema, query.clustering_prefix));
  command.range.start = Bound{prefix, true};
  command.range.end = Bound{prefix, true};
  if (query.slice_start || query.slice_end) {
    if (prefix_size >= clustering_count) {
      return Status::InvalidRequest("A slice needs a clustering column after the equality prefix");
    }
    auto encode = [&](const ClusteringBound& bound) -> Result<Bound> {
      CASSETTE_ASSIGN_OR_RETURN(std::string suffix,
                                EncodeClusteringValues(schema, bound.prefix, prefix_size));
      return Bound{prefix + suffix, bound.inclusive || bound.prefix.empty()};
    };
    Bound cql_start{prefix, true}, cql_end{prefix, true};
    if (query.slice_start) {
      CASSETTE_ASSIGN_OR_RETURN(cql_start, encode(*query.slice_start));
    }
    if (query.slice_end) {
      CASSETTE_ASSIGN_OR_RETURN(cql_end, encode(*query.slice_end));
    }
    // A slice on a DESC column runs backwards in storage order.
    const bool descending =
        schema.columns()[schema.clustering()[prefix_size]].order == ClusteringOrder::kDesc;
    command.range.start = descending ? cql_end : cql_start;
    command.range.end = descending ? cql_start : cql_end;
  }
  command.restricts_rows = prefix_size > 0 || query.slice_start || query.slice_end;
  command.reversed = query.reversed;

  if (query.columns.empty()) {
    command.selection = SelectStarOrder(schema);
  } else {
    for (const std::string& name : query.columns) {
      const ColumnDefinition* column = schema.Find(name);
      if (column == nullptr) {
        return Status::InvalidRequest("Undefined column name " + name + " in table " +
                                      schema.keyspace() + "." + schema.name());
      }
      command.selection.push_back(static_cast<size_t>(column - schema.columns().data()));
    }
  }
  command.with_cell_metadata = query.with_cell_metadata;

  if (query.limit < 0 || query.per_partition_limit < 0) {
    return Status::InvalidRequest("LIMIT must be strictly positive");
  }
  if (query.distinct && query.per_partition_limit > 0) {
    return Status::InvalidRequest(
        "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
  }
  if (query.page_size < 0) return Status::InvalidRequest("page size must be >= 0");
  command.limit = query.limit;
  command.per_partition_limit = query.per_partition_limit;
  command.distinct = query.distinct;
  command.page_size = query.page_size;
  command.paging_state = query.paging_state;
  return command;
}

}  // namespace cassette
