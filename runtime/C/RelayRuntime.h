/*===- RelayRuntime.h - The C runtime of compiled Relay code -----*- C -*-===*
 *
 * What object files from `relay-run --emit-object` call besides libc and
 * libm. Link libRelayMLIRCRuntime.a (installed with relay-mlir) into the
 * program.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H
#define RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A memref of any rank, as MLIR passes one to runtime functions: its rank
 * and a pointer to its descriptor {allocated, aligned, offset,
 * sizes[rank], strides[rank]}. */
typedef struct {
  int64_t rank;
  void *descriptor;
} RelayUnrankedMemRef;

/*===-------------------------------------------------------------------===*
 * Boxed values: ADT values, references and tuples inside them are objects
 * {tag, number of fields, fields}; a field holds another object or a boxed
 * tensor (a copy of its bytes, immutable: compiled code reads it in
 * place). They live in the current arena of the calling thread and go when
 * it is popped; an arena's memory (chunks of 64 KiB and up) is kept for
 * the thread's next arenas, at most 64 MiB, until
 * relay_rt_release_cached_buffers or the thread's exit.
 *===-------------------------------------------------------------------===*/

/* Where the arenas' chunks come from from now on (malloc and free until
 * called): the CUDA runtime installs managed memory when it starts, so that
 * kernels read tensors boxed in objects (ADT fields, closures' captures) in
 * place. `allocate` returns null when out of memory. */
typedef void *(*relay_rt_chunk_alloc_fn)(size_t bytes);
typedef void (*relay_rt_chunk_free_fn)(void *chunk);
void relay_rt_set_chunk_allocator(relay_rt_chunk_alloc_fn allocate,
                                  relay_rt_chunk_free_fn release);

/* Starts a new arena on this thread (nested arenas stack). */
void relay_rt_arena_push(void);
/* Releases every object allocated since the matching push. */
void relay_rt_arena_pop(void);

/* A new object with `tag` and `numFields` fields (all null). */
void *relay_rt_alloc(int64_t tag, int64_t numFields);
int64_t relay_rt_tag(const void *object);
int64_t relay_rt_num_fields(const void *object);
void relay_rt_set_field(void *object, int64_t index, void *value);
void *relay_rt_get_field(const void *object, int64_t index);

/* A boxed copy of `bytes` bytes at `data`, and back. */
void *relay_rt_box(const void *data, int64_t bytes);
void relay_rt_unbox(const void *box, void *data, int64_t bytes);

/*===-------------------------------------------------------------------===*
 * Run-time errors: compiled code calls relay_rt_fail with a located
 * message (e.g. a `match?` with no matching case); the innermost
 * relay_rt_guarded_call returns it. Outside a guarded call the message is
 * printed and the process exits with status 1.
 *===-------------------------------------------------------------------===*/

void relay_rt_fail(const char *message);

/* Asks Linux for the AMX tile data state (arch_prctl ARCH_REQ_XCOMP_PERM),
 * which a process needs before its first AMX instruction; compiled code
 * calls it before its bf16 products on AMX tiles. Once per process; a
 * refusal (a kernel older than 5.16, or AMX disabled) is a run-time error
 * (relay_rt_fail). */
void relay_rt_request_amx(void);

/*===-------------------------------------------------------------------===*
 * Profiles (relay-run --profile on compiled code): code compiled with
 * --relay-to-llvm's `profile` option (--relay-profile-loop-nests) calls
 * relay_rt_profile_record(name, relay_rt_profile_clock()'s reading before
 * the nest) after each loop nest; the times are summed by name (the Relay
 * operator's location, compared by address) from the last reset.
 *===-------------------------------------------------------------------===*/

/* A monotonic clock, in nanoseconds. */
int64_t relay_rt_profile_clock(void);
void relay_rt_profile_record(const char *name, int64_t start);
/* Forgets the times recorded so far. */
void relay_rt_profile_reset(void);
/* Called once per name by relay_rt_profile_report, in the order of first
 * record: the name, its calls and their milliseconds. */
typedef void (*relay_rt_profile_entry)(const char *name, int64_t calls,
                                       double milliseconds, void *context);
void relay_rt_profile_report(relay_rt_profile_entry each, void *context);

/* Calls `fn(args)` (an MLIR packed entry point); returns null, or the
 * message of a run-time error raised inside (valid until the next error on
 * this thread). */
const char *relay_rt_guarded_call(void (*fn)(void **), void **args);

/* The allocation functions of compiled code's buffers (MLIR's generic
 * ones): malloc and aligned_alloc, so result buffers are free()d as usual;
 * inside relay_rt_guarded_call they are recorded, and the ones still live
 * when a run-time error abandons the call are freed. Large freed buffers
 * (16 KiB and up, at most 512 MiB per thread) are kept for the thread's
 * next allocations; relay_rt_release_cached_buffers frees them now (a
 * thread's go when it exits). */
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *pointer);
/* Buffers allocated by those functions and not yet freed by them (nor by
 * an error): a leak check for hosts that free results with
 * _mlir_memref_to_llvm_free (the Executor does). */
int64_t relay_rt_outstanding_buffers(void);
void relay_rt_release_cached_buffers(void);

/* Copies the elements (elementSize bytes each) of `src` into `dst`, both of
 * the same shape and any strides. Compiled code calls it (under MLIR's
 * name) for copies the LLVM lowering cannot do with one memcpy. */
void memrefCopy(int64_t elementSize, RelayUnrankedMemRef *src,
                RelayUnrankedMemRef *dst);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H */
