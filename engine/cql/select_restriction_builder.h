// Internal to the SELECT restriction analysis (select_restrictions.cc and
// select_multi_column.cc): the restrictions merged per clustering column
// group and the builder that checks and merges them as Cassandra does.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cassette/schema.h"
#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/ast.h"
#include "engine/cql/execution_context.h"
#include "engine/cql/select_restrictions.h"

namespace cassette::cql::select_detail {

// One end of a slice: the bound values (one per restricted column) and
// whether the bound value itself is included.
struct SliceBound {
  std::vector<Value> values;
  bool inclusive = true;
};

// Everything restricting one column (single-column relations) or one
// group of clustering columns (a multi-column relation).
struct MergedRestriction {
  std::vector<size_t> columns;  // indices into schema.columns()
  bool eq = false;              // values has one tuple
  bool in = false;              // values has every tuple
  std::vector<std::vector<Value>> values;
  std::optional<SliceBound> start;
  std::optional<SliceBound> end;
  std::vector<Value> contains;
  std::vector<Value> contains_keys;
  std::vector<std::pair<Value, Value>> element_eqs;  // c[key] = value
  bool multi = false;

  bool IsSlice() const { return start.has_value() || end.has_value(); }
  bool IsEqOrIn() const { return eq || in; }
};

std::string ColumnList(const TableSchema& schema, const std::vector<size_t>& indices);
bool IsSliceOperator(Operator op);
// The position of a clustering column among the clustering columns.
size_t ClusteringPosition(const TableSchema& schema, size_t column);
Status NullValueError(const std::string& column);

class RestrictionBuilder {
 public:
  RestrictionBuilder(const TableSchema& schema, bool allow_filtering,
                     const ExecutionContext& context)
      : schema_(schema), allow_filtering_(allow_filtering), context_(context) {}

  Result<SelectRestrictions> Build(const std::vector<Relation>& where, bool selects_only_statics);

 private:
  Status AddRelation(const Relation& relation);
  Status AddToken(const Relation& relation);
  // The right side of a token relation: token(literals...) typed by the
  // partition key columns (as Cassandra's token function is), or a bigint.
  Result<Value> EvaluateTokenValue(const Term& term) const;
  Status AddMultiColumn(const Relation& relation);
  Status AddSingleColumn(const Relation& relation);
  Status AddClusteringRestriction(MergedRestriction added);
  Status Merge(MergedRestriction* existing, const MergedRestriction& added);
  Status CheckClusteringOrder(const MergedRestriction& added);
  Result<const ColumnDefinition*> FindColumn(const std::string& name) const;
  // A null on a primary key column fails now; on another column, `message`
  // + its name is kept for after the ALLOW FILTERING check
  // (SelectTest.testFilteringWithoutIndices).
  Status NullValue(const ColumnDefinition& column, const std::string& message);
  size_t IndexOf(const ColumnDefinition* column) const {
    return static_cast<size_t>(column - schema_.columns().data());
  }
  Status ProcessPartitionKey(SelectRestrictions* out);
  Status ProcessClustering(SelectRestrictions* out);
  void AddFilters(const MergedRestriction& r, SelectRestrictions* out) const;

  const TableSchema& schema_;
  const bool allow_filtering_;
  const ExecutionContext& context_;

  // By column index; multi-column restrictions are shared by their columns.
  std::map<size_t, std::shared_ptr<MergedRestriction>> by_column_;
  std::optional<SliceBound> token_start_;
  std::optional<SliceBound> token_end_;
  bool has_token_ = false;
  bool nothing_matches_ = false;
  // A null compared with a regular or static column: Cassandra reports it
  // only once the query is known to filter (after the ALLOW FILTERING check).
  std::optional<Status> null_filter_error_;
};

}  // namespace cassette::cql::select_detail
