// DecodeComparable: the inverse of comparable.cc's encodings, reading
// through any DESC inversion. Malformed input is Corruption naming the byte
// offset; nothing reads past the end.
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/collection_format.h"
#include "engine/types/comparable.h"
#include "engine/types/comparable_format.h"
#include "engine/types/type_codec.h"
#include "engine/util/coding.h"

namespace cassette {
namespace {

using namespace comparable_internal;  // NOLINT: shared helpers

// Reads the encoding back, undoing the DESC inversion as it goes.
class Reader {
 public:
  Reader(std::string_view in, bool descending) : in_(in), mask_(descending ? 0xFF : 0x00) {}
  bool Byte(uint8_t* b) {
    if (pos_ >= in_.size()) return false;
    *b = static_cast<uint8_t>(in_[pos_++]) ^ mask_;
    return true;
  }
  bool Bytes(size_t n, std::string* out) {
    if (in_.size() - pos_ < n) return false;
    for (size_t i = 0; i < n; ++i) out->push_back(static_cast<char>(in_[pos_ + i] ^ mask_));
    pos_ += n;
    return true;
  }
  bool BE(int n, uint64_t* v) {
    std::string b;
    if (!Bytes(n, &b)) return false;
    *v = ReadBE(b);
    return true;
  }
  size_t pos() const { return pos_; }

 private:
  std::string_view in_;
  uint8_t mask_;
  size_t pos_ = 0;
};

Status Bad(const DataType& type, const Reader& r) {
  return Status::Corruption("malformed comparable " + type.ToString() + " at byte " +
                            std::to_string(r.pos()));
}

Status Decode(const DataType& type, Reader* r, std::string* out, int depth);

Status DecodeEscaped(const DataType& type, Reader* r, std::string* out) {
  while (true) {
    uint8_t b;
    if (!r->Byte(&b)) return Bad(type, *r);
    if (b != 0) {
      out->push_back(static_cast<char>(b));
      continue;
    }
    if (!r->Byte(&b)) return Bad(type, *r);
    if (b == 0x00) return Status::OK();
    if (b != 0xFF) return Bad(type, *r);
    out->push_back('\0');
  }
}

Status DecodeVarint(const DataType& type, Reader* r, std::string* out) {
  uint8_t h;
  if (!r->Byte(&h)) return Bad(type, *r);
  uint64_t n;
  if (h == 0xFF) {
    if (!r->BE(4, &n) || n <= 126) return Bad(type, *r);
  } else if (h == 0x00) {
    if (!r->BE(4, &n)) return Bad(type, *r);
    n = ~n & 0xFFFFFFFFULL;
    if (n <= 126) return Bad(type, *r);
  } else if (h >= 0x81) {
    n = h - 0x80;
  } else if (h <= 0x7E) {
    n = 0x7F - h;
  } else {
    return Bad(type, *r);
  }
  std::string bytes;
  if (!r->Bytes(n, &bytes)) return Bad(type, *r);
  bool negative = static_cast<uint8_t>(bytes[0]) & 0x80;
  if (negative != (h < 0x80)) return Bad(type, *r);
  // The encoder writes the minimal form only: anything else was not written by it.
  if (!IsMinimalVarint(bytes)) return Bad(type, *r);
  out->append(bytes);
  return Status::OK();
}

Status DecodeDecimal(const DataType& type, Reader* r, std::string* out) {
  uint8_t sign_byte;
  if (!r->Byte(&sign_byte) || sign_byte > 2) return Bad(type, *r);
  NormalizedDecimal n;
  n.sign = static_cast<int>(sign_byte) - 1;
  if (n.sign != 0) {
    uint8_t flip = n.sign < 0 ? 0xFF : 0x00;
    std::string exp;
    if (!r->Bytes(8, &exp)) return Bad(type, *r);
    for (char& c : exp) c = static_cast<char>(c ^ flip);
    n.exponent = static_cast<int64_t>(ReadBE(exp) ^ (1ULL << 63));
    while (true) {
      uint8_t b;
      if (!r->Byte(&b)) return Bad(type, *r);
      b ^= flip;
      if (b == 0) break;
      if (b > 100) return Bad(type, *r);
      n.digits.push_back(static_cast<char>('0' + (b - 1) / 10));
      n.digits.push_back(static_cast<char>('0' + (b - 1) % 10));
    }
    if (!n.digits.empty() && n.digits.back() == '0') n.digits.pop_back();  // padding
    if (n.digits.empty() || n.digits[0] == '0' || n.digits.back() == '0') return Bad(type, *r);
  }
  uint64_t scale;
  if (!r->BE(4, &scale)) return Bad(type, *r);
  BigDecimal d;
  if (!BigDecimal::FromNormalized(n, static_cast<int32_t>(scale ^ 0x80000000u), &d)) {
    return Bad(type, *r);
  }
  out->append(d.Serialize());
  return Status::OK();
}

Status DecodeCollection(const DataType& type, Reader* r, std::string* out, int depth) {
  int per_entry = type.kind() == TypeKind::kMap ? 2 : 1;
  std::vector<std::string> values;
  while (true) {
    uint8_t marker;
    if (!r->Byte(&marker)) return Bad(type, *r);
    if (marker == 0x00) break;
    if (marker != 0x01) return Bad(type, *r);
    for (int k = 0; k < per_entry; ++k) {
      std::string value;
      CASSETTE_RETURN_IF_ERROR(Decode(type.params()[k], r, &value, depth + 1));
      values.push_back(std::move(value));
    }
  }
  PutBigEndian32(out, static_cast<uint32_t>(values.size() / per_entry));
  for (const std::string& v : values) AppendValue(out, v);
  return Status::OK();
}

Status DecodeTuple(const DataType& type, Reader* r, std::string* out, int depth) {
  for (size_t i = 0;; ++i) {
    uint8_t marker;
    if (!r->Byte(&marker)) return Bad(type, *r);
    if (marker == 0x00) return Status::OK();
    if (i >= type.params().size()) return Bad(type, *r);
    if (marker == 0x01) {
      PutBigEndian32(out, 0xFFFFFFFFu);
    } else if (marker == 0x02) {
      std::string value;
      CASSETTE_RETURN_IF_ERROR(Decode(type.params()[i], r, &value, depth + 1));
      AppendValue(out, value);
    } else {
      return Bad(type, *r);
    }
  }
}

Status Decode(const DataType& type, Reader* r, std::string* out, int depth) {
  if (depth > 32) return Bad(type, *r);
  uint64_t u;
  switch (type.kind()) {
    case TypeKind::kBoolean: {
      uint8_t b;
      if (!r->Byte(&b) || b > 1) return Bad(type, *r);
      out->push_back(static_cast<char>(b));
      return Status::OK();
    }
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
    case TypeKind::kTime: {
      int width = IntegerWidth(type.kind());
      size_t start = out->size();
      if (!r->Bytes(width, out)) return Bad(type, *r);
      (*out)[start] = static_cast<char>(static_cast<uint8_t>((*out)[start]) ^ 0x80);
      return Status::OK();
    }
    case TypeKind::kDate:
      if (!r->Bytes(4, out)) return Bad(type, *r);
      return Status::OK();
    case TypeKind::kFloat: {
      if (!r->BE(4, &u)) return Bad(type, *r);
      uint32_t t = static_cast<uint32_t>(u) + kFloatRotation;
      WriteBE(out, (t & 0x80000000u) ? (t ^ 0x80000000u) : ~t, 4);
      return Status::OK();
    }
    case TypeKind::kDouble: {
      if (!r->BE(8, &u)) return Bad(type, *r);
      uint64_t t = u + kDoubleRotation;
      WriteBE(out, (t >> 63) ? (t ^ (1ULL << 63)) : ~t, 8);
      return Status::OK();
    }
    case TypeKind::kUuid: {
      if (!r->BE(8, &u)) return Bad(type, *r);
      uint64_t version = u >> 60;
      uint64_t msb = version == 1
                         ? RestoreTimestamp(u)
                         : ((u & 0x0FFFFFFFFFFFF000ULL) << 4) | (version << 12) | (u & 0xFFF);
      WriteBE(out, msb, 8);
      if (!r->Bytes(8, out)) return Bad(type, *r);
      return Status::OK();
    }
    case TypeKind::kTimeuuid: {
      if (!r->BE(8, &u)) return Bad(type, *r);
      WriteBE(out, RestoreTimestamp(u), 8);
      size_t start = out->size();
      if (!r->Bytes(8, out)) return Bad(type, *r);
      for (size_t i = start; i < out->size(); ++i) (*out)[i] = static_cast<char>((*out)[i] ^ 0x80);
      return Status::OK();
    }
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kInet:
    case TypeKind::kDuration:
      return DecodeEscaped(type, r, out);
    case TypeKind::kVarint:
      return DecodeVarint(type, r, out);
    case TypeKind::kDecimal:
      return DecodeDecimal(type, r, out);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return DecodeCollection(type, r, out, depth);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return DecodeTuple(type, r, out, depth);
  }
  return Bad(type, *r);
}

}  // namespace

Status DecodeComparable(const DataType& type, bool descending, std::string_view* in,
                        std::string* serialized) {
  Reader r(*in, descending);
  std::string out;
  CASSETTE_RETURN_IF_ERROR(Decode(type, &r, &out, 0));
  // Well-formed bytes can still decode to a value outside the type (a time
  // past midnight, a timeuuid of another version, text that is not UTF-8,
  // an unsorted set): such a clustering or path never came from an
  // encoder, so it is corruption, not a value to serve.
  if (Status valid = ValidateValue(type, out); !valid.ok()) {
    return Status::Corruption("malformed comparable " + type.ToString() +
                              " at byte 0: " + valid.message());
  }
  in->remove_prefix(r.pos());
  *serialized = std::move(out);
  return Status::OK();
}

}  // namespace cassette
