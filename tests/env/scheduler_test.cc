#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "cassette/scheduler.h"

namespace cassette {
namespace {

int ThreadNiceness() {
  return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
}

// The workers run `nice` below the thread that made the pool (capped at
// 19); nice 0 leaves them as they were.
TEST(ThreadPoolSchedulerTest, NiceLowersOnlyTheWorkersPriority) {
  const int own = ThreadNiceness();
  for (int nice : {0, 5, 19}) {
    auto pool = NewThreadPoolScheduler(2, nice);
    std::mutex mu;
    std::vector<int> seen;
    for (int i = 0; i < 4; ++i) {
      pool->Schedule([&] {
        std::lock_guard<std::mutex> l(mu);
        seen.push_back(ThreadNiceness());
      });
    }
    pool->WaitIdle();
    ASSERT_EQ(seen.size(), 4u);
    for (int got : seen) EXPECT_EQ(got, std::min(19, own + nice)) << "nice " << nice;
  }
  EXPECT_EQ(ThreadNiceness(), own);
}

TEST(ManualSchedulerTest, RunsNothingUntilAskedThenInFifoOrder) {
  ManualScheduler s;
  std::vector<int> order;
  s.Schedule([&] { order.push_back(1); });
  s.Schedule([&] { order.push_back(2); });
  EXPECT_TRUE(order.empty());
  EXPECT_EQ(s.pending(), 2u);
  ASSERT_TRUE(s.RunOne());
  EXPECT_EQ(order, std::vector<int>{1});
  s.Schedule([&] { order.push_back(3); });
  s.RunUntilIdle();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_FALSE(s.RunOne());
  EXPECT_EQ(s.pending(), 0u);
}

TEST(ManualSchedulerTest, WaitIdleRunsJobsScheduledByJobs) {
  ManualScheduler s;
  std::vector<std::string> order;
  s.Schedule([&] {
    order.push_back("flush");
    s.Schedule([&] { order.push_back("compact"); });
  });
  s.Schedule([&] { order.push_back("flush2"); });
  s.WaitIdle();
  EXPECT_EQ(order, (std::vector<std::string>{"flush", "flush2", "compact"}));
}

TEST(ThreadPoolSchedulerTest, WaitIdleReturnsAfterEverythingRan) {
  auto pool = NewThreadPoolScheduler(3);
  std::atomic<int> done{0};
  for (int i = 0; i < 100; ++i) {
    pool->Schedule([&] {
      // Each job schedules a follow-up: WaitIdle must cover those too.
      pool->Schedule([&] { done.fetch_add(1); });
      done.fetch_add(1);
    });
  }
  pool->WaitIdle();
  EXPECT_EQ(done.load(), 200);
  pool->WaitIdle();  // idle already: returns at once
}

TEST(ThreadPoolSchedulerTest, DestructorDrainsTheQueue) {
  std::atomic<int> done{0};
  {
    auto pool = NewThreadPoolScheduler(1);
    for (int i = 0; i < 50; ++i) pool->Schedule([&] { done.fetch_add(1); });
  }
  EXPECT_EQ(done.load(), 50);
}

TEST(ThreadPoolSchedulerTest, NonPositiveThreadCountStillRuns) {
  auto pool = NewThreadPoolScheduler(0);
  std::atomic<bool> ran{false};
  pool->Schedule([&] { ran = true; });
  pool->WaitIdle();
  EXPECT_TRUE(ran.load());
}

}  // namespace
}  // namespace cassette
