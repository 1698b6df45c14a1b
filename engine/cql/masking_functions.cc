// Cassandra 5's data-masking functions (MaskingFcts), as selector
// functions: mask_null(v) (always null), mask_default(v) (a fixed value of
// v's type, whatever v is: '****', 0, false, the epoch, the zero uuid,
// empty collections, tuples of masked components), mask_replace(v, r)
// (r, of v's type), mask_inner(s, begin, end[, padding]) and
// mask_outer(s, begin, end[, padding]) over text and ascii (the characters
// but the first `begin` and last `end` replaced by the padding, '*' by
// default, or only those), and mask_hash(v[, algorithm]) (the digest of v's
// serialized bytes, a blob: SHA-256 by default, or SHA-224, SHA-384 or
// SHA-512; Java's MessageDigest also offers MD5 and SHA-1, not here).
// Columns declared MASKED WITH are not supported: these functions are
// called explicitly.
#include <string>
#include <vector>

#include "engine/cql/function_registry.h"
#include "engine/cql/time_functions.h"
#include "engine/types/big_decimal.h"
#include "engine/types/type_codec.h"
#include "engine/util/sha2.h"

namespace cassette::cql {
namespace {

// The serialized masked value of a type (AbstractType.getMaskedValue).
std::string MaskedBytes(const DataType& type) {
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return "****";
    case TypeKind::kBoolean:
      return Value::Boolean(false).bytes();
    case TypeKind::kTinyint:
      return Value::Tinyint(0).bytes();
    case TypeKind::kSmallint:
      return Value::Smallint(0).bytes();
    case TypeKind::kInt:
      return Value::Int(0).bytes();
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      return Value::Bigint(0).bytes();
    case TypeKind::kFloat:
      return Value::Float(0).bytes();
    case TypeKind::kDouble:
      return Value::Double(0).bytes();
    case TypeKind::kVarint:
      return std::string(1, '\0');
    case TypeKind::kDecimal:
      return BigDecimal{}.Serialize();
    case TypeKind::kDate:
      return Value::Date(0).bytes();
    case TypeKind::kTime:
      return Value::Time(0).bytes();
    case TypeKind::kTimestamp:
      return Value::Timestamp(0).bytes();
    case TypeKind::kUuid:
      return std::string(16, '\0');
    case TypeKind::kTimeuuid:
      return Value::Timeuuid(MinTimeuuid(0)).bytes();
    case TypeKind::kInet:
      return std::string(4, '\0');  // 0.0.0.0
    case TypeKind::kDuration:
      return Value::Duration(0, 0, 0).bytes();
    case TypeKind::kList:
      return Value::List(type.params()[0], {}).bytes();
    case TypeKind::kSet:
      return Value::Set(type.params()[0], {}).bytes();
    case TypeKind::kMap:
      return Value::Map(type.params()[0], type.params()[1], {}).bytes();
    case TypeKind::kTuple:
    case TypeKind::kUdt: {  // a user type value is serialized as the tuple of its fields
      std::vector<std::optional<std::string>> components;
      for (const DataType& component : type.params())
        components.emplace_back(MaskedBytes(component));
      return SerializeTuple(components);
    }
    case TypeKind::kBlob:
      break;
  }
  return "";
}

Result<Value> MaskNull(const NativeFunction& self, const std::vector<Value>&,
                       const FunctionContext&) {
  return Value::Null(self.return_type);
}

Result<Value> MaskDefault(const NativeFunction& self, const std::vector<Value>&,
                          const FunctionContext&) {
  return Value::FromBytes(self.return_type, MaskedBytes(self.return_type));
}

Result<Value> MaskReplace(const NativeFunction&, const std::vector<Value>& arguments,
                          const FunctionContext&) {
  return arguments[1];
}

// The UTF-8 characters of a string (Java counts UTF-16 units: the two
// differ only past the Basic Multilingual Plane).
std::vector<std::string> Characters(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    out.push_back(text.substr(i, length));
    i += length;
  }
  return out;
}

// mask_inner masks all but the first `begin` and last `end` characters,
// mask_outer only those (PartialMaskingFunction.Kind).
Result<Value> MaskPartial(const NativeFunction& self, const std::vector<Value>& arguments,
                          const FunctionContext&) {
  const Value& value = arguments[0];
  if (value.is_null()) return Value::Null(self.return_type);
  const int64_t begin = arguments[1].is_null() ? 0 : arguments[1].AsInt64();
  const int64_t end = arguments[2].is_null() ? 0 : arguments[2].AsInt64();
  std::string padding = "*";
  if (arguments.size() > 3 && !arguments[3].is_null()) {
    const std::string& given = arguments[3].bytes();
    const size_t length = Characters(given).size();
    if (length != 1) {
      return Status::InvalidRequest("The padding argument for function " + self.QualifiedName() +
                                    " should be single-character, but '" + given + "' has " +
                                    std::to_string(length) + " characters.");
    }
    padding = given;
  }
  const std::vector<std::string> characters = Characters(value.bytes());
  const int64_t last_kept = static_cast<int64_t>(characters.size()) - 1 - end;
  const bool inner = self.name == "mask_inner";
  std::string masked;
  for (size_t i = 0; i < characters.size(); ++i) {
    const auto position = static_cast<int64_t>(i);
    const bool in_middle = position >= begin && position <= last_kept;
    masked += in_middle == inner ? padding : characters[i];
  }
  Status valid = ValidateValue(self.return_type, masked);
  if (!valid.ok()) {
    return Status::InvalidRequest("In call to function " + self.QualifiedName() + ", " +
                                  valid.message());
  }
  return Value::FromBytes(self.return_type, masked);
}

Result<Value> MaskHash(const NativeFunction& self, const std::vector<Value>& arguments,
                       const FunctionContext&) {
  const std::string algorithm =
      arguments.size() > 1 && !arguments[1].is_null() ? arguments[1].bytes() : "SHA-256";
  // The algorithm is checked even for a null value, as Java's
  // MessageDigest.getInstance runs first.
  std::optional<std::string> digest = Sha2Digest(algorithm, arguments[0].bytes());
  if (!digest) return Status::InvalidRequest("Hash algorithm not found: " + algorithm);
  if (arguments[0].is_null()) return Value::Null(self.return_type);
  return Value::Blob(*digest);
}

Result<NativeFunction> MakeSameType(const std::string& name, const std::vector<DataType>& types,
                                    const std::optional<DataType>&) {
  return NativeFunction{name, types, types[0], name == "mask_null" ? MaskNull : MaskDefault};
}

Result<NativeFunction> MakeReplace(const std::string& name, const std::vector<DataType>& types,
                                   const std::optional<DataType>&) {
  return NativeFunction{name, types, types[1], MaskReplace};
}

Result<NativeFunction> MakePartial(const std::string& name, const std::vector<DataType>& types,
                                   const std::optional<DataType>&) {
  return NativeFunction{name, types, types[0], MaskPartial};
}

Result<NativeFunction> MakeHash(const std::string& name, const std::vector<DataType>& types,
                                const std::optional<DataType>&) {
  return NativeFunction{name, types, DataType::Blob(), MaskHash};
}

}  // namespace

void AddMaskingFunctions(NativeFunctionTable* table) {
  using Kind = FunctionParameter::Kind;
  const FunctionParameter any = FunctionParameter::Of(Kind::kAny);
  const FunctionParameter int_parameter = FunctionParameter::Fixed(DataType::Int());
  const FunctionParameter optional_text =
      FunctionParameter::Optional(FunctionParameter::Fixed(DataType::Text()));
  table->AddFactory({"mask_null", {any}, MakeSameType});
  table->AddFactory({"mask_default", {any}, MakeSameType});
  table->AddFactory(
      {"mask_replace",
       {FunctionParameter::Of(Kind::kAnyOrReceiver), FunctionParameter::Of(Kind::kSameAsFirst)},
       MakeReplace});
  for (const char* name : {"mask_inner", "mask_outer"}) {
    table->AddFactory(
        {name,
         {FunctionParameter::Of(Kind::kString), int_parameter, int_parameter, optional_text},
         MakePartial});
  }
  table->AddFactory({"mask_hash", {any, optional_text}, MakeHash});
}

}  // namespace cassette::cql
