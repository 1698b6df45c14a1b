#include "bench/driver/isolated_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace cassette::bench {
namespace {

// Fields are tab-separated and records newline-terminated: keep both out
// of the text fields.
std::string Clean(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  return s;
}

std::string Serialize(const Result<EngineRun>& run) {
  if (!run.ok()) return "error\t" + Clean(run.status().ToString()) + "\n";
  std::string out = "ok\t" + Clean(run->description) + "\n";
  for (const WorkloadResult& r : run->results) {
    out += Clean(r.workload) + "\t" + Clean(r.engine) + "\t" + (r.available ? "1" : "0") + "\t" +
           Clean(r.note);
    for (double WorkloadResult::*field : kResultNumbers) {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "\t%.17g", r.*field);
      out += buf;
    }
    out += "\n";
  }
  return out;
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, '\t')) fields.push_back(field);
  if (!line.empty() && line.back() == '\t') fields.emplace_back();
  return fields;
}

Result<EngineRun> Parse(const std::string& text) {
  std::stringstream in(text);
  std::string line;
  if (!std::getline(in, line)) return Status::IOError("the engine's process reported nothing");
  std::vector<std::string> head = SplitTabs(line);
  if (head.size() == 2 && head[0] == "error") return Status::IOError(head[1]);
  if (head.empty() || head[0] != "ok") return Status::IOError("unreadable report: " + line);
  EngineRun run;
  run.description = head.size() > 1 ? head[1] : "";
  const size_t numbers = std::size(kResultNumbers);
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitTabs(line);
    if (f.size() != 4 + numbers) return Status::IOError("unreadable result: " + line);
    WorkloadResult r;
    r.workload = f[0];
    r.engine = f[1];
    r.available = f[2] == "1";
    r.note = f[3];
    for (size_t i = 0; i < numbers; ++i)
      r.*kResultNumbers[i] = std::strtod(f[4 + i].c_str(), nullptr);
    run.results.push_back(std::move(r));
  }
  return run;
}

}  // namespace

Result<EngineRun> RunIsolated(const std::function<Result<EngineRun>()>& run) {
  int fds[2];
  if (pipe(fds) != 0) return Status::IOError(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return Status::IOError(std::string("fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    const std::string report = Serialize(run());
    size_t written = 0;
    while (written < report.size()) {
      const ssize_t n = write(fds[1], report.data() + written, report.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(3);
      written += static_cast<size_t>(n);
    }
    close(fds[1]);
    // No exit handlers: the parent owns everything the child inherited.
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  while (true) {
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    return Status::IOError("the engine's process died of signal " +
                           std::to_string(WTERMSIG(status)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::IOError("the engine's process exited with status " +
                           std::to_string(WEXITSTATUS(status)));
  }
  return Parse(text);
}

}  // namespace cassette::bench
