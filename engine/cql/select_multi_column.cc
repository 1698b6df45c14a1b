// Multi-column relations on clustering columns, and the merge of several
// relations on the same clustering columns, as Cassandra 5.0 checks them
// (SelectMultiColumnRelationTest, SelectSingleColumnRelationTest).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "engine/cql/operator_text.h"
#include "engine/cql/select_restriction_builder.h"
#include "engine/cql/term_evaluator.h"
#include "engine/cql/term_text.h"
#include "engine/types/type_codec.h"

namespace cassette::cql::select_detail {
namespace {

// "(b, c) = (0, 1)": a multi-column relation as Cassandra prints it in messages.
std::string MultiColumnRelationText(const Relation& relation) {
  std::string text = "(";
  for (size_t i = 0; i < relation.columns.size(); ++i) {
    text += (i > 0 ? ", " : "") + relation.columns[i];
  }
  text += std::string(") ") + OperatorText(relation.op) + " ";
  if (relation.value) return text + TermSourceText(*relation.value);
  std::string values;
  for (const Term& term : relation.in_values) {
    values += (values.empty() ? "" : ", ") + TermSourceText(term);
  }
  return text + "(" + values + ")";
}

// A tuple literal of the wrong length, with SelectMultiColumnRelationTest's message.
Status CheckTupleLength(const Term& term, size_t expected) {
  if (term.kind != Term::Kind::kTuple || term.elements.size() == expected) return Status::OK();
  return Status::InvalidRequest("Expected " + std::to_string(expected) +
                                " elements in value tuple, but got " +
                                std::to_string(term.elements.size()) + ": " + TermSourceText(term));
}

}  // namespace

Status RestrictionBuilder::AddMultiColumn(const Relation& relation) {
  MergedRestriction added;
  added.multi = true;
  std::vector<DataType> types;
  std::string names;
  for (const std::string& name : relation.columns) {
    CASSETTE_ASSIGN_OR_RETURN(const ColumnDefinition* column, FindColumn(name));
    if (column->kind != ColumnKind::kClustering) {
      return Status::InvalidRequest(
          "Multi-column relations can only be applied to clustering columns but was applied to: " +
          column->name);
    }
    added.columns.push_back(IndexOf(column));
    types.push_back(column->type);
    names += (names.empty() ? "" : ", ") + column->name;
  }
  // The columns must be consecutive clustering columns in declared order.
  const std::vector<size_t>& clustering = schema_.clustering();
  auto first = std::find(clustering.begin(), clustering.end(), added.columns[0]);
  for (size_t i = 0; i < added.columns.size(); ++i) {
    if (first + static_cast<std::ptrdiff_t>(i) == clustering.end() ||
        *(first + static_cast<std::ptrdiff_t>(i)) != added.columns[i]) {
      return Status::InvalidRequest(
          "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: " +
          MultiColumnRelationText(relation));
    }
  }
  if (relation.value) CASSETTE_RETURN_IF_ERROR(CheckTupleLength(*relation.value, types.size()));
  for (const Term& term : relation.in_values) {
    CASSETTE_RETURN_IF_ERROR(CheckTupleLength(term, types.size()));
  }
  const DataType tuple_type = DataType::Tuple(types);
  const std::string receiver = "(" + names + ")";
  // Cassandra's null messages differ by operator: an equality (or an IN of
  // one tuple) names the column, a slice says "in condition", an IN of
  // several tuples lists every column (testMultiClusteringInvalidQueries).
  const bool single_in =
      relation.op == Operator::kIn && !relation.value && relation.in_values.size() == 1;
  auto null_error = [&](size_t component) {
    const std::string& column = schema_.columns()[added.columns[component]].name;
    if (relation.op == Operator::kEq || single_in) {
      return Status::InvalidRequest("Invalid null value for column " + column);
    }
    if (relation.op == Operator::kIn) {
      return Status::InvalidRequest("Invalid null value in condition for columns: [" + names + "]");
    }
    return NullValueError(column);
  };
  auto split = [&](const Value& tuple) -> Result<std::vector<Value>> {
    if (tuple.is_null()) return NullValueError(receiver);
    std::vector<std::optional<std::string>> components;
    CASSETTE_RETURN_IF_ERROR(DeserializeTuple(tuple.bytes(), &components));
    std::vector<Value> values;
    for (size_t i = 0; i < types.size(); ++i) {
      if (i >= components.size() || !components[i]) return null_error(i);
      values.push_back(Value::FromBytes(types[i], *components[i]));
    }
    return values;
  };
  if (relation.op == Operator::kIn) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> tuples,
                              EvaluateInValues(relation, tuple_type, receiver, context_));
    added.in = true;
    for (const Value& tuple : tuples) {
      CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values, split(tuple));
      added.values.push_back(std::move(values));
    }
    if (added.values.empty()) nothing_matches_ = true;
  } else if (relation.op == Operator::kEq || IsSliceOperator(relation.op)) {
    if (!relation.value) return Status::InvalidRequest("relation without a value");
    CASSETTE_ASSIGN_OR_RETURN(Value tuple,
                              EvaluateTerm(*relation.value, tuple_type, receiver, context_));
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values, split(tuple));
    if (relation.op == Operator::kEq) {
      added.eq = true;
      added.values.push_back(std::move(values));
    } else if (relation.op == Operator::kGt || relation.op == Operator::kGe) {
      added.start = SliceBound{std::move(values), relation.op == Operator::kGe};
    } else {
      added.end = SliceBound{std::move(values), relation.op == Operator::kLe};
    }
  } else {
    return Status::InvalidRequest("Unsupported operator in a multi-column relation on (" + names +
                                  ")");
  }
  return AddClusteringRestriction(std::move(added));
}

// Single- and multi-column relations on clustering columns merge as in
// Cassandra 3.0+ (SelectMultiColumnRelationTest.testMultiAndSingleColumnRelationMix):
// slices starting on the same column combine their bounds, anything else
// overlapping is refused with Cassandra's message.
Status RestrictionBuilder::AddClusteringRestriction(MergedRestriction added) {
  std::vector<std::shared_ptr<MergedRestriction>> overlapping;
  for (size_t column : added.columns) {
    auto it = by_column_.find(column);
    if (it != by_column_.end() &&
        std::find(overlapping.begin(), overlapping.end(), it->second) == overlapping.end()) {
      overlapping.push_back(it->second);
    }
  }
  for (const auto& existing : overlapping) {
    const size_t existing_first = existing->columns[0];
    const size_t added_first = added.columns[0];
    if (existing->IsSlice() && added.IsSlice() && existing_first != added_first) {
      const size_t later =
          ClusteringPosition(schema_, existing_first) > ClusteringPosition(schema_, added_first)
              ? existing_first
              : added_first;
      return Status::InvalidRequest("Column \"" + schema_.columns()[later].name +
                                    "\" cannot be restricted by two inequalities not starting "
                                    "with the same column");
    }
  }
  if (overlapping.empty()) {
    CASSETTE_RETURN_IF_ERROR(CheckClusteringOrder(added));
    auto shared = std::make_shared<MergedRestriction>(std::move(added));
    for (size_t column : shared->columns) by_column_[column] = shared;
    return Status::OK();
  }
  for (const auto& existing : overlapping) {
    CASSETTE_RETURN_IF_ERROR(Merge(existing.get(), added));
  }
  MergedRestriction& merged = *overlapping[0];
  merged.multi = merged.multi || added.multi;
  if (added.columns.size() > merged.columns.size()) merged.columns = added.columns;
  for (size_t column : merged.columns) by_column_[column] = overlapping[0];
  return CheckClusteringOrder(added);
}

// Cassandra's merge of two restrictions on one column, with its messages.
Status RestrictionBuilder::Merge(MergedRestriction* existing, const MergedRestriction& added) {
  // One column is named bare, several as a tuple (testSingleClusteringInvalidQueries).
  const std::string name = existing->columns.size() > 1
                               ? "(" + ColumnList(schema_, existing->columns) + ")"
                               : schema_.columns()[existing->columns[0]].name;
  if (existing->eq) {
    return Status::InvalidRequest(name +
                                  " cannot be restricted by more than one relation if it includes "
                                  "an Equal");
  }
  if (existing->in) {
    return Status::InvalidRequest(name +
                                  " cannot be restricted by more than one relation if it includes "
                                  "a IN");
  }
  const bool existing_contains = !existing->contains.empty() || !existing->contains_keys.empty() ||
                                 !existing->element_eqs.empty();
  const bool added_contains =
      !added.contains.empty() || !added.contains_keys.empty() || !added.element_eqs.empty();
  if (existing->IsSlice()) {
    if (!added.IsSlice()) {
      return Status::InvalidRequest("Column \"" + name +
                                    "\" cannot be restricted by both an equality and an "
                                    "inequality relation");
    }
    if (existing->start && added.start) {
      return Status::InvalidRequest("More than one restriction was found for the start bound on " +
                                    name);
    }
    if (existing->end && added.end) {
      return Status::InvalidRequest("More than one restriction was found for the end bound on " +
                                    name);
    }
    if (added.start) existing->start = added.start;
    if (added.end) existing->end = added.end;
    return Status::OK();
  }
  if (existing_contains) {
    if (!added_contains) {
      return Status::InvalidRequest("Collection column " + name +
                                    " can only be restricted by CONTAINS, CONTAINS KEY, or "
                                    "map-entry equality");
    }
    existing->contains.insert(existing->contains.end(), added.contains.begin(),
                              added.contains.end());
    existing->contains_keys.insert(existing->contains_keys.end(), added.contains_keys.begin(),
                                   added.contains_keys.end());
    existing->element_eqs.insert(existing->element_eqs.end(), added.element_eqs.begin(),
                                 added.element_eqs.end());
    return Status::OK();
  }
  return Status::OK();
}

// A restriction after a slice (or a slice before a restricted column) is
// refused as it is added, in the order the relations are written.
Status RestrictionBuilder::CheckClusteringOrder(const MergedRestriction& added) {
  if (allow_filtering_) return Status::OK();
  // The restriction on the highest clustering position so far.
  const MergedRestriction* last = nullptr;
  size_t last_position = 0;
  std::optional<size_t> next_after_added;
  const size_t added_position = ClusteringPosition(schema_, added.columns[0]);
  for (const auto& [column, restriction] : by_column_) {
    if (schema_.columns()[column].kind != ColumnKind::kClustering) continue;
    const size_t first_position = ClusteringPosition(schema_, restriction->columns[0]);
    if (last == nullptr || first_position >= last_position) {
      last = restriction.get();
      last_position = first_position;
    }
    if (first_position > added_position &&
        (!next_after_added || first_position < *next_after_added)) {
      next_after_added = first_position;
    }
  }
  if (last == nullptr) return Status::OK();
  const std::string& added_name = schema_.columns()[added.columns[0]].name;
  if (last->IsSlice() && added_position > last_position) {
    return Status::InvalidRequest(
        "Clustering column \"" + added_name + "\" cannot be restricted (preceding column \"" +
        schema_.columns()[last->columns[0]].name + "\" is restricted by a non-EQ relation)");
  }
  if (added_position < last_position && added.IsSlice() && next_after_added) {
    return Status::InvalidRequest("PRIMARY KEY column \"" +
                                  schema_.columns()[schema_.clustering()[*next_after_added]].name +
                                  "\" cannot be restricted (preceding column \"" + added_name +
                                  "\" is restricted by a non-EQ relation)");
  }
  return Status::OK();
}

}  // namespace cassette::cql::select_detail
