#include "cassette/status.h"

#include <array>

#include <gtest/gtest.h>

namespace cassette {
namespace {

TEST(StatusTest, ClassNamesAreCassandras) {
  using C = Status::Code;
  const std::array<std::pair<C, std::string_view>, 15> cases = {{
      {C::kOk, "OK"},
      {C::kInvalidRequest, "InvalidRequest"},
      {C::kSyntaxError, "SyntaxException"},
      {C::kConfigurationError, "ConfigurationException"},
      {C::kAlreadyExists, "AlreadyExists"},
      {C::kNotFound, "NotFound"},
      {C::kCorruption, "Corruption"},
      {C::kIOError, "IOError"},
      {C::kNotSupported, "NotSupported"},
      {C::kBusy, "Busy"},
      {C::kReadFailure, "ReadFailure"},
      {C::kWriteFailure, "WriteFailure"},
      {C::kUnavailable, "Unavailable"},
      {C::kInvalidArgument, "InvalidArgument"},
      {C::kFunctionFailure, "FunctionFailure"},
  }};
  for (auto [code, name] : cases) {
    EXPECT_EQ(Status(code, "m").ClassName(), name);
  }
}

TEST(StatusTest, ToString) {
  EXPECT_EQ(Status::OK().ToString(), "OK");
  EXPECT_EQ(Status::SyntaxError("line 1:0 no viable alternative").ToString(),
            "SyntaxException: line 1:0 no viable alternative");
  EXPECT_EQ(Status::IOError("write /x: No space left on device").ToString(),
            "IOError: write /x: No space left on device");
}

Result<int> Parse(bool valid) {
  if (!valid) return Status::NotFound("f");
  return 5;
}

TEST(StatusTest, ResultCarriesValueOrError) {
  const Result<int> ok = Parse(true);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 5);
  const Result<int> bad = Parse(false);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsNotFound());
  EXPECT_EQ(bad.status().ToString(), "NotFound: f");
}

}  // namespace
}  // namespace cassette
