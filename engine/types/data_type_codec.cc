// Binary form of a DataType for the schema file:
//   [u8 kind][u8 flags: bit 0 = frozen][varint param count][params...]
// and for a user type (kind 25) then: [lp keyspace][lp name][lp field name]
// per parameter (the parameters are the field types).
// Kinds are TypeKind's values (do not renumber). Nesting is capped so a
// corrupt file cannot exhaust the stack.
#include "cassette/value.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

constexpr int kMaxNesting = 32;

Status Corrupt(const char* what) {
  return Status::Corruption(std::string("bad data type encoding: ") + what);
}

Status Decode(std::string_view* in, DataType* type, int depth) {
  if (depth > kMaxNesting) return Corrupt("nested too deeply");
  if (in->size() < 2) return Corrupt("truncated");
  uint8_t kind_byte = static_cast<uint8_t>((*in)[0]);
  uint8_t flags = static_cast<uint8_t>((*in)[1]);
  in->remove_prefix(2);
  if (kind_byte < static_cast<uint8_t>(TypeKind::kAscii) ||
      kind_byte > static_cast<uint8_t>(TypeKind::kUdt)) {
    return Corrupt("unknown kind");
  }
  if (flags > 1) return Corrupt("unknown flags");
  TypeKind kind = static_cast<TypeKind>(kind_byte);
  bool frozen = flags & 1;
  uint64_t n;
  if (!GetVarint64(in, &n)) return Corrupt("truncated parameter count");
  if (n > 1024) return Corrupt("too many parameters");
  std::vector<DataType> params(n);
  for (uint64_t i = 0; i < n; ++i) CASSETTE_RETURN_IF_ERROR(Decode(in, &params[i], depth + 1));
  switch (kind) {
    case TypeKind::kList:
    case TypeKind::kSet:
      if (n != 1) return Corrupt("collection needs one parameter");
      *type = kind == TypeKind::kList ? DataType::List(params[0], frozen)
                                      : DataType::Set(params[0], frozen);
      return Status::OK();
    case TypeKind::kMap:
      if (n != 2) return Corrupt("map needs two parameters");
      *type = DataType::Map(params[0], params[1], frozen);
      return Status::OK();
    case TypeKind::kTuple:
      if (n == 0 || !frozen) return Corrupt("bad tuple");
      *type = DataType::Tuple(std::move(params));
      return Status::OK();
    case TypeKind::kUdt: {
      std::string_view keyspace, name;
      if (!GetLengthPrefixed(in, &keyspace) || !GetLengthPrefixed(in, &name) || name.empty()) {
        return Corrupt("bad user type name");
      }
      std::vector<std::string> fields(n);
      for (std::string& field : fields) {
        std::string_view f;
        if (!GetLengthPrefixed(in, &f)) return Corrupt("truncated user type field");
        field.assign(f);
      }
      *type = DataType::UserType(std::string(keyspace), std::string(name), std::move(fields),
                                 std::move(params), frozen);
      return Status::OK();
    }
    default:
      if (n != 0 || frozen) return Corrupt("scalar with parameters");
      *type = DataType::Of(kind);
      return Status::OK();
  }
}

}  // namespace

void EncodeDataType(const DataType& type, std::string* out) {
  out->push_back(static_cast<char>(type.kind()));
  out->push_back(static_cast<char>(type.frozen() ? 1 : 0));
  PutVarint64(out, type.params().size());
  for (const DataType& p : type.params()) EncodeDataType(p, out);
  if (type.IsUserType()) {
    PutLengthPrefixed(out, type.udt_keyspace());
    PutLengthPrefixed(out, type.udt_name());
    for (const std::string& field : type.field_names()) PutLengthPrefixed(out, field);
  }
}

Status DecodeDataType(std::string_view* in, DataType* type) { return Decode(in, type, 0); }

}  // namespace cassette
