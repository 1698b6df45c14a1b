// Cassandra 5's CollectionFcts: map_keys (a set), map_values (a list),
// collection_count (an int) over any collection, and collection_min,
// collection_max, collection_sum, collection_avg over a set or list, which
// fold its elements with the min, max, sum and avg aggregates so that both
// agree (sum and avg return the element type, wrapping and dividing in it;
// an empty collection sums and averages to 0, its min and max are null). A
// null collection gives null; a non-frozen collection with no elements is
// null too, so only frozen ones can be empty.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/aggregates.h"
#include "engine/cql/function_registry.h"

namespace cassette::cql {
namespace {

bool IsNull(const Value& v) { return v.is_null() || v.bytes().empty(); }

Result<Value> MapKeys(const NativeFunction& self, const std::vector<Value>& arguments,
                      const FunctionContext&) {
  const Value& map = arguments[0];
  if (IsNull(map)) return Value::Null(self.return_type);
  const std::vector<Value> entries = map.Elements();
  std::vector<Value> keys;
  for (size_t i = 0; i < entries.size(); i += 2) keys.push_back(entries[i]);
  const DataType& key_type = self.return_type.params()[0];
  return Value::FromBytes(self.return_type, Value::Set(key_type, keys).bytes());
}

Result<Value> MapValues(const NativeFunction& self, const std::vector<Value>& arguments,
                        const FunctionContext&) {
  const Value& map = arguments[0];
  if (IsNull(map)) return Value::Null(self.return_type);
  const std::vector<Value> entries = map.Elements();
  std::vector<Value> values;
  for (size_t i = 1; i < entries.size(); i += 2) values.push_back(entries[i]);
  const DataType& value_type = self.return_type.params()[0];
  return Value::FromBytes(self.return_type, Value::List(value_type, values).bytes());
}

Result<Value> CollectionCount(const NativeFunction& self, const std::vector<Value>& arguments,
                              const FunctionContext&) {
  const Value& collection = arguments[0];
  if (IsNull(collection)) return Value::Null(self.return_type);
  const size_t elements = collection.Elements().size();
  const bool map = collection.type().kind() == TypeKind::kMap;
  return Value::Int(static_cast<int32_t>(map ? elements / 2 : elements));
}

// Hands an aggregate the element being folded, as if it were a row's value.
class ElementFeed : public SelectorNode {
 public:
  ElementFeed(DataType type, const Value* current)
      : SelectorNode(std::move(type)), current_(current) {}
  void Reset() override {}
  Status AddInput(const ResultRow&) override { return Status::OK(); }
  Result<Value> Output() override { return *current_; }

 private:
  const Value* current_;
};

// "collection_sum" -> "sum".
std::string AggregateOf(const std::string& name) { return name.substr(name.find('_') + 1); }

Result<SelectorNodePtr> MakeFold(const std::string& name, const DataType& element_type,
                                 const Value* current) {
  return MakeAggregate(AggregateOf(name), std::make_unique<ElementFeed>(element_type, current));
}

Result<Value> FoldElements(const NativeFunction& self, const std::vector<Value>& arguments,
                           const FunctionContext&) {
  const Value& collection = arguments[0];
  if (IsNull(collection)) return Value::Null(self.return_type);
  Value current;
  CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr fold,
                            MakeFold(self.name, collection.type().params()[0], &current));
  fold->Reset();
  const ResultRow unused;
  for (Value& element : collection.Elements()) {
    current = std::move(element);
    CASSETTE_RETURN_IF_ERROR(fold->AddInput(unused));
  }
  return fold->Output();
}

Result<NativeFunction> MakeMapKeys(const std::string& name, const std::vector<DataType>& types,
                                   const std::optional<DataType>&) {
  return NativeFunction{name, types, DataType::Set(types[0].params()[0].Frozen()), MapKeys};
}

Result<NativeFunction> MakeMapValues(const std::string& name, const std::vector<DataType>& types,
                                     const std::optional<DataType>&) {
  return NativeFunction{name, types, DataType::List(types[0].params()[1].Frozen()), MapValues};
}

Result<NativeFunction> MakeCount(const std::string& name, const std::vector<DataType>& types,
                                 const std::optional<DataType>&) {
  return NativeFunction{name, types, DataType::Int(), CollectionCount};
}

// The aggregate decides the result type, and refuses an element type it
// cannot fold before any row is read.
Result<NativeFunction> MakeFolding(const std::string& name, const std::vector<DataType>& types,
                                   const std::optional<DataType>&) {
  const Value unused;
  CASSETTE_ASSIGN_OR_RETURN(SelectorNodePtr fold, MakeFold(name, types[0].params()[0], &unused));
  return NativeFunction{name, types, fold->type(), FoldElements};
}

}  // namespace

void AddCollectionFunctions(NativeFunctionTable* table) {
  using Kind = FunctionParameter::Kind;
  const FunctionParameter map = FunctionParameter::Of(Kind::kMap);
  const FunctionParameter collection = FunctionParameter::Of(Kind::kCollection);
  const FunctionParameter set_or_list = FunctionParameter::Of(Kind::kSetOrList);
  const FunctionParameter numeric = FunctionParameter::Of(Kind::kNumericSetOrList);
  table->AddFactory({"map_keys", {map}, MakeMapKeys});
  table->AddFactory({"map_values", {map}, MakeMapValues});
  table->AddFactory({"collection_count", {collection}, MakeCount});
  table->AddFactory({"collection_min", {set_or_list}, MakeFolding});
  table->AddFactory({"collection_max", {set_or_list}, MakeFolding});
  table->AddFactory({"collection_sum", {numeric}, MakeFolding});
  table->AddFactory({"collection_avg", {numeric}, MakeFolding});
}

}  // namespace cassette::cql
