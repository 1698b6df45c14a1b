// The table of CQL's native scalar functions and Cassandra's overload
// resolution over it (FunctionResolver): a name may have several
// signatures (toDate(timeuuid), toDate(timestamp)); the arguments pick one
// by how well each fits the parameter types. Functions over any type
// (map_keys, to_json, mask_default, ...) have a FunctionFactory instead,
// which builds the signature of each call from its arguments' types.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "cassette/value.h"
#include "engine/cql/functions.h"

namespace cassette::cql {

// How a term or type fits a receiver type (Cassandra's AssignmentTestable).
enum class Assignability { kNotAssignable, kWeaklyAssignable, kExactMatch };

struct NativeFunction {
  using Body = Result<Value> (*)(const NativeFunction& self, const std::vector<Value>& arguments,
                                 const FunctionContext& context);
  std::string name;  // lower case, without the "system." keyspace
  std::vector<DataType> argument_types;
  DataType return_type;
  Body body = nullptr;
  // The registry's functions take the empty value of an int, a timestamp,
  // ... (blobAsInt(0x)) as null, as Cassandra's functions read arguments
  // (to_date of an empty timestamp is null): their `body` turns such
  // arguments into nulls and runs `implementation`.
  Body implementation = nullptr;

  // "system.todate"
  std::string QualifiedName() const { return "system." + name; }
  // "system.todate : (timestamp) -> date", as Cassandra lists signatures.
  std::string Signature() const;
};

// One provided argument for resolution: how it fits a parameter type, and
// its text for error messages. An empty `test` is a bind marker whose type
// is unknown: it fits any parameter weakly.
struct ProvidedArgument {
  std::function<Assignability(const DataType&)> test;
  std::string text;
  // The argument's own type when it has one (a column, a cast, a typed
  // literal): a FunctionFactory builds its signature from it.
  std::optional<DataType> type;
};

// One parameter of a FunctionFactory, as Cassandra's FunctionParameter
// accepts and infers it.
struct FunctionParameter {
  enum class Kind {
    kAny,               // any type, which the argument must have
    kAnyOrReceiver,     // any type, the receiver's when the argument has none
    kSameAsFirst,       // the first argument's type
    kFixed,             // `fixed` (its first type when the argument has none)
    kString,            // text or ascii ("[text|varchar|ascii]")
    kCollection,        // any list, set or map
    kSetOrList,         // any list or set
    kNumericSetOrList,  // a list or set of numbers
    kMap,               // any map
  };
  Kind kind = Kind::kAny;
  DataType fixed;
  bool optional = false;  // may be left out (trailing parameters only)

  static FunctionParameter Of(Kind kind, DataType fixed = DataType()) {
    FunctionParameter p;
    p.kind = kind;
    p.fixed = std::move(fixed);
    return p;
  }
  static FunctionParameter Fixed(DataType type) { return Of(Kind::kFixed, std::move(type)); }
  static FunctionParameter Optional(FunctionParameter p) {
    p.optional = true;
    return p;
  }

  // "any", "int", "[text|varchar|ascii]", "map", "[text]" when optional.
  std::string ToString() const;
};

// Cassandra's FunctionFactory: builds the NativeFunction of one call from
// the types inferred for its arguments (and the receiver, which from_json
// needs). `make` returns InvalidRequest when the call cannot be served.
struct FunctionFactory {
  using Make = Result<NativeFunction> (*)(const std::string& name,
                                          const std::vector<DataType>& argument_types,
                                          const std::optional<DataType>& receiver);
  std::string name;
  std::vector<FunctionParameter> parameters;
  Make make = nullptr;

  // "system.mask_inner([text|varchar|ascii], int, int, [text])"
  std::string ToString() const;
};

// What each native-function file contributes to the registry.
class NativeFunctionTable {
 public:
  virtual ~NativeFunctionTable() = default;
  virtual void Add(std::string name, std::vector<DataType> arguments, DataType return_type,
                   NativeFunction::Body body) = 0;
  virtual void AddFactory(FunctionFactory factory) = 0;
};

// abs, exp, log, log10 and round over every numeric type (math_functions.cc).
void AddMathFunctions(NativeFunctionTable* table);
// map_keys, map_values, collection_count/min/max/sum/avg (collection_functions.cc).
void AddCollectionFunctions(NativeFunctionTable* table);
// mask_null, mask_default, mask_replace, mask_inner, mask_outer, mask_hash
// (masking_functions.cc).
void AddMaskingFunctions(NativeFunctionTable* table);
// to_json/tojson and from_json/fromjson (json_functions.cc).
void AddJsonFunctions(NativeFunctionTable* table);
// cast_as_<type>/castAs<Type>, what CAST calls (functions.cc).
void AddCastFunctions(NativeFunctionTable* table);

// "system.todate" / "toDate" / "SYSTEM.todate" -> "todate"; nullopt for a
// name in another keyspace (there are no user-defined functions).
std::optional<std::string> NativeFunctionName(std::string_view name);

// Every signature registered under a native name (empty when unknown).
std::vector<const NativeFunction*> FunctionCandidates(std::string_view native_name);

// Whether a native name is known: it has signatures or a factory.
bool IsNativeFunction(std::string_view native_name);

// Cassandra's FunctionResolver.get over the candidates of `name` (as
// written, "toDate" or "system.todate"), which include what the name's
// factories build for these arguments (their errors are the call's; the
// functions built live as long as the process): the single candidate's
// arity and argument types checked, or the exact match among several, or
// the only weakly assignable one; InvalidRequest with Cassandra's messages
// otherwise ("Unknown function 'f'" when there is none). `receiver`, when
// known, discards candidates whose return type does not fit it.
Result<const NativeFunction*> ResolveNativeFunction(std::string_view name,
                                                    const std::vector<ProvidedArgument>& arguments,
                                                    const std::optional<DataType>& receiver);

// Can a value of `type` be read as `receiver` (AbstractType.isValueCompatibleWith):
// equal types, text from ascii, uuid from timeuuid, bigint and timestamp
// from each other, varint from int and bigint, blob from anything.
bool IsValueCompatible(const DataType& receiver, const DataType& type);

// How a value of a known type fits a receiver: exact when equal, weakly
// when value-compatible.
Assignability TypeAssignability(const DataType& receiver, const DataType& type);

}  // namespace cassette::cql
