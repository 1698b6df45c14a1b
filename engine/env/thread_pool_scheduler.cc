#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "cassette/scheduler.h"

namespace cassette {
namespace {

// A fixed pool of workers over one FIFO queue. WaitIdle waits for "queue
// empty and nobody running", which also covers jobs scheduled by jobs: a
// running job's children are queued before it finishes.
class ThreadPoolScheduler final : public Scheduler {
 public:
  ThreadPoolScheduler(int threads, int nice) {
    if (threads < 1) threads = 1;
    workers_.reserve(threads);
    for (int i = 0; i < threads; ++i) {
      workers_.emplace_back([this, nice] {
        LowerPriority(nice);
        WorkerLoop();
      });
    }
  }

  // Drains the queue (jobs already scheduled still run), then joins.
  ~ThreadPoolScheduler() override {
    {
      std::lock_guard<std::mutex> l(mu_);
      stopping_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  void Schedule(std::function<void()> job) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      jobs_.push_back(std::move(job));
    }
    work_cv_.notify_one();
  }

  void WaitIdle() override {
    std::unique_lock<std::mutex> l(mu_);
    idle_cv_.wait(l, [this] { return jobs_.empty() && running_ == 0; });
  }

 private:
  // On Linux, niceness belongs to each thread (the tid names it), so this
  // leaves the process's other threads alone. Lowering one's own priority
  // needs no privilege; a failure leaves the thread as it was, which is
  // still correct, only less polite.
  static void LowerPriority(int nice) {
    if (nice <= 0) return;
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    const int current = ::getpriority(PRIO_PROCESS, tid);
    ::setpriority(PRIO_PROCESS, tid, std::min(19, current + nice));
  }

  void WorkerLoop() {
    std::unique_lock<std::mutex> l(mu_);
    while (true) {
      work_cv_.wait(l, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping and drained
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
      l.unlock();
      job();
      job = nullptr;  // destroy captures outside the lock, before counting done
      l.lock();
      --running_;
      if (jobs_.empty() && running_ == 0) idle_cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<std::function<void()>> jobs_;  // GUARDED_BY(mu_)
  int running_ = 0;                         // GUARDED_BY(mu_)
  bool stopping_ = false;                   // GUARDED_BY(mu_)
  std::vector<std::thread> workers_;
};

}  // namespace

std::shared_ptr<Scheduler> NewThreadPoolScheduler(int threads, int nice) {
  return std::make_shared<ThreadPoolScheduler>(threads, nice);
}

}  // namespace cassette
