// The kill test's parent side: runs crash_worker in a child process, kills
// it with SIGKILL at a seeded random moment, reopens the directory and
// checks it against the side file, then lets the next child continue on
// the same directory.
//
// What a check demands, in every sync mode (a killed process loses no page
// the OS accepted, so even periodic mode may lose nothing): the database
// shows exactly the model after every acknowledged operation, plus the one
// in flight applied whole or not at all. A LOGGED batch half-applied is a
// torn batch; anything else that differs is a loss (or garbage).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cassette/clock.h"
#include "cassette/options.h"
#include "cassette/status.h"
#include "tests/crash/crash_workload.h"

namespace cassette::crash {

Result<CommitLogSync> ParseSyncMode(const std::string& name);
const char* SyncModeName(CommitLogSync mode);

// The options the worker and the checker open the database with: small
// memtables and segments, so flushes, compactions and segment rolls happen
// within a few hundred operations.
Options CrashOptions(CommitLogSync mode, std::shared_ptr<Clock> clock);

struct CheckReport {
  int64_t acknowledged_writes = 0;  // every one re-checked
  bool consistent = false;
  int torn_batches = 0;
  int differing_partitions = 0;
  // LWTs whose [applied] contradicts the acknowledged writes before them.
  int wrong_lwt_answers = 0;
  bool in_flight = false;  // a write had an intent but no ack
  bool in_flight_applied = false;
  std::string detail;  // failures: what differs and the in-flight operation
};

// Checks the directory after a kill, then settles the in-flight operation
// for the next worker: re-applies it when idempotent, else records whether
// it applied (an "R" line).
Result<CheckReport> CheckAfterKill(const std::string& db_dir, const std::string& side_path,
                                   CommitLogSync mode, const Shape& shape);

struct KillRunConfig {
  std::string worker;  // path of crash_worker
  std::string dir;     // a directory for the runs (created)
  CommitLogSync mode = CommitLogSync::kBatch;
  int cycles = 25;
  uint64_t seed = 1;
  // When the kill lands: most cycles wait until the worker has written
  // to the side file (it is past its open and recovery: a loaded machine
  // can take a second to start a sanitized binary), then a seeded uniform
  // 0..max_kill_ms more; early_kill_pct percent of the cycles time the
  // kill from the start instead, so it lands in the worker's own recovery.
  int max_kill_ms = 500;
  int early_kill_pct = 15;
  // After a failed check, go on with a fresh database and the next seed
  // (the model no longer describes the damaged one). The failing
  // directory is kept as <dir>/failed-seed<S>-cycle<C>.
  bool continue_after_failure = false;
  bool verbose = false;  // a line per cycle on stderr
};

struct KillRunTotals {
  int cycles = 0;
  int early_kills = 0;              // timed from the worker's start (its open and recovery)
  int64_t writes_checked = 0;       // acknowledged writes re-checked, summed over cycles
  int64_t acknowledged_writes = 0;  // distinct acknowledged writes, all databases
  int failed_cycles = 0;
  int torn_batches = 0;
  int lost_partitions = 0;    // partitions matching no allowed state
  int in_flight_applied = 0;  // kills with a write in flight that survived
  int in_flight_dropped = 0;
  std::string failures;  // one report per failed cycle, with its seed and cycle
};

KillRunTotals RunKillCycles(const KillRunConfig& config);

}  // namespace cassette::crash
