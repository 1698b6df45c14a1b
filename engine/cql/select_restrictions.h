// The WHERE clause of a SELECT checked as Cassandra's StatementRestrictions
// checks it (the query rules of docs/CQL.md), with its messages, and split into what the engine
// reads (partition keys or a token range, clustering prefixes and one
// slice) and what the CQL layer filters row by row (ALLOW FILTERING).
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cassette/mutation.h"
#include "cassette/query.h"
#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"

namespace cassette::cql {

// A predicate checked against each row: one column (or a tuple of
// clustering columns) compared with values. A null column value never matches.
struct RowFilter {
  std::vector<size_t> columns;  // indices into schema.columns()
  Operator op = Operator::kEq;  // kEq, kLt, kLe, kGt, kGe, kIn, kContains, kContainsKey
  // kIn: every candidate; otherwise one. Each holds one value per column.
  std::vector<std::vector<Value>> values;
  // c[key] = value: the map key (or list index) whose element is compared.
  std::optional<Value> element_key;
};

struct SelectRestrictions {
  enum class PartitionMode { kKeys, kTokenRange, kScan };
  PartitionMode partition_mode = PartitionMode::kScan;
  // kKeys: de-duplicated, in partition-key value order.
  std::vector<std::vector<Value>> partition_keys;
  bool key_is_in = false;  // an IN on a partition key column
  TokenRange token_range;  // kTokenRange

  // Rows the engine reads in each partition: every prefix (de-duplicated,
  // in clustering storage order), each with the same slice.
  std::vector<std::vector<Value>> clustering_prefixes{{}};
  std::optional<ClusteringBound> slice_start;
  std::optional<ClusteringBound> slice_end;

  // Checked by the CQL layer on every row.
  std::vector<RowFilter> filters;

  bool has_clustering_restrictions = false;
  bool has_regular_restrictions = false;  // regular (not static) columns
  bool has_static_restrictions = false;
  // Columns restricted by a single-value equality (ORDER BY / GROUP BY may skip them).
  std::set<size_t> eq_columns;
  // An empty IN list: nothing can match.
  bool nothing_matches = false;

  bool IsKeyRange() const { return partition_mode != PartitionMode::kKeys; }
};

// `selects_only_statics`: the selection names static columns and no
// clustering or regular ones (clustering restrictions are then refused).
Result<SelectRestrictions> AnalyzeRestrictions(const TableSchema& schema,
                                               const std::vector<Relation>& where,
                                               bool allow_filtering, bool selects_only_statics,
                                               const ExecutionContext& context);

// Whether `row_values` (one per column of `filter.columns`) pass `filter`.
bool RowPassesFilter(const TableSchema& schema, const RowFilter& filter,
                     const std::vector<const Value*>& row_values);

// Cassandra's FILTER_MSG (docs/CQL.md).
extern const char kFilteringMessage[];

// A column name as CQL text: bare when it is a lower-case identifier,
// double-quoted otherwise.
std::string QuoteColumnName(const std::string& name);

}  // namespace cassette::cql
