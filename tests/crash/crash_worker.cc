// crash_worker: the child process of the kill test. Opens a database in
// --dir with the given commit-log sync mode and runs the seeded workload
// (crash_workload.h) for ever, continuing from the side file (--log): each
// operation's intent is appended before it runs and its acknowledgement
// after the API returned OK. The parent kills it with SIGKILL.
//
//   crash_worker --dir D --log F --mode batch|group|periodic --seed S
//
// Exits 2 when an operation fails (a write the engine refuses or an I/O
// error: the parent reports the worker ending by itself), 3 when the side
// file has an operation in flight that no checker settled.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cassette/cql.h"
#include "cassette/db.h"
#include "tests/crash/kill_checker.h"
#include "tests/crash/side_file.h"

namespace cassette::crash {
namespace {

int Fail(const std::string& what, const Status& status) {
  fprintf(stderr, "crash_worker: %s: %s\n", what.c_str(), status.ToString().c_str());
  return 2;
}

int Run(int argc, char** argv) {
  std::string dir, side_path, mode_name;
  uint64_t seed = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dir") dir = argv[i + 1];
    if (flag == "--log") side_path = argv[i + 1];
    if (flag == "--mode") mode_name = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  auto mode = ParseSyncMode(mode_name);
  if (dir.empty() || side_path.empty() || !mode.ok()) {
    fprintf(stderr, "usage: crash_worker --dir D --log F --mode batch|group|periodic --seed S\n");
    return 1;
  }
  auto log = ReadSideLog(side_path);
  if (!log.ok()) return Fail("side file", log.status());
  if (log->in_flight) {
    fprintf(stderr, "crash_worker: operation %lld is in flight: run the checker first\n",
            static_cast<long long>(log->in_flight->index));
    return 3;
  }
  auto side = SideFile::Open(side_path);
  if (!side.ok()) return Fail("side file", side.status());

  int64_t index = log->next_index;
  auto clock = std::make_shared<ManualClock>(OpMicros(index));
  auto opened = Database::Open(CrashOptions(*mode, clock), dir);
  if (!opened.ok()) return Fail("open " + dir, opened.status());
  std::unique_ptr<Database> db = std::move(opened).value();
  CqlSession session(db.get());
  if (!log->schema_ready) {
    for (const std::string& statement : SchemaStatements()) {
      auto done = session.Execute(statement);
      if (!done.ok()) return Fail(statement, done.status());
    }
    if (Status s = side->Append("S"); !s.ok()) return Fail("side file", s);
  }
  const Shape shape;
  for (;; ++index) {
    if (Status s = clock->Set(OpMicros(index)); !s.ok()) return Fail("clock", s);
    std::optional<int32_t> current_v;
    if (const auto row = LwtReadTarget(seed, index, shape)) {
      auto read = ReadV(session, *row);
      if (!read.ok()) return Fail("LWT read", read.status());
      current_v = *read;
    }
    const Op op = GenerateOp(seed, index, shape, current_v);
    if (Status s = side->Append("I " + EncodeOp(op)); !s.ok()) return Fail("side file", s);
    bool applied = false;
    if (Status s = ExecuteOp(session, op, &applied); !s.ok()) return Fail(DescribeOp(op), s);
    const std::string ack = "A " + std::to_string(index) + (applied ? " 1" : " 0");
    if (Status s = side->Append(ack); !s.ok()) return Fail("side file", s);
  }
}

}  // namespace
}  // namespace cassette::crash

int main(int argc, char** argv) { return cassette::crash::Run(argc, argv); }
