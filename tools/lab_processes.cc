#include "tools/lab_processes.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "engine/util/coding.h"
#include "tools/lab_result_codec.h"

namespace cassette::tools {
namespace {

// A child's messages on its pipe: a kind byte, the payload's length
// (fixed 64 bits) and the payload.
enum class MessageKind : char {
  kProgress = 'p',  // a day done: signed varints day, days
  kResult = 'r',    // EncodeLabResult
  kError = 'e',     // EncodeLabError
};
constexpr size_t kHeaderBytes = 1 + 8;

// The exit status of a child that could not write its result to the pipe
// (the parent gone, or the pipe broken).
constexpr int kExitCannotWrite = 3;

std::string Message(MessageKind kind, std::string_view payload) {
  std::string out(1, static_cast<char>(kind));
  PutFixed64(&out, payload.size());
  out.append(payload);
  return out;
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string SystemError(const std::string& what) { return what + ": " + std::strerror(errno); }

// The child: runs the job, writes its progress and outcome to `fd`, and
// leaves with _exit, which runs no atexit handler and flushes no stdio
// buffer the parent also holds (the parent writes those once).
[[noreturn]] void RunChild(const LabJob& job, const std::string& scratch_dir,
                           const LabChildRun& run, int fd, pid_t parent) {
#ifdef __linux__
  // Killed with the parent: a lab interrupted hard leaves no runs behind.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(kExitCannotWrite);
#else
  (void)parent;
#endif
  bool written = true;
  const LabProgress progress = [fd, &written](int64_t day, int64_t days) {
    std::string payload;
    PutSignedVarint64(&payload, day);
    PutSignedVarint64(&payload, days);
    written = written && WriteAll(fd, Message(MessageKind::kProgress, payload));
  };
  const Result<LabResult> outcome =
      run ? run(job, scratch_dir, progress)
          : RunStrategy(job.spec, job.strategy, scratch_dir, progress);
  written =
      written &&
      WriteAll(fd, outcome.ok() ? Message(MessageKind::kResult, EncodeLabResult(*outcome))
                                : Message(MessageKind::kError, EncodeLabError(outcome.status())));
  ::_exit(written ? 0 : kExitCannotWrite);
}

// A running child, as the parent sees it.
struct Child {
  size_t job = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;  // bytes not yet parsed into messages
  std::optional<Result<LabResult>> outcome;
  std::string problem;  // why its messages could not be read ("its result did not decode: ...")
};

// Takes the complete messages off the front of child->received.
void ParseMessages(const LabStrategyProgress& progress, Child* child) {
  std::string_view in = child->received;
  while (in.size() >= kHeaderBytes && child->problem.empty()) {
    const uint64_t length = DecodeFixed64(in.data() + 1);
    if (length > in.size() - kHeaderBytes) break;  // the rest is still coming
    const auto kind = static_cast<MessageKind>(in[0]);
    std::string_view payload = in.substr(kHeaderBytes, length);
    in.remove_prefix(kHeaderBytes + length);
    if (child->outcome.has_value()) {
      child->problem = "its process sent a message after its result";
    } else if (kind == MessageKind::kProgress) {
      int64_t day = 0, days = 0;
      if (!GetSignedVarint64(&payload, &day) || !GetSignedVarint64(&payload, &days) ||
          !payload.empty()) {
        child->problem = "its process sent a malformed progress message";
      } else if (progress) {
        progress(child->job, day, days);
      }
    } else if (kind == MessageKind::kResult) {
      Result<LabResult> result = DecodeLabResult(payload);
      if (result.ok()) {
        child->outcome.emplace(std::move(result));
      } else {
        child->problem = "its result did not decode: " + result.status().message();
      }
    } else if (kind == MessageKind::kError) {
      Status error;
      Status decoded = DecodeLabError(payload, &error);
      if (decoded.ok()) {
        child->outcome.emplace(std::move(error));
      } else {
        child->problem = "its error did not decode: " + decoded.message();
      }
    } else {
      child->problem =
          "its process sent a message of unknown kind " + std::to_string(static_cast<int>(kind));
    }
  }
  child->received.erase(0, child->received.size() - in.size());
  // After a message that made no sense, the rest is not read either.
  if (!child->problem.empty()) child->received.clear();
}

// The child's outcome, once its pipe is closed and it has been reaped
// with `wait_status` (or `reaped` false when waitpid failed).
Result<LabResult> Outcome(const LabJob& job, Child* child, bool reaped, int wait_status) {
  const std::string who = "strategy '" + job.strategy + "'";
  if (reaped && WIFSIGNALED(wait_status)) {
    const int signal = WTERMSIG(wait_status);
    const char* name = ::strsignal(signal);
    return Status::IOError(who + " crashed: signal " + std::to_string(signal) +
                           (name != nullptr ? " (" + std::string(name) + ")" : ""));
  }
  if (reaped && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0) {
    return Status::IOError(who + " exited with status " + std::to_string(WEXITSTATUS(wait_status)));
  }
  if (!child->problem.empty()) {
    return Status::IOError(who + ": " + child->problem);
  }
  if (!child->outcome.has_value()) {
    return Status::IOError(who + " ended without its result (" +
                           std::to_string(child->received.size()) + " bytes of a message cut off)");
  }
  if (!child->received.empty()) {
    return Status::IOError(who + ": its process sent " + std::to_string(child->received.size()) +
                           " bytes after its result");
  }
  return std::move(*child->outcome);
}

}  // namespace

std::vector<Result<LabResult>> RunLabJobsInProcesses(const std::vector<LabJob>& jobs,
                                                     const std::string& scratch_dir,
                                                     size_t processes,
                                                     const LabStrategyProgress& progress,
                                                     const LabChildRun& run) {
  std::vector<std::optional<Result<LabResult>>> outcomes(jobs.size());
  std::vector<Child> running;
  const pid_t parent = ::getpid();
  size_t next = 0;
  auto start = [&](size_t i) {
    const std::string dir = scratch_dir.empty() ? "" : scratch_dir + "/" + std::to_string(i);
    const std::string who = "strategy '" + jobs[i].strategy + "'";
    int fds[2];
    if (::pipe(fds) != 0) {
      outcomes[i].emplace(Status::IOError(SystemError("cannot make a pipe for " + who)));
      return;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
      outcomes[i].emplace(Status::IOError(SystemError("cannot start a process for " + who)));
      ::close(fds[0]);
      ::close(fds[1]);
      return;
    }
    if (pid == 0) {
      ::close(fds[0]);
      for (const Child& other : running) ::close(other.fd);
      RunChild(jobs[i], dir, run, fds[1], parent);
    }
    ::close(fds[1]);  // so that the child's exit ends the pipe
    Child child;
    child.job = i;
    child.pid = pid;
    child.fd = fds[0];
    running.push_back(std::move(child));
  };
  const size_t at_once = std::max<size_t>(1, processes);
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && running.size() < at_once) start(next++);
    if (running.empty()) continue;
    std::vector<pollfd> waits;
    for (const Child& child : running) waits.push_back({child.fd, POLLIN, 0});
    if (::poll(waits.data(), waits.size(), -1) < 0) {
      if (errno == EINTR) continue;
      // Not expected with valid descriptors; read them one by one instead
      // (a blocking read still makes progress).
      for (pollfd& wait : waits) wait.revents = POLLIN;
    }
    for (size_t w = waits.size(); w-- > 0;) {
      if (waits[w].revents == 0) continue;
      Child& child = running[w];
      char buffer[64 * 1024];
      const ssize_t n = ::read(child.fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        child.received.append(buffer, static_cast<size_t>(n));
        ParseMessages(progress, &child);
        continue;
      }
      if (n < 0) child.problem = SystemError("its pipe could not be read");
      // End of the pipe: the child has exited (or is exiting).
      ::close(child.fd);
      int wait_status = 0;
      pid_t reaped = -1;
      do {
        reaped = ::waitpid(child.pid, &wait_status, 0);
      } while (reaped < 0 && errno == EINTR);
      outcomes[child.job].emplace(
          Outcome(jobs[child.job], &child, reaped == child.pid, wait_status));
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(w));
    }
  }
  std::vector<Result<LabResult>> results;
  for (std::optional<Result<LabResult>>& outcome : outcomes) results.push_back(std::move(*outcome));
  return results;
}

}  // namespace cassette::tools
