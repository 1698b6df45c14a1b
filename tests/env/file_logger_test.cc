// FileLogger, the default Logger: its line format and time, rotation at
// the size limit keeping N old files, and writes that fail (counted,
// dropped, never an error). Rotation at open, through Database::Open:
// tests/db/logger_test.cc.
#include "engine/env/file_logger.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/fault_injection_file_system.h"
#include "tests/support/log_files.h"

namespace cassette {
namespace {

constexpr int64_t kStartMicros = 1'704'067'200'000'000;  // 2024-01-01T00:00:00Z

#define ASSERT_OK(expr)                    \
  do {                                     \
    ::cassette::Status _s = (expr);        \
    ASSERT_TRUE(_s.ok()) << _s.ToString(); \
  } while (0)

TEST(FileLoggerTest, LinesCarryTheClocksTimeAndLevel) {
  auto fs = NewMemFileSystem();
  ASSERT_OK(fs->CreateDirs("/d"));
  auto clock = std::make_shared<ManualClock>(kStartMicros + 1'500);
  FileLogger logger(fs, clock, "/d", FileLoggerOptions{});
  logger.Log(LogLevel::kInfo, "one");
  logger.Log(LogLevel::kDebug, "below the level: left out");
  ASSERT_OK(clock->Advance(86'400'000'000LL + 2'000'000));
  logger.Log(LogLevel::kError, "two\nlines");
  EXPECT_EQ(ReadLogText(*fs, "/d/LOG"),
            "2024-01-01T00:00:00.001500Z INFO one\n"
            "2024-01-02T00:00:02.001500Z ERROR two lines\n");
  EXPECT_EQ(logger.failed_writes(), 0);
  EXPECT_EQ(FormatLogTime(-1), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatLogTime(951'782'400'000'000), "2000-02-29T00:00:00.000000Z");
}

TEST(FileLoggerTest, RotatesAtTheSizeLimitAndKeepsN) {
  auto fs = NewMemFileSystem();
  ASSERT_OK(fs->CreateDirs("/d"));
  auto clock = std::make_shared<ManualClock>(kStartMicros);
  FileLoggerOptions options;
  options.max_file_size = 1024;
  options.keep_files = 3;
  FileLogger logger(fs, clock, "/d", options);
  // 60-byte lines: 17 fit in 1024 bytes.
  constexpr int kLines = 200;
  for (int i = 0; i < kLines; ++i) {
    char message[32];
    std::snprintf(message, sizeof(message), "line %05d ..........", i);
    logger.Log(LogLevel::kInfo, message);
  }
  EXPECT_EQ(LogFileNames(*fs, "/d"), (std::vector<std::string>{"LOG", "LOG.1", "LOG.2", "LOG.3"}));
  // Newest in LOG, older and older in LOG.1 .. LOG.3, with no gap and no
  // file over the limit.
  std::vector<std::string> kept;
  for (const char* name : {"LOG.3", "LOG.2", "LOG.1", "LOG"}) {
    const std::string text = ReadLogText(*fs, std::string("/d/") + name);
    EXPECT_LE(text.size(), 1024u) << name;
    if (std::string_view(name) != "LOG") {
      EXPECT_GT(text.size(), 1024u - 60) << name << " rotated before it was full";
    }
    for (const std::string& line : LogLines(text)) kept.push_back(line);
  }
  ASSERT_FALSE(kept.empty());
  for (size_t i = 0; i < kept.size(); ++i) {
    char expected[32];
    std::snprintf(expected, sizeof(expected), "line %05d",
                  static_cast<int>(kLines - kept.size() + i));
    EXPECT_NE(kept[i].find(expected), std::string::npos) << kept[i];
  }
}

TEST(FileLoggerTest, FailedWritesAreCountedAndIgnored) {
  auto mem = NewMemFileSystem();
  ASSERT_OK(mem->CreateDirs("/d"));
  auto fs = std::make_shared<FaultInjectionFileSystem>(mem);
  auto clock = std::make_shared<ManualClock>(kStartMicros);
  FileLogger logger(fs, clock, "/d", FileLoggerOptions{});
  logger.Log(LogLevel::kInfo, "before");
  fs->AddRule({FaultOp::kWrite, "*/LOG", FaultRule::When::kEvery});
  logger.Log(LogLevel::kInfo, "lost");
  fs->ClearRules();
  fs->AddRule({FaultOp::kOpen, "*/LOG", FaultRule::When::kEvery});
  logger.Log(LogLevel::kInfo, "lost too: no file");
  fs->ClearRules();
  logger.Log(LogLevel::kInfo, "after");
  EXPECT_EQ(logger.failed_writes(), 2);
  EXPECT_EQ(ReadLogText(*mem, "/d/LOG"),
            "2024-01-01T00:00:00.000000Z INFO before\n"
            "2024-01-01T00:00:00.000000Z INFO after\n");
}

}  // namespace
}  // namespace cassette
