// CapturingLogger: a Logger (Options::logger) that keeps every message in
// memory, `<LEVEL> <message>`, for tests to look at; and, given to tests
// that count or fail file operations, keeps the LOG file out of their way
// while the engine still formats and logs every message.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cassette/logger.h"

namespace cassette {

class CapturingLogger final : public Logger {
 public:
  void Log(LogLevel level, std::string_view message) override {
    std::lock_guard lock(mu_);
    lines_.push_back(std::string(LogLevelName(level)) + " " + std::string(message));
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mu_);
    return lines_;
  }
  // How many lines hold `text`.
  int Count(std::string_view text) const {
    int n = 0;
    for (const std::string& line : lines()) n += line.find(text) != std::string::npos ? 1 : 0;
    return n;
  }
  // Every line, for a failure message.
  std::string All() const {
    std::string all;
    for (const std::string& line : lines()) all += line + "\n";
    return all;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

}  // namespace cassette
