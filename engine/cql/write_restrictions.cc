#include "engine/cql/write_restrictions.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>

#include "engine/cql/operator_text.h"
#include "engine/cql/term_evaluator.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {

namespace {

bool IsSlice(Operator op) {
  return op == Operator::kLt || op == Operator::kLe || op == Operator::kGt || op == Operator::kGe;
}
bool IsStartBound(Operator op) { return op == Operator::kGt || op == Operator::kGe; }

// A run of key columns restricted together: one column by EQ or IN, or
// several by a tuple EQ or IN. Each entry of `tuples` has one value per column.
struct Segment {
  size_t first = 0;
  size_t count = 1;
  bool is_in = false;
  std::vector<std::vector<Value>> tuples;
};

// A slice starting at one clustering column (several for a tuple slice).
struct Slice {
  size_t first = 0;
  std::optional<std::vector<Value>> start;
  bool start_inclusive = true;
  std::optional<std::vector<Value>> end;
  bool end_inclusive = true;
};

// What restricts each key column so far, for the duplicate checks.
enum class Restricted : uint8_t { kNone, kEq, kIn, kSlice };

class RestrictionCollector {
 public:
  RestrictionCollector(const TableSchema& schema, WriteKind kind, const ExecutionContext& context)
      : schema_(schema), kind_(kind), context_(context) {
    partition_state_.assign(schema.partition_key().size(), Restricted::kNone);
    clustering_state_.assign(schema.clustering().size(), Restricted::kNone);
    partition_slices_.assign(schema.partition_key().size(), false);
  }

  Status Add(const Relation& relation) {
    // Cassandra's StatementRestrictions refuses CONTAINS / CONTAINS KEY in a
    // write's WHERE clause whatever the column ("Cannot use UPDATE with CONTAINS").
    if ((relation.op == Operator::kContains || relation.op == Operator::kContainsKey) &&
        kind_ != WriteKind::kInsert) {
      return Status::InvalidRequest(std::string("Cannot use ") + WriteKindName(kind_) + " with " +
                                    OperatorText(relation.op));
    }
    switch (relation.target) {
      case Relation::Target::kToken:
        return Status::InvalidRequest(
            std::string("The token function cannot be used in WHERE clauses for ") +
            WriteKindName(kind_) + " statements");
      case Relation::Target::kTuple:
        return AddTuple(relation);
      case Relation::Target::kElement:
      case Relation::Target::kColumn:
        break;
    }
    if (relation.columns.empty()) return Status::InvalidRequest("Empty relation");
    const std::string& name = relation.columns[0];
    const ColumnDefinition* column = schema_.Find(name);
    if (column == nullptr) return UndefinedColumn(name);
    if (relation.target == Relation::Target::kElement ||
        (column->kind != ColumnKind::kPartitionKey && column->kind != ColumnKind::kClustering)) {
      if (std::find(non_key_.begin(), non_key_.end(), name) == non_key_.end()) {
        non_key_.push_back(name);
      }
      return Status::OK();
    }
    const bool partition = column->kind == ColumnKind::kPartitionKey;
    const size_t index = KeyIndex(*column);
    Restricted& state = partition ? partition_state_[index] : clustering_state_[index];
    if (relation.op == Operator::kEq || relation.op == Operator::kIn) {
      CASSETTE_RETURN_IF_ERROR(CheckNotRestricted(state, name, relation.op));
      Segment segment;
      segment.first = index;
      segment.is_in = relation.op == Operator::kIn;
      if (segment.is_in) {
        CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values,
                                  EvaluateInValues(relation, column->type, name, context_));
        for (Value& v : values) segment.tuples.push_back({std::move(v)});
      } else {
        if (!relation.value) return Status::InvalidRequest("Missing value for " + name);
        CASSETTE_ASSIGN_OR_RETURN(Value v,
                                  EvaluateTerm(*relation.value, column->type, name, context_));
        segment.tuples.push_back({std::move(v)});
      }
      state = segment.is_in ? Restricted::kIn : Restricted::kEq;
      (partition ? partition_segments_ : clustering_segments_).push_back(std::move(segment));
      return Status::OK();
    }
    if (!IsSlice(relation.op)) {
      return Status::InvalidRequest(std::string("Unsupported \"") + OperatorText(relation.op) +
                                    "\" relation on PRIMARY KEY column " + name + " in " +
                                    WriteKindName(kind_) + " statements");
    }
    CASSETTE_RETURN_IF_ERROR(CheckSliceAllowed(state, name));
    if (!relation.value) return Status::InvalidRequest("Missing value for " + name);
    CASSETTE_ASSIGN_OR_RETURN(Value v, EvaluateTerm(*relation.value, column->type, name, context_));
    if (partition) {
      partition_slices_[index] = true;
      state = Restricted::kSlice;
      return Status::OK();
    }
    state = Restricted::kSlice;
    return AddSliceBound(index, name, relation.op, {std::move(v)});
  }

  Result<WriteTargets> Finish(bool static_only) {
    const std::vector<ColumnDefinition>& columns = schema_.columns();
    // Partition key: every column by EQ or IN.
    std::string missing;
    for (size_t i = 0; i < partition_state_.size(); ++i) {
      if (partition_state_[i] == Restricted::kNone) {
        missing += (missing.empty() ? "" : ", ") + columns[schema_.partition_key()[i]].name;
      }
    }
    if (!missing.empty()) {
      return Status::InvalidRequest("Some partition key parts are missing: " + missing);
    }
    // Cassandra checks the partition key before the non-key columns
    // (DeleteTest.testDeleteWithSecondaryIndices).
    if (!non_key_.empty()) {
      std::string names;
      for (const std::string& n : non_key_) names += (names.empty() ? "" : ", ") + n;
      return Status::InvalidRequest("Non PRIMARY KEY columns found in where clause: " + names +
                                    " ");
    }
    if (std::find(partition_slices_.begin(), partition_slices_.end(), true) !=
        partition_slices_.end()) {
      return Status::InvalidRequest(
          std::string("Only EQ and IN relation are supported on the partition key (unless you "
                      "use the token() function) for ") +
          WriteKindName(kind_) + " statements");
    }
    WriteTargets targets;
    CASSETTE_RETURN_IF_ERROR(Expand(partition_segments_, /*partition=*/true,
                                    &targets.partition_keys, &targets.partition_key_in));

    const bool has_clustering = std::any_of(clustering_state_.begin(), clustering_state_.end(),
                                            [](Restricted r) { return r != Restricted::kNone; });
    if (static_only && has_clustering && kind_ != WriteKind::kInsert) {
      return Status::InvalidRequest(
          std::string("Invalid restrictions on clustering columns since the ") +
          WriteKindName(kind_) + " statement modifies only static columns");
    }
    if (kind_ != WriteKind::kDelete) {
      if (!slices_.empty()) {
        return Status::InvalidRequest(
            std::string("Slice restrictions are not supported on the clustering columns in ") +
            WriteKindName(kind_) + " statements");
      }
      if (!static_only || has_clustering) {
        std::string unrestricted;
        for (size_t i = 0; i < clustering_state_.size(); ++i) {
          if (clustering_state_[i] == Restricted::kNone) {
            unrestricted +=
                (unrestricted.empty() ? "" : ", ") + columns[schema_.clustering()[i]].name;
          }
        }
        if (!unrestricted.empty()) {
          return Status::InvalidRequest("Some clustering keys are missing: " + unrestricted);
        }
      }
    } else {
      CASSETTE_RETURN_IF_ERROR(CheckClusteringShape());
    }

    // The EQ/IN prefix, then the slice after it.
    for (const Segment& s : clustering_segments_) targets.prefix_size += s.count;
    CASSETTE_RETURN_IF_ERROR(Expand(clustering_segments_, /*partition=*/false,
                                    &targets.clustering_prefixes, &targets.clustering_in));
    if (!slices_.empty()) {
      const Slice& slice = slices_[0];
      targets.has_slice = true;
      targets.slice_start = slice.start;
      targets.slice_start_inclusive = slice.start_inclusive;
      targets.slice_end = slice.end;
      targets.slice_end_inclusive = slice.end_inclusive;
    }
    return targets;
  }

 private:
  Status UndefinedColumn(const std::string& name) const {
    return Status::InvalidRequest("Undefined column name " + name + " in table " +
                                  schema_.keyspace() + "." + schema_.name());
  }

  size_t KeyIndex(const ColumnDefinition& column) const {
    const std::vector<size_t>& keys =
        column.kind == ColumnKind::kPartitionKey ? schema_.partition_key() : schema_.clustering();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (schema_.columns()[keys[i]].name == column.name) return i;
    }
    return 0;
  }

  static Status CheckNotRestricted(Restricted state, const std::string& name, Operator op) {
    switch (state) {
      case Restricted::kNone:
        return Status::OK();
      case Restricted::kEq:
        return Status::InvalidRequest(
            name + " cannot be restricted by more than one relation if it includes an Equal");
      case Restricted::kIn:
        return Status::InvalidRequest(
            name + " cannot be restricted by more than one relation if it includes a IN");
      case Restricted::kSlice:
        (void)op;
        return Status::InvalidRequest("Column \"" + name +
                                      "\" cannot be restricted by both an equality and an "
                                      "inequality relation");
    }
    return Status::OK();
  }

  static Status CheckSliceAllowed(Restricted state, const std::string& name) {
    if (state == Restricted::kEq) {
      return Status::InvalidRequest(
          name + " cannot be restricted by more than one relation if it includes an Equal");
    }
    if (state == Restricted::kIn) {
      return Status::InvalidRequest(
          name + " cannot be restricted by more than one relation if it includes a IN");
    }
    return Status::OK();
  }

  Status AddSliceBound(size_t first, const std::string& name, Operator op,
                       std::vector<Value> values) {
    Slice* slice = nullptr;
    for (Slice& s : slices_) {
      if (s.first == first) slice = &s;
    }
    if (slice == nullptr) {
      slices_.push_back(Slice{});
      slice = &slices_.back();
      slice->first = first;
    }
    const bool inclusive = op == Operator::kGe || op == Operator::kLe;
    if (IsStartBound(op)) {
      if (slice->start) {
        return Status::InvalidRequest(
            "More than one restriction was found for the start bound on " + name);
      }
      slice->start = std::move(values);
      slice->start_inclusive = inclusive;
    } else {
      if (slice->end) {
        return Status::InvalidRequest("More than one restriction was found for the end bound on " +
                                      name);
      }
      slice->end = std::move(values);
      slice->end_inclusive = inclusive;
    }
    return Status::OK();
  }

  // (c1, c2) op (v1, v2) / IN ((..), (..)): clustering columns only, in order.
  Status AddTuple(const Relation& relation) {
    std::vector<DataType> types;
    std::vector<size_t> indexes;
    std::string receiver = "(";
    for (const std::string& name : relation.columns) {
      const ColumnDefinition* column = schema_.Find(name);
      if (column == nullptr) return UndefinedColumn(name);
      if (column->kind != ColumnKind::kClustering) {
        return Status::InvalidRequest(
            "Multi-column relations can only be applied to clustering "
            "columns but was applied to: " +
            name);
      }
      indexes.push_back(KeyIndex(*column));
      types.push_back(column->type);
      receiver += (receiver.size() > 1 ? "," : "") + name;
    }
    receiver += ")";
    for (size_t i = 1; i < indexes.size(); ++i) {
      if (indexes[i] != indexes[i - 1] + 1) {
        return Status::InvalidRequest(
            "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: " +
            TupleText(relation.columns));
      }
    }
    for (size_t i = 0; i < indexes.size(); ++i) {
      const std::string& name = relation.columns[i];
      Restricted& state = clustering_state_[indexes[i]];
      if (relation.op == Operator::kEq || relation.op == Operator::kIn) {
        CASSETTE_RETURN_IF_ERROR(CheckNotRestricted(state, name, relation.op));
      } else {
        CASSETTE_RETURN_IF_ERROR(CheckSliceAllowed(state, name));
      }
    }
    const DataType tuple_type = DataType::Tuple(types);
    if (relation.op == Operator::kIn) {
      Segment segment;
      segment.first = indexes[0];
      segment.count = indexes.size();
      segment.is_in = true;
      if (relation.value) {  // IN ?: a list of tuples
        CASSETTE_ASSIGN_OR_RETURN(
            Value list,
            EvaluateTerm(*relation.value, DataType::List(tuple_type), receiver, context_));
        if (list.is_null()) return Status::InvalidRequest("Invalid null value for " + receiver);
        for (const Value& element : list.Elements()) {
          CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> tuple, SplitTuple(element, types, receiver));
          segment.tuples.push_back(std::move(tuple));
        }
      } else {
        for (const Term& term : relation.in_values) {
          CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> tuple,
                                    EvaluateTuple(term, types, tuple_type, receiver));
          segment.tuples.push_back(std::move(tuple));
        }
      }
      for (size_t i : indexes) clustering_state_[i] = Restricted::kIn;
      clustering_segments_.push_back(std::move(segment));
      return Status::OK();
    }
    if (!relation.value) return Status::InvalidRequest("Missing value for " + receiver);
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> tuple,
                              EvaluateTuple(*relation.value, types, tuple_type, receiver));
    if (relation.op == Operator::kEq) {
      for (size_t i = 0; i < indexes.size(); ++i) {
        Segment segment;
        segment.first = indexes[i];
        segment.tuples.push_back({tuple[i]});
        clustering_state_[indexes[i]] = Restricted::kEq;
        clustering_segments_.push_back(std::move(segment));
      }
      return Status::OK();
    }
    if (!IsSlice(relation.op)) {
      return Status::InvalidRequest(std::string("Unsupported \"") + OperatorText(relation.op) +
                                    "\" relation: " + TupleText(relation.columns));
    }
    for (size_t i : indexes) clustering_state_[i] = Restricted::kSlice;
    return AddSliceBound(indexes[0], relation.columns[0], relation.op, std::move(tuple));
  }

  static std::string TupleText(const std::vector<std::string>& names) {
    std::string text = "(";
    for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
    return text + ")";
  }

  Result<std::vector<Value>> EvaluateTuple(const Term& term, const std::vector<DataType>& types,
                                           const DataType& tuple_type,
                                           const std::string& receiver) {
    if (term.kind == Term::Kind::kTuple) {
      if (term.elements.size() != types.size()) {
        return Status::InvalidRequest("Expected " + std::to_string(types.size()) +
                                      " elements in value tuple, but got " +
                                      std::to_string(term.elements.size()));
      }
      std::vector<Value> values;
      for (size_t i = 0; i < types.size(); ++i) {
        CASSETTE_ASSIGN_OR_RETURN(Value v,
                                  EvaluateTerm(term.elements[i], types[i], receiver, context_));
        values.push_back(std::move(v));
      }
      return values;
    }
    CASSETTE_ASSIGN_OR_RETURN(Value tuple, EvaluateTerm(term, tuple_type, receiver, context_));
    if (tuple.is_null()) return Status::InvalidRequest("Invalid null value for " + receiver);
    return SplitTuple(tuple, types, receiver);
  }

  static Result<std::vector<Value>> SplitTuple(const Value& tuple,
                                               const std::vector<DataType>& types,
                                               const std::string& receiver) {
    std::vector<std::optional<std::string>> components;
    CASSETTE_RETURN_IF_ERROR(DeserializeTuple(tuple.bytes(), &components));
    if (components.size() != types.size()) {
      return Status::InvalidRequest("Invalid tuple value for " + receiver);
    }
    std::vector<Value> values;
    for (size_t i = 0; i < types.size(); ++i) {
      values.push_back(components[i] ? Value::FromBytes(types[i], *components[i])
                                     : Value::Null(types[i]));
    }
    return values;
  }

  // DELETE: EQ/IN on a prefix, then at most one slice, nothing after it.
  Status CheckClusteringShape() const {
    const std::vector<ColumnDefinition>& columns = schema_.columns();
    const std::vector<size_t>& clustering = schema_.clustering();
    std::optional<size_t> slice_at;
    std::optional<size_t> gap_at;
    for (size_t i = 0; i < clustering_state_.size(); ++i) {
      const Restricted state = clustering_state_[i];
      if (state == Restricted::kNone) {
        if (!gap_at) gap_at = i;
        continue;
      }
      if (slice_at && (state != Restricted::kSlice || !SliceCovers(*slice_at, i))) {
        return Status::InvalidRequest("Clustering column \"" + columns[clustering[i]].name +
                                      "\" cannot be restricted (preceding column \"" +
                                      columns[clustering[*slice_at]].name +
                                      "\" is restricted by a non-EQ relation)");
      }
      if (gap_at) {
        return Status::InvalidRequest("PRIMARY KEY column \"" + columns[clustering[i]].name +
                                      "\" cannot be restricted as preceding column \"" +
                                      columns[clustering[*gap_at]].name + "\" is not restricted");
      }
      if (state == Restricted::kSlice && !slice_at) slice_at = i;
    }
    if (slices_.size() > 1) {
      return Status::InvalidRequest(
          "Clustering column \"" + columns[clustering[slices_[1].first]].name +
          "\" cannot be restricted (preceding column \"" +
          columns[clustering[slices_[0].first]].name + "\" is restricted by a non-EQ relation)");
    }
    return Status::OK();
  }

  // Whether the tuple slice starting at `first` also covers column `i`.
  bool SliceCovers(size_t first, size_t i) const {
    for (const Slice& s : slices_) {
      if (s.first != first) continue;
      size_t width = 0;
      if (s.start) width = std::max(width, s.start->size());
      if (s.end) width = std::max(width, s.end->size());
      return i < first + width;
    }
    return false;
  }

  // The values of a key tuple as one string (each length-prefixed); the
  // columns' types are fixed, so equal strings are equal tuples.
  static std::string TupleIdentity(const std::vector<Value>& tuple) {
    std::string identity;
    for (const Value& value : tuple) {
      identity += std::to_string(value.bytes().size());
      identity += ':';
      identity += value.bytes();
    }
    return identity;
  }

  // The cartesian product of the segments' tuples, de-duplicated in order.
  Status Expand(const std::vector<Segment>& segments, bool partition,
                std::vector<std::vector<Value>>* out, bool* has_in) const {
    // Sorted by pointer: the segments hold the bound values, and copying
    // them cost more than the rest of a prepared INSERT's planning.
    std::vector<const Segment*> ordered;
    ordered.reserve(segments.size());
    for (const Segment& segment : segments) ordered.push_back(&segment);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const Segment* a, const Segment* b) { return a->first < b->first; });
    std::vector<std::vector<Value>> product = {{}};
    *has_in = false;
    for (const Segment* segment_ptr : ordered) {
      const Segment& segment = *segment_ptr;
      *has_in = *has_in || segment.is_in;
      for (const std::vector<Value>& tuple : segment.tuples) {
        for (size_t i = 0; i < tuple.size(); ++i) {
          if (!tuple[i].is_null()) continue;
          const size_t index = segment.first + i;
          const ColumnDefinition& column =
              schema_.columns()[partition ? schema_.partition_key()[index]
                                          : schema_.clustering()[index]];
          return Status::InvalidRequest(
              std::string("Invalid null value for ") +
              (partition ? "partition key part " : "clustering key part ") + column.name);
        }
      }
      // Duplicates found through a hash set of their bytes: a linear
      // search made an IN list of n values cost n^2 comparisons.
      std::vector<std::vector<Value>> next;
      std::unordered_set<std::string> seen;
      for (const std::vector<Value>& head : product) {
        for (const std::vector<Value>& tuple : segment.tuples) {
          std::vector<Value> combined = head;
          combined.insert(combined.end(), tuple.begin(), tuple.end());
          if (seen.insert(TupleIdentity(combined)).second) next.push_back(std::move(combined));
        }
      }
      product = std::move(next);
    }
    *out = std::move(product);
    return Status::OK();
  }

  const TableSchema& schema_;
  WriteKind kind_;
  const ExecutionContext& context_;
  std::vector<Restricted> partition_state_;
  std::vector<Restricted> clustering_state_;
  std::vector<bool> partition_slices_;
  std::vector<Segment> partition_segments_;
  std::vector<Segment> clustering_segments_;
  std::vector<Slice> slices_;
  std::vector<std::string> non_key_;
};

}  // namespace

const char* WriteKindName(WriteKind kind) {
  switch (kind) {
    case WriteKind::kInsert:
      return "INSERT";
    case WriteKind::kUpdate:
      return "UPDATE";
    case WriteKind::kDelete:
      return "DELETE";
  }
  return "UPDATE";
}

Result<WriteTargets> ResolveWriteTargets(const TableSchema& schema, WriteKind kind,
                                         bool static_only, const std::vector<Relation>& where,
                                         const ExecutionContext& context) {
  RestrictionCollector collector(schema, kind, context);
  for (const Relation& relation : where) CASSETTE_RETURN_IF_ERROR(collector.Add(relation));
  return collector.Finish(static_only);
}

}  // namespace cassette::cql
