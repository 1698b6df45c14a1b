#include "engine/cql/mutation_builder.h"

#include <utility>

#include "engine/types/type_codec.h"

namespace cassette::cql {

namespace {

// Appends `s` so that distinct sequences of parts give distinct keys.
void AppendPart(std::string* key, const std::string& s) {
  key->append(std::to_string(s.size()));
  key->push_back(':');
  key->append(s);
}

std::string CellKey(const WritePlan& plan, const ColumnWrite& write, const std::vector<Value>& key,
                    const std::vector<Value>& clustering) {
  std::string out;
  AppendPart(&out, plan.schema().keyspace());
  AppendPart(&out, plan.schema().name());
  for (const Value& v : key) AppendPart(&out, v.bytes());
  out.push_back('|');
  if (!write.is_static) {
    for (const Value& v : clustering) AppendPart(&out, v.bytes());
  }
  out.push_back('|');
  AppendPart(&out, write.column);
  return out;
}

ClusteringBound Bound(const std::vector<Value>& prefix,
                      const std::optional<std::vector<Value>>& values, bool inclusive) {
  ClusteringBound bound;
  bound.prefix = prefix;
  if (!values) return bound;  // unbounded past the prefix
  bound.prefix.insert(bound.prefix.end(), values->begin(), values->end());
  bound.inclusive = inclusive;
  return bound;
}

void ReplaceList(RowBuilder& row, const ColumnWrite& write, const std::vector<Value>& elements) {
  if (elements.empty()) {
    row.SetNull(write.column);
  } else {
    row.ReplaceCollection(write.column, elements);
  }
}

}  // namespace

Status MutationBuilder::Build(const WritePlan& plan, std::vector<Mutation>* out) {
  const WriteTargets& targets = plan.targets;
  const size_t clustering_count = plan.schema().clustering().size();
  // An empty IN selects nothing: nothing to write.
  if (targets.clustering_prefixes.empty()) return Status::OK();
  for (const std::vector<Value>& key : targets.partition_keys) {
    Mutation m(plan.schema().keyspace(), plan.schema().name(), key);
    if (plan.timestamp) m.UsingTimestamp(*plan.timestamp);
    if (plan.ttl) m.UsingTtl(*plan.ttl);
    if (plan.kind == WriteKind::kDelete && plan.writes.empty()) {
      for (const std::vector<Value>& prefix : targets.clustering_prefixes) {
        if (!targets.HasClusteringRestrictions()) {
          m.DeletePartition();
        } else if (targets.has_slice) {
          m.DeleteRange(Bound(prefix, targets.slice_start, targets.slice_start_inclusive),
                        Bound(prefix, targets.slice_end, targets.slice_end_inclusive));
        } else if (prefix.size() == clustering_count) {
          m.DeleteRow(prefix);
        } else {
          m.DeleteRange({prefix, true}, {prefix, true});
        }
      }
    } else {
      for (const std::vector<Value>& clustering : targets.clustering_prefixes) {
        const std::vector<Value> row_clustering =
            plan.static_only ? std::vector<Value>{} : clustering;
        RowBuilder row = plan.insert_marker && !plan.static_only ? m.Insert(row_clustering)
                                                                 : m.Update(row_clustering);
        CASSETTE_RETURN_IF_ERROR(ApplyWrites(plan, key, row_clustering, row));
      }
    }
    out->push_back(std::move(m));
  }
  return Status::OK();
}

Status MutationBuilder::Build(WritePlan&& plan, std::vector<Mutation>* out) {
  WriteTargets& targets = plan.targets;
  if (plan.kind == WriteKind::kDelete || plan.NeedsRead() || targets.partition_keys.size() != 1 ||
      targets.clustering_prefixes.size() != 1) {
    return Build(static_cast<const WritePlan&>(plan), out);
  }
  Mutation m(plan.schema().keyspace(), plan.schema().name(), std::move(targets.partition_keys[0]));
  if (plan.timestamp) m.UsingTimestamp(*plan.timestamp);
  if (plan.ttl) m.UsingTtl(*plan.ttl);
  std::vector<Value> clustering;
  if (!plan.static_only) clustering = std::move(targets.clustering_prefixes[0]);
  RowBuilder row = plan.insert_marker && !plan.static_only ? m.Insert(std::move(clustering))
                                                           : m.Update(std::move(clustering));
  const std::vector<Value> none;  // no write here reads, so no key is needed
  for (ColumnWrite& write : plan.writes) {
    if (write.kind == ColumnWrite::Kind::kSet) {
      row.Set(std::move(write.column), std::move(write.value));
      continue;
    }
    CASSETTE_RETURN_IF_ERROR(ApplyWrite(plan, write, none, none, row));
  }
  out->push_back(std::move(m));
  return Status::OK();
}

Status MutationBuilder::ApplyWrites(const WritePlan& plan, const std::vector<Value>& key,
                                    const std::vector<Value>& clustering, RowBuilder row) {
  for (const ColumnWrite& write : plan.writes) {
    CASSETTE_RETURN_IF_ERROR(ApplyWrite(plan, write, key, clustering, row));
  }
  return Status::OK();
}

Status MutationBuilder::ApplyWrite(const WritePlan& plan, const ColumnWrite& write,
                                   const std::vector<Value>& key,
                                   const std::vector<Value>& clustering, RowBuilder& row) {
  switch (write.kind) {
    case ColumnWrite::Kind::kSet:
      row.Set(write.column, write.value);
      break;
    case ColumnWrite::Kind::kDelete:
      row.SetNull(write.column);
      break;
    case ColumnWrite::Kind::kReplaceCollection:
      row.ReplaceCollection(write.column, write.elements);
      break;
    case ColumnWrite::Kind::kAdd:
      if (!write.elements.empty()) row.Add(write.column, write.elements);
      break;
    case ColumnWrite::Kind::kPrepend:
      if (!write.elements.empty()) row.Prepend(write.column, write.elements);
      break;
    case ColumnWrite::Kind::kRemove:
      if (!write.elements.empty()) row.Remove(write.column, write.elements);
      break;
    case ColumnWrite::Kind::kMapPut:
      row.MapPut(write.column, write.key, write.value);
      break;
    case ColumnWrite::Kind::kListSetIndex:
    case ColumnWrite::Kind::kListDeleteIndex:
    case ColumnWrite::Kind::kListRemoveValues:
    case ColumnWrite::Kind::kCounterAdd:
      CASSETTE_RETURN_IF_ERROR(ApplyReadWrite(plan, write, key, clustering, row));
      break;
  }
  return Status::OK();
}

Status MutationBuilder::ApplyReadWrite(const WritePlan& plan, const ColumnWrite& write,
                                       const std::vector<Value>& key,
                                       const std::vector<Value>& clustering, RowBuilder& row) {
  std::string cache_key;
  CASSETTE_ASSIGN_OR_RETURN(Value current, CurrentValue(plan, write, key, clustering, &cache_key));
  if (write.kind == ColumnWrite::Kind::kCounterAdd) {
    const int64_t old = current.is_null() ? 0 : current.AsInt64();
    // Wraps on overflow, as Cassandra's long counters do.
    const int64_t total =
        static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(write.delta));
    row.SetCounter(write.column, total);
    written_[cache_key] = Value::Counter(total);
    return Status::OK();
  }
  const DataType& element_type = write.type.params()[0];
  std::vector<Value> elements = current.Elements();
  switch (write.kind) {
    case ColumnWrite::Kind::kListSetIndex:
    case ColumnWrite::Kind::kListDeleteIndex: {
      const bool set = write.kind == ColumnWrite::Kind::kListSetIndex;
      if (current.is_null() || elements.empty()) {
        return Status::InvalidRequest(set ? "Attempted to set an element on a list which is null"
                                          : "Attempted to delete an element from a list which is "
                                            "null");
      }
      if (write.index < 0 || static_cast<size_t>(write.index) >= elements.size()) {
        return Status::InvalidRequest("List index " + std::to_string(write.index) +
                                      " out of bound, list has size " +
                                      std::to_string(elements.size()));
      }
      if (set && !write.value.is_null()) {
        elements[static_cast<size_t>(write.index)] = write.value;
      } else {
        elements.erase(elements.begin() + write.index);
      }
      break;
    }
    case ColumnWrite::Kind::kListRemoveValues: {
      if (elements.empty() || write.elements.empty()) return Status::OK();
      std::vector<Value> kept;
      for (Value& element : elements) {
        bool remove = false;
        for (const Value& gone : write.elements) {
          if (CompareValues(element_type, element.bytes(), gone.bytes()) == 0) remove = true;
        }
        if (!remove) kept.push_back(std::move(element));
      }
      elements = std::move(kept);
      break;
    }
    default:
      return Status::OK();
  }
  ReplaceList(row, write, elements);
  written_[cache_key] =
      elements.empty() ? Value::Null(write.type) : Value::List(element_type, elements);
  return Status::OK();
}

Result<Value> MutationBuilder::CurrentValue(const WritePlan& plan, const ColumnWrite& write,
                                            const std::vector<Value>& key,
                                            const std::vector<Value>& clustering,
                                            std::string* cache_key) {
  *cache_key = CellKey(plan, write, key, clustering);
  auto it = written_.find(*cache_key);
  if (it != written_.end()) return it->second;
  ReadQuery query;
  query.keyspace = plan.schema().keyspace();
  query.table = plan.schema().name();
  query.partition_keys = {key};
  query.columns = {write.column};
  if (write.is_static) {
    query.distinct = true;
  } else {
    query.clustering_prefix = clustering;
  }
  CASSETTE_ASSIGN_OR_RETURN(ResultSet result, db_->Read(query));
  if (result.rows.empty() || result.rows[0].values.empty()) return Value::Null(write.type);
  return result.rows[0].values[0];
}

}  // namespace cassette::cql
