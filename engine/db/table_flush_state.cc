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

void TableFlushState::CountWriteStall() {
  std::lock_guard lock(mu_);
  ++write_stalls_;
}

}  // namespace cassette
