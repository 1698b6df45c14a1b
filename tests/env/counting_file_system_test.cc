// CountingFileSystem: bytes appended, fsyncs, and the bytes the files
// written through it hold now and at the most.
#include "engine/env/counting_file_system.h"

#include <gtest/gtest.h>

namespace cassette {
namespace {

void Write(FileSystem& fs, const std::string& path, size_t bytes, bool sync = false) {
  auto file = fs.NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Append(std::string(bytes, 'x')).ok());
  if (sync) {
    ASSERT_TRUE((*file)->Sync().ok());
  }
  ASSERT_TRUE((*file)->Close().ok());
}

TEST(CountingFileSystemTest, CountsBytesSyncsAndWhatTheFilesHold) {
  auto base = NewMemFileSystem();
  ASSERT_TRUE(base->CreateDirs("/d").ok());
  CountingFileSystem fs(base);
  Write(fs, "/d/a", 100, true);
  Write(fs, "/d/b", 50);
  ASSERT_TRUE(fs.SyncDir("/d").ok());
  EXPECT_EQ(fs.bytes_written(), 150u);
  EXPECT_EQ(fs.syncs(), 2u);
  EXPECT_EQ(fs.bytes_in_files(), 150u);
  EXPECT_EQ(fs.peak_bytes_in_files(), 150u);

  // A rewrite of a (as a manifest's write-then-rename) holds the new bytes
  // only once the old file is replaced.
  Write(fs, "/d/a.tmp", 30);
  EXPECT_EQ(fs.bytes_in_files(), 180u);
  ASSERT_TRUE(fs.RenameFile("/d/a.tmp", "/d/a").ok());
  EXPECT_EQ(fs.bytes_in_files(), 80u);
  EXPECT_EQ(fs.peak_bytes_in_files(), 180u);

  ASSERT_TRUE(fs.DeleteFile("/d/b").ok());
  EXPECT_EQ(fs.bytes_in_files(), 30u);
  // Opening for writing truncates; appending to an existing file adds.
  Write(fs, "/d/a", 10);
  EXPECT_EQ(fs.bytes_in_files(), 10u);
  auto more = fs.NewAppendableFile("/d/a");
  ASSERT_TRUE(more.ok());
  ASSERT_TRUE((*more)->Append("12345").ok());
  ASSERT_TRUE((*more)->Truncate(12).ok());
  EXPECT_EQ(fs.bytes_in_files(), 12u);
  ASSERT_TRUE((*more)->Close().ok());
  EXPECT_EQ(fs.bytes_written(), 150u + 30 + 10 + 5);  // appends, whatever became of them

  // A file written before, opened to append, counts with what it holds.
  Write(*base, "/d/old", 40);
  auto old = fs.NewAppendableFile("/d/old");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(fs.bytes_in_files(), 52u);
  ASSERT_TRUE((*old)->Close().ok());
  fs.ResetPeak();
  EXPECT_EQ(fs.peak_bytes_in_files(), 52u);
}

// An unlinked file that a handle still writes no longer counts.
TEST(CountingFileSystemTest, DeletedFileStillOpenNoLongerCounts) {
  auto base = NewMemFileSystem();
  ASSERT_TRUE(base->CreateDirs("/d").ok());
  CountingFileSystem fs(base);
  auto file = fs.NewWritableFile("/d/x");
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Append("abc").ok());
  ASSERT_TRUE(fs.DeleteFile("/d/x").ok());
  ASSERT_TRUE((*file)->Append("def").ok());
  EXPECT_EQ(fs.bytes_in_files(), 0u);
  EXPECT_EQ(fs.bytes_written(), 6u);
}

}  // namespace
}  // namespace cassette
