#include "engine/env/background_thread.h"

#include <chrono>

namespace cassette {
namespace {

class SteadyIntervalWaiter final : public IntervalWaiter {
 public:
  void Wait(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, int64_t interval_ms,
            const std::function<bool()>& woken) override {
    cv.wait_for(lock, std::chrono::milliseconds(interval_ms), woken);
  }
};

}  // namespace

std::unique_ptr<IntervalWaiter> NewSteadyIntervalWaiter() {
  return std::make_unique<SteadyIntervalWaiter>();
}

BackgroundThread::BackgroundThread(int64_t interval_ms, std::function<void()> callback,
                                   std::unique_ptr<IntervalWaiter> waiter)
    : interval_ms_(interval_ms > 0 ? interval_ms : 1),
      callback_(std::move(callback)),
      waiter_(waiter ? std::move(waiter) : NewSteadyIntervalWaiter()),
      thread_([this] { Loop(); }) {}

BackgroundThread::~BackgroundThread() { Stop(); }

void BackgroundThread::Notify() {
  {
    std::lock_guard<std::mutex> l(mu_);
    notified_ = true;
  }
  cv_.notify_one();
}

void BackgroundThread::Stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  std::lock_guard<std::mutex> j(join_mu_);
  if (thread_.joinable()) thread_.join();
}

void BackgroundThread::Loop() {
  std::unique_lock<std::mutex> l(mu_);
  const std::function<bool()> woken = [this] { return stop_ || notified_; };
  while (true) {
    waiter_->Wait(l, cv_, interval_ms_, woken);
    if (stop_) return;
    notified_ = false;
    l.unlock();
    callback_();
    l.lock();
  }
}

}  // namespace cassette
