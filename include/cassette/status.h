// Status and Result<T>: errors are values. Every fallible call in cassette
// returns one; no exception crosses the public API.
//
// The error classes are Cassandra's where Cassandra has one, so an embedder
// (and the shell's json output) can report the same class a Cassandra driver
// would see. Thread-compatible: a Status is a plain value.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cassette {

class [[nodiscard]] Status {
 public:
  // On-the-wire class of an error. Do not renumber: codes appear in logs.
  enum class Code : unsigned char {
    kOk = 0,
    kInvalidRequest = 1,      // Cassandra InvalidRequest: bad statement or argument
    kSyntaxError = 2,         // Cassandra SyntaxException
    kConfigurationError = 3,  // Cassandra ConfigurationException: bad schema option
    kAlreadyExists = 4,       // Cassandra AlreadyExists
    kNotFound = 5,            // a missing file; never a missing row
    kCorruption = 6,          // on-disk bytes failed a check (names file and offset)
    kIOError = 7,             // the file system failed (names the path)
    kNotSupported = 8,
    kBusy = 9,              // e.g. the data directory is locked by another process
    kReadFailure = 10,      // Cassandra ReadFailure (e.g. too many tombstones)
    kWriteFailure = 11,     // Cassandra WriteFailure
    kUnavailable = 12,      // Cassandra Unavailable
    kInvalidArgument = 13,  // bad option value passed to the C++ API
    kFunctionFailure = 14,  // Cassandra FunctionFailure: a function or operation failed
  };

  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status InvalidRequest(std::string m) { return {Code::kInvalidRequest, std::move(m)}; }
  static Status SyntaxError(std::string m) { return {Code::kSyntaxError, std::move(m)}; }
  static Status ConfigurationError(std::string m) {
    return {Code::kConfigurationError, std::move(m)};
  }
  static Status AlreadyExists(std::string m) { return {Code::kAlreadyExists, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {Code::kIOError, std::move(m)}; }
  static Status NotSupported(std::string m) { return {Code::kNotSupported, std::move(m)}; }
  static Status Busy(std::string m) { return {Code::kBusy, std::move(m)}; }
  static Status ReadFailure(std::string m) { return {Code::kReadFailure, std::move(m)}; }
  static Status WriteFailure(std::string m) { return {Code::kWriteFailure, std::move(m)}; }
  static Status Unavailable(std::string m) { return {Code::kUnavailable, std::move(m)}; }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status FunctionFailure(std::string m) { return {Code::kFunctionFailure, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  bool IsInvalidRequest() const { return code_ == Code::kInvalidRequest; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsBusy() const { return code_ == Code::kBusy; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }

  // Cassandra's name of the class ("InvalidRequest", "SyntaxException", ...).
  std::string_view ClassName() const;
  // "<class>: <message>", or "OK".
  std::string ToString() const;

  // Marks a deliberately dropped error; greppable.
  void IgnoreError() const {}

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

// A value or the error that prevented it. REQUIRES for value(): ok().
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "Result needs a value or an error");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace cassette

#define CASSETTE_CONCAT_INNER_(a, b) a##b
#define CASSETTE_CONCAT_(a, b) CASSETTE_CONCAT_INNER_(a, b)

#define CASSETTE_RETURN_IF_ERROR(expr)           \
  do {                                           \
    ::cassette::Status _cassette_st = (expr);    \
    if (!_cassette_st.ok()) return _cassette_st; \
  } while (0)

#define CASSETTE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()

#define CASSETTE_ASSIGN_OR_RETURN(lhs, expr) \
  CASSETTE_ASSIGN_OR_RETURN_IMPL_(CASSETTE_CONCAT_(_cassette_r, __LINE__), lhs, expr)
