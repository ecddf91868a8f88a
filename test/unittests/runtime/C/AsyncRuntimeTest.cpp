//===- AsyncRuntimeTest.cpp - The C runtime's async runtime API ----------===//
//
// What compiled parallel loops rely on: tasks run, tokens and groups become
// ready once, awaiters resume, errors propagate, nested parallel regions do
// not deadlock, and every object is freed when its references are dropped.
// A "coroutine" here is a plain function and its argument.
//
//===----------------------------------------------------------------------===//

#include "runtime/C/AsyncRuntime.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

/// Tokens, values and groups still alive once the threads that complete
/// them have let go: a group is ready before the task that emplaced its
/// last token has dropped that token's emplace reference.
int64_t liveObjectsOnceSettled() {
  for (int i = 0; i < 1000 && relay_rt_async_live_objects() != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return relay_rt_async_live_objects();
}

/// A task: bumps `counter`, then emplaces `token`.
struct CountTask {
  std::atomic<int> *counter;
  RelayAsyncToken *token;
};

void runCountTask(void *handle) {
  auto *task = static_cast<CountTask *>(handle);
  task->counter->fetch_add(1);
  mlirAsyncRuntimeEmplaceToken(task->token);
}

/// Runs `n` CountTasks on the workers and awaits them as a group, as a
/// parallel loop lowered by async-parallel-for does.
void runGroupOfTasks(int n, std::atomic<int> &counter) {
  RelayAsyncGroup *group = mlirAsyncRuntimeCreateGroup(n);
  std::vector<CountTask> tasks(n);
  for (int i = 0; i < n; ++i) {
    tasks[i] = {&counter, mlirAsyncRuntimeCreateToken()};
    EXPECT_EQ(mlirAsyncRuntimeAddTokenToGroup(tasks[i].token, group), i);
    mlirAsyncRuntimeExecute(&tasks[i], runCountTask);
  }
  mlirAsyncRuntimeAwaitAllInGroup(group);
  EXPECT_FALSE(mlirAsyncRuntimeIsGroupError(group));
  for (CountTask &task : tasks)
    mlirAsyncRuntimeDropRef(task.token, 1);
  mlirAsyncRuntimeDropRef(group, 1);
}

TEST(AsyncRuntimeTest, GroupOfTasksRunsEveryTaskOnce) {
  std::atomic<int> counter{0};
  runGroupOfTasks(100, counter);
  EXPECT_EQ(counter.load(), 100);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
  EXPECT_GE(mlirAsyncRuntimGetNumWorkerThreads(), 1);
}

/// A task that is itself a parallel region: the awaiting threads run each
/// other's queued tasks, so however many wait, none waits forever.
void runNestedRegion(void *handle) {
  auto *task = static_cast<CountTask *>(handle);
  runGroupOfTasks(8, *task->counter);
  mlirAsyncRuntimeEmplaceToken(task->token);
}

TEST(AsyncRuntimeTest, NestedParallelRegionsFinish) {
  std::atomic<int> counter{0};
  constexpr int kOuter = 64;
  RelayAsyncGroup *group = mlirAsyncRuntimeCreateGroup(kOuter);
  std::vector<CountTask> tasks(kOuter);
  for (CountTask &task : tasks) {
    task = {&counter, mlirAsyncRuntimeCreateToken()};
    mlirAsyncRuntimeAddTokenToGroup(task.token, group);
    mlirAsyncRuntimeExecute(&task, runNestedRegion);
  }
  mlirAsyncRuntimeAwaitAllInGroup(group);
  EXPECT_EQ(counter.load(), kOuter * 8);
  for (CountTask &task : tasks)
    mlirAsyncRuntimeDropRef(task.token, 1);
  mlirAsyncRuntimeDropRef(group, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

TEST(AsyncRuntimeTest, ManyThreadsAwaitTheirOwnRegions) {
  std::atomic<int> counter{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 4; ++i)
    callers.emplace_back([&] {
      for (int j = 0; j < 50; ++j)
        runGroupOfTasks(3, counter);
    });
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(counter.load(), 4 * 50 * 3);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

void bump(void *handle) {
  static_cast<std::atomic<int> *>(handle)->fetch_add(1);
}

TEST(AsyncRuntimeTest, AwaitAndExecuteResumesOnceReady) {
  std::atomic<int> resumed{0};
  RelayAsyncToken *token = mlirAsyncRuntimeCreateToken();
  // Not ready yet: resumed by whoever emplaces the token.
  mlirAsyncRuntimeAwaitTokenAndExecute(token, &resumed, bump);
  EXPECT_EQ(resumed.load(), 0);
  mlirAsyncRuntimeEmplaceToken(token);
  EXPECT_EQ(resumed.load(), 1);
  // Ready: resumed at once, on this thread.
  mlirAsyncRuntimeAwaitTokenAndExecute(token, &resumed, bump);
  EXPECT_EQ(resumed.load(), 2);
  mlirAsyncRuntimeAwaitToken(token);
  mlirAsyncRuntimeDropRef(token, 1);

  RelayAsyncGroup *group = mlirAsyncRuntimeCreateGroup(2);
  RelayAsyncToken *first = mlirAsyncRuntimeCreateToken();
  RelayAsyncToken *second = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeAddTokenToGroup(first, group);
  mlirAsyncRuntimeAddTokenToGroup(second, group);
  mlirAsyncRuntimeAwaitAllInGroupAndExecute(group, &resumed, bump);
  mlirAsyncRuntimeEmplaceToken(first);
  EXPECT_EQ(resumed.load(), 2);
  mlirAsyncRuntimeEmplaceToken(second);
  EXPECT_EQ(resumed.load(), 3);
  mlirAsyncRuntimeDropRef(first, 1);
  mlirAsyncRuntimeDropRef(second, 1);
  mlirAsyncRuntimeDropRef(group, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

TEST(AsyncRuntimeTest, ValuesCarryTheirPayload) {
  RelayAsyncValue *value = mlirAsyncRuntimeCreateValue(sizeof(double));
  std::atomic<int> resumed{0};
  mlirAsyncRuntimeAwaitValueAndExecute(value, &resumed, bump);
  std::thread producer([value] {
    *static_cast<double *>(mlirAsyncRuntimeGetValueStorage(value)) = 2.5;
    mlirAsyncRuntimeEmplaceValue(value);
  });
  mlirAsyncRuntimeAwaitValue(value);
  producer.join();
  EXPECT_EQ(*static_cast<double *>(mlirAsyncRuntimeGetValueStorage(value)),
            2.5);
  EXPECT_FALSE(mlirAsyncRuntimeIsValueError(value));
  EXPECT_EQ(resumed.load(), 1);
  mlirAsyncRuntimeDropRef(value, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

TEST(AsyncRuntimeTest, ErrorsReachTheGroup) {
  RelayAsyncGroup *group = mlirAsyncRuntimeCreateGroup(2);
  RelayAsyncToken *ok = mlirAsyncRuntimeCreateToken();
  RelayAsyncToken *failed = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeAddTokenToGroup(ok, group);
  mlirAsyncRuntimeEmplaceToken(ok);
  // A token that failed before it joined counts as well.
  mlirAsyncRuntimeSetTokenError(failed);
  mlirAsyncRuntimeAddTokenToGroup(failed, group);
  mlirAsyncRuntimeAwaitAllInGroup(group);
  EXPECT_FALSE(mlirAsyncRuntimeIsTokenError(ok));
  EXPECT_TRUE(mlirAsyncRuntimeIsTokenError(failed));
  EXPECT_TRUE(mlirAsyncRuntimeIsGroupError(group));
  RelayAsyncValue *value = mlirAsyncRuntimeCreateValue(4);
  mlirAsyncRuntimeSetValueError(value);
  EXPECT_TRUE(mlirAsyncRuntimeIsValueError(value));
  mlirAsyncRuntimeDropRef(value, 1);
  mlirAsyncRuntimeDropRef(ok, 1);
  mlirAsyncRuntimeDropRef(failed, 1);
  mlirAsyncRuntimeDropRef(group, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

TEST(AsyncRuntimeTest, ReservedWorkersAreStartedOnce) {
  relay_rt_async_reserve_workers(3);
  EXPECT_GE(mlirAsyncRuntimGetNumWorkerThreads(), 3);
  int64_t started = mlirAsyncRuntimGetNumWorkerThreads();
  // Asking for fewer starts none; the pool never shrinks.
  relay_rt_async_reserve_workers(1);
  EXPECT_EQ(mlirAsyncRuntimGetNumWorkerThreads(), started);
  std::atomic<int> counter{0};
  runGroupOfTasks(16, counter);
  EXPECT_EQ(counter.load(), 16);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

TEST(AsyncRuntimeTest, ExtraReferencesKeepObjectsAlive) {
  // The count below is exact only once no earlier test's objects are still
  // being released by a worker (it read 3 under ThreadSanitizer).
  ASSERT_EQ(liveObjectsOnceSettled(), 0);
  RelayAsyncToken *token = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeAddRef(token, 2);
  mlirAsyncRuntimeEmplaceToken(token);
  mlirAsyncRuntimeDropRef(token, 2);
  EXPECT_EQ(relay_rt_async_live_objects(), 1);
  EXPECT_FALSE(mlirAsyncRuntimeIsTokenError(token));
  mlirAsyncRuntimeDropRef(token, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}

} // namespace

/// A task that emplaces its token, then goes on for a while (the last
/// instructions of a coroutine after it signalled its caller), then marks
/// itself finished.
struct TailTask {
  RelayAsyncToken *token;
  std::atomic<bool> finished{false};
};

void runTailTask(void *handle) {
  auto *task = static_cast<TailTask *>(handle);
  mlirAsyncRuntimeEmplaceToken(task->token);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  task->finished.store(true);
}

TEST(AsyncRuntimeTest, QuiesceWaitsForTasksPastTheirSignal) {
  // The task runs on a worker (the awaiting thread would take it from the
  // queue itself, so it waits 10 ms first): the await returns as soon as
  // the token is emplaced, the task still sleeping for 40 ms more.
  relay_rt_async_reserve_workers(1);
  TailTask task;
  task.token = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeExecute(&task, runTailTask);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  mlirAsyncRuntimeAwaitToken(task.token);
  relay_rt_async_quiesce();
  EXPECT_TRUE(task.finished.load());
  mlirAsyncRuntimeDropRef(task.token, 1);
  EXPECT_EQ(liveObjectsOnceSettled(), 0);
}
