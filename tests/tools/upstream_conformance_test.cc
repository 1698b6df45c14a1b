// The upstream yardstick: scenarios translated from Apache Cassandra 5.0's
// own CQL tests (and ScyllaDB's cqlpy tests that pass on Cassandra), in
// tests/cql/upstream/*.cql. A file holds scenarios:
//
//   -- scenario: <name>            starts one (names unique in the file)
//   -- from: <upstream class and test method>
//   <CQL statement or shell directive, one or several lines>
//   -- => <line>                   an output line the statement must print
//
// Each scenario runs on a fresh in-memory database through the shell
// (--format json, manual clock at 2024-01-15T00:00:00Z) after
// CREATE KEYSPACE ks ...; USE ks;. Every statement must print exactly its
// `-- =>` lines (none: it must print nothing). Other `--` lines are comments.
//
// tests/cql/upstream/known_differences*.txt list the scenarios where
// cassette differs from Cassandra, one per line: `<file>:<scenario>  <reason>`
// ('#' starts a comment). A failing scenario that is not listed fails the
// test, and so does a listed one that passes (a stale entry: remove it).
// CASSETTE_UPSTREAM_REPORT=1 prints every failing scenario in detail.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/tools/script_shell.h"

namespace cassette::tools {
namespace {

using script_testing::FileNames;
using script_testing::ReadFile;
using script_testing::SplitLines;

constexpr char kSetup[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

std::string UpstreamDir() { return script_testing::SourcePath("tests/cql/upstream"); }

bool Reporting() {
  const char* report = std::getenv("CASSETTE_UPSTREAM_REPORT");
  return report != nullptr && std::string(report) == "1";
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

std::string Trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) --end;
  return text.substr(begin, end - begin);
}

struct ScriptLine {
  int number = 0;
  std::string text;
};

struct Scenario {
  std::string name;
  std::string from;
  int line = 0;
  std::vector<ScriptLine> body;
};

// One statement of a scenario as run: its text, the lines it must print
// and the lines it printed.
struct Step {
  std::string statement;
  int line = 0;
  std::vector<std::string> expected;
  std::vector<std::string> actual;
};

// Splits a file into scenarios; text before the first scenario is a header.
std::vector<Scenario> ParseScenarios(const std::string& text, std::string* problems) {
  std::vector<Scenario> scenarios;
  std::set<std::string> names;
  int number = 0;
  for (const std::string& raw : SplitLines(text)) {
    ++number;
    const std::string line = Trim(raw);
    if (StartsWith(line, "-- scenario:")) {
      Scenario scenario;
      scenario.name = Trim(line.substr(12));
      scenario.line = number;
      if (!names.insert(scenario.name).second) {
        *problems +=
            "line " + std::to_string(number) + ": scenario " + scenario.name + " is named twice\n";
      }
      scenarios.push_back(std::move(scenario));
    } else if (scenarios.empty()) {
      if (!line.empty() && !StartsWith(line, "--")) {
        *problems += "line " + std::to_string(number) + ": a statement outside any scenario\n";
      }
    } else if (StartsWith(line, "-- from:")) {
      scenarios.back().from = Trim(line.substr(8));
    } else if (!line.empty()) {
      scenarios.back().body.push_back({number, raw});
    }
  }
  return scenarios;
}

// Runs one scenario; returns its steps (the setup's failure as a step).
std::vector<Step> RunScenario(const Scenario& scenario, std::string* problems) {
  std::vector<Step> steps;
  std::string error;
  auto shell = script_testing::ScriptShell::Open(&error);
  if (shell == nullptr) {
    *problems += "cannot open the shell: " + error + "\n";
    return steps;
  }
  Step setup;
  setup.statement = std::string(kSetup) + " USE ks;";
  setup.actual = shell->Feed(kSetup);
  for (std::string& line : shell->Feed("USE ks;")) setup.actual.push_back(std::move(line));
  steps.push_back(std::move(setup));
  Step pending;
  for (const ScriptLine& line : scenario.body) {
    const std::string text = Trim(line.text);
    if (StartsWith(text, "-- =>")) {
      if (steps.size() == 1 || !pending.statement.empty()) {
        *problems += "line " + std::to_string(line.number) + ": `-- =>` follows no statement\n";
        continue;
      }
      steps.back().expected.push_back(Trim(text.substr(5)));
      continue;
    }
    if (StartsWith(text, "--")) continue;
    if (pending.statement.empty()) pending.line = line.number;
    pending.statement += (pending.statement.empty() ? "" : "\n") + line.text;
    for (std::string& printed : shell->Feed(line.text)) pending.actual.push_back(printed);
    if (!shell->InsideStatement()) {
      steps.push_back(std::move(pending));
      pending = Step();
    }
  }
  for (std::string& printed : shell->Finish()) pending.actual.push_back(printed);
  if (!pending.statement.empty() || !pending.actual.empty()) steps.push_back(std::move(pending));
  const std::string closed = shell->Close();
  if (Reporting() && !closed.empty()) std::cout << "  (stderr) " << closed;
  if (steps.size() == 1) *problems += "the scenario runs no statement\n";
  return steps;
}

// The first step whose output differs, described; empty when all match.
std::string FirstDifference(const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    if (step.expected == step.actual) continue;
    std::string text = "  statement (line " + std::to_string(step.line) + "): " + step.statement;
    text += "\n  expected:";
    if (step.expected.empty()) text += " (nothing)";
    for (const std::string& line : step.expected) text += "\n    " + line;
    text += "\n  actual:";
    if (step.actual.empty()) text += " (nothing)";
    for (const std::string& line : step.actual) text += "\n    " + line;
    return text + "\n";
  }
  return "";
}

// known_differences*.txt: "<file>:<scenario>" (file without ".cql") to reason.
std::map<std::string, std::string> LoadKnownDifferences(std::string* problems) {
  std::map<std::string, std::string> known;
  for (const std::string& file : FileNames(UpstreamDir(), "known_differences", ".txt")) {
    bool found = false;
    const std::vector<std::string> lines = SplitLines(ReadFile(UpstreamDir() + "/" + file, &found));
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string line = Trim(lines[i]);
      if (line.empty() || line[0] == '#') continue;
      const size_t end = line.find_first_of(" \t");
      std::string key = line.substr(0, end);
      const size_t cql = key.find(".cql:");
      if (cql != std::string::npos) key.erase(cql, 4);
      const std::string where = file + ":" + std::to_string(i + 1);
      if (end == std::string::npos || key.find(':') == std::string::npos) {
        *problems += where + ": expected `<file>:<scenario>  <reason>`\n";
      } else if (!known.emplace(key, Trim(line.substr(end))).second) {
        *problems += where + ": " + key + " is listed twice\n";
      }
    }
  }
  return known;
}

struct Totals {
  int scenarios = 0;
  int passing = 0;
  int listed_failing = 0;
};
Totals totals;

class UpstreamConformanceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UpstreamConformanceTest, ScenariosMatchCassandraOrAreListed) {
  const std::string file = GetParam();
  std::string problems;
  const std::map<std::string, std::string> known = LoadKnownDifferences(&problems);
  bool found = false;
  const std::string text = ReadFile(UpstreamDir() + "/" + file + ".cql", &found);
  ASSERT_TRUE(found) << file;
  const std::vector<Scenario> scenarios = ParseScenarios(text, &problems);
  EXPECT_EQ(problems, "") << file << ".cql is malformed";
  std::set<std::string> names;
  for (const Scenario& scenario : scenarios) {
    names.insert(scenario.name);
    std::string scenario_problems;
    const std::vector<Step> steps = RunScenario(scenario, &scenario_problems);
    EXPECT_EQ(scenario_problems, "") << file << ":" << scenario.name;
    const std::string difference = FirstDifference(steps);
    const auto listed = known.find(file + ":" + scenario.name);
    ++totals.scenarios;
    if (difference.empty()) {
      ++totals.passing;
      EXPECT_TRUE(listed == known.end())
          << file << ":" << scenario.name << " passes now: remove it from known_differences";
      continue;
    }
    if (listed != known.end()) ++totals.listed_failing;
    const std::string header = file + ".cql:" + std::to_string(scenario.line) + " " +
                               scenario.name + " (" + scenario.from + ")\n";
    if (Reporting()) {
      std::cout << "[ differs  ] " << header
                << (listed != known.end() ? "  listed: " + listed->second + "\n" : "")
                << difference;
    }
    EXPECT_TRUE(listed != known.end())
        << header << difference << "  (fix it, or list it in known_differences.txt)";
  }
  // Entries naming a scenario of this file that does not exist are stale.
  for (const auto& [key, reason] : known) {
    if (StartsWith(key, file + ":") && names.count(key.substr(file.size() + 1)) == 0) {
      ADD_FAILURE() << key << " is listed but no such scenario exists";
    }
  }
}

TEST(UpstreamConformance, KnownDifferencesNameExistingFiles) {
  std::string problems;
  const std::map<std::string, std::string> known = LoadKnownDifferences(&problems);
  EXPECT_EQ(problems, "");
  for (const auto& [key, reason] : known) {
    bool found = false;
    ReadFile(UpstreamDir() + "/" + key.substr(0, key.find(':')) + ".cql", &found);
    EXPECT_TRUE(found) << key << " names a file that does not exist";
    EXPECT_FALSE(reason.empty()) << key << " gives no reason";
  }
}

std::vector<std::string> ScriptNames() {
  std::vector<std::string> names = FileNames(UpstreamDir(), "", ".cql");
  for (std::string& name : names) name.resize(name.size() - 4);
  return names;
}

std::string ScriptName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

// The totals, every run (the pass rate is what issue 20 tracks).
class UpstreamTotalsReport : public ::testing::Environment {
 public:
  void TearDown() override {
    if (totals.scenarios == 0) return;
    const double rate = 100.0 * totals.passing / totals.scenarios;
    std::cout << "[upstream] " << totals.scenarios << " scenarios, " << totals.passing
              << " passing, " << totals.listed_failing << " listed differences, pass rate "
              << static_cast<int>(rate * 10) / 10.0 << "%\n";
  }
};

const ::testing::Environment* const kTotals =
    ::testing::AddGlobalTestEnvironment(new UpstreamTotalsReport);

INSTANTIATE_TEST_SUITE_P(Files, UpstreamConformanceTest, ::testing::ValuesIn(ScriptNames()),
                         ScriptName);

}  // namespace
}  // namespace cassette::tools
