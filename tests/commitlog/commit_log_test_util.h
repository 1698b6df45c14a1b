// Helpers shared by the commit log tests: whole-file reads and rewrites on
// a FileSystem, replay into a vector, and deterministic record payloads.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/file_system.h"
#include "engine/commitlog/commit_log_format.h"
#include "engine/commitlog/commit_log_position.h"
#include "engine/commitlog/commit_log_replay.h"

namespace cassette {

inline constexpr int64_t kTestStartMicros = 1704067200000000;  // 2024-01-01T00:00Z

inline std::string SegmentPath(const std::string& dir, uint64_t id) {
  return dir + "/" + CommitLogSegmentFileName(id);
}

inline std::string ReadAll(FileSystem* fs, const std::string& path) {
  auto file = fs->NewRandomAccessFile(path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return "";
  std::string data;
  Status s = (*file)->Read(0, (*file)->Size(), &data);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return data;
}

// Replaces the file's content with `data`, durably (file and directory synced).
inline void WriteAll(FileSystem* fs, const std::string& path, std::string_view data) {
  auto file = fs->NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Append(data).ok());
  ASSERT_TRUE((*file)->Sync().ok());
  ASSERT_TRUE((*file)->Close().ok());
  ASSERT_TRUE(fs->SyncDir(path.substr(0, path.rfind('/'))).ok());
}

// A payload whose length varies with i (0 to ~70 bytes) and that names i.
inline std::string TestRecord(int i) {
  std::string r = "record-" + std::to_string(i);
  r.append(static_cast<size_t>((i * 37) % 61), static_cast<char>('a' + i % 26));
  return r;
}

inline std::string ToHex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

inline std::string FromHex(std::string_view hex) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

struct ReplayedRecord {
  CommitLogPosition position;
  std::string payload;
};

struct ReplayOutcome {
  Status status;
  ReplayStats stats;
  std::vector<ReplayedRecord> records;

  std::vector<std::string> payloads() const {
    std::vector<std::string> out;
    for (const auto& r : records) out.push_back(r.payload);
    return out;
  }
};

inline ReplayOutcome ReplayAll(FileSystem* fs, const std::string& dir,
                               const ReplayOptions& options = {}) {
  ReplayOutcome out;
  out.status = ReplayCommitLog(
      fs, dir, options,
      [&](const CommitLogPosition& pos, std::string_view payload) {
        out.records.push_back({pos, std::string(payload)});
        return Status::OK();
      },
      &out.stats);
  return out;
}

}  // namespace cassette
