#include "engine/schema/column_value.h"

#include <string>

#include "engine/types/type_codec.h"

namespace cassette {

namespace {

bool IsTextual(TypeKind kind) { return kind == TypeKind::kText || kind == TypeKind::kAscii; }

// Fixed-width types where every bit pattern of the right size is a valid
// value (ValidateValue checks only the size): most key and column values
// of a write, checked here without the general path's calls.
bool HasOnlyValidValuesOfSize(TypeKind kind, size_t size) {
  switch (kind) {
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
      return size == 8;
    case TypeKind::kDate:
    case TypeKind::kFloat:
    case TypeKind::kInt:
      return size == 4;
    case TypeKind::kUuid:
      return size == 16;
    case TypeKind::kSmallint:
      return size == 2;
    case TypeKind::kTinyint:
      return size == 1;
    default:
      return false;
  }
}

}  // namespace

bool ValueTypeFitsColumn(const DataType& column, const DataType& value) {
  if (column.kind() != value.kind()) return IsTextual(column.kind()) && IsTextual(value.kind());
  if (column.params().size() != value.params().size()) return false;
  for (size_t i = 0; i < column.params().size(); ++i) {
    if (!ValueTypeFitsColumn(column.params()[i], value.params()[i])) return false;
  }
  return true;
}

Status CheckValue(const ColumnDefinition& column, const Value& value, const char* what) {
  if (!value.is_null() && value.type().kind() == column.type.kind() &&
      HasOnlyValidValuesOfSize(column.type.kind(), value.bytes().size())) {
    return Status::OK();
  }
  if (value.is_null()) {
    return Status::InvalidRequest(std::string("Invalid null value for ") + what + " " +
                                  column.name);
  }
  if (!ValueTypeFitsColumn(column.type, value.type())) {
    return Status::InvalidRequest("Invalid value for " + std::string(what) + " " + column.name +
                                  ": expected " + column.type.ToString() + ", got " +
                                  value.type().ToString());
  }
  // A clustering value is comparable-encoded, where no empty value fits.
  Status s = column.kind == ColumnKind::kClustering ? ValidateValue(column.type, value.bytes())
                                                    : ValidateCellValue(column.type, value.bytes());
  if (!s.ok()) {
    return Status::InvalidRequest("Invalid value for " + std::string(what) + " " + column.name +
                                  ": " + s.message());
  }
  return Status::OK();
}

}  // namespace cassette
