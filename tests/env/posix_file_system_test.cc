// POSIX-only behaviour; what all file systems share is in file_system_test.cc.
#include <gtest/gtest.h>

#include "cassette/file_system.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"

namespace cassette {
namespace {

TEST(PosixFileSystemTest, IOErrorsNameThePathAndTheReason) {
  TempDir tmp;
  auto fs = NewPosixFileSystem();
  ASSERT_TRUE(WriteStringToFile(*fs, tmp.Join("file"), "x", false).ok());
  const std::string bad = tmp.Join("file/child");
  auto w = fs->NewWritableFile(bad);
  ASSERT_FALSE(w.ok());
  EXPECT_TRUE(w.status().IsIOError());
  EXPECT_EQ(w.status().message(), "open " + bad + ": Not a directory");

  Status s = fs->DeleteFile(tmp.path());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("unlink " + tmp.path() + ": "), std::string::npos) << s.ToString();
}

TEST(PosixFileSystemTest, LockConflictsAcrossFileSystemObjects) {
  // flock locks belong to the open file, so two opens in one process
  // conflict exactly as two processes would.
  TempDir tmp;
  auto a = NewPosixFileSystem();
  auto b = NewPosixFileSystem();
  auto held = a->LockFile(tmp.Join("LOCK"));
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  auto busy = b->LockFile(tmp.Join("LOCK"));
  ASSERT_FALSE(busy.ok());
  EXPECT_TRUE(busy.status().IsBusy());
  EXPECT_NE(busy.status().message().find("data directory " + tmp.path() +
                                         " is locked by another process"),
            std::string::npos);
  held->reset();
  EXPECT_TRUE(b->LockFile(tmp.Join("LOCK")).ok());
}

TEST(PosixFileSystemTest, DataOutlivesTheFileSystemObject) {
  TempDir tmp;
  {
    auto fs = NewPosixFileSystem();
    auto w = fs->NewWritableFile(tmp.Join("f"));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Append("kept").ok());
    // Destroying an unclosed file flushes its buffer.
  }
  auto fs = NewPosixFileSystem();
  EXPECT_EQ(*ReadFileToString(*fs, tmp.Join("f")), "kept");
}

TEST(PosixFileSystemTest, StartWritebackFlushesAndLeavesTheFileWhole) {
  TempDir tmp;
  auto fs = NewPosixFileSystem();
  auto w = fs->NewWritableFile(tmp.Join("f"));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Append("first ").ok());
  // Buffered bytes are pushed to the OS before the hint.
  ASSERT_TRUE((*w)->StartWriteback().ok());
  EXPECT_EQ(*ReadFileToString(*fs, tmp.Join("f")), "first ");
  // Nothing new: no range to hand over.
  ASSERT_TRUE((*w)->StartWriteback().ok());
  ASSERT_TRUE((*w)->Append(std::string(100000, 'x')).ok());
  ASSERT_TRUE((*w)->StartWriteback().ok());
  ASSERT_TRUE((*w)->Sync().ok());
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_EQ(*ReadFileToString(*fs, tmp.Join("f")), "first " + std::string(100000, 'x'));
  // A closed file reports the hint's failure.
  EXPECT_TRUE((*w)->StartWriteback().IsIOError());
}

TEST(PosixFileSystemTest, RenameIntoAnotherDirectoryAndSyncBoth) {
  TempDir tmp;
  auto fs = NewPosixFileSystem();
  ASSERT_TRUE(fs->CreateDirs(tmp.Join("a")).ok());
  ASSERT_TRUE(fs->CreateDirs(tmp.Join("b")).ok());
  ASSERT_TRUE(WriteStringToFile(*fs, tmp.Join("a/f"), "v", true).ok());
  ASSERT_TRUE(fs->RenameFile(tmp.Join("a/f"), tmp.Join("b/g")).ok());
  ASSERT_TRUE(fs->SyncDir(tmp.Join("a")).ok());
  ASSERT_TRUE(fs->SyncDir(tmp.Join("b")).ok());
  EXPECT_EQ(*fs->GetChildren(tmp.Join("a")), std::vector<std::string>{});
  EXPECT_EQ(*fs->GetChildren(tmp.Join("b")), std::vector<std::string>{"g"});
}

}  // namespace
}  // namespace cassette
