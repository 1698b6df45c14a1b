#include <deque>
#include <mutex>

#include "cassette/scheduler.h"

namespace cassette {

struct ManualScheduler::Queue {
  mutable std::mutex mu;
  std::deque<std::function<void()>> jobs;  // GUARDED_BY(mu)
};

ManualScheduler::ManualScheduler() : queue_(std::make_unique<Queue>()) {}

// Jobs still queued are dropped: with a manual scheduler nothing runs unless
// asked, and a destroyed scheduler will not be asked again.
ManualScheduler::~ManualScheduler() = default;

void ManualScheduler::Schedule(std::function<void()> job) {
  std::lock_guard<std::mutex> l(queue_->mu);
  queue_->jobs.push_back(std::move(job));
}

bool ManualScheduler::RunOne() {
  std::function<void()> job;
  {
    std::lock_guard<std::mutex> l(queue_->mu);
    if (queue_->jobs.empty()) return false;
    job = std::move(queue_->jobs.front());
    queue_->jobs.pop_front();
  }
  // Run outside the lock: the job may schedule more work.
  job();
  return true;
}

void ManualScheduler::RunUntilIdle() {
  while (RunOne()) {
  }
}

size_t ManualScheduler::pending() const {
  std::lock_guard<std::mutex> l(queue_->mu);
  return queue_->jobs.size();
}

}  // namespace cassette
