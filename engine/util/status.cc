#include "cassette/status.h"

namespace cassette {

std::string_view Status::ClassName() const {
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kInvalidRequest:
      return "InvalidRequest";
    case Code::kSyntaxError:
      return "SyntaxException";
    case Code::kConfigurationError:
      return "ConfigurationException";
    case Code::kAlreadyExists:
      return "AlreadyExists";
    case Code::kNotFound:
      return "NotFound";
    case Code::kCorruption:
      return "Corruption";
    case Code::kIOError:
      return "IOError";
    case Code::kNotSupported:
      return "NotSupported";
    case Code::kBusy:
      return "Busy";
    case Code::kReadFailure:
      return "ReadFailure";
    case Code::kWriteFailure:
      return "WriteFailure";
    case Code::kUnavailable:
      return "Unavailable";
    case Code::kInvalidArgument:
      return "InvalidArgument";
    case Code::kFunctionFailure:
      return "FunctionFailure";
  }
  // A code outside the enum can only come from a cast of a corrupt byte;
  // name it rather than crash.
  return "Unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(ClassName());
  out += ": ";
  out += message_;
  return out;
}

}  // namespace cassette
