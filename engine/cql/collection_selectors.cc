#include "engine/cql/collection_selectors.h"

#include <utility>
#include <vector>

#include "engine/cql/select_restrictions.h"
#include "engine/cql/term_evaluator.h"
#include "engine/types/cell_path.h"
#include "engine/types/type_codec.h"

namespace cassette::cql {
namespace {

// Which entries of a set or map (by key) a selector takes: one key, or
// the keys between two bounds (inclusive; an absent bound is open).
struct KeyRange {
  DataType key_type;
  std::optional<Value> key;  // element selection
  std::optional<Value> from, to;

  bool Contains(const Value& candidate) const {
    if (key) return CompareValues(key_type, candidate.bytes(), key->bytes()) == 0;
    if (from && CompareValues(key_type, candidate.bytes(), from->bytes()) < 0) return false;
    if (to && CompareValues(key_type, candidate.bytes(), to->bytes()) > 0) return false;
    return true;
  }
  bool IsSlice() const { return !key.has_value(); }
};

// The positions (in entries) of a set's or map's entries that `range`
// takes; `elements` as Value::Elements gives them (a map's keys and
// values alternating).
std::vector<size_t> Matching(const DataType& collection_type, const std::vector<Value>& elements,
                             const KeyRange& range) {
  const size_t step = collection_type.kind() == TypeKind::kMap ? 2 : 1;
  std::vector<size_t> entries;
  for (size_t i = 0; i < elements.size(); i += step) {
    if (range.Contains(elements[i])) entries.push_back(i / step);
  }
  return entries;
}

// An element or slice of the collection its one argument outputs.
class CollectionPartNode : public SelectorNode {
 public:
  CollectionPartNode(DataType type, SelectorNodePtr collection, KeyRange range)
      : SelectorNode(std::move(type)),
        collection_(std::move(collection)),
        range_(std::move(range)) {}
  bool IsAggregate() const override { return collection_->IsAggregate(); }
  void Reset() override { collection_->Reset(); }
  Status AddInput(const ResultRow& row) override { return collection_->AddInput(row); }
  Result<Value> Output() override {
    CASSETTE_ASSIGN_OR_RETURN(Value collection, collection_->Output());
    if (collection.is_null()) return Value::Null(type());
    const DataType& collection_type = collection.type();
    const bool map = collection_type.kind() == TypeKind::kMap;
    const std::vector<Value> elements = collection.Elements();
    const std::vector<size_t> entries = Matching(collection_type, elements, range_);
    if (!range_.IsSlice()) {
      if (entries.empty()) return Value::Null(type());
      return map ? elements[entries[0] * 2 + 1] : elements[entries[0]];
    }
    // Nothing in the range: null for a non-frozen collection (which is
    // never empty, only absent), the empty collection for a frozen one, as
    // Cassandra's slices give them.
    if (entries.empty() && type().IsMultiCell()) return Value::Null(type());
    // Kept in the collection's own type (frozen or not).
    if (map) {
      std::vector<std::pair<Value, Value>> kept;
      for (size_t entry : entries) kept.emplace_back(elements[entry * 2], elements[entry * 2 + 1]);
      return Value::FromBytes(
          type(),
          Value::Map(collection_type.params()[0], collection_type.params()[1], kept).bytes());
    }
    std::vector<Value> kept;
    for (size_t entry : entries) kept.push_back(elements[entry]);
    return Value::FromBytes(type(), Value::Set(collection_type.params()[0], kept).bytes());
  }

 private:
  SelectorNodePtr collection_;
  KeyRange range_;
};

// WRITETIME / TTL / MAXWRITETIME of a column or of a part of one, from
// the first row of a group (as every non-aggregate selector).
class CellMetadataNode : public SelectorNode {
 public:
  enum class Function { kWritetime, kMaxWritetime, kTtl };
  // A part of the column: the entries of `range`, or the user type field
  // at position `field`.
  CellMetadataNode(DataType type, Function function, size_t slot, bool per_element,
                   std::optional<KeyRange> range, std::optional<size_t> field)
      : SelectorNode(std::move(type)),
        function_(function),
        slot_(slot),
        per_element_(per_element),
        range_(std::move(range)),
        field_(field) {}

  void Reset() override { value_.reset(); }
  Status AddInput(const ResultRow& row) override {
    if (!value_) value_ = Compute(row);
    return Status::OK();
  }
  Result<Value> Output() override { return value_ ? *value_ : Value::Null(type()); }

 private:
  Value Compute(const ResultRow& row) const {
    if (!per_element_) {
      // One cell: the column's own, when the part selected (if any) is there.
      if (range_ && !AnyMatch(row)) return Value::Null(type());
      if (field_ && !FieldPresent(row)) return Value::Null(type());
      return CellValue(slot_ < row.writetimes.size() ? row.writetimes[slot_] : std::nullopt,
                       slot_ < row.ttls.size() ? row.ttls[slot_] : std::nullopt);
    }
    std::vector<size_t> entries;
    if (slot_ >= row.elements.size()) return Value::Null(type());
    const std::vector<ElementCell>& cells = row.elements[slot_];
    if (field_) {
      // A non-frozen user type's field is a cell of its own.
      const std::string path = UserTypeFieldPath(*field_);
      for (const ElementCell& cell : cells) {
        if (cell.path == path) return CellValue(cell.writetime, cell.ttl);
      }
      return Value::Null(type());
    }
    if (range_) {
      const Value& collection = row.values[slot_];
      if (collection.is_null()) return Value::Null(type());
      entries = Matching(collection.type(), collection.Elements(), *range_);
    } else {
      for (size_t i = 0; i < cells.size(); ++i) entries.push_back(i);
    }
    std::vector<const ElementCell*> chosen;
    for (size_t entry : entries) {
      if (entry < cells.size()) chosen.push_back(&cells[entry]);
    }
    if (chosen.empty()) return Value::Null(type());
    if (function_ == Function::kMaxWritetime) {
      int64_t newest = chosen[0]->writetime;
      for (const ElementCell* cell : chosen) newest = std::max(newest, cell->writetime);
      return Value::Bigint(newest);
    }
    if (range_ && !range_->IsSlice()) return CellValue(chosen[0]->writetime, chosen[0]->ttl);
    std::vector<Value> list;
    for (const ElementCell* cell : chosen) list.push_back(CellValue(cell->writetime, cell->ttl));
    return Value::List(function_ == Function::kTtl ? DataType::Int() : DataType::Bigint(), list);
  }

  Value CellValue(std::optional<int64_t> writetime, std::optional<int32_t> ttl) const {
    if (function_ == Function::kTtl) return ttl ? Value::Int(*ttl) : Value::Null(DataType::Int());
    return writetime ? Value::Bigint(*writetime) : Value::Null(DataType::Bigint());
  }

  bool AnyMatch(const ResultRow& row) const {
    if (slot_ >= row.values.size() || row.values[slot_].is_null()) return false;
    const Value& collection = row.values[slot_];
    return !Matching(collection.type(), collection.Elements(), *range_).empty();
  }

  bool FieldPresent(const ResultRow& row) const {
    if (slot_ >= row.values.size() || row.values[slot_].is_null()) return false;
    const std::vector<Value> fields = row.values[slot_].Elements();
    return *field_ < fields.size() && !fields[*field_].is_null();
  }

  Function function_;
  size_t slot_;
  bool per_element_;
  std::optional<KeyRange> range_;
  std::optional<size_t> field_;
  std::optional<Value> value_;
};

// The key range of an element or slice selector over a collection of
// `collection_type` (InvalidRequest for a list or a non-collection).
Result<KeyRange> RangeOf(const DataType& collection_type, const std::string& text,
                         const Selector& part, SelectionContext* selection) {
  const bool slice = part.kind == Selector::Kind::kSlice;
  const char* what = slice ? "Slice" : "Element";
  if (!collection_type.IsCollection()) {
    return Status::InvalidRequest("Invalid " + std::string(slice ? "slice" : "element") +
                                  " selection: " + text + " is of type " +
                                  collection_type.ToString() + " is not a collection");
  }
  if (collection_type.kind() == TypeKind::kList) {
    return Status::InvalidRequest(std::string(what) +
                                  " selection is only allowed on sets and maps, but " + text +
                                  " is a list");
  }
  KeyRange range{collection_type.params()[0], std::nullopt, std::nullopt, std::nullopt};
  const ExecutionContext& context = *selection->context;
  const std::string receiver = "key(" + text + ")";
  if (!slice) {
    if (!part.term) return Status::InvalidRequest("Invalid element selection");
    CASSETTE_ASSIGN_OR_RETURN(Value key,
                              EvaluateTerm(*part.term, range.key_type, receiver, context));
    range.key = std::move(key);
    return range;
  }
  if (part.term) {
    CASSETTE_ASSIGN_OR_RETURN(Value from,
                              EvaluateTerm(*part.term, range.key_type, receiver, context));
    range.from = std::move(from);
  }
  if (part.slice_end) {
    CASSETTE_ASSIGN_OR_RETURN(Value to,
                              EvaluateTerm(*part.slice_end, range.key_type, receiver, context));
    range.to = std::move(to);
  }
  return range;
}

Result<SelectorNodePtr> BuildPart(SelectorNodePtr collection, const std::string& text,
                                  const Selector& part, SelectionContext* selection) {
  const DataType collection_type = collection->type();
  CASSETTE_ASSIGN_OR_RETURN(KeyRange range, RangeOf(collection_type, text, part, selection));
  DataType type = collection_type;  // a slice keeps the collection's type
  if (!range.IsSlice()) {
    type = collection_type.kind() == TypeKind::kMap ? collection_type.params()[1]
                                                    : collection_type.params()[0];
  }
  return SelectorNodePtr(
      std::make_unique<CollectionPartNode>(std::move(type), std::move(collection), range));
}

}  // namespace

Result<size_t> FieldPosition(const DataType& type, const std::string& text,
                             const std::string& field) {
  if (!type.IsUserType()) {
    return Status::InvalidRequest("Invalid field selection: " + text + " of type " +
                                  type.ToString() + " is not a user type");
  }
  const int index = type.FieldIndex(field);
  if (index < 0) {
    return Status::InvalidRequest(text + " of type " + type.ToString() + " has no field " + field);
  }
  return static_cast<size_t>(index);
}

Result<SelectorNodePtr> BuildElementSelector(SelectorNodePtr collection, const std::string& text,
                                             const Term& key, SelectionContext* selection) {
  Selector part;
  part.kind = Selector::Kind::kElement;
  part.term = key;
  return BuildPart(std::move(collection), text, part, selection);
}

Result<SelectorNodePtr> BuildSliceSelector(SelectorNodePtr collection, const std::string& text,
                                           const std::optional<Term>& from,
                                           const std::optional<Term>& to,
                                           SelectionContext* selection) {
  Selector part;
  part.kind = Selector::Kind::kSlice;
  part.term = from;
  part.slice_end = to;
  return BuildPart(std::move(collection), text, part, selection);
}

Result<SelectorNodePtr> BuildCellMetadataSelector(const Selector& target, const char* function,
                                                  SelectionContext* selection) {
  const std::string name(function);
  const CellMetadataNode::Function kind = name == "ttl" ? CellMetadataNode::Function::kTtl
                                          : name == "maxwritetime"
                                              ? CellMetadataNode::Function::kMaxWritetime
                                              : CellMetadataNode::Function::kWritetime;
  // The column under any element, slice or field selection.
  const Selector* column_selector = &target;
  const Selector* part = nullptr;
  if (target.kind == Selector::Kind::kElement || target.kind == Selector::Kind::kSlice ||
      target.kind == Selector::Kind::kField) {
    if (target.args.size() != 1 || target.args[0].kind != Selector::Kind::kColumn) {
      return Status::InvalidRequest("Invalid " + name + " selection: " + target.source_text);
    }
    part = &target;
    column_selector = &target.args[0];
  } else if (target.kind != Selector::Kind::kColumn) {
    return Status::InvalidRequest("Invalid " + name + " selection: " + target.source_text);
  }
  const ColumnDefinition* column = selection->schema->Find(column_selector->column);
  if (column == nullptr) {
    return Status::InvalidRequest("Undefined column name " +
                                  QuoteColumnName(column_selector->column) + " in table " +
                                  selection->schema->keyspace() + "." + selection->schema->name());
  }
  if (column->kind == ColumnKind::kPartitionKey || column->kind == ColumnKind::kClustering) {
    return Status::InvalidRequest("Cannot use selection function " + name +
                                  " on PRIMARY KEY part " + column->name);
  }
  std::optional<KeyRange> range;
  std::optional<size_t> field;
  if (part != nullptr && part->kind == Selector::Kind::kField) {
    CASSETTE_ASSIGN_OR_RETURN(size_t position,
                              FieldPosition(column->type, column->name, part->field));
    field = position;
  } else if (part != nullptr) {
    CASSETTE_ASSIGN_OR_RETURN(KeyRange r, RangeOf(column->type, column->name, *part, selection));
    range = std::move(r);
  }
  const bool per_element = column->type.IsMultiCell();
  // A list of values where the selection may take several cells; one
  // value where it takes one cell (or the newest of them).
  const bool list = per_element && kind != CellMetadataNode::Function::kMaxWritetime &&
                    (!range || range->IsSlice()) && !field;
  const DataType scalar =
      kind == CellMetadataNode::Function::kTtl ? DataType::Int() : DataType::Bigint();
  selection->needs_cell_metadata = true;
  return SelectorNodePtr(std::make_unique<CellMetadataNode>(
      list ? DataType::List(scalar) : scalar, kind, selection->slots->Require(column->name),
      per_element, std::move(range), field));
}

}  // namespace cassette::cql
