// The production file system: thin wrappers over POSIX calls. Every error
// names the operation, the path and the OS's reason.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "cassette/file_system.h"

namespace cassette {
namespace {

constexpr size_t kWriteBufferSize = 64 * 1024;

// A missing file is NotFound (callers branch on it); anything else is an
// IOError. Both carry "<op> <path>: <reason>".
Status PosixError(std::string_view op, const std::string& path, int err) {
  std::string msg(op);
  msg += ' ';
  msg += path;
  msg += ": ";
  msg += std::error_code(err, std::generic_category()).message();
  if (err == ENOENT) return Status::NotFound(std::move(msg));
  return Status::IOError(std::move(msg));
}

std::string ParentDir(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size), writeback_started_(size) {
    buf_.reserve(kWriteBufferSize);
  }
  ~PosixWritableFile() override {
    if (fd_ >= 0) Close().IgnoreError();  // the owner chose not to check
  }

  Status Append(std::string_view data) override {
    if (fd_ < 0) return Status::IOError("append " + path_ + ": file is closed");
    if (buf_.size() + data.size() > kWriteBufferSize) {
      CASSETTE_RETURN_IF_ERROR(Flush());
      // Large appends skip the buffer rather than being copied through it.
      if (data.size() >= kWriteBufferSize) {
        CASSETTE_RETURN_IF_ERROR(WriteAll(data));
        size_ += data.size();
        return Status::OK();
      }
    }
    buf_.append(data);
    size_ += data.size();
    return Status::OK();
  }

  Status Flush() override {
    if (fd_ < 0) return Status::IOError("flush " + path_ + ": file is closed");
    Status s = WriteAll(buf_);
    buf_.clear();
    return s;
  }

  Status Sync() override {
    CASSETTE_RETURN_IF_ERROR(Flush());
    if (::fdatasync(fd_) != 0) return PosixError("fdatasync", path_, errno);
    return Status::OK();
  }

  Status StartWriteback() override {
    CASSETTE_RETURN_IF_ERROR(Flush());
    const uint64_t flushed = size_;
    if (flushed <= writeback_started_) return Status::OK();
    // SYNC_FILE_RANGE_WRITE queues the dirty pages for writing and waits
    // for none of them (it may block only while the device queue is full).
    if (::sync_file_range(fd_, static_cast<off_t>(writeback_started_),
                          static_cast<off_t>(flushed - writeback_started_),
                          SYNC_FILE_RANGE_WRITE) != 0) {
      return PosixError("sync_file_range", path_, errno);
    }
    writeback_started_ = flushed;
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    if (fd_ < 0) return Status::IOError("truncate " + path_ + ": file is closed");
    buf_.clear();
    if (size > size_) return Status::InvalidArgument("truncate " + path_ + " beyond its end");
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return PosixError("ftruncate", path_, errno);
    }
    // Files opened without O_APPEND write at the descriptor's offset.
    if (::lseek(fd_, static_cast<off_t>(size), SEEK_SET) < 0) {
      return PosixError("lseek", path_, errno);
    }
    size_ = size;
    writeback_started_ = std::min(writeback_started_, size);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = Flush();
    if (::close(fd_) != 0 && s.ok()) s = PosixError("close", path_, errno);
    fd_ = -1;
    return s;
  }

  uint64_t Size() const override { return size_; }

 private:
  Status WriteAll(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError("write", path_, errno);
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }

  const std::string path_;
  int fd_;
  uint64_t size_;
  // Everything before this offset has been handed to StartWriteback.
  uint64_t writeback_started_;
  std::string buf_;
};

class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }

  // pread keeps no file position, so concurrent readers need no lock.
  Status Read(uint64_t offset, size_t n, std::string* out) const override {
    out->resize(n);
    size_t got = 0;
    while (got < n) {
      ssize_t r = ::pread(fd_, out->data() + got, n - got, static_cast<off_t>(offset + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        out->clear();
        return PosixError("pread", path_, errno);
      }
      if (r == 0) break;  // end of file
      got += static_cast<size_t>(r);
    }
    out->resize(got);
    return Status::OK();
  }

  uint64_t Size() const override {
    struct stat st;
    if (::fstat(fd_, &st) == 0) return static_cast<uint64_t>(st.st_size);
    return size_;
  }

 private:
  const std::string path_;
  const int fd_;
  const uint64_t size_;
};

class PosixSequentialFile final : public SequentialFile {
 public:
  PosixSequentialFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixSequentialFile() override { ::close(fd_); }

  Status Read(size_t n, std::string* out) override {
    out->resize(n);
    size_t got = 0;
    while (got < n) {
      ssize_t r = ::read(fd_, out->data() + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        out->clear();
        return PosixError("read", path_, errno);
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    out->resize(got);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (::lseek(fd_, static_cast<off_t>(n), SEEK_CUR) < 0) return PosixError("lseek", path_, errno);
    return Status::OK();
  }

 private:
  const std::string path_;
  const int fd_;
};

// flock() locks belong to the open file description, so holding the fd
// holds the lock; two LockFile calls in one process conflict as they would
// across processes, and the lock dies with the process.
class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  const int fd_;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError("open", path, errno);
    return std::unique_ptr<WritableFile>(std::make_unique<PosixWritableFile>(path, fd, 0));
  }

  Result<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError("open", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      Status s = PosixError("fstat", path, errno);
      ::close(fd);
      return s;
    }
    return std::unique_ptr<WritableFile>(
        std::make_unique<PosixWritableFile>(path, fd, static_cast<uint64_t>(st.st_size)));
  }

  Result<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError("open", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      Status s = PosixError("fstat", path, errno);
      ::close(fd);
      return s;
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<PosixRandomAccessFile>(path, fd, static_cast<uint64_t>(st.st_size)));
  }

  Result<std::unique_ptr<SequentialFile>> NewSequentialFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError("open", path, errno);
    return std::unique_ptr<SequentialFile>(std::make_unique<PosixSequentialFile>(path, fd));
  }

  bool FileExists(const std::string& path) override {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
  }

  Result<std::vector<std::string>> GetChildren(const std::string& dir) override {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return PosixError("opendir", dir, errno);
    std::vector<std::string> names;
    errno = 0;
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name(e->d_name);
      if (name != "." && name != "..") names.emplace_back(name);
    }
    int err = errno;
    ::closedir(d);
    if (err != 0) return PosixError("readdir", dir, err);
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<uint64_t> GetFileSize(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return PosixError("stat", path, errno);
    return static_cast<uint64_t>(st.st_size);
  }

  Status DeleteFile(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return PosixError("unlink", path, errno);
    return Status::OK();
  }

  Status CreateDirs(const std::string& dir) override {
    if (dir.empty()) return Status::InvalidArgument("create directory: empty path");
    // Create each prefix in turn; EEXIST on a directory is success.
    for (size_t pos = 1; pos <= dir.size(); ++pos) {
      if (pos != dir.size() && dir[pos] != '/') continue;
      std::string prefix = dir.substr(0, pos);
      if (::mkdir(prefix.c_str(), 0755) == 0) continue;
      int err = errno;
      struct stat st;
      if (err == EEXIST && ::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
      return PosixError("mkdir", prefix, err == EEXIST ? ENOTDIR : err);
    }
    return Status::OK();
  }

  Status DeleteDir(const std::string& dir) override {
    if (::rmdir(dir.c_str()) != 0) return PosixError("rmdir", dir, errno);
    return Status::OK();
  }

  Status RenameFile(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return PosixError("rename", from + " to " + to, errno);
    }
    return Status::OK();
  }

  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError("open directory", dir, errno);
    Status s;
    if (::fsync(fd) != 0) s = PosixError("fsync directory", dir, errno);
    ::close(fd);
    return s;
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError("open lock file", path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) {
        return Status::Busy("data directory " + ParentDir(path) +
                            " is locked by another process (lock file " + path + ")");
      }
      return PosixError("flock", path, err);
    }
    return std::unique_ptr<FileLock>(std::make_unique<PosixFileLock>(fd));
  }

  Result<uint64_t> GetFreeSpace(const std::string& dir) override {
    struct statvfs st;
    if (::statvfs(dir.c_str(), &st) != 0) return PosixError("statvfs", dir, errno);
    return static_cast<uint64_t>(st.f_bavail) * static_cast<uint64_t>(st.f_frsize);
  }
};

}  // namespace

std::shared_ptr<FileSystem> NewPosixFileSystem() { return std::make_shared<PosixFileSystem>(); }

}  // namespace cassette
