// to_json (tojson) and from_json (fromjson), Cassandra 5's ToJsonFct and
// FromJsonFct: to_json(x) is x's SELECT JSON text for any type, from_json
// converts JSON text to the type of what receives it (a column in INSERT
// or UPDATE, a function parameter), so it has no meaning as a selector.
#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/json_insert.h"

namespace cassette::cql {
namespace {

Result<Value> ToJson(const NativeFunction&, const std::vector<Value>& arguments,
                     const FunctionContext&) {
  // A null argument is the JSON null, not a null result.
  return Value::Text(arguments[0].ToJson());
}

Result<Value> FromJson(const NativeFunction& self, const std::vector<Value>& arguments,
                       const FunctionContext&) {
  if (arguments[0].is_null()) return Value::Null(self.return_type);
  const std::string& json = arguments[0].bytes();
  bool malformed = false;
  Result<Value> value = ParseJsonValue(json, self.return_type, &malformed);
  if (value.ok()) return *value;
  // Cassandra's FunctionExecutionException (a FunctionFailure); the detail
  // is the JSON reader's or the conversion's own message.
  const std::string detail =
      malformed ? "Could not decode JSON string '" + json + "': " + value.status().message()
                : "org.apache.cassandra.serializers.MarshalException: " + value.status().message();
  return Status::FunctionFailure("execution of '" + self.QualifiedName() +
                                 "[text]' failed: " + detail);
}

Result<NativeFunction> MakeToJson(const std::string& name, const std::vector<DataType>& types,
                                  const std::optional<DataType>&) {
  return NativeFunction{name, types, DataType::Text(), ToJson};
}

Result<NativeFunction> MakeFromJson(const std::string& name, const std::vector<DataType>& types,
                                    const std::optional<DataType>& receiver) {
  if (!receiver) {
    return Status::InvalidRequest(
        name + "() cannot be used in the selection clause of a SELECT statement");
  }
  return NativeFunction{name, types, *receiver, FromJson};
}

}  // namespace

void AddJsonFunctions(NativeFunctionTable* table) {
  const FunctionParameter any = FunctionParameter::Of(FunctionParameter::Kind::kAny);
  const FunctionParameter text = FunctionParameter::Fixed(DataType::Text());
  for (const char* name : {"to_json", "tojson"}) table->AddFactory({name, {any}, MakeToJson});
  for (const char* name : {"from_json", "fromjson"}) {
    table->AddFactory({name, {text}, MakeFromJson});
  }
}

}  // namespace cassette::cql
