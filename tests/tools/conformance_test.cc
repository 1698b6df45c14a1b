// The CQL conformance runner: every tests/cql/conformance/NAME.cql runs
// through the shell (as `cassette shell --format json --clock
// manual:2024-01-15T00:00:00Z -f NAME.cql` on a fresh in-memory data dir)
// and its output must equal NAME.expected line for line: one JSON array per
// statement returning rows, one {"error":...} line per failed statement.
// The .expected files are the specification (checked against Cassandra's
// semantics by hand), not a recording of whatever the engine printed.
//
// CASSETTE_REWRITE=1 writes the .expected files from the engine's output
// instead of comparing, and prints every line beside the statement that
// printed it (review every changed line before committing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tests/tools/script_shell.h"

namespace cassette::tools {
namespace {

using script_testing::ReadFile;
using script_testing::SplitLines;

std::string ConformanceDir() { return script_testing::SourcePath("tests/cql/conformance"); }

bool Rewriting() {
  const char* rewrite = std::getenv("CASSETTE_REWRITE");
  return rewrite != nullptr && std::string(rewrite) == "1";
}

// Script names without ".cql", sorted.
std::vector<std::string> ScriptNames() {
  std::vector<std::string> names = script_testing::FileNames(ConformanceDir(), "", ".cql");
  for (std::string& name : names) name.resize(name.size() - 4);
  return names;
}

// One output line and the statement whose execution printed it.
struct OutputLine {
  std::string text;
  std::string statement;
};

std::vector<OutputLine> RunScript(const std::string& script, std::string* errors) {
  std::vector<OutputLine> lines;
  auto shell = script_testing::ScriptShell::Open(errors);
  if (shell == nullptr) return lines;
  std::string statement;
  const auto collect = [&](std::vector<std::string> printed) {
    for (std::string& line : printed) lines.push_back({std::move(line), statement});
  };
  for (const std::string& line : SplitLines(script)) {
    statement += line + "\n";
    collect(shell->Feed(line));
    // Between statements the shell prompts afresh; inside one it continues.
    if (!shell->InsideStatement()) statement.clear();
  }
  collect(shell->Finish());
  *errors = shell->Close();
  return lines;
}

// Longest-common-subsequence diff: "-" expected only, "+" produced only,
// each produced line followed by the statement that printed it.
std::string Diff(const std::vector<std::string>& expected, const std::vector<OutputLine>& got) {
  const size_t n = expected.size();
  const size_t m = got.size();
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      common[i][j] = expected[i] == got[j].text ? common[i + 1][j + 1] + 1
                                                : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::string diff;
  size_t i = 0;
  size_t j = 0;
  const auto produced = [&](size_t index) {
    diff += "+" + got[index].text + "\n";
    std::string statement = got[index].statement;
    while (!statement.empty() && statement.back() == '\n') statement.pop_back();
    diff += "    from: " + statement + "\n";
  };
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] == got[j].text) {
      ++i;
      ++j;
    } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
      produced(j++);
    } else {
      diff += "-" + expected[i] + "   (expected line " + std::to_string(i + 1) + ")\n";
      ++i;
    }
  }
  return diff;
}

int64_t total_checked_lines = 0;

class ConformanceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ConformanceTest, OutputMatchesExpected) {
  const std::string base = ConformanceDir() + "/" + GetParam();
  bool found = false;
  const std::string script = ReadFile(base + ".cql", &found);
  ASSERT_TRUE(found) << base << ".cql";
  std::string errors;
  const std::vector<OutputLine> got = RunScript(script, &errors);
  EXPECT_EQ(errors, "") << "the shell reported problems outside the json stream";

  if (Rewriting()) {
    std::ofstream expected_out(base + ".expected", std::ios::binary | std::ios::trunc);
    for (const OutputLine& line : got) expected_out << line.text << "\n";
    ASSERT_TRUE(expected_out.good()) << "cannot write " << base << ".expected";
    std::cout << "[ rewrote  ] " << base << ".expected (" << got.size() << " lines)\n";
    // Each line beside its statement, for the review.
    for (const OutputLine& line : got) {
      std::cout << "  " << line.statement << "    => " << line.text << "\n";
    }
    return;
  }
  const std::vector<std::string> expected = SplitLines(ReadFile(base + ".expected", &found));
  ASSERT_TRUE(found) << base << ".expected is missing: run with CASSETTE_REWRITE=1, then review it";
  total_checked_lines += static_cast<int64_t>(expected.size());
  std::cout << "[ checked  ] " << GetParam() << ": " << expected.size() << " output lines\n";
  bool equal = expected.size() == got.size();
  for (size_t i = 0; equal && i < expected.size(); ++i) equal = expected[i] == got[i].text;
  EXPECT_TRUE(equal) << GetParam() << ".cql differs from " << GetParam() << ".expected:\n"
                     << Diff(expected, got);
}

// Every script's name is a test name ("ttl_expiry").
std::string ScriptName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

// Prints how many output lines (statements returning rows or failing) were
// checked in this run.
class CheckedLinesReport : public ::testing::Environment {
 public:
  void TearDown() override {
    if (total_checked_lines > 0) {
      std::cout << "[conformance] " << total_checked_lines << " output lines checked\n";
    }
  }
};

const ::testing::Environment* const kReport =
    ::testing::AddGlobalTestEnvironment(new CheckedLinesReport);

INSTANTIATE_TEST_SUITE_P(Scripts, ConformanceTest, ::testing::ValuesIn(ScriptNames()), ScriptName);

}  // namespace
}  // namespace cassette::tools
