#include "engine/cql/mutation_builder.h"

#include <set>
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
        StatementRow row{plan.insert_marker && !plan.static_only ? m.Insert(row_clustering)
                                                                 : m.Update(row_clustering),
                         &m.mutable_rows().back().columns,
                         {}};
        CASSETTE_RETURN_IF_ERROR(ApplyWrites(plan, key, row_clustering, &row));
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
  StatementRow row{plan.insert_marker && !plan.static_only ? m.Insert(std::move(clustering))
                                                           : m.Update(std::move(clustering)),
                   &m.mutable_rows().back().columns,
                   {}};
  const std::vector<Value> none;  // no write here reads, so no key is needed
  for (ColumnWrite& write : plan.writes) {
    if (write.kind == ColumnWrite::Kind::kSet) {
      row.builder.Set(std::move(write.column), std::move(write.value));
      continue;
    }
    CASSETTE_RETURN_IF_ERROR(ApplyWrite(plan, write, none, none, &row));
  }
  out->push_back(std::move(m));
  return Status::OK();
}

void MutationBuilder::DropSupersededCounterWrites(std::vector<Mutation>* mutations) {
  std::set<std::string> written;  // the cells met so far, walking back from the last
  for (auto m = mutations->rbegin(); m != mutations->rend(); ++m) {
    std::string partition;
    AppendPart(&partition, m->keyspace());
    AppendPart(&partition, m->table());
    for (const Value& v : m->partition_key()) AppendPart(&partition, v.bytes());
    for (auto row = m->mutable_rows().rbegin(); row != m->mutable_rows().rend(); ++row) {
      std::string cell_row = partition + "|";
      for (const Value& v : row->clustering) AppendPart(&cell_row, v.bytes());
      cell_row.push_back('|');
      std::vector<ColumnOperation>& columns = row->columns;
      for (size_t i = columns.size(); i-- > 0;) {
        if (columns[i].op != CellOp::kCounterSet) continue;
        std::string cell = cell_row;
        AppendPart(&cell, columns[i].column);
        if (!written.insert(std::move(cell)).second) columns.erase(columns.begin() + i);
      }
    }
  }
}

Status MutationBuilder::ApplyWrites(const WritePlan& plan, const std::vector<Value>& key,
                                    const std::vector<Value>& clustering, StatementRow* row) {
  for (const ColumnWrite& write : plan.writes) {
    CASSETTE_RETURN_IF_ERROR(ApplyWrite(plan, write, key, clustering, row));
  }
  return Status::OK();
}

Status MutationBuilder::ApplyWrite(const WritePlan& plan, const ColumnWrite& write,
                                   const std::vector<Value>& key,
                                   const std::vector<Value>& clustering, StatementRow* statement) {
  RowBuilder& row = statement->builder;
  const size_t operations_before = statement->operations->size();
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
      return ApplyListElementWrite(plan, write, key, clustering, statement);
    case ColumnWrite::Kind::kCounterAdd:
      return ApplyCounterWrite(plan, write, key, clustering, row);
  }
  // A list an earlier operation of the statement read sees this one too.
  auto list = statement->lists.find(write.column);
  if (list != statement->lists.end()) {
    for (size_t i = operations_before; i < statement->operations->size(); ++i) {
      if ((*statement->operations)[i].column == write.column) {
        list->second.Replay(*statement->operations, i);
      }
    }
  }
  return Status::OK();
}

Status MutationBuilder::ApplyCounterWrite(const WritePlan& plan, const ColumnWrite& write,
                                          const std::vector<Value>& key,
                                          const std::vector<Value>& clustering, RowBuilder& row) {
  std::string cache_key;
  CASSETTE_ASSIGN_OR_RETURN(Value current, CurrentValue(plan, write, key, clustering, &cache_key));
  const int64_t old = current.is_null() ? 0 : current.AsInt64();
  // Wraps on overflow, as Cassandra's long counters do.
  const int64_t total =
      static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(write.delta));
  row.SetCounter(write.column, total);
  written_[cache_key] = Value::Counter(total);
  return Status::OK();
}

Result<StatementListView*> MutationBuilder::ListView(const WritePlan& plan,
                                                     const ColumnWrite& write,
                                                     const std::vector<Value>& key,
                                                     const std::vector<Value>& clustering,
                                                     StatementRow* row) {
  auto found = row->lists.find(write.column);
  if (found != row->lists.end()) return &found->second;
  ReadQuery query = CurrentRowQuery(plan, write, key, clustering);
  query.with_cell_metadata = true;
  CASSETTE_ASSIGN_OR_RETURN(ResultSet result, db_->Read(query));
  std::vector<Value> values;
  std::vector<ElementCell> cells;
  if (!result.rows.empty() && !result.rows[0].values.empty()) {
    values = result.rows[0].values[0].Elements();
    if (!result.rows[0].elements.empty()) cells = std::move(result.rows[0].elements[0]);
  }
  if (values.size() != cells.size()) {
    return Status::Corruption("list " + write.column + " read with " +
                              std::to_string(values.size()) + " values but " +
                              std::to_string(cells.size()) + " element cells");
  }
  StatementListView view(write.column, std::move(values), std::move(cells));
  // The statement's earlier operations on the list, which read nothing.
  const std::vector<ColumnOperation>& operations = *row->operations;
  for (size_t i = 0; i < operations.size(); ++i) {
    if (operations[i].column == write.column) view.Replay(operations, i);
  }
  return &row->lists.emplace(write.column, std::move(view)).first->second;
}

Status MutationBuilder::ApplyListElementWrite(const WritePlan& plan, const ColumnWrite& write,
                                              const std::vector<Value>& key,
                                              const std::vector<Value>& clustering,
                                              StatementRow* row) {
  // Each writes only the cells of the elements it changes: the others keep
  // their timestamps and TTLs.
  CASSETTE_ASSIGN_OR_RETURN(StatementListView * list, ListView(plan, write, key, clustering, row));
  std::vector<ColumnOperation>& operations = *row->operations;
  const DataType& element_type = write.type.params()[0];
  switch (write.kind) {
    case ColumnWrite::Kind::kListSetIndex:
    case ColumnWrite::Kind::kListDeleteIndex: {
      const bool set = write.kind == ColumnWrite::Kind::kListSetIndex;
      if (list->size() == 0) {
        return Status::InvalidRequest(set ? "Attempted to set an element on a list which is null"
                                          : "Attempted to delete an element from a list which is "
                                            "null");
      }
      if (write.index < 0 || static_cast<size_t>(write.index) >= list->size()) {
        return Status::InvalidRequest("List index " + std::to_string(write.index) +
                                      " out of bound, list has size " +
                                      std::to_string(list->size()));
      }
      const size_t index = static_cast<size_t>(write.index);
      // `l[i] = null` deletes the element, as Cassandra's setter by index does.
      if (set) {
        list->SetAt(index, write.value, row->builder, operations);
      } else {
        list->DeleteAt(index, row->builder, operations);
      }
      return Status::OK();
    }
    case ColumnWrite::Kind::kListRemoveValues:
      for (size_t i = list->size(); i-- > 0;) {
        for (const Value& gone : write.elements) {
          if (CompareValues(element_type, list->value(i).bytes(), gone.bytes()) == 0) {
            list->DeleteAt(i, row->builder, operations);
            break;
          }
        }
      }
      return Status::OK();
    default:
      return Status::InvalidRequest("Invalid operation for column " + write.column);
  }
}

ReadQuery MutationBuilder::CurrentRowQuery(const WritePlan& plan, const ColumnWrite& write,
                                           const std::vector<Value>& key,
                                           const std::vector<Value>& clustering) {
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
  return query;
}

Result<Value> MutationBuilder::CurrentValue(const WritePlan& plan, const ColumnWrite& write,
                                            const std::vector<Value>& key,
                                            const std::vector<Value>& clustering,
                                            std::string* cache_key) {
  *cache_key = CellKey(plan, write, key, clustering);
  auto it = written_.find(*cache_key);
  if (it != written_.end()) return it->second;
  CASSETTE_ASSIGN_OR_RETURN(ResultSet result,
                            db_->Read(CurrentRowQuery(plan, write, key, clustering)));
  if (result.rows.empty() || result.rows[0].values.empty()) return Value::Null(write.type);
  return result.rows[0].values[0];
}

}  // namespace cassette::cql
