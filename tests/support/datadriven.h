// A runner for data-driven test files in the cockroachdb/datadriven format:
//
//   # comment
//   <cmd> [key=value | key=(v1, v2) | key="a b" | bare-key]...
//   <input lines>
//   ----
//   <expected output, up to a blank line>
//
// Output that itself contains blank lines is written between doubled
// separators:
//
//   cmd
//   ----
//   ----
//   line one
//
//   line three
//   ----
//   ----
//
// A directive line ending in '\' continues on the next line.
//
// Run with CASSETTE_REWRITE=1 in the environment to rewrite the expected
// blocks in place with the actual output; then read the diff before
// committing it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/status.h"

namespace cassette {

struct DdArg {
  std::string key;
  // Empty for a bare key; one value for key=v; the list for key=(a, b).
  std::vector<std::string> vals;
};

struct DdCase {
  std::string file;
  int line = 0;  // 1-based line of the directive
  std::string cmd;
  std::vector<DdArg> args;
  std::string input;     // lines between directive and "----", without a final '\n'
  std::string expected;  // every line ends in '\n'; empty when there is no output

  // 0-based half-open range of file lines holding the separator(s) and the
  // expected block; the rewriter replaces it.
  int output_begin = 0;
  int output_end = 0;

  const DdArg* FindArg(std::string_view key) const;
  bool HasArg(std::string_view key) const { return FindArg(key) != nullptr; }
  // The first value of `key`, or `def` when absent or bare.
  std::string ArgOr(std::string_view key, std::string_view def) const;
  // The first value of `key` as an integer, or `def`; a non-integer value
  // is a test failure reported at the case's line.
  int64_t IntArgOr(std::string_view key, int64_t def) const;
  // "file:line", for messages.
  std::string Pos() const;
};

// Parses a datadriven file's text; `file` is used in positions and errors.
Result<std::vector<DdCase>> ParseDataDriven(std::string_view text, const std::string& file);

// Runs every case of `file` through `run` and compares its output with the
// expected block, reporting each mismatch with ADD_FAILURE_AT(file, line).
// Output that does not end in a newline gets one. With CASSETTE_REWRITE=1,
// rewrites the file's expected blocks instead.
void RunDataDriven(const std::filesystem::path& file,
                   const std::function<std::string(const DdCase&)>& run);

// The files (sorted full paths) directly in tests/<dir> of the source tree,
// which is $CASSETTE_SOURCE_DIR or else the CASSETTE_SOURCE_DIR the tests
// were compiled with. Hidden files and editor backups (~) are skipped.
std::vector<std::string> ListTestdata(std::string_view dir);

// Test-name generator for INSTANTIATE_TEST_SUITE_P over ListTestdata: the
// file name with characters gtest does not allow replaced by '_'.
std::string FileNameOnly(const ::testing::TestParamInfo<std::string>& info);

}  // namespace cassette
