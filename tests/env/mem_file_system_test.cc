// The crash model of MemFileSystem (see engine/env/mem_file_system.cc).
#include <gtest/gtest.h>

#include "cassette/file_system.h"
#include "engine/env/durable_directory.h"
#include "tests/support/file_contents.h"

namespace cassette {
namespace {

class MemFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db").ok()); }

  // Appends `synced`, syncs, then appends `unsynced`.
  void Write(const std::string& path, std::string_view synced, std::string_view unsynced) {
    auto w = fs_->NewWritableFile(path);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Append(synced).ok());
    ASSERT_TRUE((*w)->Sync().ok());
    ASSERT_TRUE((*w)->Append(unsynced).ok());
    ASSERT_TRUE((*w)->Close().ok());
  }

  static std::string Read(MemFileSystem& fs, const std::string& path) {
    auto r = ReadFileToString(fs, path);
    return r.ok() ? *r : "<" + r.status().ToString() + ">";
  }

  std::shared_ptr<MemFileSystem> fs_ = NewMemFileSystem();
};

TEST_F(MemFileSystemTest, UnsyncedBytesAreLostSyncedBytesKept) {
  Write("/db/f", "synced", "+unsynced");
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  EXPECT_EQ(Read(*fs_, "/db/f"), "synced+unsynced");  // visible before the crash
  auto crashed = fs_->CrashClone(0, 1);
  EXPECT_EQ(Read(*crashed, "/db/f"), "synced");
  EXPECT_EQ(Read(*fs_, "/db/f"), "synced+unsynced");  // the original is untouched
}

TEST_F(MemFileSystemTest, FileIsLostWhenItsDirectoryWasNeverSynced) {
  Write("/db/f", "all synced", "");
  auto crashed = fs_->CrashClone(0, 1);
  EXPECT_FALSE(crashed->FileExists("/db/f"));
  EXPECT_TRUE(crashed->FileExists("/db"));  // directories are durable at once
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  EXPECT_EQ(Read(*fs_->CrashClone(0, 1), "/db/f"), "all synced");
}

TEST_F(MemFileSystemTest, UnsyncedRenameIsUndone) {
  Write("/db/MANIFEST.tmp", "v2", "");
  Write("/db/MANIFEST", "v1", "");
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  ASSERT_TRUE(fs_->RenameFile("/db/MANIFEST.tmp", "/db/MANIFEST").ok());
  EXPECT_EQ(Read(*fs_, "/db/MANIFEST"), "v2");

  auto before_sync = fs_->CrashClone(0, 1);
  EXPECT_EQ(Read(*before_sync, "/db/MANIFEST"), "v1");
  EXPECT_EQ(Read(*before_sync, "/db/MANIFEST.tmp"), "v2");

  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  auto after_sync = fs_->CrashClone(0, 1);
  EXPECT_EQ(Read(*after_sync, "/db/MANIFEST"), "v2");
  EXPECT_FALSE(after_sync->FileExists("/db/MANIFEST.tmp"));
}

TEST_F(MemFileSystemTest, RenameAcrossDirectoriesNeedsBothSynced) {
  ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db/a").ok());
  ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db/b").ok());
  Write("/db/a/f", "x", "");
  ASSERT_TRUE(fs_->SyncDir("/db/a").ok());
  ASSERT_TRUE(fs_->RenameFile("/db/a/f", "/db/b/f").ok());
  ASSERT_TRUE(fs_->SyncDir("/db/b").ok());
  // Only the target was synced: the file shows under both names.
  auto half = fs_->CrashClone(0, 1);
  EXPECT_TRUE(half->FileExists("/db/a/f"));
  EXPECT_TRUE(half->FileExists("/db/b/f"));
  ASSERT_TRUE(fs_->SyncDir("/db/a").ok());
  auto both = fs_->CrashClone(0, 1);
  EXPECT_FALSE(both->FileExists("/db/a/f"));
  EXPECT_EQ(Read(*both, "/db/b/f"), "x");
}

TEST_F(MemFileSystemTest, UnsyncedDeleteComesBack) {
  Write("/db/f", "x", "");
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  ASSERT_TRUE(fs_->DeleteFile("/db/f").ok());
  EXPECT_FALSE(fs_->FileExists("/db/f"));
  EXPECT_TRUE(fs_->CrashClone(0, 1)->FileExists("/db/f"));
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  EXPECT_FALSE(fs_->CrashClone(0, 1)->FileExists("/db/f"));
}

TEST_F(MemFileSystemTest, TruncationLosesTheOldContentUntilSynced) {
  Write("/db/f", "old", "");
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  auto w = fs_->NewWritableFile("/db/f");
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Append("new").ok());
  EXPECT_EQ(Read(*fs_->CrashClone(0, 1), "/db/f"), "");
  ASSERT_TRUE((*w)->Sync().ok());
  EXPECT_EQ(Read(*fs_->CrashClone(0, 1), "/db/f"), "new");
}

TEST_F(MemFileSystemTest, TornTailKeepsASeededRandomPrefix) {
  const std::string tail = "0123456789abcdefghijklmnopqrstuvwxyz";
  Write("/db/log", "HEAD", tail);
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  int partial = 0, none = 0;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::string got = Read(*fs_->CrashClone(50, seed), "/db/log");
    ASSERT_GE(got.size(), 4u);
    ASSERT_EQ(got, ("HEAD" + tail).substr(0, got.size()));  // always a prefix
    if (got == "HEAD") {
      ++none;
    } else {
      ++partial;
    }
    EXPECT_EQ(got, Read(*fs_->CrashClone(50, seed), "/db/log")) << "seed " << seed;
  }
  EXPECT_GT(partial, 0);
  EXPECT_GT(none, 0);
  EXPECT_EQ(Read(*fs_->CrashClone(100, 3), "/db/log"), "HEAD" + tail);
  EXPECT_EQ(Read(*fs_->CrashClone(0, 3), "/db/log"), "HEAD");
}

TEST_F(MemFileSystemTest, CloneIsIndependentAndFullySynced) {
  Write("/db/f", "a", "b");
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  auto clone = fs_->CrashClone(100, 1);
  ASSERT_TRUE(WriteStringToFile(*clone, "/db/g", "only in clone", false).ok());
  EXPECT_FALSE(fs_->FileExists("/db/g"));
  // Everything that survived a crash is durable in the clone.
  EXPECT_EQ(Read(*clone->CrashClone(0, 1), "/db/f"), "ab");
}

TEST_F(MemFileSystemTest, LocksAreReleasedByDestructionAndNotCloned) {
  auto lock = fs_->LockFile("/db/LOCK");
  ASSERT_TRUE(lock.ok());
  EXPECT_TRUE(fs_->LockFile("/db/LOCK").status().IsBusy());
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  auto clone = fs_->CrashClone(0, 1);
  EXPECT_TRUE(clone->LockFile("/db/LOCK").ok());
  lock->reset();
  EXPECT_TRUE(fs_->LockFile("/db/LOCK").ok());
}

TEST_F(MemFileSystemTest, DiskFullFailsAppendsUntilSpaceIsFreed) {
  fs_->SetFreeSpace(10);
  EXPECT_EQ(*fs_->GetFreeSpace("/db"), 10u);
  auto w = fs_->NewWritableFile("/db/f");
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Append("12345678").ok());
  EXPECT_EQ(*fs_->GetFreeSpace("/db"), 2u);
  Status s = (*w)->Append("abcde");
  EXPECT_TRUE(s.IsIOError());
  EXPECT_EQ(s.message(), "append /db/f: No space left on device");
  EXPECT_EQ(Read(*fs_, "/db/f"), "12345678");  // nothing of the failed append
  EXPECT_EQ((*w)->Size(), 8u);
  ASSERT_TRUE((*w)->Close().ok());

  ASSERT_TRUE(fs_->DeleteFile("/db/f").ok());
  EXPECT_EQ(*fs_->GetFreeSpace("/db"), 10u);
  ASSERT_TRUE(WriteStringToFile(*fs_, "/db/g", "abcde", false).ok());
  // Truncating gives the old bytes back.
  ASSERT_TRUE(WriteStringToFile(*fs_, "/db/g", "0123456789", false).ok());
  EXPECT_EQ(*fs_->GetFreeSpace("/db"), 0u);
}

TEST_F(MemFileSystemTest, PathsAreNormalized) {
  ASSERT_TRUE(WriteStringToFile(*fs_, "/db//x/../f", "v", false).ok());
  EXPECT_EQ(Read(*fs_, "/db/./f"), "v");
  EXPECT_EQ(*fs_->GetChildren("/db/"), std::vector<std::string>{"f"});
  EXPECT_EQ(*fs_->GetChildren("/"), std::vector<std::string>{"db"});
}

TEST_F(MemFileSystemTest, RenamingADirectoryKeepsItsContents) {
  ASSERT_TRUE(fs_->CreateDirs("/db/old").ok());
  Write("/db/old/f", "x", "");
  ASSERT_TRUE(fs_->RenameFile("/db/old", "/db/new").ok());
  EXPECT_EQ(Read(*fs_, "/db/new/f"), "x");
  EXPECT_FALSE(fs_->FileExists("/db/old"));
  EXPECT_TRUE(fs_->RenameFile("/db/new", "/db/new/sub").IsIOError());
}

TEST_F(MemFileSystemTest, CrossedDirectoryRenamesStillClone) {
  // Partly synced directory renames can make the durable views refer to
  // each other; cloning must terminate and nothing may leak.
  ASSERT_TRUE(fs_->CreateDirs("/a/b").ok());
  ASSERT_TRUE(fs_->RenameFile("/a/b", "/c").ok());
  ASSERT_TRUE(fs_->SyncDir("/").ok());
  ASSERT_TRUE(fs_->RenameFile("/a", "/c/a").ok());
  ASSERT_TRUE(fs_->SyncDir("/c").ok());
  auto clone = fs_->CrashClone(0, 1);
  EXPECT_TRUE(clone->FileExists("/a"));
  EXPECT_TRUE(clone->FileExists("/c"));
}

// A directory is an entry of its parent: without an fsync of the parent
// after mkdir, a crash forgets it with everything in it, synced or not.
TEST_F(MemFileSystemTest, DirectoryIsLostWhenItsParentWasNeverSynced) {
  ASSERT_TRUE(fs_->CreateDirs("/db/ks/t").ok());
  Write("/db/ks/t/f", "synced", "");
  ASSERT_TRUE(fs_->SyncDir("/db/ks/t").ok());
  EXPECT_FALSE(fs_->CrashClone(0, 1)->FileExists("/db/ks"));
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  auto half = fs_->CrashClone(0, 1);
  EXPECT_TRUE(half->FileExists("/db/ks"));
  EXPECT_FALSE(half->FileExists("/db/ks/t"));
  ASSERT_TRUE(fs_->SyncDir("/db/ks").ok());
  EXPECT_EQ(Read(*fs_->CrashClone(0, 1), "/db/ks/t/f"), "synced");
}

TEST_F(MemFileSystemTest, CreateDirsDurablySyncsEveryNewParent) {
  ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db/ks/t").ok());
  EXPECT_TRUE(fs_->CrashClone(0, 1)->FileExists("/db/ks/t"));
  // Existing: nothing to do.
  ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db/ks/t").ok());
  EXPECT_EQ(ParentDirectory("/a/b"), "/a");
  EXPECT_EQ(ParentDirectory("/a"), "/");
  EXPECT_EQ(ParentDirectory("a"), ".");
  EXPECT_EQ(ParentDirectory("/a/b/"), "/a");
}

// An rmdir is undone by a crash unless the parent is synced after it.
TEST_F(MemFileSystemTest, UnsyncedDirectoryRemovalIsUndone) {
  ASSERT_TRUE(CreateDirsDurably(fs_.get(), "/db/gone").ok());
  ASSERT_TRUE(fs_->DeleteDir("/db/gone").ok());
  EXPECT_TRUE(fs_->CrashClone(0, 1)->FileExists("/db/gone"));
  ASSERT_TRUE(fs_->SyncDir("/db").ok());
  EXPECT_FALSE(fs_->CrashClone(0, 1)->FileExists("/db/gone"));
}

}  // namespace
}  // namespace cassette
