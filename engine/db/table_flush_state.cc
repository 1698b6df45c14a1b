#include "engine/db/table_flush_state.h"

namespace cassette {

bool TableFlushState::TryQueue() {
  std::lock_guard lock(mu_);
  if (state_ != State::kIdle) return false;
  state_ = State::kQueued;
  return true;
}

bool TableFlushState::TryStartQueued() {
  std::lock_guard lock(mu_);
  if (state_ != State::kQueued) return false;
  state_ = State::kRunning;
  return true;
}

bool TableFlushState::TryStart() {
  std::lock_guard lock(mu_);
  if (state_ == State::kRunning) return false;
  state_ = State::kRunning;
  return true;
}

void TableFlushState::Finish() {
  {
    std::lock_guard lock(mu_);
    state_ = State::kIdle;
  }
  finished_.notify_all();
}

void TableFlushState::WaitWhileRunning() {
  std::unique_lock lock(mu_);
  finished_.wait(lock, [this] { return state_ != State::kRunning; });
}

int64_t TableFlushState::write_stalls() const {
  std::lock_guard lock(mu_);
  return write_stalls_;
}

void TableFlushState::CountWriteStall(int64_t wall_micros) {
  std::lock_guard lock(mu_);
  ++write_stalls_;
  ++totals_.stalls;
  totals_.last_stall_micros = wall_micros;
}

void TableFlushState::AddStalledTime(int64_t micros) {
  std::lock_guard lock(mu_);
  totals_.stalled_micros += micros;
}

void TableFlushState::RestoreStallTotals(const WriteStallTotals& earlier) {
  std::lock_guard lock(mu_);
  totals_.stalls += earlier.stalls;
  totals_.stalled_micros += earlier.stalled_micros;
  if (totals_.last_stall_micros == 0) totals_.last_stall_micros = earlier.last_stall_micros;
}

WriteStallTotals TableFlushState::stall_totals() const {
  std::lock_guard lock(mu_);
  return totals_;
}

}  // namespace cassette
