// DecodeCursor: reads the row codec's primitives from untrusted bytes and
// turns any failure into a Corruption that names what was being read and
// the byte offset from where decoding started. Never reads out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cassette/status.h"
#include "engine/util/coding.h"

namespace cassette {

class DecodeCursor {
 public:
  explicit DecodeCursor(std::string_view in) : start_(in.data()), in_(in) {}

  std::string_view remaining() const { return in_; }
  size_t offset() const { return static_cast<size_t>(in_.data() - start_); }

  Status Error(std::string_view what) const {
    return Status::Corruption("mutation codec: " + std::string(what) + " at offset " +
                              std::to_string(offset()));
  }

  Status Byte(uint8_t* v, std::string_view what) {
    if (in_.empty()) return Error(std::string("truncated ") + std::string(what));
    *v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return Status::OK();
  }
  Status Varint(uint64_t* v, std::string_view what) {
    if (!GetVarint64(&in_, v)) return Error(std::string("bad varint in ") + std::string(what));
    return Status::OK();
  }
  // A zigzag varint delta added (wrapping) to `base`.
  Status Delta(int64_t base, int64_t* v, std::string_view what) {
    int64_t d;
    if (!GetSignedVarint64(&in_, &d)) {
      return Error(std::string("bad varint in ") + std::string(what));
    }
    *v = WrappingAdd(base, d);
    return Status::OK();
  }
  Status Bytes(std::string* v, std::string_view what) {
    std::string_view s;
    if (!GetLengthPrefixed(&in_, &s)) return Error(std::string("truncated ") + std::string(what));
    v->assign(s);
    return Status::OK();
  }

 private:
  const char* start_;
  std::string_view in_;
};

}  // namespace cassette
