#include "tests/crash/side_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cassette::crash {

Result<SideFile> SideFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IOError(path + ": " + std::strerror(errno));
  return SideFile(fd);
}

SideFile::~SideFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status SideFile::Append(const std::string& line) {
  const std::string data = line + "\n";
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IOError(std::string("side file: ") + std::strerror(errno));
    written += static_cast<size_t>(n);
  }
  return Status::OK();
}

Result<SideLog> ReadSideLog(const std::string& path) {
  SideLog log;
  std::ifstream in(path, std::ios::binary);
  if (!in) return log;  // no file yet: nothing happened
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (complete < text.size()) {
    // A write(2) cut short by the kill: the event did not happen.
    if (::truncate(path.c_str(), static_cast<off_t>(complete)) != 0) {
      return Status::IOError(path + ": truncate: " + std::strerror(errno));
    }
    text.resize(complete);
  }
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line == "S") {
      log.schema_ready = true;
      continue;
    }
    if (line.size() < 2 || line[1] != ' ') return Status::Corruption("side file line: " + line);
    const std::string rest = line.substr(2);
    if (line[0] == 'I') {
      if (log.in_flight) {
        return Status::Corruption("side file: two operations in flight: " + line);
      }
      CASSETTE_ASSIGN_OR_RETURN(Op op, DecodeOp(rest));
      log.in_flight = op;
      log.next_index = op.index + 1;
      continue;
    }
    if (line[0] != 'A' && line[0] != 'R') return Status::Corruption("side file line: " + line);
    std::istringstream fields(rest);
    int64_t index = -1;
    int applied = 0;
    fields >> index >> applied;
    if (!fields || !log.in_flight || log.in_flight->index != index) {
      return Status::Corruption("side file: no intent for " + line);
    }
    if (line[0] == 'A' && log.in_flight->IsWrite()) ++log.acknowledged_writes;
    log.done.push_back({*log.in_flight, applied != 0, line[0] == 'A'});
    log.in_flight.reset();
  }
  return log;
}

}  // namespace cassette::crash
