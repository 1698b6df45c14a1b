// The table of CQL's native scalar functions and Cassandra's overload
// resolution over it (FunctionResolver): a name may have several
// signatures (toDate(timeuuid), toDate(timestamp)); the arguments pick one
// by how well each fits the parameter types.
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
};

// "system.todate" / "toDate" / "SYSTEM.todate" -> "todate"; nullopt for a
// name in another keyspace (there are no user-defined functions).
std::optional<std::string> NativeFunctionName(std::string_view name);

// Every signature registered under a native name (empty when unknown).
std::vector<const NativeFunction*> FunctionCandidates(std::string_view native_name);

// Cassandra's FunctionResolver.get over the candidates of `name` (as
// written, "toDate" or "system.todate"): the single candidate's arity and
// argument types checked, or the exact match among several, or the only
// weakly assignable one; InvalidRequest with Cassandra's messages
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
