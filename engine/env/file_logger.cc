#include "engine/env/file_logger.h"

#include <cstdio>

namespace cassette {

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarn:
      return "WARN";
    case LogLevel::kError:
      return "ERROR";
  }
  return "INFO";
}

bool IsLogFileName(const std::string& name) {
  const std::string_view base = kLogFileName;
  if (name == base) return true;
  if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 ||
      name[base.size()] != '.') {
    return false;
  }
  for (size_t i = base.size() + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

std::string FormatLogTime(int64_t micros) {
  // Floor division, so times before 1970 print as well.
  int64_t seconds = micros / 1'000'000;
  int64_t fraction = micros % 1'000'000;
  if (fraction < 0) {
    fraction += 1'000'000;
    --seconds;
  }
  int64_t days = seconds / 86400;
  int64_t second_of_day = seconds % 86400;
  if (second_of_day < 0) {
    second_of_day += 86400;
    --days;
  }
  // Days since 1970-01-01 to a civil date (H. Hinnant's civil_from_days).
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t day_of_era = z - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  char text[64];
  std::snprintf(text, sizeof(text), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(year), static_cast<long long>(month),
                static_cast<long long>(day), static_cast<long long>(second_of_day / 3600),
                static_cast<long long>(second_of_day / 60 % 60),
                static_cast<long long>(second_of_day % 60), static_cast<long long>(fraction));
  return text;
}

FileLogger::FileLogger(std::shared_ptr<FileSystem> fs, std::shared_ptr<Clock> clock,
                       std::string dir, const FileLoggerOptions& options)
    : fs_(std::move(fs)), clock_(std::move(clock)), dir_(std::move(dir)), options_(options) {
  std::lock_guard lock(mu_);
  if (fs_->FileExists(PathOf(0))) RotateLocked();
}

FileLogger::~FileLogger() {
  std::lock_guard lock(mu_);
  if (file_) file_->Close().IgnoreError();
}

std::string FileLogger::PathOf(int index) const {
  std::string path = dir_ + "/" + kLogFileName;
  if (index > 0) path += "." + std::to_string(index);
  return path;
}

void FileLogger::RotateLocked() {
  if (file_) {
    file_->Close().IgnoreError();
    file_.reset();
  }
  file_size_ = 0;
  bool ok = true;
  if (options_.keep_files == 0) {
    ok = fs_->DeleteFile(PathOf(0)).ok();
  } else {
    const std::string oldest = PathOf(options_.keep_files);
    if (fs_->FileExists(oldest)) ok = fs_->DeleteFile(oldest).ok();
    for (int i = options_.keep_files - 1; ok && i >= 0; --i) {
      if (fs_->FileExists(PathOf(i))) ok = fs_->RenameFile(PathOf(i), PathOf(i + 1)).ok();
    }
  }
  if (!ok) failed_writes_.fetch_add(1, std::memory_order_relaxed);
}

bool FileLogger::EnsureOpenLocked() {
  if (file_) return true;
  // Appendable: when rotating failed, the lines go on at the end of the
  // LOG there is rather than replacing it.
  auto file = fs_->NewAppendableFile(PathOf(0));
  if (!file.ok()) return false;
  file_ = std::move(file).value();
  file_size_ = file_->Size();
  return true;
}

void FileLogger::Log(LogLevel level, std::string_view message) {
  if (level < options_.min_level) return;
  std::string line = FormatLogTime(clock_->WallMicros());
  line += ' ';
  line += LogLevelName(level);
  line += ' ';
  const size_t start = line.size();
  line += message;
  // One message, one line: an embedded newline would read as a new entry.
  for (size_t i = start; i < line.size(); ++i) {
    if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
  }
  line += '\n';
  std::lock_guard lock(mu_);
  if (file_ && file_size_ > 0 && file_size_ + line.size() > options_.max_file_size) {
    RotateLocked();
  }
  if (!EnsureOpenLocked()) {
    failed_writes_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  Status s = file_->Append(line);
  if (s.ok()) s = file_->Flush();
  if (!s.ok()) {
    // A fresh file next time: this one may hold half a line.
    failed_writes_.fetch_add(1, std::memory_order_relaxed);
    file_->Close().IgnoreError();
    file_.reset();
    return;
  }
  file_size_ += line.size();
}

}  // namespace cassette
