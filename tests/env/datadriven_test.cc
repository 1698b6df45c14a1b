#include "tests/support/datadriven.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace cassette {
namespace {

std::string Dispatch(const DdCase& c) {
  if (c.cmd == "echo") return c.input;
  if (c.cmd == "args") {
    std::string out;
    for (const DdArg& a : c.args) {
      out += a.key + "=[";
      for (size_t i = 0; i < a.vals.size(); ++i) out += (i ? "|" : "") + a.vals[i];
      out += "]\n";
    }
    return out;
  }
  if (c.cmd == "blank-lines") return "first\n\nthird";
  if (c.cmd == "upper") {
    std::string out = c.input;
    for (char& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    for (const DdArg& a : c.args) out += " " + a.key + "=" + a.vals.at(0);
    return out;
  }
  return "unknown command " + c.cmd;
}

class DatadrivenFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(DatadrivenFiles, Run) { RunDataDriven(GetParam(), Dispatch); }

INSTANTIATE_TEST_SUITE_P(Files, DatadrivenFiles,
                         ::testing::ValuesIn(ListTestdata("env/testdata/datadriven")),
                         FileNameOnly);

TEST(DatadrivenTest, ListTestdataIsSortedFullPaths) {
  auto files = ListTestdata("env/testdata/datadriven");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_NE(files[0].find("/tests/env/testdata/datadriven/basic"), std::string::npos);
  EXPECT_NE(files[1].find("/tests/env/testdata/datadriven/second"), std::string::npos);
  EXPECT_TRUE(ListTestdata("no/such/dir").empty());
  EXPECT_EQ(FileNameOnly({"/x/y/twcs-expire.v2", 0}), "twcs_expire_v2");
}

TEST(DatadrivenTest, ParseRecordsPositionsInputAndExpected) {
  auto cases = ParseDataDriven(
      "# c\n"
      "put k=v flag\n"
      "line1\n"
      "line2\n"
      "----\n"
      "out\n"
      "\n"
      "get\n"
      "----\n"
      "----\n"
      "a\n"
      "\n"
      "----\n"
      "----\n",
      "f");
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();
  ASSERT_EQ(cases->size(), 2u);
  const DdCase& put = (*cases)[0];
  EXPECT_EQ(put.Pos(), "f:2");
  EXPECT_EQ(put.cmd, "put");
  EXPECT_EQ(put.ArgOr("k", "?"), "v");
  EXPECT_TRUE(put.HasArg("flag"));
  EXPECT_EQ(put.ArgOr("flag", "dflt"), "dflt");
  EXPECT_FALSE(put.HasArg("missing"));
  EXPECT_EQ(put.input, "line1\nline2");
  EXPECT_EQ(put.expected, "out\n");
  EXPECT_EQ(put.output_begin, 4);
  EXPECT_EQ(put.output_end, 6);
  const DdCase& get = (*cases)[1];
  EXPECT_EQ(get.line, 8);
  EXPECT_EQ(get.input, "");
  EXPECT_EQ(get.expected, "a\n\n");
  EXPECT_EQ(get.output_end, 14);
}

TEST(DatadrivenTest, IntArgs) {
  auto cases = ParseDataDriven("advance n=3 bad=x\n----\n", "f");
  ASSERT_TRUE(cases.ok());
  EXPECT_EQ((*cases)[0].IntArgOr("n", 0), 3);
  EXPECT_EQ((*cases)[0].IntArgOr("absent", 9), 9);
  EXPECT_NONFATAL_FAILURE((*cases)[0].IntArgOr("bad", 1), "is not an integer");
}

TEST(DatadrivenTest, MalformedFilesAreErrorsWithPositions) {
  const std::pair<const char*, const char*> cases[] = {
      {"cmd\ninput\n", "f:1: missing ---- after cmd"},
      {"cmd a=(x, y\n----\n", "f:1: unterminated ( in directive"},
      {"cmd\n----\n----\nout\n", "f:1: missing closing ----/---- block"},
      {"cmd \\\n", "f:1: continued directive at end of file"},
      {"\n----\n", "f:2: separator without a directive"},
      {"cmd =v\n----\n", "f:1: argument without a key: =v"},
  };
  for (auto [text, want] : cases) {
    auto r = ParseDataDriven(text, "f");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().message(), want) << text;
  }
}

class DatadrivenFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* old = std::getenv("CASSETTE_REWRITE");
    if (old != nullptr) saved_ = old;
    had_ = old != nullptr;
    ::unsetenv("CASSETTE_REWRITE");
  }
  void TearDown() override {
    if (had_) {
      ::setenv("CASSETTE_REWRITE", saved_.c_str(), 1);
    } else {
      ::unsetenv("CASSETTE_REWRITE");
    }
  }

  std::string WriteTemp(const std::string& text) {
    std::string path = tmp_.Join("case");
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static std::string ReadBack(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  TempDir tmp_;
  std::string saved_;
  bool had_ = false;
};

TEST_F(DatadrivenFileTest, MismatchIsReportedAtTheCaseLine) {
  std::string path = WriteTemp("echo\nactual\n----\nwrong\n");
  EXPECT_NONFATAL_FAILURE(RunDataDriven(path, Dispatch), "output of 'echo' differs");
  EXPECT_NONFATAL_FAILURE(RunDataDriven(tmp_.Join("absent"), Dispatch), "cannot read");
  EXPECT_NONFATAL_FAILURE(RunDataDriven(WriteTemp("x\n"), Dispatch), "missing ----");
}

TEST_F(DatadrivenFileTest, RewriteReplacesExpectedBlocksOnly) {
  std::string path = WriteTemp(
      "# keep this comment\n"
      "echo\n"
      "new\n"
      "----\n"
      "old\n"
      "old2\n"
      "\n"
      "blank-lines\n"
      "----\n"
      "stale\n"
      "\n"
      "echo\n"
      "single\n"
      "----\n"
      "----\n"
      "was\n"
      "\n"
      "double\n"
      "----\n"
      "----\n"
      "echo\n"
      "----\n"
      "not empty\n");
  ::setenv("CASSETTE_REWRITE", "1", 1);
  RunDataDriven(path, Dispatch);
  EXPECT_EQ(ReadBack(path),
            "# keep this comment\n"
            "echo\n"
            "new\n"
            "----\n"
            "new\n"
            "\n"
            "blank-lines\n"
            "----\n"
            "----\n"
            "first\n"
            "\n"
            "third\n"
            "----\n"
            "----\n"
            "\n"
            "echo\n"
            "single\n"
            "----\n"
            "single\n"
            "\n"
            "echo\n"
            "----\n");
  // The rewritten file passes as it is.
  ::unsetenv("CASSETTE_REWRITE");
  RunDataDriven(path, Dispatch);
}

}  // namespace
}  // namespace cassette
