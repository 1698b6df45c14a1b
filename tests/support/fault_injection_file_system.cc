#include "tests/support/fault_injection_file_system.h"

#include <charconv>

namespace cassette {

class FaultInjectionFileSystem::Injector {
 public:
  // What a call should do: proceed, or fail (perhaps after a short write).
  struct Verdict {
    Status status;
    bool short_write = false;
  };

  // Counts the call against every matching rule; the first rule that fires
  // decides. `path2` is the second path of a rename.
  Verdict Check(FaultOp op, const std::string& path, const std::string& path2 = "") {
    std::lock_guard<std::mutex> l(mu_);
    Verdict v;
    for (Counted& r : rules_) {
      if (r.rule.op != FaultOp::kAny && r.rule.op != op) continue;
      if (!GlobMatch(r.rule.glob, path) && (path2.empty() || !GlobMatch(r.rule.glob, path2))) {
        continue;
      }
      ++r.seen;
      bool fire = false;
      switch (r.rule.when) {
        case FaultRule::When::kNth:
          fire = r.seen == r.rule.nth;
          break;
        case FaultRule::When::kFromNth:
          fire = r.seen >= r.rule.nth;
          break;
        case FaultRule::When::kEvery:
          fire = true;
          break;
      }
      if (fire && v.status.ok()) {
        ++injected_;
        std::string what = path2.empty() ? path : path + " to " + path2;
        v.status = Status::IOError("injected fault: " + std::string(FaultOpName(op)) + " " + what);
        v.short_write = r.rule.short_write && op == FaultOp::kWrite;
      }
    }
    return v;
  }

  void CountSync(const std::string& path) {
    std::lock_guard<std::mutex> l(mu_);
    ++syncs_[path];
    ++total_syncs_;
  }
  void CountWriteback(const std::string& path) {
    std::lock_guard<std::mutex> l(mu_);
    ++writebacks_[path];
  }
  void CountSyncDir(const std::string& dir) {
    std::lock_guard<std::mutex> l(mu_);
    ++dir_syncs_[dir];
  }

  void Add(const FaultRule& rule) {
    std::lock_guard<std::mutex> l(mu_);
    rules_.push_back({rule, 0});
  }
  void Clear() {
    std::lock_guard<std::mutex> l(mu_);
    rules_.clear();
  }
  int injected() const {
    std::lock_guard<std::mutex> l(mu_);
    return injected_;
  }
  int SyncCount(const std::string& path) const {
    std::lock_guard<std::mutex> l(mu_);
    auto it = syncs_.find(path);
    return it == syncs_.end() ? 0 : it->second;
  }
  int WritebackCount(const std::string& path) const {
    std::lock_guard<std::mutex> l(mu_);
    auto it = writebacks_.find(path);
    return it == writebacks_.end() ? 0 : it->second;
  }
  int SyncDirCount(const std::string& dir) const {
    std::lock_guard<std::mutex> l(mu_);
    auto it = dir_syncs_.find(dir);
    return it == dir_syncs_.end() ? 0 : it->second;
  }
  int TotalSyncs() const {
    std::lock_guard<std::mutex> l(mu_);
    return total_syncs_;
  }

 private:
  struct Counted {
    FaultRule rule;
    int seen;
  };

  mutable std::mutex mu_;
  std::vector<Counted> rules_;
  std::map<std::string, int> syncs_;
  std::map<std::string, int> dir_syncs_;
  std::map<std::string, int> writebacks_;
  int total_syncs_ = 0;
  int injected_ = 0;
};

namespace {

using Injector = FaultInjectionFileSystem::Injector;

class FaultWritableFile final : public WritableFile {
 public:
  FaultWritableFile(std::unique_ptr<WritableFile> base, std::shared_ptr<Injector> inj,
                    std::string path)
      : base_(std::move(base)), inj_(std::move(inj)), path_(std::move(path)) {}

  Status Append(std::string_view data) override {
    Injector::Verdict v = inj_->Check(FaultOp::kWrite, path_);
    if (!v.status.ok()) {
      if (v.short_write) base_->Append(data.substr(0, data.size() / 2)).IgnoreError();
      return v.status;
    }
    return base_->Append(data);
  }
  Status Flush() override {
    Injector::Verdict v = inj_->Check(FaultOp::kFlush, path_);
    if (!v.status.ok()) return v.status;
    return base_->Flush();
  }
  Status Sync() override {
    Injector::Verdict v = inj_->Check(FaultOp::kSync, path_);
    if (!v.status.ok()) return v.status;
    Status s = base_->Sync();
    if (s.ok()) inj_->CountSync(path_);
    return s;
  }
  Status StartWriteback() override {
    inj_->CountWriteback(path_);
    return base_->StartWriteback();
  }
  Status Truncate(uint64_t size) override {
    Injector::Verdict v = inj_->Check(FaultOp::kTruncate, path_);
    if (!v.status.ok()) return v.status;
    return base_->Truncate(size);
  }
  Status Close() override { return base_->Close(); }
  uint64_t Size() const override { return base_->Size(); }

 private:
  std::unique_ptr<WritableFile> base_;
  std::shared_ptr<Injector> inj_;
  std::string path_;
};

class FaultRandomAccessFile final : public RandomAccessFile {
 public:
  FaultRandomAccessFile(std::unique_ptr<RandomAccessFile> base, std::shared_ptr<Injector> inj,
                        std::string path)
      : base_(std::move(base)), inj_(std::move(inj)), path_(std::move(path)) {}

  Status Read(uint64_t offset, size_t n, std::string* out) const override {
    Injector::Verdict v = inj_->Check(FaultOp::kRead, path_);
    if (!v.status.ok()) return v.status;
    return base_->Read(offset, n, out);
  }
  uint64_t Size() const override { return base_->Size(); }

 private:
  std::unique_ptr<RandomAccessFile> base_;
  std::shared_ptr<Injector> inj_;
  std::string path_;
};

class FaultSequentialFile final : public SequentialFile {
 public:
  FaultSequentialFile(std::unique_ptr<SequentialFile> base, std::shared_ptr<Injector> inj,
                      std::string path)
      : base_(std::move(base)), inj_(std::move(inj)), path_(std::move(path)) {}

  Status Read(size_t n, std::string* out) override {
    Injector::Verdict v = inj_->Check(FaultOp::kRead, path_);
    if (!v.status.ok()) return v.status;
    return base_->Read(n, out);
  }
  Status Skip(uint64_t n) override { return base_->Skip(n); }

 private:
  std::unique_ptr<SequentialFile> base_;
  std::shared_ptr<Injector> inj_;
  std::string path_;
};

Result<int> ParsePositive(std::string_view key, std::string_view v) {
  int n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 1) {
    return Status::InvalidArgument("fault rule: " + std::string(key) +
                                   " must be a positive integer, got '" + std::string(v) + "'");
  }
  return n;
}

}  // namespace

std::string_view FaultOpName(FaultOp op) {
  switch (op) {
    case FaultOp::kAny:
      return "any";
    case FaultOp::kOpen:
      return "open";
    case FaultOp::kWrite:
      return "write";
    case FaultOp::kFlush:
      return "flush";
    case FaultOp::kSync:
      return "sync";
    case FaultOp::kRead:
      return "read";
    case FaultOp::kRename:
      return "rename";
    case FaultOp::kDelete:
      return "delete";
    case FaultOp::kSyncDir:
      return "syncdir";
    case FaultOp::kMkdir:
      return "mkdir";
    case FaultOp::kTruncate:
      return "truncate";
  }
  return "?";
}

Result<FaultRule> ParseFaultRule(std::string_view spec) {
  static constexpr FaultOp kOps[] = {FaultOp::kAny,    FaultOp::kOpen,    FaultOp::kWrite,
                                     FaultOp::kFlush,  FaultOp::kSync,    FaultOp::kRead,
                                     FaultOp::kRename, FaultOp::kDelete,  FaultOp::kSyncDir,
                                     FaultOp::kMkdir,  FaultOp::kTruncate};
  FaultRule rule;
  size_t i = 0;
  while (i < spec.size()) {
    size_t j = spec.find(' ', i);
    if (j == std::string_view::npos) j = spec.size();
    std::string_view tok = spec.substr(i, j - i);
    i = j + 1;
    if (tok.empty()) continue;
    size_t eq = tok.find('=');
    std::string_view key = tok.substr(0, eq);
    std::string_view val = eq == std::string_view::npos ? "" : tok.substr(eq + 1);
    if (key == "op") {
      bool found = false;
      for (FaultOp op : kOps) {
        if (FaultOpName(op) == val) {
          rule.op = op;
          found = true;
        }
      }
      if (!found)
        return Status::InvalidArgument("fault rule: unknown op '" + std::string(val) + "'");
    } else if (key == "path") {
      rule.glob = std::string(val);
    } else if (key == "nth" || key == "from") {
      CASSETTE_ASSIGN_OR_RETURN(rule.nth, ParsePositive(key, val));
      rule.when = key == "nth" ? FaultRule::When::kNth : FaultRule::When::kFromNth;
    } else if (key == "every" && val.empty()) {
      rule.when = FaultRule::When::kEvery;
    } else if (key == "short" && val.empty()) {
      rule.short_write = true;
    } else {
      return Status::InvalidArgument("fault rule: unknown term '" + std::string(tok) + "'");
    }
  }
  return rule;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative matching with one backtrack point (the last '*'): linear in
  // practice and immune to exponential blow-up.
  size_t p = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;
  size_t star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_t = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

FaultInjectionFileSystem::FaultInjectionFileSystem(std::shared_ptr<FileSystem> base)
    : base_(std::move(base)), injector_(std::make_shared<Injector>()) {}

void FaultInjectionFileSystem::AddRule(const FaultRule& rule) { injector_->Add(rule); }
void FaultInjectionFileSystem::ClearRules() { injector_->Clear(); }
int FaultInjectionFileSystem::injected() const { return injector_->injected(); }
int FaultInjectionFileSystem::WritebackCount(const std::string& path) const {
  return injector_->WritebackCount(path);
}

int FaultInjectionFileSystem::SyncCount(const std::string& path) const {
  return injector_->SyncCount(path);
}
int FaultInjectionFileSystem::SyncDirCount(const std::string& dir) const {
  return injector_->SyncDirCount(dir);
}
int FaultInjectionFileSystem::TotalSyncs() const { return injector_->TotalSyncs(); }

Result<std::unique_ptr<WritableFile>> FaultInjectionFileSystem::NewWritableFile(
    const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kOpen, path).status);
  CASSETTE_ASSIGN_OR_RETURN(auto f, base_->NewWritableFile(path));
  return std::unique_ptr<WritableFile>(
      std::make_unique<FaultWritableFile>(std::move(f), injector_, path));
}

Result<std::unique_ptr<WritableFile>> FaultInjectionFileSystem::NewAppendableFile(
    const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kOpen, path).status);
  CASSETTE_ASSIGN_OR_RETURN(auto f, base_->NewAppendableFile(path));
  return std::unique_ptr<WritableFile>(
      std::make_unique<FaultWritableFile>(std::move(f), injector_, path));
}

Result<std::unique_ptr<RandomAccessFile>> FaultInjectionFileSystem::NewRandomAccessFile(
    const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kOpen, path).status);
  CASSETTE_ASSIGN_OR_RETURN(auto f, base_->NewRandomAccessFile(path));
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<FaultRandomAccessFile>(std::move(f), injector_, path));
}

Result<std::unique_ptr<SequentialFile>> FaultInjectionFileSystem::NewSequentialFile(
    const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kOpen, path).status);
  CASSETTE_ASSIGN_OR_RETURN(auto f, base_->NewSequentialFile(path));
  return std::unique_ptr<SequentialFile>(
      std::make_unique<FaultSequentialFile>(std::move(f), injector_, path));
}

bool FaultInjectionFileSystem::FileExists(const std::string& path) {
  return base_->FileExists(path);
}

Result<std::vector<std::string>> FaultInjectionFileSystem::GetChildren(const std::string& dir) {
  return base_->GetChildren(dir);
}

Result<uint64_t> FaultInjectionFileSystem::GetFileSize(const std::string& path) {
  return base_->GetFileSize(path);
}

Status FaultInjectionFileSystem::DeleteFile(const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kDelete, path).status);
  return base_->DeleteFile(path);
}

Status FaultInjectionFileSystem::CreateDirs(const std::string& dir) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kMkdir, dir).status);
  return base_->CreateDirs(dir);
}

Status FaultInjectionFileSystem::DeleteDir(const std::string& dir) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kDelete, dir).status);
  return base_->DeleteDir(dir);
}

Status FaultInjectionFileSystem::RenameFile(const std::string& from, const std::string& to) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kRename, from, to).status);
  return base_->RenameFile(from, to);
}

Status FaultInjectionFileSystem::SyncDir(const std::string& dir) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kSyncDir, dir).status);
  Status s = base_->SyncDir(dir);
  if (s.ok()) injector_->CountSyncDir(dir);
  return s;
}

Result<std::unique_ptr<FileLock>> FaultInjectionFileSystem::LockFile(const std::string& path) {
  CASSETTE_RETURN_IF_ERROR(injector_->Check(FaultOp::kOpen, path).status);
  return base_->LockFile(path);
}

Result<uint64_t> FaultInjectionFileSystem::GetFreeSpace(const std::string& dir) {
  return base_->GetFreeSpace(dir);
}

}  // namespace cassette
