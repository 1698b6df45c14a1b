#include "engine/cql/select_restrictions.h"

#include <algorithm>
#include <map>
#include <utility>

#include "engine/cql/select_restriction_builder.h"
#include "engine/cql/term_evaluator.h"
#include "engine/schema/key_codec.h"
#include "engine/types/type_codec.h"
#include "engine/util/murmur3.h"

namespace cassette::cql {

const char kFilteringMessage[] =
    "Cannot execute this query as it might involve data filtering and thus may have unpredictable "
    "performance. If you want to execute this query despite the performance unpredictability, use "
    "ALLOW FILTERING";

std::string QuoteColumnName(const std::string& name) {
  bool bare = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) bare = false;
  }
  if (bare) return name;
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

namespace select_detail {

std::string ColumnList(const TableSchema& schema, const std::vector<size_t>& indices) {
  std::string out;
  for (size_t i : indices) {
    if (!out.empty()) out += ", ";
    out += schema.columns()[i].name;
  }
  return out;
}

bool IsSliceOperator(Operator op) {
  return op == Operator::kLt || op == Operator::kLe || op == Operator::kGt || op == Operator::kGe;
}

size_t ClusteringPosition(const TableSchema& schema, size_t column) {
  const std::vector<size_t>& clustering = schema.clustering();
  return static_cast<size_t>(std::find(clustering.begin(), clustering.end(), column) -
                             clustering.begin());
}

Status NullValueError(const std::string& column) {
  return Status::InvalidRequest("Invalid null value in condition for column " + column);
}

namespace {

// Relation text for messages ("v LIKE 'a%'").
std::string TermText(const Term& term) {
  if (term.kind == Term::Kind::kConstant && term.literal == Term::Literal::kString) {
    return "'" + term.text + "'";
  }
  if (term.kind == Term::Kind::kBindMarker) return "?";
  return term.text;
}

}  // namespace

Result<const ColumnDefinition*> RestrictionBuilder::FindColumn(const std::string& name) const {
  const ColumnDefinition* column = schema_.Find(name);
  if (column == nullptr) {
    return Status::InvalidRequest("Undefined column name " + QuoteColumnName(name) + " in table " +
                                  schema_.keyspace() + "." + schema_.name());
  }
  return column;
}

Status RestrictionBuilder::NullValue(const ColumnDefinition& column, const std::string& message) {
  if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
    return NullValueError(column.name);
  }
  if (!null_filter_error_) null_filter_error_ = Status::InvalidRequest(message + column.name);
  return Status::OK();
}

Status RestrictionBuilder::AddRelation(const Relation& relation) {
  switch (relation.target) {
    case Relation::Target::kToken:
      return AddToken(relation);
    case Relation::Target::kTuple:
      return AddMultiColumn(relation);
    case Relation::Target::kColumn:
    case Relation::Target::kElement:
      return AddSingleColumn(relation);
  }
  return Status::OK();
}

Status RestrictionBuilder::AddToken(const Relation& relation) {
  std::vector<size_t> key = schema_.partition_key();
  std::vector<std::string> names;
  for (const std::string& name : relation.columns) {
    CASSETTE_ASSIGN_OR_RETURN(const ColumnDefinition* column, FindColumn(name));
    names.push_back(column->name);
  }
  bool in_order = names.size() == key.size();
  for (size_t i = 0; in_order && i < key.size(); ++i) {
    in_order = names[i] == schema_.columns()[key[i]].name;
  }
  if (!in_order) {
    return Status::InvalidRequest(
        "The token function arguments must be in the partition key order: " +
        ColumnList(schema_, key));
  }
  for (size_t index : key) {
    if (by_column_.count(index) != 0) {
      return Status::InvalidRequest("Columns \"" + ColumnList(schema_, key) +
                                    "\" cannot be restricted by both a normal relation and a token "
                                    "relation");
    }
  }
  if (relation.op != Operator::kEq && !IsSliceOperator(relation.op)) {
    return Status::InvalidRequest(
        "Only EQ and IN relation are supported on the partition key "
        "(unless you use the token() function)");
  }
  if (!relation.value) return Status::InvalidRequest("token relation without a value");
  CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTokenValue(*relation.value));
  if (value.is_null()) return NullValueError("partition key token");
  const std::string columns = ColumnList(schema_, key);
  auto set_bound = [&](std::optional<SliceBound>* bound, bool inclusive,
                       const char* which) -> Status {
    if (bound->has_value()) {
      return Status::InvalidRequest(std::string("More than one restriction was found for the ") +
                                    which + " bound on " + columns);
    }
    *bound = SliceBound{{value}, inclusive};
    return Status::OK();
  };
  if (relation.op == Operator::kEq) {
    if (token_start_ || token_end_) {
      return Status::InvalidRequest(columns +
                                    " cannot be restricted by more than one relation if it "
                                    "includes an Equal");
    }
    token_start_ = SliceBound{{value}, true};
    token_end_ = SliceBound{{value}, true};
  } else if (relation.op == Operator::kGt || relation.op == Operator::kGe) {
    CASSETTE_RETURN_IF_ERROR(set_bound(&token_start_, relation.op == Operator::kGe, "start"));
  } else {
    CASSETTE_RETURN_IF_ERROR(set_bound(&token_end_, relation.op == Operator::kLe, "end"));
  }
  has_token_ = true;
  return Status::OK();
}

Result<Value> RestrictionBuilder::EvaluateTokenValue(const Term& term) const {
  const std::vector<size_t>& key = schema_.partition_key();
  if (term.kind != Term::Kind::kFunction || (term.text != "token" && term.text != "system.token")) {
    return EvaluateTerm(term, DataType::Bigint(), "partition key token", context_);
  }
  if (term.elements.size() != key.size()) {
    return Status::InvalidRequest(
        "Invalid number of arguments in call to function token: " + std::to_string(key.size()) +
        " required but " + std::to_string(term.elements.size()) + " provided");
  }
  std::vector<Value> values;
  for (size_t i = 0; i < key.size(); ++i) {
    const ColumnDefinition& column = schema_.columns()[key[i]];
    CASSETTE_ASSIGN_OR_RETURN(Value value,
                              EvaluateTerm(term.elements[i], column.type, column.name, context_));
    if (value.is_null()) return NullValueError(column.name);
    values.push_back(std::move(value));
  }
  CASSETTE_ASSIGN_OR_RETURN(std::string serialized, EncodePartitionKeyValues(schema_, values));
  return Value::Bigint(Murmur3Token(serialized));
}

Status RestrictionBuilder::AddSingleColumn(const Relation& relation) {
  if (relation.columns.empty()) return Status::InvalidRequest("relation without a column");
  CASSETTE_ASSIGN_OR_RETURN(const ColumnDefinition* column, FindColumn(relation.columns[0]));
  const std::string& name = column->name;
  const std::string value_text = relation.value ? TermText(*relation.value) : "";
  switch (relation.op) {
    case Operator::kNeq:
      return Status::InvalidRequest("Unsupported \"!=\" relation: " + name + " != " + value_text);
    case Operator::kIsNotNull:
      return Status::InvalidRequest("Unsupported restriction: " + name + " IS NOT NULL");
    case Operator::kLike:
      return Status::InvalidRequest(
          "LIKE restriction is only supported on properly indexed columns. " + name + " LIKE " +
          value_text + " is not valid.");
    default:
      break;
  }
  MergedRestriction added;
  added.columns = {IndexOf(column)};
  const DataType& type = column->type;

  if (relation.target == Relation::Target::kElement) {
    if (relation.op != Operator::kEq) {
      return Status::InvalidRequest("Only EQ relations are supported on map entries");
    }
    if (type.kind() != TypeKind::kMap) {
      return Status::InvalidRequest("Column " + name + " cannot be used as a map");
    }
    if (type.frozen()) {
      return Status::InvalidRequest("Map-entry equality predicates on frozen map column " + name +
                                    " are not supported");
    }
    if (!relation.element_key || !relation.value) {
      return Status::InvalidRequest("map entry relation without a key or value");
    }
    CASSETTE_ASSIGN_OR_RETURN(Value key, EvaluateTerm(*relation.element_key, type.params()[0],
                                                      "key(" + name + ")", context_));
    CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTerm(*relation.value, type.params()[1],
                                                        "value(" + name + ")", context_));
    if (key.is_null()) {
      CASSETTE_RETURN_IF_ERROR(NullValue(*column, "Unsupported null map key for column "));
    } else if (value.is_null()) {
      CASSETTE_RETURN_IF_ERROR(NullValue(*column, "Unsupported null map value for column "));
    }
    added.element_eqs.emplace_back(std::move(key), std::move(value));
  } else if (relation.op == Operator::kContains || relation.op == Operator::kContainsKey) {
    const bool key = relation.op == Operator::kContainsKey;
    if (!type.IsCollection()) {
      return Status::InvalidRequest(std::string("Cannot use ") +
                                    (key ? "CONTAINS KEY" : "CONTAINS") +
                                    " on non-collection column " + name);
    }
    if (key && type.kind() != TypeKind::kMap) {
      return Status::InvalidRequest("Cannot use CONTAINS KEY on non-map column " + name);
    }
    const DataType& element =
        type.kind() == TypeKind::kMap && !key ? type.params()[1] : type.params()[0];
    if (!relation.value) return Status::InvalidRequest("relation without a value");
    CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTerm(*relation.value, element, name, context_));
    if (value.is_null()) {
      CASSETTE_RETURN_IF_ERROR(NullValue(*column, "Unsupported null value for column "));
    }
    (key ? added.contains_keys : added.contains).push_back(std::move(value));
  } else if (relation.op == Operator::kIn) {
    CASSETTE_ASSIGN_OR_RETURN(std::vector<Value> values,
                              EvaluateInValues(relation, type, name, context_));
    added.in = true;
    for (Value& value : values) {
      if (value.is_null()) return NullValueError(name);
      added.values.push_back({std::move(value)});
    }
    if (added.values.empty()) nothing_matches_ = true;
  } else {
    if (!relation.value) return Status::InvalidRequest("relation without a value");
    CASSETTE_ASSIGN_OR_RETURN(Value value, EvaluateTerm(*relation.value, type, name, context_));
    if (value.is_null()) {
      CASSETTE_RETURN_IF_ERROR(NullValue(*column, "Unsupported null value for column "));
    }
    if (relation.op == Operator::kEq) {
      added.eq = true;
      added.values.push_back({std::move(value)});
    } else if (relation.op == Operator::kGt || relation.op == Operator::kGe) {
      added.start = SliceBound{{std::move(value)}, relation.op == Operator::kGe};
    } else {
      added.end = SliceBound{{std::move(value)}, relation.op == Operator::kLe};
    }
  }

  if (column->kind == ColumnKind::kPartitionKey && has_token_) {
    return Status::InvalidRequest("Columns \"" + ColumnList(schema_, schema_.partition_key()) +
                                  "\" cannot be restricted by both a normal relation and a token "
                                  "relation");
  }
  if (column->kind == ColumnKind::kClustering) return AddClusteringRestriction(std::move(added));
  auto existing = by_column_.find(added.columns[0]);
  if (existing != by_column_.end()) return Merge(existing->second.get(), added);
  const size_t index = added.columns[0];
  by_column_[index] = std::make_shared<MergedRestriction>(std::move(added));
  return Status::OK();
}

int CompareTuples(const TableSchema& schema, const std::vector<size_t>& columns,
                  const std::vector<Value>& a, const std::vector<Value>& b, bool storage_order) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const ColumnDefinition& column = schema.columns()[columns[i]];
    int c = CompareValues(column.type, a[i].bytes(), b[i].bytes());
    if (storage_order && column.order == ClusteringOrder::kDesc) c = -c;
    if (c != 0) return c;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Sorted (by `columns`' types, storage order when asked) and de-duplicated.
void SortUnique(const TableSchema& schema, const std::vector<size_t>& columns, bool storage_order,
                std::vector<std::vector<Value>>* tuples) {
  std::stable_sort(tuples->begin(), tuples->end(), [&](const auto& a, const auto& b) {
    return CompareTuples(schema, columns, a, b, storage_order) < 0;
  });
  tuples->erase(std::unique(tuples->begin(), tuples->end(),
                            [&](const auto& a, const auto& b) {
                              return CompareTuples(schema, columns, a, b, storage_order) == 0;
                            }),
                tuples->end());
}

std::vector<std::vector<Value>> Product(const std::vector<std::vector<Value>>& prefixes,
                                        const std::vector<std::vector<Value>>& suffixes) {
  std::vector<std::vector<Value>> out;
  for (const auto& prefix : prefixes) {
    for (const auto& suffix : suffixes) {
      std::vector<Value> combined = prefix;
      combined.insert(combined.end(), suffix.begin(), suffix.end());
      out.push_back(std::move(combined));
    }
  }
  return out;
}

void RestrictionBuilder::AddFilters(const MergedRestriction& r, SelectRestrictions* out) const {
  auto add = [&](std::vector<size_t> columns, Operator op, std::vector<std::vector<Value>> values) {
    RowFilter filter;
    filter.columns = std::move(columns);
    filter.op = op;
    filter.values = std::move(values);
    out->filters.push_back(std::move(filter));
  };
  if (r.eq) add(r.columns, Operator::kEq, r.values);
  if (r.in) add(r.columns, Operator::kIn, r.values);
  auto bound_columns = [&](const SliceBound& bound) {
    return std::vector<size_t>(
        r.columns.begin(), r.columns.begin() + static_cast<std::ptrdiff_t>(bound.values.size()));
  };
  if (r.start) {
    add(bound_columns(*r.start), r.start->inclusive ? Operator::kGe : Operator::kGt,
        {r.start->values});
  }
  if (r.end) {
    add(bound_columns(*r.end), r.end->inclusive ? Operator::kLe : Operator::kLt, {r.end->values});
  }
  for (const Value& v : r.contains) add(r.columns, Operator::kContains, {{v}});
  for (const Value& v : r.contains_keys) add(r.columns, Operator::kContainsKey, {{v}});
  for (const auto& [key, value] : r.element_eqs) {
    add(r.columns, Operator::kEq, {{value}});
    out->filters.back().element_key = key;
  }
}

Status RestrictionBuilder::ProcessPartitionKey(SelectRestrictions* out) {
  const std::vector<size_t>& key = schema_.partition_key();
  if (has_token_) {
    out->partition_mode = SelectRestrictions::PartitionMode::kTokenRange;
    if (token_start_) {
      out->token_range.start = token_start_->values[0].AsInt64();
      out->token_range.start_inclusive = token_start_->inclusive;
    }
    if (token_end_) {
      out->token_range.end = token_end_->values[0].AsInt64();
      out->token_range.end_inclusive = token_end_->inclusive;
    }
    return Status::OK();
  }
  bool all_eq_or_in = true;
  bool any_restricted = false;
  for (size_t index : key) {
    auto it = by_column_.find(index);
    if (it == by_column_.end()) {
      all_eq_or_in = false;
      continue;
    }
    any_restricted = true;
    if (!it->second->IsEqOrIn()) all_eq_or_in = false;
  }
  if (all_eq_or_in) {
    out->partition_mode = SelectRestrictions::PartitionMode::kKeys;
    std::vector<std::vector<Value>> keys{{}};
    for (size_t index : key) {
      const MergedRestriction& r = *by_column_.at(index);
      if (r.eq) out->eq_columns.insert(index);
      if (r.in) out->key_is_in = true;
      keys = Product(keys, r.values);
    }
    SortUnique(schema_, key, /*storage_order=*/false, &keys);
    out->partition_keys = std::move(keys);
    return Status::OK();
  }
  if (any_restricted) {
    if (!allow_filtering_) return Status::InvalidRequest(kFilteringMessage);
    for (size_t index : key) {
      auto it = by_column_.find(index);
      if (it != by_column_.end()) AddFilters(*it->second, out);
    }
  }
  out->partition_mode = SelectRestrictions::PartitionMode::kScan;
  return Status::OK();
}

bool SameDirection(const TableSchema& schema, const std::vector<size_t>& columns) {
  for (size_t column : columns) {
    if (schema.columns()[column].order != schema.columns()[columns[0]].order) return false;
  }
  return true;
}

Status RestrictionBuilder::ProcessClustering(SelectRestrictions* out) {
  const std::vector<size_t>& clustering = schema_.clustering();
  std::vector<std::vector<Value>> prefixes{{}};
  size_t position = 0;
  std::vector<const MergedRestriction*> pushed;
  // A tuple slice over columns of mixed directions is one range in CQL
  // order but not in storage order: it is checked row by row.
  const MergedRestriction* mixed_slice = nullptr;
  bool stopped_at_gap = false;
  while (position < clustering.size()) {
    auto it = by_column_.find(clustering[position]);
    if (it == by_column_.end()) {
      stopped_at_gap = true;
      break;
    }
    const MergedRestriction& r = *it->second;
    if (r.IsEqOrIn()) {
      prefixes = Product(prefixes, r.values);
      pushed.push_back(&r);
      if (r.eq && r.values.size() == 1) {
        for (size_t column : r.columns) out->eq_columns.insert(column);
      }
      position += r.columns.size();
      continue;
    }
    if (r.IsSlice() && (r.columns.size() == 1 || SameDirection(schema_, r.columns))) {
      if (r.start) out->slice_start = ClusteringBound{r.start->values, r.start->inclusive};
      if (r.end) out->slice_end = ClusteringBound{r.end->values, r.end->inclusive};
      pushed.push_back(&r);
    } else if (r.IsSlice()) {
      mixed_slice = &r;
      AddFilters(r, out);
    }
    break;
  }
  // Restrictions the engine cannot apply: refused without ALLOW FILTERING.
  std::vector<const MergedRestriction*> rest;
  for (const auto& [column, restriction] : by_column_) {
    if (schema_.columns()[column].kind != ColumnKind::kClustering) continue;
    if (restriction->columns[0] != column) continue;  // a multi-column one, seen once
    if (restriction.get() == mixed_slice) continue;
    if (std::find(pushed.begin(), pushed.end(), restriction.get()) == pushed.end()) {
      rest.push_back(restriction.get());
    }
  }
  if (!rest.empty() && !allow_filtering_) {
    if (stopped_at_gap) {
      size_t first_restricted = clustering.size();
      for (const MergedRestriction* r : rest) {
        first_restricted = std::min(first_restricted, ClusteringPosition(schema_, r->columns[0]));
      }
      return Status::InvalidRequest(
          "PRIMARY KEY column \"" + schema_.columns()[clustering[first_restricted]].name +
          "\" cannot be restricted as preceding column \"" +
          schema_.columns()[clustering[position]].name + "\" is not restricted");
    }
    for (const MergedRestriction* r : rest) {
      if (!r->contains.empty() || !r->contains_keys.empty() || !r->element_eqs.empty()) {
        return Status::InvalidRequest(
            "Clustering columns can only be restricted with CONTAINS with a secondary index or "
            "filtering");
      }
    }
    return Status::InvalidRequest(kFilteringMessage);
  }
  for (const MergedRestriction* r : rest) AddFilters(*r, out);

  if (out->IsKeyRange() && (prefixes.size() > 1 || !rest.empty())) {
    // A scan reads one clustering range per partition: filter instead.
    for (const MergedRestriction* r : pushed) AddFilters(*r, out);
    prefixes = {{}};
    out->slice_start.reset();
    out->slice_end.reset();
  } else {
    SortUnique(schema_, clustering, /*storage_order=*/true, &prefixes);
  }
  out->clustering_prefixes = std::move(prefixes);
  return Status::OK();
}

Result<SelectRestrictions> RestrictionBuilder::Build(const std::vector<Relation>& where,
                                                     bool selects_only_statics) {
  for (const Relation& relation : where) CASSETTE_RETURN_IF_ERROR(AddRelation(relation));
  SelectRestrictions out;
  CASSETTE_RETURN_IF_ERROR(ProcessPartitionKey(&out));
  for (const auto& [column, restriction] : by_column_) {
    switch (schema_.columns()[column].kind) {
      case ColumnKind::kClustering:
        out.has_clustering_restrictions = true;
        break;
      case ColumnKind::kRegular:
        out.has_regular_restrictions = true;
        break;
      case ColumnKind::kStatic:
        out.has_static_restrictions = true;
        break;
      case ColumnKind::kPartitionKey:
        break;
    }
  }
  if (selects_only_statics && out.has_clustering_restrictions) {
    return Status::InvalidRequest(
        "Cannot restrict clustering columns when selecting only static columns");
  }
  CASSETTE_RETURN_IF_ERROR(ProcessClustering(&out));
  if (out.has_regular_restrictions || out.has_static_restrictions) {
    if (!allow_filtering_) return Status::InvalidRequest(kFilteringMessage);
    if (null_filter_error_) return *null_filter_error_;
    for (const auto& [column, restriction] : by_column_) {
      ColumnKind kind = schema_.columns()[column].kind;
      if (kind == ColumnKind::kRegular || kind == ColumnKind::kStatic) {
        AddFilters(*restriction, &out);
        if (restriction->eq) out.eq_columns.insert(column);
      }
    }
  }
  out.nothing_matches = nothing_matches_;
  return out;
}

// The element of a collection value selected by `key` (map key or list index).
std::optional<Value> ElementOf(const Value& collection, const Value& key) {
  const DataType& type = collection.type();
  std::vector<Value> elements = collection.Elements();
  if (type.kind() == TypeKind::kMap) {
    for (size_t i = 0; i + 1 < elements.size(); i += 2) {
      if (CompareValues(type.params()[0], elements[i].bytes(), key.bytes()) == 0) {
        return elements[i + 1];
      }
    }
    return std::nullopt;
  }
  if (type.kind() == TypeKind::kList && !key.is_null()) {
    int64_t index = key.AsInt64();
    if (index >= 0 && static_cast<size_t>(index) < elements.size()) {
      return elements[static_cast<size_t>(index)];
    }
  }
  return std::nullopt;
}

}  // namespace select_detail

using select_detail::CompareTuples;
using select_detail::ElementOf;
using select_detail::RestrictionBuilder;

Result<SelectRestrictions> AnalyzeRestrictions(const TableSchema& schema,
                                               const std::vector<Relation>& where,
                                               bool allow_filtering, bool selects_only_statics,
                                               const ExecutionContext& context) {
  RestrictionBuilder builder(schema, allow_filtering, context);
  return builder.Build(where, selects_only_statics);
}

bool RowPassesFilter(const TableSchema& schema, const RowFilter& filter,
                     const std::vector<const Value*>& row_values) {
  for (const Value* value : row_values) {
    if (value == nullptr || value->is_null()) return false;
  }
  if (filter.op == Operator::kContains || filter.op == Operator::kContainsKey) {
    const Value& collection = *row_values[0];
    const DataType& type = collection.type();
    std::vector<Value> elements = collection.Elements();
    const bool map = type.kind() == TypeKind::kMap;
    const Value& wanted = filter.values[0][0];
    for (size_t i = 0; i < elements.size(); ++i) {
      if (map && (i % 2 == 0) != (filter.op == Operator::kContainsKey)) continue;
      const DataType& element_type =
          map ? type.params()[filter.op == Operator::kContainsKey ? 0 : 1] : type.params()[0];
      if (CompareValues(element_type, elements[i].bytes(), wanted.bytes()) == 0) return true;
    }
    return false;
  }
  std::vector<Value> actual;
  std::vector<size_t> columns = filter.columns;
  if (filter.element_key) {
    std::optional<Value> element = ElementOf(*row_values[0], *filter.element_key);
    if (!element || element->is_null()) return false;
    actual.push_back(*element);
    // Compare with the element type, not the collection's.
    const DataType& type = row_values[0]->type();
    const DataType& element_type =
        type.kind() == TypeKind::kMap ? type.params()[1] : type.params()[0];
    return CompareValues(element_type, actual[0].bytes(), filter.values[0][0].bytes()) == 0;
  }
  for (const Value* value : row_values) actual.push_back(*value);
  auto compare = [&](const std::vector<Value>& wanted) {
    return CompareTuples(schema, columns, actual, wanted, /*storage_order=*/false);
  };
  switch (filter.op) {
    case Operator::kEq:
      return compare(filter.values[0]) == 0;
    case Operator::kIn:
      for (const auto& candidate : filter.values) {
        if (compare(candidate) == 0) return true;
      }
      return false;
    case Operator::kLt:
      return compare(filter.values[0]) < 0;
    case Operator::kLe:
      return compare(filter.values[0]) <= 0;
    case Operator::kGt:
      return compare(filter.values[0]) > 0;
    case Operator::kGe:
      return compare(filter.values[0]) >= 0;
    default:
      return false;
  }
}

}  // namespace cassette::cql
