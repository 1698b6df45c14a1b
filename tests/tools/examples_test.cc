// Every example script runs through the shell without a failed statement
// (as `cassette shell --clock manual:2024-01-15T00:00:00Z -f FILE`): the
// playbook scripts kept in tests/tools/testdata/examples (see its
// README.md) and the project's own examples/*.cql (the demo). One test per
// script.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tools/shell.h"

namespace cassette::tools {
namespace {

constexpr int64_t kStart = 1705276800000000;  // --clock manual:2024-01-15T00:00:00Z

std::string SourceDir() {
  const char* dir = std::getenv("CASSETTE_SOURCE_DIR");
  return dir != nullptr ? dir : CASSETTE_SOURCE_DIR;
}

std::vector<std::string> CqlFiles(const std::string& dir) {
  std::vector<std::string> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".cql") == 0) {
      files.push_back(dir + "/" + name);
    }
  }
  closedir(handle);
  std::sort(files.begin(), files.end());
  return files;
}

// Both folders' scripts, as "<folder>/<file>".
std::vector<std::string> AllScripts() {
  std::vector<std::string> files = CqlFiles(SourceDir() + "/tests/tools/testdata/examples");
  for (std::string& file : CqlFiles(SourceDir() + "/examples")) files.push_back(std::move(file));
  return files;
}

class ExampleScriptTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleScriptTest, RunsWithoutAFailedStatement) {
  const std::string& file = GetParam();
  std::ifstream in(file, std::ios::binary);
  ASSERT_TRUE(in.good()) << file;
  std::ostringstream text;
  text << in.rdbuf();
  ShellSettings settings;
  settings.data_dir = "/data";
  settings.manual_clock_micros = kStart;
  settings.format = OutputFormat::kTable;
  std::ostringstream out;
  std::ostringstream err;
  auto shell =
      Shell::Open(settings, NewMemFileSystem(), ShellIo{.out = &out, .err = &err, .tty = false});
  ASSERT_TRUE(shell.ok()) << shell.status().ToString();
  (*shell)->RunScript(text.str(), file);
  EXPECT_EQ((*shell)->failed_statements(), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_TRUE((*shell)->Close().ok());
}

// "playbook_01_sensor_daily" or "project_sensor_demo".
std::string ScriptName(const ::testing::TestParamInfo<std::string>& info) {
  const std::string& path = info.param;
  const bool playbook = path.find("/testdata/examples/") != std::string::npos;
  std::string name = (playbook ? "playbook_" : "project_") + path.substr(path.rfind('/') + 1);
  name.erase(name.size() - 4);  // ".cql"
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Scripts, ExampleScriptTest, ::testing::ValuesIn(AllScripts()), ScriptName);

}  // namespace
}  // namespace cassette::tools
