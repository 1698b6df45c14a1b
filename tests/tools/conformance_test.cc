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

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // --clock manual:2024-01-15T00:00:00Z

std::string ConformanceDir() {
  const char* dir = std::getenv("CASSETTE_SOURCE_DIR");
  return std::string(dir != nullptr ? dir : CASSETTE_SOURCE_DIR) + "/tests/cql/conformance";
}

bool Rewriting() {
  const char* rewrite = std::getenv("CASSETTE_REWRITE");
  return rewrite != nullptr && std::string(rewrite) == "1";
}

// Script names without ".cql", sorted.
std::vector<std::string> ScriptNames() {
  std::vector<std::string> names;
  DIR* handle = opendir(ConformanceDir().c_str());
  if (handle == nullptr) return names;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".cql") == 0) {
      names.push_back(name.substr(0, name.size() - 4));
    }
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string ReadFile(const std::string& path, bool* found) {
  std::ifstream in(path, std::ios::binary);
  *found = in.good();
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One output line and the statement whose execution printed it.
struct OutputLine {
  std::string text;
  std::string statement;
};

// Feeds the script line by line (as a pipe would) so that each output line
// can be traced back to the statement that printed it.
std::vector<OutputLine> RunScript(const std::string& script, std::string* errors) {
  ShellSettings settings;
  settings.data_dir = "/data";
  settings.manual_clock_micros = kStart;
  settings.format = OutputFormat::kJson;
  std::ostringstream out;
  std::ostringstream err;
  std::vector<OutputLine> lines;
  auto shell =
      Shell::Open(settings, NewMemFileSystem(), ShellIo{.out = &out, .err = &err, .tty = false});
  if (!shell.ok()) {
    *errors = shell.status().ToString();
    return lines;
  }
  // TRACING is off in a new shell: no trace lines in the output.
  std::string statement;
  size_t consumed = 0;
  const auto collect = [&] {
    const std::string printed = out.str().substr(consumed);
    consumed = out.str().size();
    for (std::string& line : SplitLines(printed)) lines.push_back({std::move(line), statement});
  };
  for (const std::string& line : SplitLines(script)) {
    statement += line + "\n";
    (*shell)->FeedLine(line);
    collect();
    // Between statements the shell prompts afresh; inside one it continues.
    if ((*shell)->Prompt() != "   ... ") statement.clear();
  }
  (*shell)->FinishInput();
  collect();
  Status closed = (*shell)->Close();
  if (!closed.ok()) *errors = closed.ToString();
  *errors += err.str();
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
