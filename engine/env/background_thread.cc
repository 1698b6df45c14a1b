#include "engine/env/background_thread.h"

#include <chrono>

namespace cassette {

BackgroundThread::BackgroundThread(int64_t interval_ms, std::function<void()> callback)
    : interval_ms_(interval_ms > 0 ? interval_ms : 1),
      callback_(std::move(callback)),
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
  while (true) {
    // wait_for measures on the steady clock, so a wall-clock jump neither
    // stalls nor floods the callback.
    cv_.wait_for(l, std::chrono::milliseconds(interval_ms_), [this] { return stop_ || notified_; });
    if (stop_) return;
    notified_ = false;
    l.unlock();
    callback_();
    l.lock();
  }
}

}  // namespace cassette
