// OpLatch: holds the first file operation of a kind ("flush" or "sync")
// after Arm() until Release(), telling the test when a thread is inside it,
// so commit-log tests can fix the order of racing writers without timing.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>

namespace cassette {

class OpLatch {
 public:
  void Arm(std::string_view op) {
    std::lock_guard<std::mutex> l(mu_);
    op_ = std::string(op);
  }
  // Called by the hooked file system before each operation.
  void MaybeHold(std::string_view op) {
    std::unique_lock<std::mutex> l(mu_);
    if (op != op_ || fired_) return;
    fired_ = true;
    cv_.notify_all();
    cv_.wait(l, [&] { return released_; });
  }
  void WaitHeld() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return fired_; });
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string op_;
  bool fired_ = false;
  bool released_ = false;
};

}  // namespace cassette
