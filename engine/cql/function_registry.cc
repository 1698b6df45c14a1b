#include "engine/cql/function_registry.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "engine/cql/time_functions.h"
#include "engine/types/calendar.h"
#include "engine/types/cql_duration.h"
#include "engine/types/type_codec.h"
#include "engine/util/ascii.h"
#include "engine/util/murmur3.h"

namespace cassette::cql {
namespace {

constexpr int64_t kMillisPerDay = 86400LL * 1000;
constexpr int64_t kMicrosPerDay = kMillisPerDay * 1000;

bool AnyNull(const std::vector<Value>& arguments) {
  for (const Value& v : arguments) {
    if (v.is_null() || v.bytes().empty()) return true;
  }
  return false;
}

// The Unix milliseconds of a timestamp, date or timeuuid value.
int64_t TemporalMillis(const Value& v) {
  switch (v.type().kind()) {
    case TypeKind::kTimeuuid:
      return TimeuuidMillis(v.AsUuid());
    case TypeKind::kDate:
      return static_cast<int64_t>(v.AsDate()) * kMillisPerDay;
    default:
      return v.AsInt64();
  }
}

Result<Value> DateFromMillis(int64_t millis) {
  CASSETTE_ASSIGN_OR_RETURN(int32_t days, DateOfMillis(millis));
  return Value::Date(days);
}

Result<Value> Now(const NativeFunction& self, const std::vector<Value>&,
                  const FunctionContext& context) {
  const int64_t micros = context.now_micros;
  switch (self.return_type.kind()) {
    case TypeKind::kTimeuuid: {
      CASSETTE_ASSIGN_OR_RETURN(UuidBytes uuid, TimeuuidAt(micros));
      return Value::Timeuuid(uuid);
    }
    case TypeKind::kTimestamp:
      return Value::Timestamp(FloorDiv(micros, 1000));
    case TypeKind::kDate:
      return DateFromMillis(FloorDiv(micros, 1000));
    default:  // time
      return Value::Time(FloorMod(micros, kMicrosPerDay) * 1000);
  }
}

Result<Value> RandomUuidBody(const NativeFunction&, const std::vector<Value>&,
                             const FunctionContext&) {
  return Value::Uuid(RandomUuid());
}

Result<Value> TimeuuidBound(const NativeFunction& self, const std::vector<Value>& arguments,
                            const FunctionContext&) {
  if (AnyNull(arguments)) return Value::Null(self.return_type);
  const int64_t millis = arguments[0].AsInt64();
  return Value::Timeuuid(self.name.starts_with("min") ? MinTimeuuid(millis) : MaxTimeuuid(millis));
}

// toDate, toTimestamp, toUnixTimestamp, dateOf, unixTimestampOf: one
// instant converted to the return type.
Result<Value> ConvertTemporal(const NativeFunction& self, const std::vector<Value>& arguments,
                              const FunctionContext&) {
  if (AnyNull(arguments)) return Value::Null(self.return_type);
  const int64_t millis = TemporalMillis(arguments[0]);
  switch (self.return_type.kind()) {
    case TypeKind::kDate:
      return DateFromMillis(millis);
    case TypeKind::kTimestamp:
      return Value::Timestamp(millis);
    default:
      return Value::Bigint(millis);
  }
}

Result<Value> Floor(const NativeFunction& self, const std::vector<Value>& arguments,
                    const FunctionContext&) {
  if (AnyNull(arguments)) return Value::Null(self.return_type);
  CqlDuration duration;
  CASSETTE_RETURN_IF_ERROR(DeserializeDuration(arguments[1].bytes(), &duration));
  const Value& time = arguments[0];
  if (time.type().kind() == TypeKind::kTime) {
    CASSETTE_ASSIGN_OR_RETURN(int64_t nanos, FloorTime(time.AsInt64(), duration));
    return Value::Time(nanos);
  }
  const int64_t start = arguments.size() > 2 ? TemporalMillis(arguments[2]) : 0;
  CASSETTE_ASSIGN_OR_RETURN(int64_t floor, FloorTimestamp(TemporalMillis(time), duration, start));
  if (self.return_type.kind() == TypeKind::kDate) return DateFromMillis(floor);
  return Value::Timestamp(floor);
}

Result<Value> ToBlob(const NativeFunction&, const std::vector<Value>& arguments,
                     const FunctionContext&) {
  if (arguments[0].is_null()) return Value::Null(DataType::Blob());
  return Value::Blob(arguments[0].bytes());
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

Result<Value> FromBlob(const NativeFunction& self, const std::vector<Value>& arguments,
                       const FunctionContext&) {
  if (arguments[0].is_null()) return Value::Null(self.return_type);
  const std::string& bytes = arguments[0].bytes();
  // 0x is the empty value of the types that have one (blobAsInt(0x)).
  if (!ValidateCellValue(self.return_type, bytes).ok()) {
    return Status::InvalidRequest("In call to function " + self.QualifiedName() + ", value 0x" +
                                  Hex(bytes) + " is not a valid binary representation for type " +
                                  self.return_type.ToString());
  }
  return Value::FromBytes(self.return_type, bytes);
}

// The body of every registered function but the <type>AsBlob ones (which
// hand over the bytes as they are, an empty value included): the empty
// values among the arguments become nulls before `implementation` runs.
Result<Value> EmptyValuesAsNulls(const NativeFunction& self, const std::vector<Value>& arguments,
                                 const FunctionContext& context) {
  auto is_empty = [](const Value& v) { return !v.is_null() && IsEmptyValue(v.type(), v.bytes()); };
  if (std::none_of(arguments.begin(), arguments.end(), is_empty)) {
    return self.implementation(self, arguments, context);
  }
  std::vector<Value> nulled = arguments;
  for (Value& v : nulled) {
    if (is_empty(v)) v = Value::Null(v.type());
  }
  return self.implementation(self, nulled, context);
}

void TakeEmptyValuesAsNulls(NativeFunction* f) {
  if (f->body == nullptr || f->body == ToBlob || f->body == EmptyValuesAsNulls) return;
  f->implementation = f->body;
  f->body = EmptyValuesAsNulls;
}

using Overloads = std::map<std::string, std::vector<std::unique_ptr<NativeFunction>>, std::less<>>;
using Factories = std::map<std::string, std::vector<FunctionFactory>, std::less<>>;

class Registry : public NativeFunctionTable {
 public:
  void Add(std::string name, std::vector<DataType> arguments, DataType return_type,
           NativeFunction::Body body) override {
    auto f = std::make_unique<NativeFunction>();
    f->name = name;
    f->argument_types = std::move(arguments);
    f->return_type = std::move(return_type);
    f->body = body;
    TakeEmptyValuesAsNulls(f.get());
    overloads[name].push_back(std::move(f));
  }
  void AddFactory(FunctionFactory factory) override {
    std::string name = factory.name;
    factories[name].push_back(std::move(factory));
  }

  Overloads overloads;
  Factories factories;
};

// Cassandra 5 registers the camelCase names and snake_case aliases.
void AddAliased(Registry* registry, std::initializer_list<const char*> names,
                const std::vector<DataType>& arguments, const DataType& return_type,
                NativeFunction::Body body) {
  for (const char* name : names) registry->Add(name, arguments, return_type, body);
}

Registry* BuildRegistry() {
  auto* registry = new Registry;
  Registry& r = *registry;
  const DataType timeuuid = DataType::Timeuuid(), timestamp = DataType::Timestamp(),
                 date = DataType::Date(), time = DataType::Time(), bigint = DataType::Bigint(),
                 duration = DataType::Duration();
  AddAliased(&r, {"now"}, {}, timeuuid, Now);
  AddAliased(&r, {"currenttimeuuid", "current_timeuuid"}, {}, timeuuid, Now);
  AddAliased(&r, {"currenttimestamp", "current_timestamp"}, {}, timestamp, Now);
  AddAliased(&r, {"currentdate", "current_date"}, {}, date, Now);
  AddAliased(&r, {"currenttime", "current_time"}, {}, time, Now);
  AddAliased(&r, {"uuid"}, {}, DataType::Uuid(), RandomUuidBody);
  AddAliased(&r, {"mintimeuuid", "min_timeuuid"}, {timestamp}, timeuuid, TimeuuidBound);
  AddAliased(&r, {"maxtimeuuid", "max_timeuuid"}, {timestamp}, timeuuid, TimeuuidBound);
  AddAliased(&r, {"dateof"}, {timeuuid}, timestamp, ConvertTemporal);
  AddAliased(&r, {"unixtimestampof"}, {timeuuid}, bigint, ConvertTemporal);
  AddAliased(&r, {"todate", "to_date"}, {timeuuid}, date, ConvertTemporal);
  AddAliased(&r, {"totimestamp", "to_timestamp"}, {timeuuid}, timestamp, ConvertTemporal);
  AddAliased(&r, {"tounixtimestamp", "to_unix_timestamp"}, {timeuuid}, bigint, ConvertTemporal);
  AddAliased(&r, {"tounixtimestamp", "to_unix_timestamp"}, {timestamp}, bigint, ConvertTemporal);
  AddAliased(&r, {"todate", "to_date"}, {timestamp}, date, ConvertTemporal);
  AddAliased(&r, {"tounixtimestamp", "to_unix_timestamp"}, {date}, bigint, ConvertTemporal);
  AddAliased(&r, {"totimestamp", "to_timestamp"}, {date}, timestamp, ConvertTemporal);
  r.Add("floor", {timestamp, duration}, timestamp, Floor);
  r.Add("floor", {timestamp, duration, timestamp}, timestamp, Floor);
  r.Add("floor", {timeuuid, duration}, timestamp, Floor);
  r.Add("floor", {timeuuid, duration, timestamp}, timestamp, Floor);
  r.Add("floor", {date, duration}, date, Floor);
  r.Add("floor", {date, duration, date}, date, Floor);
  r.Add("floor", {time, duration}, time, Floor);
  // <type>AsBlob and blobAs<type> for every native type but blob itself
  // (varchar spelled out as an alias of text, as Cassandra does), and
  // Cassandra 5's snake_case names beside them (<type>_as_blob,
  // blob_as_<type>); an error names the function as it was called.
  static constexpr TypeKind kBlobConvertible[] = {
      TypeKind::kAscii,   TypeKind::kBigint,  TypeKind::kBoolean,   TypeKind::kCounter,
      TypeKind::kDate,    TypeKind::kDecimal, TypeKind::kDouble,    TypeKind::kDuration,
      TypeKind::kFloat,   TypeKind::kInet,    TypeKind::kInt,       TypeKind::kSmallint,
      TypeKind::kText,    TypeKind::kTime,    TypeKind::kTimestamp, TypeKind::kTimeuuid,
      TypeKind::kTinyint, TypeKind::kUuid,    TypeKind::kVarint};
  for (TypeKind kind : kBlobConvertible) {
    const DataType type = DataType::Of(kind);
    for (const char* separator : {"", "_"}) {
      const std::string as = std::string(separator) + "as" + separator;
      r.Add(type.ToString() + as + "blob", {type}, DataType::Blob(), ToBlob);
      r.Add("blob" + as + type.ToString(), {DataType::Blob()}, type, FromBlob);
    }
  }
  AddAliased(&r, {"varcharasblob", "varchar_as_blob"}, {DataType::Text()}, DataType::Blob(),
             ToBlob);
  AddAliased(&r, {"blobasvarchar", "blob_as_varchar"}, {DataType::Blob()}, DataType::Text(),
             FromBlob);
  AddCastFunctions(&r);
  AddMathFunctions(&r);
  AddCollectionFunctions(&r);
  AddMaskingFunctions(&r);
  AddJsonFunctions(&r);
  return registry;
}

const Registry& TheRegistry() {
  static const Registry* registry = BuildRegistry();
  return *registry;
}

// The functions factories built, kept for the life of the process so that
// resolution can hand out plain pointers, as it does for the fixed
// signatures (one per distinct signature: a bounded set in practice, the
// types of the columns queried).
class BuiltFunctions {
 public:
  const NativeFunction* Intern(NativeFunction f) {
    std::string key = f.Signature();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = functions_.find(key);
    if (it == functions_.end()) {
      it = functions_.emplace(std::move(key), std::make_unique<NativeFunction>(std::move(f))).first;
    }
    return it->second.get();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<NativeFunction>> functions_;
};

BuiltFunctions& TheBuiltFunctions() {
  static BuiltFunctions* built = new BuiltFunctions;
  return *built;
}

bool IsNumericKind(TypeKind k) {
  switch (k) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kVarint:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
      return true;
    default:
      return false;
  }
}

// FunctionParameter.inferType: the argument's own type, else what the
// parameter implies (nullopt when nothing does).
std::optional<DataType> InferParameterType(const FunctionParameter& parameter,
                                           const ProvidedArgument& argument,
                                           const std::optional<DataType>& receiver,
                                           const std::vector<DataType>& previous) {
  switch (parameter.kind) {
    case FunctionParameter::Kind::kSameAsFirst:
      if (previous.empty()) return std::nullopt;
      return previous[0];
    case FunctionParameter::Kind::kAnyOrReceiver:
      return argument.type ? argument.type : receiver;
    case FunctionParameter::Kind::kFixed:
      return argument.type ? *argument.type : parameter.fixed;
    case FunctionParameter::Kind::kString:
      return argument.type ? *argument.type : DataType::Text();
    default:
      return argument.type;
  }
}

// FunctionParameter.validateType, with Cassandra's messages.
Status ValidateParameterType(const FunctionParameter& parameter, const std::string& function,
                             const ProvidedArgument& argument, const DataType& type) {
  auto found = [&] {
    return "but found argument " + argument.text + " of type " + type.ToString();
  };
  const TypeKind kind = type.kind();
  const bool set_or_list = kind == TypeKind::kSet || kind == TypeKind::kList;
  switch (parameter.kind) {
    case FunctionParameter::Kind::kFixed:
      if (TypeAssignability(parameter.fixed, type) != Assignability::kNotAssignable) break;
      return Status::InvalidRequest("Function " + function + " requires an argument of type " +
                                    parameter.fixed.ToString() + ", " + found());
    case FunctionParameter::Kind::kString:
      if (kind == TypeKind::kText || kind == TypeKind::kAscii) break;
      return Status::InvalidRequest("Function " + function +
                                    " requires an argument of type [text|varchar|ascii], " +
                                    found());
    case FunctionParameter::Kind::kCollection:
      if (type.IsCollection()) break;
      return Status::InvalidRequest("Function " + function + " requires a collection argument, " +
                                    found());
    case FunctionParameter::Kind::kSetOrList:
      if (set_or_list) break;
      return Status::InvalidRequest("Function " + function + " requires a set or list argument, " +
                                    found());
    case FunctionParameter::Kind::kNumericSetOrList:
      if (set_or_list && IsNumericKind(type.params()[0].kind())) break;
      return Status::InvalidRequest("Function " + function +
                                    " requires a numeric set/list argument, " + found());
    case FunctionParameter::Kind::kMap:
      if (kind == TypeKind::kMap) break;
      return Status::InvalidRequest("Function " + function + " requires a map argument, " +
                                    found());
    default:
      break;
  }
  return Status::OK();
}

// FunctionFactory.getOrCreateFunction.
Result<const NativeFunction*> BuildFromFactory(const FunctionFactory& factory,
                                               const std::vector<ProvidedArgument>& arguments,
                                               const std::optional<DataType>& receiver) {
  size_t mandatory = 0;
  for (const FunctionParameter& p : factory.parameters) mandatory += p.optional ? 0 : 1;
  if (arguments.size() < mandatory || arguments.size() > factory.parameters.size()) {
    return Status::InvalidRequest("Invalid number of arguments for function " + factory.ToString());
  }
  const std::string function = "system." + factory.name;
  std::vector<DataType> types;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const FunctionParameter& parameter = factory.parameters[i];
    std::optional<DataType> type = InferParameterType(parameter, arguments[i], receiver, types);
    if (!type) {
      return Status::InvalidRequest("Cannot infer type of argument " + arguments[i].text +
                                    " in call to function " + factory.ToString() +
                                    ": use type casts to disambiguate");
    }
    CASSETTE_RETURN_IF_ERROR(ValidateParameterType(parameter, function, arguments[i], *type));
    types.push_back(*type);
  }
  CASSETTE_ASSIGN_OR_RETURN(NativeFunction f, factory.make(factory.name, types, receiver));
  TakeEmptyValuesAsNulls(&f);
  return TheBuiltFunctions().Intern(std::move(f));
}

std::string JoinSignatures(const std::vector<const NativeFunction*>& functions) {
  std::string out;
  for (const NativeFunction* f : functions) {
    if (!out.empty()) out += ", ";
    out += f->Signature();
  }
  return out;
}

Assignability MatchArguments(const NativeFunction& f,
                             const std::vector<ProvidedArgument>& arguments) {
  if (arguments.size() != f.argument_types.size()) return Assignability::kNotAssignable;
  Assignability result = Assignability::kExactMatch;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Assignability a = arguments[i].test ? arguments[i].test(f.argument_types[i])
                                              : Assignability::kWeaklyAssignable;
    if (a == Assignability::kNotAssignable) return a;
    if (a == Assignability::kWeaklyAssignable) result = a;
  }
  return result;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsIntegerFamily(TypeKind k) {
  return k == TypeKind::kInt || k == TypeKind::kBigint || k == TypeKind::kTimestamp;
}

}  // namespace

std::string NativeFunction::Signature() const {
  std::string out = QualifiedName() + " : (";
  for (size_t i = 0; i < argument_types.size(); ++i) {
    if (i > 0) out += ", ";
    out += argument_types[i].ToString();
  }
  return out + ") -> " + return_type.ToString();
}

std::optional<std::string> NativeFunctionName(std::string_view name) {
  std::string lower = ToLower(name);
  const size_t dot = lower.find('.');
  if (dot == std::string::npos) return lower;
  if (lower.substr(0, dot) != "system") return std::nullopt;
  return lower.substr(dot + 1);
}

std::vector<const NativeFunction*> FunctionCandidates(std::string_view native_name) {
  std::vector<const NativeFunction*> out;
  const Overloads& overloads = TheRegistry().overloads;
  auto it = overloads.find(native_name);
  if (it == overloads.end()) return out;
  for (const auto& f : it->second) out.push_back(f.get());
  return out;
}

bool IsNativeFunction(std::string_view native_name) {
  const Registry& registry = TheRegistry();
  return registry.overloads.find(native_name) != registry.overloads.end() ||
         registry.factories.find(native_name) != registry.factories.end();
}

std::string FunctionParameter::ToString() const {
  std::string text;
  switch (kind) {
    case Kind::kAny:
    case Kind::kAnyOrReceiver:
      text = "any";
      break;
    case Kind::kSameAsFirst:
      text = "same";
      break;
    case Kind::kFixed:
      text = fixed.ToString();
      break;
    case Kind::kString:
      text = "[text|varchar|ascii]";
      break;
    case Kind::kCollection:
      text = "collection";
      break;
    case Kind::kSetOrList:  // Cassandra's FunctionParameter.setOrList names itself so
    case Kind::kNumericSetOrList:
      text = "numeric_set_or_list";
      break;
    case Kind::kMap:
      text = "map";
      break;
  }
  return optional ? "[" + text + "]" : text;
}

std::string FunctionFactory::ToString() const {
  std::string out = "system." + name + "(";
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (i > 0) out += ", ";
    out += parameters[i].ToString();
  }
  return out + ")";
}

Result<const NativeFunction*> ResolveNativeFunction(std::string_view name,
                                                    const std::vector<ProvidedArgument>& arguments,
                                                    const std::optional<DataType>& receiver) {
  // Cassandra names the function as written (lower-cased) in these errors.
  const std::string written = ToLower(name);
  const std::optional<std::string> native_name = NativeFunctionName(name);
  std::vector<const NativeFunction*> candidates =
      native_name ? FunctionCandidates(*native_name) : std::vector<const NativeFunction*>{};
  if (native_name) {
    // A factory's error (arity, an argument it cannot take) is the call's error.
    const Factories& factories = TheRegistry().factories;
    if (auto it = factories.find(*native_name); it != factories.end()) {
      for (const FunctionFactory& factory : it->second) {
        CASSETTE_ASSIGN_OR_RETURN(const NativeFunction* f,
                                  BuildFromFactory(factory, arguments, receiver));
        candidates.push_back(f);
      }
    }
  }
  if (candidates.empty()) return Status::InvalidRequest("Unknown function '" + written + "'");
  if (candidates.size() == 1) {
    // One signature: precise errors about the arity or the offending argument.
    const NativeFunction* f = candidates[0];
    if (arguments.size() != f->argument_types.size()) {
      return Status::InvalidRequest("Invalid number of arguments in call to function " +
                                    f->QualifiedName() + ": " +
                                    std::to_string(f->argument_types.size()) + " required but " +
                                    std::to_string(arguments.size()) + " provided");
    }
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (arguments[i].test &&
          arguments[i].test(f->argument_types[i]) == Assignability::kNotAssignable) {
        return Status::InvalidRequest("Type error: " + arguments[i].text +
                                      " cannot be passed as argument " + std::to_string(i) +
                                      " of function " + f->QualifiedName() + " of type " +
                                      f->argument_types[i].ToString());
      }
    }
    return f;
  }
  std::vector<const NativeFunction*> compatible;
  for (const NativeFunction* f : candidates) {
    if (receiver && TypeAssignability(*receiver, f->return_type) == Assignability::kNotAssignable) {
      continue;
    }
    const Assignability a = MatchArguments(*f, arguments);
    if (a == Assignability::kExactMatch) return f;
    if (a == Assignability::kWeaklyAssignable) compatible.push_back(f);
  }
  if (compatible.empty()) {
    return Status::InvalidRequest("Invalid call to function " + written +
                                  ", none of its type signatures match (known type signatures: " +
                                  JoinSignatures(candidates) + ")");
  }
  if (compatible.size() > 1) {
    return Status::InvalidRequest("Ambiguous call to function " + written +
                                  " (can be matched by following signatures: " +
                                  JoinSignatures(compatible) + "): use type casts to disambiguate");
  }
  return compatible[0];
}

bool IsValueCompatible(const DataType& receiver, const DataType& type) {
  if (receiver.kind() == type.kind() && receiver.params() == type.params()) return true;
  switch (receiver.kind()) {
    case TypeKind::kBlob:
      return true;
    case TypeKind::kText:
      return type.kind() == TypeKind::kAscii;
    case TypeKind::kUuid:
      return type.kind() == TypeKind::kTimeuuid;
    case TypeKind::kBigint:
      return type.kind() == TypeKind::kTimestamp;
    case TypeKind::kTimestamp:
      return type.kind() == TypeKind::kBigint;
    case TypeKind::kVarint:
      return IsIntegerFamily(type.kind());
    default:
      return false;
  }
}

Assignability TypeAssignability(const DataType& receiver, const DataType& type) {
  if (receiver.kind() == type.kind() && receiver.params() == type.params()) {
    return Assignability::kExactMatch;
  }
  return IsValueCompatible(receiver, type) ? Assignability::kWeaklyAssignable
                                           : Assignability::kNotAssignable;
}

}  // namespace cassette::cql
