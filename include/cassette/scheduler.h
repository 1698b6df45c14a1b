// Scheduler: where background work (flush, compaction) runs. The thread pool
// runs jobs as they arrive; the manual scheduler queues them until a test,
// the shell or the simulator asks, so outcomes are deterministic.
//
// Implementations are safe for concurrent access from multiple threads
// without any external synchronization.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace cassette {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual void Schedule(std::function<void()> job) = 0;
  // Blocks until every job scheduled so far (and any they scheduled) has run.
  // On a manual scheduler this runs them on the calling thread.
  virtual void WaitIdle() = 0;
};

// Runs jobs on `threads` background threads; the destructor drains the queue.
// `nice` (0..19) lowers the workers' CPU priority by that much below the
// process's (Linux niceness, per thread), so that work which can wait
// yields a busy CPU to the threads that cannot; 0 leaves it alone.
std::shared_ptr<Scheduler> NewThreadPoolScheduler(int threads, int nice = 0);

class ManualScheduler final : public Scheduler {
 public:
  ManualScheduler();
  ~ManualScheduler() override;
  void Schedule(std::function<void()> job) override;
  void WaitIdle() override { RunUntilIdle(); }
  // Runs the oldest queued job; false when the queue was empty.
  bool RunOne();
  // Runs jobs, including those scheduled meanwhile, until none is left.
  void RunUntilIdle();
  size_t pending() const;

 private:
  struct Queue;
  std::unique_ptr<Queue> queue_;
};

}  // namespace cassette
