// DecodeCursor: reads the row codec's primitives from untrusted bytes and
// turns any failure into a Corruption that names what was being read and
// the byte offset from where decoding started. Never reads out of bounds.
//
// The primitives return false on failure, having recorded the error
// (status()); decoders return false up the stack. Well-formed input (every
// row of every read and compaction) then costs a test and a branch per
// primitive, and the messages are only built, out of line, for bad input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/mutation/row_codec.h"
#include "engine/util/coding.h"

namespace cassette {

class DecodeCursor {
 public:
  explicit DecodeCursor(std::string_view in) : start_(in.data()), in_(in) {}

  std::string_view remaining() const { return in_; }
  size_t offset() const { return static_cast<size_t>(in_.data() - start_); }
  // The first failure recorded (OK while there was none).
  const Status& status() const { return status_; }

  // Records "<what> at offset N" as the failure (the first one wins) and
  // returns false.
  [[gnu::cold, gnu::noinline]] bool Fail(std::string_view what) {
    if (status_.ok()) {
      status_ = Status::Corruption("mutation codec: " + std::string(what) + " at offset " +
                                   std::to_string(offset()));
    }
    return false;
  }

  bool Byte(uint8_t* v, std::string_view what) {
    if (in_.empty()) [[unlikely]] {
      *v = 0;  // defined on every path, so inlined callers need no init
      return Truncated(what);
    }
    *v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return true;
  }
  bool Varint(uint64_t* v, std::string_view what) {
    if (!in_.empty() && static_cast<uint8_t>(in_[0]) < 0x80) [[likely]] {
      *v = static_cast<uint8_t>(in_[0]);
      in_.remove_prefix(1);
      return true;
    }
    if (!GetVarint64(&in_, v)) [[unlikely]] {
      *v = 0;
      return BadVarint(what);
    }
    return true;
  }
  // A zigzag varint delta added (wrapping) to `base`, which is the
  // EncodingStats field `kind` (recorded, see RecordDeltas).
  bool Delta(int64_t base, int64_t* v, std::string_view what,
             DeltaField::Base kind = DeltaField::kTimestamp) {
    const size_t begin = offset();
    uint64_t u;
    const bool ok = Varint(&u, what);
    *v = WrappingAdd(base, ZigZagDecode(u));
    if (fields_ != nullptr && ok) {
      fields_->push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(offset()), kind, *v});
    }
    return ok;
  }
  // Records every Delta read from now on into *fields (null: stop).
  void RecordDeltas(std::vector<DeltaField>* fields) { fields_ = fields; }
  // A length-prefixed byte string, as a view into the input.
  bool BytesView(std::string_view* v, std::string_view what) {
    if (!in_.empty() && static_cast<uint8_t>(in_[0]) < 0x80) [[likely]] {
      size_t n = static_cast<uint8_t>(in_[0]);
      // Knowing n < 128, GCC inlines copies of the bytes as `rep movsq`,
      // whose start-up cost dwarfs a short value; hiding the bound keeps
      // them calls to the library's memcpy.
      asm("" : "+r"(n));
      if (n < in_.size()) [[likely]] {
        *v = in_.substr(1, n);
        in_.remove_prefix(n + 1);
        return true;
      }
    }
    if (!GetLengthPrefixed(&in_, v)) [[unlikely]] {
      return Truncated(what);
    }
    return true;
  }
  bool Bytes(std::string* v, std::string_view what) {
    std::string_view s;
    if (!BytesView(&s, what)) return false;
    v->assign(s);
    return true;
  }

 private:
  [[gnu::cold, gnu::noinline]] bool Truncated(std::string_view what) {
    return Fail("truncated " + std::string(what));
  }
  [[gnu::cold, gnu::noinline]] bool BadVarint(std::string_view what) {
    return Fail("bad varint in " + std::string(what));
  }

  const char* start_;
  std::string_view in_;
  Status status_;
  std::vector<DeltaField>* fields_ = nullptr;
};

}  // namespace cassette
