/*===- AsyncRuntime.c - The async runtime API of MLIR ------------*- C -*-===*
 *
 * See AsyncRuntime.h. Tokens, values and groups are reference-counted
 * objects with a mutex, a condition variable and a list of awaiters (the
 * coroutines to resume once the object is ready); tasks wait in one queue
 * that the workers and every awaiting thread take from.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "runtime/C/AsyncRuntime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* How long an idle thread spins before it sleeps: longer than the serial
 * code between two parallel loops of a network usually runs. */
enum { kSpinNanos = 1000000 };
/* The most worker threads the runtime starts. */
enum { kMaxWorkers = 256 };

static void cpuRelax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t nowNanos(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Spins once; false when the thread has spun for `budget` nanoseconds since
 * `*start` (0: not yet started) and should sleep. */
static int keepSpinning(int64_t *start, unsigned *spins, int64_t budget) {
  if (budget <= 0)
    return 0;
  cpuRelax();
  if (++*spins % 64)
    return 1;
  int64_t now = nowNanos();
  if (!*start)
    *start = now;
  return now - *start < budget;
}

/* The cores this process may run on. */
static int availableCores(void) {
  cpu_set_t cpus;
  return sched_getaffinity(0, sizeof(cpus), &cpus) == 0
             ? CPU_COUNT(&cpus)
             : (int)sysconf(_SC_NPROCESSORS_ONLN);
}

static _Noreturn void fatal(const char *what) {
  fprintf(stderr, "relay-mlir async runtime: %s\n", what);
  abort();
}

/*===-------------------------------------------------------------------===*
 * The task queue and its workers.
 *===-------------------------------------------------------------------===*/

typedef struct {
  void *handle;
  RelayCoroResume resume;
} Task;

static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  Task *ring;
  size_t capacity, head, size;
  atomic_size_t queued; /* == size, read without the lock */
  int sleepers;
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* Calls into compiled code (tasks, resumed awaiters) that have not returned
 * yet, on any thread (relay_rt_async_quiesce). */
static atomic_long inCompiledCode;

static void resumeCounted(RelayCoroResume resume, void *handle) {
  atomic_fetch_add_explicit(&inCompiledCode, 1, memory_order_relaxed);
  resume(handle);
  atomic_fetch_sub_explicit(&inCompiledCode, 1, memory_order_release);
}

/* Runs one queued task on this thread; false if there was none. */
static int runOneTask(void) {
  if (!atomic_load_explicit(&pool.queued, memory_order_acquire))
    return 0;
  pthread_mutex_lock(&pool.mu);
  if (!pool.size) {
    pthread_mutex_unlock(&pool.mu);
    return 0;
  }
  Task task = pool.ring[pool.head];
  pool.head = (pool.head + 1) % pool.capacity;
  --pool.size;
  /* Counted as running before it leaves the queue's count, so that
   * relay_rt_async_quiesce (reading the queue's count first) never sees it
   * in neither. */
  atomic_fetch_add_explicit(&inCompiledCode, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&pool.queued, 1, memory_order_release);
  pthread_mutex_unlock(&pool.mu);
  task.resume(task.handle);
  atomic_fetch_sub_explicit(&inCompiledCode, 1, memory_order_release);
  return 1;
}

/* Workers beyond the cores but one (more threads than the machine has)
 * sleep as soon as the queue is empty: spinning, they would take the cores
 * from the threads with work. */
static void *workerMain(void *index) {
  int64_t budget = (intptr_t)index < availableCores() - 1 ? kSpinNanos : 0;
  for (;;) {
    int64_t start = 0;
    unsigned spins = 0;
    for (;;) {
      if (runOneTask()) {
        start = 0;
        continue;
      }
      if (!keepSpinning(&start, &spins, budget))
        break;
    }
    pthread_mutex_lock(&pool.mu);
    while (!pool.size) {
      ++pool.sleepers;
      pthread_cond_wait(&pool.cv, &pool.mu);
      --pool.sleepers;
    }
    pthread_mutex_unlock(&pool.mu);
  }
  return NULL;
}

/* Workers are started on demand and live as long as the process. */
static pthread_mutex_t startMutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_int startedWorkers;

/* Starts workers until there are `count` (at most kMaxWorkers). */
static void startWorkers(int count) {
  if (count > kMaxWorkers)
    count = kMaxWorkers;
  if (atomic_load(&startedWorkers) >= count)
    return;
  pthread_mutex_lock(&startMutex);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  while (atomic_load(&startedWorkers) < count) {
    pthread_t thread;
    intptr_t index = atomic_load(&startedWorkers);
    if (pthread_create(&thread, &attr, workerMain, (void *)index))
      fatal("cannot start a worker thread");
    atomic_fetch_add(&startedWorkers, 1);
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_unlock(&startMutex);
}

/* Unless relay_rt_async_reserve_workers asked for some: one worker per core
 * this process may run on besides the caller's (the thread that awaits a
 * parallel loop runs one of its tasks). */
static void startDefaultWorkers(void) {
  if (atomic_load(&startedWorkers) > 0)
    return;
  int cores = availableCores();
  startWorkers(cores > 2 ? cores - 1 : 1);
}

void relay_rt_async_reserve_workers(int64_t count) {
  /* startWorkers caps the count; this keeps it in an int. */
  startWorkers(count < 1 ? 1 : count > kMaxWorkers ? kMaxWorkers : (int)count);
}

void mlirAsyncRuntimeExecute(void *handle, RelayCoroResume resume) {
  startDefaultWorkers();
  pthread_mutex_lock(&pool.mu);
  if (pool.size == pool.capacity) {
    size_t capacity = pool.capacity ? 2 * pool.capacity : 64;
    Task *ring = malloc(capacity * sizeof(Task));
    if (!ring)
      fatal("out of memory for the task queue");
    for (size_t i = 0; i < pool.size; ++i)
      ring[i] = pool.ring[(pool.head + i) % pool.capacity];
    free(pool.ring);
    pool.ring = ring;
    pool.capacity = capacity;
    pool.head = 0;
  }
  pool.ring[(pool.head + pool.size) % pool.capacity] = (Task){handle, resume};
  ++pool.size;
  atomic_fetch_add_explicit(&pool.queued, 1, memory_order_release);
  if (pool.sleepers)
    pthread_cond_signal(&pool.cv);
  pthread_mutex_unlock(&pool.mu);
}

int64_t mlirAsyncRuntimGetNumWorkerThreads(void) {
  startDefaultWorkers();
  return atomic_load(&startedWorkers);
}

/*===-------------------------------------------------------------------===*
 * Tokens, values and groups.
 *===-------------------------------------------------------------------===*/

typedef struct Awaiter {
  struct Awaiter *next;
  void (*run)(void *a, void *b);
  void *a, *b;
} Awaiter;

typedef struct {
  atomic_llong refs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  Awaiter *awaiters; /* newest first */
  void *storage;     /* values only */
} Object;

enum { kUnavailable = 0, kAvailable = 1, kError = 2 };

struct RelayAsyncToken {
  Object object;
  atomic_int state;
};
struct RelayAsyncValue {
  Object object;
  atomic_int state;
};
struct RelayAsyncGroup {
  Object object;
  atomic_int pending; /* tokens not ready yet */
  atomic_int errors;
  atomic_int rank;
};

static atomic_llong liveObjects;

int64_t relay_rt_async_live_objects(void) { return atomic_load(&liveObjects); }

static void *newObject(size_t bytes, int64_t refs) {
  Object *object = calloc(1, bytes);
  if (!object)
    fatal("out of memory for an async object");
  atomic_init(&object->refs, refs);
  pthread_mutex_init(&object->mu, NULL);
  pthread_cond_init(&object->cv, NULL);
  atomic_fetch_add(&liveObjects, 1);
  return object;
}

void mlirAsyncRuntimeAddRef(void *object, int64_t count) {
  atomic_fetch_add(&((Object *)object)->refs, count);
}

void mlirAsyncRuntimeDropRef(void *pointer, int64_t count) {
  Object *object = pointer;
  int64_t before = atomic_fetch_sub(&object->refs, count);
  if (before < count)
    fatal("an async object's reference count went below zero");
  if (before != count)
    return;
  pthread_mutex_destroy(&object->mu);
  pthread_cond_destroy(&object->cv);
  free(object->storage);
  free(object);
  atomic_fetch_sub(&liveObjects, 1);
}

/* Tokens and values start with a second reference, dropped when they are
 * emplaced, so that the task completing them may outlive every user. */
RelayAsyncToken *mlirAsyncRuntimeCreateToken(void) {
  return newObject(sizeof(RelayAsyncToken), 2);
}

RelayAsyncValue *mlirAsyncRuntimeCreateValue(int64_t size) {
  RelayAsyncValue *value = newObject(sizeof(RelayAsyncValue), 2);
  value->object.storage = malloc(size > 0 ? (size_t)size : 1);
  if (!value->object.storage)
    fatal("out of memory for an async value");
  return value;
}

RelayAsyncGroup *mlirAsyncRuntimeCreateGroup(int64_t size) {
  RelayAsyncGroup *group = newObject(sizeof(RelayAsyncGroup), 1);
  atomic_init(&group->pending, (int)size);
  return group;
}

void *mlirAsyncRuntimeGetValueStorage(RelayAsyncValue *value) {
  return value->object.storage;
}

/* Runs a detached awaiter list, oldest first. */
static void runAwaiters(Awaiter *list) {
  Awaiter *reversed = NULL;
  while (list) {
    Awaiter *next = list->next;
    list->next = reversed;
    reversed = list;
    list = next;
  }
  while (reversed) {
    Awaiter *next = reversed->next;
    reversed->run(reversed->a, reversed->b);
    free(reversed);
    reversed = next;
  }
}

/* Queues an awaiter; the caller holds the object's lock. */
static void addAwaiter(Object *object, void (*run)(void *, void *), void *a,
                       void *b) {
  Awaiter *awaiter = malloc(sizeof(Awaiter));
  if (!awaiter)
    fatal("out of memory for an awaiter");
  *awaiter = (Awaiter){object->awaiters, run, a, b};
  object->awaiters = awaiter;
}

/* Makes a token or value ready (or failed), wakes its waiters and runs its
 * awaiters on this thread, then drops the emplace reference. */
static void complete(Object *object, atomic_int *state, int to) {
  pthread_mutex_lock(&object->mu);
  if (atomic_load(state) != kUnavailable)
    fatal("an async token or value was completed twice");
  atomic_store(state, to);
  Awaiter *awaiters = object->awaiters;
  object->awaiters = NULL;
  pthread_cond_broadcast(&object->cv);
  pthread_mutex_unlock(&object->mu);
  runAwaiters(awaiters);
  mlirAsyncRuntimeDropRef(object, 1);
}

void mlirAsyncRuntimeEmplaceToken(RelayAsyncToken *token) {
  complete(&token->object, &token->state, kAvailable);
}
void mlirAsyncRuntimeEmplaceValue(RelayAsyncValue *value) {
  complete(&value->object, &value->state, kAvailable);
}
void mlirAsyncRuntimeSetTokenError(RelayAsyncToken *token) {
  complete(&token->object, &token->state, kError);
}
void mlirAsyncRuntimeSetValueError(RelayAsyncValue *value) {
  complete(&value->object, &value->state, kError);
}

bool mlirAsyncRuntimeIsTokenError(RelayAsyncToken *token) {
  return atomic_load(&token->state) == kError;
}
bool mlirAsyncRuntimeIsValueError(RelayAsyncValue *value) {
  return atomic_load(&value->state) == kError;
}
bool mlirAsyncRuntimeIsGroupError(RelayAsyncGroup *group) {
  return atomic_load(&group->errors) > 0;
}

/* One of the group's tokens is ready; the caller holds the group's lock.
 * Returns the group's awaiters to run (after unlocking) if it was the last. */
static Awaiter *countReadyToken(RelayAsyncGroup *group, int failed) {
  if (failed)
    atomic_fetch_add(&group->errors, 1);
  int before = atomic_fetch_sub(&group->pending, 1);
  if (before <= 0)
    fatal("more tokens were added to an async group than its size");
  if (before != 1)
    return NULL;
  Awaiter *awaiters = group->object.awaiters;
  group->object.awaiters = NULL;
  pthread_cond_broadcast(&group->object.cv);
  return awaiters;
}

/* The awaiter a pending token gets for its group (which it holds a
 * reference to). */
static void tokenReadyInGroup(void *groupPointer, void *tokenPointer) {
  RelayAsyncGroup *group = groupPointer;
  RelayAsyncToken *token = tokenPointer;
  pthread_mutex_lock(&group->object.mu);
  Awaiter *awaiters =
      countReadyToken(group, atomic_load(&token->state) == kError);
  pthread_mutex_unlock(&group->object.mu);
  runAwaiters(awaiters);
  mlirAsyncRuntimeDropRef(group, 1);
}

int64_t mlirAsyncRuntimeAddTokenToGroup(RelayAsyncToken *token,
                                        RelayAsyncGroup *group) {
  pthread_mutex_lock(&token->object.mu);
  pthread_mutex_lock(&group->object.mu);
  int64_t rank = atomic_fetch_add(&group->rank, 1);
  Awaiter *ready = NULL;
  int state = atomic_load(&token->state);
  if (state != kUnavailable) {
    ready = countReadyToken(group, state == kError);
  } else {
    mlirAsyncRuntimeAddRef(group, 1);
    addAwaiter(&token->object, tokenReadyInGroup, group, token);
  }
  pthread_mutex_unlock(&group->object.mu);
  pthread_mutex_unlock(&token->object.mu);
  runAwaiters(ready);
  return rank;
}

static int tokenReady(void *token) {
  return atomic_load(&((RelayAsyncToken *)token)->state) != kUnavailable;
}
static int valueReady(void *value) {
  return atomic_load(&((RelayAsyncValue *)value)->state) != kUnavailable;
}
static int groupReady(void *group) {
  return atomic_load(&((RelayAsyncGroup *)group)->pending) == 0;
}

/* Runs queued tasks, then spins, then sleeps until `ready(object)`. */
static void await(Object *object, int (*ready)(void *)) {
  int64_t start = 0;
  unsigned spins = 0;
  while (!ready(object)) {
    if (runOneTask()) {
      start = 0;
      continue;
    }
    if (keepSpinning(&start, &spins, kSpinNanos))
      continue;
    pthread_mutex_lock(&object->mu);
    while (!ready(object))
      pthread_cond_wait(&object->cv, &object->mu);
    pthread_mutex_unlock(&object->mu);
    return;
  }
}

void mlirAsyncRuntimeAwaitToken(RelayAsyncToken *token) {
  await(&token->object, tokenReady);
}
void mlirAsyncRuntimeAwaitValue(RelayAsyncValue *value) {
  await(&value->object, valueReady);
}
void mlirAsyncRuntimeAwaitAllInGroup(RelayAsyncGroup *group) {
  await(&group->object, groupReady);
}

static void resumeCoroutine(void *handle, void *resume) {
  resumeCounted((RelayCoroResume)resume, handle);
}

/* Resumes the coroutine now if `object` is ready, else once it is. */
static void resumeWhenReady(Object *object, int (*ready)(void *), void *handle,
                            RelayCoroResume resume) {
  pthread_mutex_lock(&object->mu);
  if (!ready(object)) {
    addAwaiter(object, resumeCoroutine, handle, (void *)resume);
    pthread_mutex_unlock(&object->mu);
    return;
  }
  pthread_mutex_unlock(&object->mu);
  resumeCounted(resume, handle);
}

void relay_rt_async_quiesce(void) {
  while (atomic_load_explicit(&pool.queued, memory_order_acquire) ||
         atomic_load_explicit(&inCompiledCode, memory_order_acquire)) {
    if (!runOneTask())
      sched_yield();
  }
}

void mlirAsyncRuntimeAwaitTokenAndExecute(RelayAsyncToken *token, void *handle,
                                          RelayCoroResume resume) {
  resumeWhenReady(&token->object, tokenReady, handle, resume);
}
void mlirAsyncRuntimeAwaitValueAndExecute(RelayAsyncValue *value, void *handle,
                                          RelayCoroResume resume) {
  resumeWhenReady(&value->object, valueReady, handle, resume);
}
void mlirAsyncRuntimeAwaitAllInGroupAndExecute(RelayAsyncGroup *group,
                                               void *handle,
                                               RelayCoroResume resume) {
  resumeWhenReady(&group->object, groupReady, handle, resume);
}
