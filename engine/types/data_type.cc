// DataType: CQL type syntax (parse and print) and freezing.
#include <cctype>
#include <string>
#include <vector>

#include "cassette/value.h"

namespace cassette {
namespace {

// A type as written, before validation: name<params...>.
struct RawType {
  std::string name;  // lowercased
  std::vector<RawType> params;
};

std::string RawText(const RawType& r) {
  std::string out = r.name;
  if (!r.params.empty()) {
    out += '<';
    for (size_t i = 0; i < r.params.size(); ++i) {
      if (i > 0) out += ", ";
      out += RawText(r.params[i]);
    }
    out += '>';
  }
  return out;
}

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  Result<RawType> ParseAll() {
    RawType r;
    CASSETTE_RETURN_IF_ERROR(Parse(&r, 0));
    SkipSpace();
    if (pos_ != text_.size()) return Error();
    return r;
  }

 private:
  static constexpr int kMaxDepth = 32;

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status Error() const { return Status::SyntaxError("Invalid type '" + std::string(text_) + "'"); }

  Status Parse(RawType* r, int depth) {
    if (depth > kMaxDepth) return Error();
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    if (pos_ == start || std::isdigit(static_cast<unsigned char>(text_[start]))) return Error();
    // A user type may be qualified by its keyspace (ks.name).
    if (pos_ + 1 < text_.size() && text_[pos_] == '.' &&
        (std::isalpha(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == '_')) {
      ++pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
    }
    for (size_t i = start; i < pos_; ++i) {
      r->name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text_[i]))));
    }
    if (!Consume('<')) return Status::OK();
    do {
      RawType p;
      CASSETTE_RETURN_IF_ERROR(Parse(&p, depth + 1));
      r->params.push_back(std::move(p));
    } while (Consume(','));
    if (!Consume('>')) return Error();
    return Status::OK();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool LookupScalar(const std::string& name, TypeKind* kind) {
  static constexpr struct {
    const char* name;
    TypeKind kind;
  } kScalars[] = {
      {"ascii", TypeKind::kAscii},         {"bigint", TypeKind::kBigint},
      {"blob", TypeKind::kBlob},           {"boolean", TypeKind::kBoolean},
      {"counter", TypeKind::kCounter},     {"date", TypeKind::kDate},
      {"decimal", TypeKind::kDecimal},     {"double", TypeKind::kDouble},
      {"duration", TypeKind::kDuration},   {"float", TypeKind::kFloat},
      {"inet", TypeKind::kInet},           {"int", TypeKind::kInt},
      {"smallint", TypeKind::kSmallint},   {"text", TypeKind::kText},
      {"varchar", TypeKind::kText},        {"time", TypeKind::kTime},
      {"timestamp", TypeKind::kTimestamp}, {"timeuuid", TypeKind::kTimeuuid},
      {"tinyint", TypeKind::kTinyint},     {"uuid", TypeKind::kUuid},
      {"varint", TypeKind::kVarint},
  };
  for (const auto& s : kScalars) {
    if (name == s.name) {
      *kind = s.kind;
      return true;
    }
  }
  return false;
}

bool IsComposite(const std::string& name) {
  return name == "list" || name == "set" || name == "map" || name == "tuple";
}

// A type as Cassandra prints it in its messages (CQL3Type.Raw's toString):
// as written, except that a collection or user type inside frozen<> (which
// freezes everything it holds) reads "frozen<...>" itself, so a counter in
// frozen<set<counter>> is reported in "frozen<set<counter>>", not "set<counter>".
std::string MessageText(const RawType& r, bool frozen) {
  if (r.name == "frozen" && r.params.size() == 1) return MessageText(r.params[0], true);
  const bool tuple = r.name == "tuple";
  std::string out = r.name;
  if (!r.params.empty()) {
    out += '<';
    for (size_t i = 0; i < r.params.size(); ++i) {
      if (i > 0) out += ", ";
      out += MessageText(r.params[i], frozen || tuple);
    }
    out += '>';
  }
  TypeKind scalar;
  if (!frozen || tuple || LookupScalar(r.name, &scalar)) return out;
  return "frozen<" + out + ">";
}

// The user types a type may name: a keyspace's.
struct UserTypeScope {
  std::string keyspace;
  const std::vector<DataType>* types;
};

// The user type `name` (maybe ks.name) among `user_types`, or null.
const DataType* FindUserType(const std::string& name, const UserTypeScope* user_types) {
  if (user_types == nullptr) return nullptr;
  const size_t dot = name.find('.');
  const std::string keyspace = dot == std::string::npos ? "" : name.substr(0, dot);
  const std::string type = dot == std::string::npos ? name : name.substr(dot + 1);
  if (!keyspace.empty() && keyspace != user_types->keyspace) return nullptr;
  for (const DataType& t : *user_types->types) {
    if (t.udt_name() == type) return &t;
  }
  return nullptr;
}

// Applies Cassandra's rules while turning a RawType into a DataType.
// `freeze` is set inside frozen<> and tuples, where nested collections are
// frozen implicitly. `user_types`: the names other than CQL's own (may be null).
Result<DataType> Convert(const RawType& r, bool freeze, const UserTypeScope* user_types) {
  if (r.name == "frozen") {
    if (r.params.size() != 1) {
      return Status::SyntaxError("Invalid type '" + RawText(r) + "'");
    }
    const RawType& inner = r.params[0];
    TypeKind scalar;
    if (!IsComposite(inner.name) && (LookupScalar(inner.name, &scalar) || !inner.params.empty())) {
      return Status::InvalidRequest(
          "frozen<> is only allowed on collections, tuples, and user-defined types (got " +
          RawText(inner) + ")");
    }
    return Convert(inner, true, user_types);
  }
  if (!IsComposite(r.name)) {
    TypeKind kind;
    if (!LookupScalar(r.name, &kind)) {
      const size_t dot = r.name.find('.');
      if (user_types != nullptr && dot != std::string::npos &&
          r.name.substr(0, dot) != user_types->keyspace) {
        return Status::InvalidRequest(
            "Statement on keyspace " + user_types->keyspace +
            " cannot refer to a user type in keyspace " + r.name.substr(0, dot) +
            "; user types can only be used in the keyspace they are defined in");
      }
      const DataType* user_type = FindUserType(r.name, user_types);
      if (user_type == nullptr || !r.params.empty()) {
        // Cassandra names an unknown user type with its keyspace.
        const bool qualify = user_types != nullptr && r.name.find('.') == std::string::npos;
        return Status::InvalidRequest(
            "Unknown type " + (qualify ? user_types->keyspace + "." : std::string()) + r.name);
      }
      return freeze ? user_type->Frozen() : *user_type;
    }
    if (!r.params.empty()) return Status::SyntaxError("Invalid type '" + RawText(r) + "'");
    return DataType::Of(kind);
  }
  bool is_tuple = r.name == "tuple";
  size_t want = r.name == "map" ? 2 : 1;
  if (r.params.empty() || (!is_tuple && r.params.size() != want)) {
    return Status::SyntaxError("Invalid type '" + RawText(r) + "'");
  }
  std::vector<DataType> params;
  for (const RawType& p : r.params) {
    CASSETTE_ASSIGN_OR_RETURN(DataType t, Convert(p, freeze || is_tuple, user_types));
    if (t.IsCollection() && !t.frozen()) {
      return Status::InvalidRequest("Non-frozen collections are not allowed inside collections: " +
                                    MessageText(r, freeze));
    }
    if (t.IsUserType() && !t.frozen()) {
      return Status::InvalidRequest("Non-frozen UDTs are not allowed inside collections: " +
                                    MessageText(r, freeze));
    }
    if (t.kind() == TypeKind::kCounter) {
      return Status::InvalidRequest(is_tuple ? "Counters are not allowed inside tuples"
                                             : "Counters are not allowed inside collections: " +
                                                   MessageText(r, freeze));
    }
    params.push_back(std::move(t));
  }
  if (r.name == "set" && params[0].kind() == TypeKind::kDuration) {
    return Status::InvalidRequest("Durations are not allowed inside sets: " +
                                  MessageText(r, freeze));
  }
  if (r.name == "map" && params[0].kind() == TypeKind::kDuration) {
    return Status::InvalidRequest("Durations are not allowed as map keys: " +
                                  MessageText(r, freeze));
  }
  if (is_tuple) return DataType::Tuple(std::move(params));
  if (r.name == "list") return DataType::List(std::move(params[0]), freeze);
  if (r.name == "set") return DataType::Set(std::move(params[0]), freeze);
  return DataType::Map(std::move(params[0]), std::move(params[1]), freeze);
}

const char* ScalarName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kAscii:
      return "ascii";
    case TypeKind::kBigint:
      return "bigint";
    case TypeKind::kBlob:
      return "blob";
    case TypeKind::kBoolean:
      return "boolean";
    case TypeKind::kCounter:
      return "counter";
    case TypeKind::kDate:
      return "date";
    case TypeKind::kDecimal:
      return "decimal";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kDuration:
      return "duration";
    case TypeKind::kFloat:
      return "float";
    case TypeKind::kInet:
      return "inet";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kSmallint:
      return "smallint";
    case TypeKind::kText:
      return "text";
    case TypeKind::kTime:
      return "time";
    case TypeKind::kTimestamp:
      return "timestamp";
    case TypeKind::kTimeuuid:
      return "timeuuid";
    case TypeKind::kTinyint:
      return "tinyint";
    case TypeKind::kUuid:
      return "uuid";
    case TypeKind::kVarint:
      return "varint";
    case TypeKind::kList:
      return "list";
    case TypeKind::kSet:
      return "set";
    case TypeKind::kMap:
      return "map";
    case TypeKind::kTuple:
      return "tuple";
    case TypeKind::kUdt:
      return "udt";
  }
  return "unknown";
}

}  // namespace

Result<DataType> DataType::Parse(std::string_view cql) {
  TypeParser parser(cql);
  CASSETTE_ASSIGN_OR_RETURN(RawType raw, parser.ParseAll());
  return Convert(raw, false, nullptr);
}

Result<DataType> DataType::Parse(std::string_view cql, std::string_view keyspace,
                                 const std::vector<DataType>& user_types) {
  TypeParser parser(cql);
  CASSETTE_ASSIGN_OR_RETURN(RawType raw, parser.ParseAll());
  UserTypeScope scope{std::string(keyspace), &user_types};
  return Convert(raw, false, &scope);
}

DataType DataType::UserType(std::string keyspace, std::string name,
                            std::vector<std::string> field_names, std::vector<DataType> field_types,
                            bool frozen) {
  DataType t(TypeKind::kUdt, std::move(field_types), frozen);
  t.udt_ = std::make_shared<const UserTypeNames>(
      UserTypeNames{std::move(keyspace), std::move(name), std::move(field_names)});
  return t;
}

namespace {
const std::string& EmptyString() {
  static const std::string* const empty = new std::string();
  return *empty;
}
}  // namespace

const std::string& DataType::udt_keyspace() const {
  return udt_ != nullptr ? udt_->keyspace : EmptyString();
}
const std::string& DataType::udt_name() const {
  return udt_ != nullptr ? udt_->name : EmptyString();
}
const std::vector<std::string>& DataType::field_names() const {
  static const std::vector<std::string>* const none = new std::vector<std::string>();
  return udt_ != nullptr ? udt_->fields : *none;
}

int DataType::FieldIndex(std::string_view name) const {
  const std::vector<std::string>& names = field_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

bool DataType::References(std::string_view keyspace, std::string_view name) const {
  if (IsUserType() && udt_keyspace() == keyspace && udt_name() == name) return true;
  for (const DataType& p : params_) {
    if (p.References(keyspace, name)) return true;
  }
  return false;
}

DataType DataType::ReplacingUserType(const DataType& updated) const {
  if (!References(updated.udt_keyspace(), updated.udt_name())) return *this;
  if (IsUserType() && udt_keyspace() == updated.udt_keyspace() &&
      udt_name() == updated.udt_name()) {
    return frozen_ ? updated.Frozen() : updated;
  }
  std::vector<DataType> params;
  params.reserve(params_.size());
  for (const DataType& p : params_) params.push_back(p.ReplacingUserType(updated));
  DataType replaced(kind_, std::move(params), frozen_);
  replaced.udt_ = udt_;
  return replaced;
}

bool DataType::SameUserTypeNames(const DataType& a, const DataType& b) {
  if (a.udt_ == b.udt_) return true;
  if (a.udt_ == nullptr || b.udt_ == nullptr) return false;
  return a.udt_->keyspace == b.udt_->keyspace && a.udt_->name == b.udt_->name &&
         a.udt_->fields == b.udt_->fields;
}

DataType DataType::Frozen() const {
  if (!IsCollection() && kind_ != TypeKind::kTuple && kind_ != TypeKind::kUdt) return *this;
  std::vector<DataType> params;
  params.reserve(params_.size());
  for (const DataType& p : params_) params.push_back(p.Frozen());
  DataType frozen(kind_, std::move(params), true);
  frozen.udt_ = udt_;
  return frozen;
}

std::string DataType::ToString() const {
  if (kind_ == TypeKind::kUdt) {
    // Cassandra names a user type by its name alone (its keyspace is the table's).
    return frozen_ ? "frozen<" + udt_name() + ">" : udt_name();
  }
  if (!IsCollection() && kind_ != TypeKind::kTuple) return ScalarName(kind_);
  std::string out = ScalarName(kind_);
  out += '<';
  for (size_t i = 0; i < params_.size(); ++i) {
    if (i > 0) out += ", ";
    out += params_[i].ToString();
  }
  out += '>';
  // Tuples are always frozen and DESCRIBE spells it out, as Cassandra does.
  if (frozen_ || kind_ == TypeKind::kTuple) out = "frozen<" + out + ">";
  return out;
}

}  // namespace cassette
