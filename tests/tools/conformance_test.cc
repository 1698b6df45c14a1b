// The CQL conformance runner: every tests/cql/conformance/NAME.cql runs
// through the shell (as `cassette shell --format json --clock
// manual:2024-01-15T00:00:00Z -f NAME.cql` on a fresh in-memory data dir,
// fed a line at a time in one session) and the transcript of that run must
// equal NAME.expected line for line.
//
// The transcript is the script with each statement's output under it:
//   - every line of the script, verbatim and in order (comments, blank
//     lines, the indented lines of a multi-line BATCH, CLOCK/FLUSH/COMPACT
//     directives), so a statement that prints nothing is shown too;
//   - after the line that completes a statement, each line the shell
//     printed for it, prefixed "=> ": one JSON array per statement returning
//     rows, one {"error":...} object per failed statement. Output printed at
//     the end of the input (an unfinished statement) comes last.
// For example:
//   -- expiry happens at the first second where now >= write + ttl
//   CLOCK ADVANCE 1 SECOND;
//   SELECT c, v FROM t WHERE k = 1;
//   => [{"c":2,"v":"b"}]
// The .expected files are the specification (each output checked against
// Cassandra's semantics by hand), not a recording of whatever the engine
// printed; a diff of one reads as a change of behaviour.
//
// CASSETTE_REWRITE=1 writes the .expected files from the engine's output
// instead of comparing (review `git diff` of every changed line before
// committing). A mismatch prints a diff of the transcripts ("-" expected,
// "+" actual) with the statement above each changed output line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
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

// What marks an output line in a transcript.
constexpr std::string_view kOutputPrefix = "=> ";

bool IsOutputLine(std::string_view line) {
  return line.rfind(kOutputPrefix, 0) == 0 || line == "=>";
}

std::string AsOutputLine(const std::string& printed) {
  // No trailing blank after "=>" for an empty output line.
  return printed.empty() ? std::string("=>") : std::string(kOutputPrefix) + printed;
}

// One transcript line: a script line, or an output line of the statement
// that ends just above it.
struct TranscriptLine {
  std::string text;
  // Index of the first transcript line of the statement this line belongs
  // to (a script line) or was printed by (an output line).
  size_t statement_start = 0;
};

std::vector<TranscriptLine> RunScript(const std::string& script, std::string* errors) {
  std::vector<TranscriptLine> transcript;
  auto shell = script_testing::ScriptShell::Open(errors);
  if (shell == nullptr) return transcript;
  size_t statement_start = 0;
  const auto add_output = [&](const std::vector<std::string>& printed) {
    for (const std::string& line : printed) {
      transcript.push_back({AsOutputLine(line), statement_start});
    }
  };
  bool between_statements = true;
  for (const std::string& line : SplitLines(script)) {
    if (between_statements) statement_start = transcript.size();
    transcript.push_back({line, statement_start});
    add_output(shell->Feed(line));
    // Between statements the shell prompts afresh; inside one it continues.
    between_statements = !shell->InsideStatement();
  }
  add_output(shell->Finish());
  *errors = shell->Close();
  return transcript;
}

size_t CountOutputLines(const std::vector<std::string>& transcript) {
  return static_cast<size_t>(
      std::count_if(transcript.begin(), transcript.end(),
                    [](const std::string& line) { return IsOutputLine(line); }));
}

// One step of the diff: a line in both transcripts (' '), in the expected
// one only ('-') or in the produced one only ('+').
struct DiffStep {
  char kind;
  size_t expected_index;  // of the next expected line for '+'
  size_t got_index;       // of the next produced line for '-'
};

std::vector<DiffStep> LongestCommonSubsequenceSteps(const std::vector<std::string>& expected,
                                                    const std::vector<TranscriptLine>& got) {
  const size_t n = expected.size();
  const size_t m = got.size();
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      common[i][j] = expected[i] == got[j].text ? common[i + 1][j + 1] + 1
                                                : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<DiffStep> steps;
  size_t i = 0;
  size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] == got[j].text) {
      steps.push_back({' ', i++, j++});
    } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
      // Expected lines first, as a unified diff shows a replaced line.
      steps.push_back({'-', i++, j});
    } else {
      steps.push_back({'+', i, j++});
    }
  }
  return steps;
}

// A unified diff of the transcripts. Each hunk's leading context reaches
// back to the first line of the statement just above the change (at least
// two lines), so the statement whose output changed is always shown; one
// line of context follows.
std::string Diff(const std::vector<std::string>& expected, const std::vector<TranscriptLine>& got) {
  const std::vector<DiffStep> steps = LongestCommonSubsequenceSteps(expected, got);
  std::vector<bool> shown(steps.size(), false);
  for (size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].kind == ' ') continue;
    shown[s] = true;
    if (s + 1 < steps.size()) shown[s + 1] = true;
    // Leading context: the lines of the statement above the change.
    size_t first = s;
    while (first > 0 && steps[first - 1].kind != ' ') --first;
    if (first == 0) continue;
    const size_t above = steps[first - 1].got_index;
    const size_t context_start = std::min(got[above].statement_start, above > 0 ? above - 1 : 0);
    for (size_t c = first; c-- > 0 && steps[c].got_index >= context_start;) shown[c] = true;
  }
  std::string diff;
  for (size_t s = 0; s < steps.size(); ++s) {
    if (!shown[s]) continue;
    if (s == 0 || !shown[s - 1]) {
      diff += "@@ expected line " + std::to_string(steps[s].expected_index + 1) +
              ", produced line " + std::to_string(steps[s].got_index + 1) + " @@\n";
    }
    const std::string& text =
        steps[s].kind == '-' ? expected[steps[s].expected_index] : got[steps[s].got_index].text;
    diff += std::string(1, steps[s].kind) + " " + text + "\n";
  }
  return diff;
}

size_t total_checked_lines = 0;

class ConformanceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ConformanceTest, OutputMatchesExpected) {
  const std::string base = ConformanceDir() + "/" + GetParam();
  bool found = false;
  const std::string script = ReadFile(base + ".cql", &found);
  ASSERT_TRUE(found) << base << ".cql";
  for (const std::string& line : SplitLines(script)) {
    ASSERT_FALSE(IsOutputLine(line))
        << base << ".cql: a script line must not start like an output line: " << line;
  }
  std::string errors;
  const std::vector<TranscriptLine> got = RunScript(script, &errors);
  EXPECT_EQ(errors, "") << "the shell reported problems outside the json stream";

  if (Rewriting()) {
    std::ofstream expected_out(base + ".expected", std::ios::binary | std::ios::trunc);
    size_t output_lines = 0;
    for (const TranscriptLine& line : got) {
      expected_out << line.text << "\n";
      if (IsOutputLine(line.text)) ++output_lines;
    }
    ASSERT_TRUE(expected_out.good()) << "cannot write " << base << ".expected";
    std::cout << "[ rewrote  ] " << base << ".expected (" << output_lines
              << " output lines): review its git diff\n";
    return;
  }
  const std::vector<std::string> expected = SplitLines(ReadFile(base + ".expected", &found));
  ASSERT_TRUE(found) << base << ".expected is missing: run with CASSETTE_REWRITE=1, then review it";
  const size_t output_lines = CountOutputLines(expected);
  total_checked_lines += output_lines;
  std::cout << "[ checked  ] " << GetParam() << ": " << output_lines << " output lines\n";
  bool equal = expected.size() == got.size();
  for (size_t i = 0; equal && i < expected.size(); ++i) equal = expected[i] == got[i].text;
  EXPECT_TRUE(equal) << "the transcript of " << GetParam() << ".cql differs from " << GetParam()
                     << ".expected (- expected, + produced):\n"
                     << Diff(expected, got)
                     << "(if the new output is right, CASSETTE_REWRITE=1 rewrites the file)";
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
