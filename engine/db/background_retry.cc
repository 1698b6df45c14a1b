#include "engine/db/background_retry.h"

#include <algorithm>

namespace cassette {

BackgroundRetry::Failure BackgroundRetry::Fail(const Status& error, int64_t now_micros,
                                               int64_t initial_micros, int64_t max_micros,
                                               bool counted) {
  std::lock_guard lock(mu_);
  const bool first = !failing_.load(std::memory_order_relaxed);
  ++in_a_row_;
  int64_t delay = initial_micros;
  for (int i = 1; i < in_a_row_ && delay < max_micros; ++i) delay *= 2;
  delay = std::min(delay, max_micros);
  due_micros_ = now_micros + delay;
  claimed_ = false;
  error_ = error;
  if (counted) total_.fetch_add(1, std::memory_order_relaxed);
  failing_.store(true, std::memory_order_release);
  return {in_a_row_, delay, first};
}

int BackgroundRetry::Succeed() {
  if (!failing()) return 0;
  std::lock_guard lock(mu_);
  const int ended = in_a_row_;
  in_a_row_ = 0;
  due_micros_ = 0;
  claimed_ = false;
  error_ = Status::OK();
  failing_.store(false, std::memory_order_release);
  return ended;
}

Status BackgroundRetry::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

int64_t BackgroundRetry::due_micros() const {
  std::lock_guard lock(mu_);
  return due_micros_;
}

int BackgroundRetry::in_a_row() const {
  std::lock_guard lock(mu_);
  return in_a_row_;
}

bool BackgroundRetry::ClaimDueRetry(int64_t now_micros) {
  if (!failing()) return false;
  std::lock_guard lock(mu_);
  if (!failing_.load(std::memory_order_relaxed) || claimed_ || now_micros < due_micros_) {
    return false;
  }
  claimed_ = true;
  return true;
}

void BackgroundRetry::Unclaim() {
  std::lock_guard lock(mu_);
  claimed_ = false;
}

}  // namespace cassette
