// WrappedInteger: a value of a fixed-width CQL integer type from a 64-bit
// result, shared by CAST and the sum/avg aggregates.
#pragma once

#include <cstdint>

#include "cassette/value.h"

namespace cassette::cql {

// tinyint, smallint, int or counter of `kind`, any other kind a bigint;
// narrowing wraps as Java's casts do.
inline Value WrappedInteger(TypeKind kind, int64_t v) {
  switch (kind) {
    case TypeKind::kTinyint:
      return Value::Tinyint(static_cast<int8_t>(v));
    case TypeKind::kSmallint:
      return Value::Smallint(static_cast<int16_t>(v));
    case TypeKind::kInt:
      return Value::Int(static_cast<int32_t>(v));
    case TypeKind::kCounter:
      return Value::Counter(v);
    default:
      return Value::Bigint(v);
  }
}

}  // namespace cassette::cql
