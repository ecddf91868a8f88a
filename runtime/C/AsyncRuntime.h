/*===- AsyncRuntime.h - The async runtime API of MLIR ------------*- C -*-===*
 *
 * The functions MLIR's async-to-llvm lowering calls (the API of upstream
 * mlir/ExecutionEngine/AsyncRuntime.h, same names and semantics), built for
 * the short parallel regions of compiled Relay code:
 *
 *  - idle workers spin for about a millisecond before they sleep, so a task
 *    scheduled soon after the last one starts without a wake-up (workers
 *    beyond the cores but one sleep at once: with more threads than cores,
 *    spinning would take the cores from the threads with work);
 *  - a thread that awaits a token or a group runs queued tasks itself while
 *    it waits, so a parallel loop never waits for a worker to be woken or
 *    scheduled (upstream's awaiting thread sleeps on a condition variable).
 *
 * Compiled code with `--relay-to-llvm=threads=N` (N > 1) calls these; the
 * JIT resolves them here and `relay-run --emit-object` objects link them
 * from libRelayMLIRCRuntime.a.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_RUNTIME_C_ASYNCRUNTIME_H
#define RELAY_MLIR_RUNTIME_C_ASYNCRUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct RelayAsyncToken RelayAsyncToken;
typedef struct RelayAsyncValue RelayAsyncValue;
typedef struct RelayAsyncGroup RelayAsyncGroup;
/* A coroutine: its handle and the function that resumes it. */
typedef void (*RelayCoroResume)(void *handle);

/* Reference counts of tokens, values and groups (all start at one, plus one
 * for tokens and values that their emplace drops). */
void mlirAsyncRuntimeAddRef(void *object, int64_t count);
void mlirAsyncRuntimeDropRef(void *object, int64_t count);

RelayAsyncToken *mlirAsyncRuntimeCreateToken(void);
/* A value with `size` bytes of storage. */
RelayAsyncValue *mlirAsyncRuntimeCreateValue(int64_t size);
/* A group that is ready once `size` tokens added to it are. */
RelayAsyncGroup *mlirAsyncRuntimeCreateGroup(int64_t size);
/* Adds `token` to `group`; returns its rank (the number added before it). */
int64_t mlirAsyncRuntimeAddTokenToGroup(RelayAsyncToken *token,
                                        RelayAsyncGroup *group);

void mlirAsyncRuntimeEmplaceToken(RelayAsyncToken *token);
void mlirAsyncRuntimeEmplaceValue(RelayAsyncValue *value);
void mlirAsyncRuntimeSetTokenError(RelayAsyncToken *token);
void mlirAsyncRuntimeSetValueError(RelayAsyncValue *value);
bool mlirAsyncRuntimeIsTokenError(RelayAsyncToken *token);
bool mlirAsyncRuntimeIsValueError(RelayAsyncValue *value);
bool mlirAsyncRuntimeIsGroupError(RelayAsyncGroup *group);

/* Block the caller (which runs queued tasks meanwhile) until ready. */
void mlirAsyncRuntimeAwaitToken(RelayAsyncToken *token);
void mlirAsyncRuntimeAwaitValue(RelayAsyncValue *value);
void mlirAsyncRuntimeAwaitAllInGroup(RelayAsyncGroup *group);

void *mlirAsyncRuntimeGetValueStorage(RelayAsyncValue *value);

/* Resumes the coroutine on a worker thread. */
void mlirAsyncRuntimeExecute(void *handle, RelayCoroResume resume);
/* Resume the coroutine once ready: at once on this thread if it is
 * already, else on the thread that makes it ready. */
void mlirAsyncRuntimeAwaitTokenAndExecute(RelayAsyncToken *token, void *handle,
                                          RelayCoroResume resume);
void mlirAsyncRuntimeAwaitValueAndExecute(RelayAsyncValue *value, void *handle,
                                          RelayCoroResume resume);
void mlirAsyncRuntimeAwaitAllInGroupAndExecute(RelayAsyncGroup *group,
                                               void *handle,
                                               RelayCoroResume resume);

/* The number of worker threads (the spelling is upstream's). */
int64_t mlirAsyncRuntimGetNumWorkerThreads(void);

/* Starts at least `count` worker threads now (at most 256). Code compiled
 * for N threads needs N - 1 besides the calling thread; without a
 * reservation the first parallel loop starts one per core but one. */
void relay_rt_async_reserve_workers(int64_t count);

/* Tokens, values and groups alive now (for tests: zero between runs). */
int64_t relay_rt_async_live_objects(void);

/* Returns once no thread runs compiled code on the runtime's behalf and
 * no task waits in the queue: a coroutine signals the token its caller
 * awaits before it returns, so the caller can finish while a worker still
 * runs the coroutine's last instructions. Call it (from a thread outside
 * compiled code) before the code is unmapped: the JIT's engines, an
 * unloaded object. */
void relay_rt_async_quiesce(void);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_MLIR_RUNTIME_C_ASYNCRUNTIME_H */
