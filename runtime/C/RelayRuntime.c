/*===- RelayRuntime.c - The C runtime of compiled Relay code -----*- C -*-===*/

/* syscall() */
#define _GNU_SOURCE

#include "runtime/C/RelayRuntime.h"

#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*===-------------------------------------------------------------------===*
 * Arenas: objects are bump-allocated from chunks, arenas stacked per
 * thread. A popped arena's chunks go to a per-thread cache that the next
 * arena takes them from: a program called in a loop reuses the same memory
 * instead of a malloc and a free per object (and the allocator giving the
 * top of the heap back to the system after each call, only to fault it in
 * again: TreeLSTM's closures box 97 KB of weights per node).
 *===-------------------------------------------------------------------===*/

typedef struct Chunk {
  struct Chunk *next;
  size_t capacity; /* bytes of payload */
  size_t used;
  relay_rt_chunk_free_fn release; /* how it goes: free or the installed one */
  _Alignas(16) unsigned char payload[];
} Chunk;

/* Where new chunks come from (relay_rt_set_chunk_allocator). */
static _Atomic(relay_rt_chunk_alloc_fn) chunkAllocator;
static _Atomic(relay_rt_chunk_free_fn) chunkDeallocator;

void relay_rt_set_chunk_allocator(relay_rt_chunk_alloc_fn allocate,
                                  relay_rt_chunk_free_fn release) {
  atomic_store(&chunkDeallocator, release);
  atomic_store(&chunkAllocator, allocate);
}

static void freeChunk(Chunk *c) { c->release(c); }

typedef struct Arena {
  struct Arena *outer;
  Chunk *chunks; /* the first one is being filled */
} Arena;

enum {
  kChunkBytes = 64 * 1024,
  kChunkCacheBytes = 64 * 1024 * 1024, /* the most a thread keeps cached */
};

static _Thread_local Arena *current;
static _Thread_local Arena root; /* used when nothing was pushed */
static _Thread_local Chunk *chunkCache;
static _Thread_local size_t chunkCacheBytes;

void relay_rt_arena_push(void) {
  Arena *arena = (Arena *)calloc(1, sizeof(Arena));
  if (!arena)
    relay_rt_fail("out of memory");
  arena->outer = current;
  current = arena;
}

/* The chunkCache goes with its thread. */
static pthread_key_t chunkCacheKey;
static pthread_once_t chunkCacheKeyOnce = PTHREAD_ONCE_INIT;

static void freeChunkCache(void *unused) {
  (void)unused;
  while (chunkCache) {
    Chunk *next = chunkCache->next;
    freeChunk(chunkCache);
    chunkCache = next;
  }
  chunkCacheBytes = 0;
}

static void createChunkCacheKey(void) {
  pthread_key_create(&chunkCacheKey, freeChunkCache);
}

/* Returns the arena's chunks to the chunkCache, freeing what exceeds its bound.
 */
static void releaseChunks(Arena *arena) {
  pthread_once(&chunkCacheKeyOnce, createChunkCacheKey);
  pthread_setspecific(chunkCacheKey, &chunkCache);
  for (Chunk *c = arena->chunks; c;) {
    Chunk *next = c->next;
    if (chunkCacheBytes + c->capacity <= kChunkCacheBytes) {
      c->next = chunkCache;
      chunkCache = c;
      chunkCacheBytes += c->capacity;
    } else {
      freeChunk(c);
    }
    c = next;
  }
  arena->chunks = NULL;
}

void relay_rt_arena_pop(void) {
  if (!current)
    return;
  Arena *arena = current;
  current = arena->outer;
  releaseChunks(arena);
  free(arena);
}

/* A chunk with room for `bytes`: a cached one if any fits, else a new one. */
static Chunk *takeChunk(size_t bytes) {
  relay_rt_chunk_alloc_fn allocate = atomic_load(&chunkAllocator);
  relay_rt_chunk_free_fn release =
      allocate ? atomic_load(&chunkDeallocator) : free;
  for (Chunk **link = &chunkCache; *link; link = &(*link)->next) {
    Chunk *c = *link;
    /* (Chunks cached before an allocator was installed are not its kind.) */
    if (c->capacity >= bytes && c->release == release) {
      *link = c->next;
      chunkCacheBytes -= c->capacity;
      c->used = 0;
      return c;
    }
  }
  size_t capacity = bytes > kChunkBytes ? bytes : kChunkBytes;
  size_t total = sizeof(Chunk) + capacity;
  Chunk *c = (Chunk *)(allocate ? allocate(total) : malloc(total));
  if (!c)
    relay_rt_fail("out of memory");
  c->release = release;
  c->capacity = capacity;
  c->used = 0;
  return c;
}

static void *arenaAlloc(int64_t bytes) {
  Arena *arena = current ? current : &root;
  size_t size = ((size_t)(bytes > 0 ? bytes : 1) + 15) & ~(size_t)15;
  Chunk *c = arena->chunks;
  if (!c || c->capacity - c->used < size) {
    Chunk *fresh = takeChunk(size);
    if (c && fresh->capacity - size < c->capacity - c->used) {
      /* A chunk for one large object: keep filling the current one. */
      fresh->next = c->next;
      c->next = fresh;
      fresh->used = size;
      return fresh->payload;
    }
    fresh->next = c;
    arena->chunks = c = fresh;
  }
  void *p = c->payload + c->used;
  c->used += size;
  return p;
}

/* An object: tag, number of fields, fields. */
typedef struct {
  int64_t tag;
  int64_t numFields;
  void *fields[];
} Object;

void *relay_rt_alloc(int64_t tag, int64_t numFields) {
  Object *o = (Object *)arenaAlloc((int64_t)sizeof(Object) +
                                   numFields * (int64_t)sizeof(void *));
  o->tag = tag;
  o->numFields = numFields;
  for (int64_t i = 0; i < numFields; ++i)
    o->fields[i] = NULL;
  return o;
}

int64_t relay_rt_tag(const void *object) {
  return ((const Object *)object)->tag;
}

int64_t relay_rt_num_fields(const void *object) {
  return ((const Object *)object)->numFields;
}

void relay_rt_set_field(void *object, int64_t index, void *value) {
  ((Object *)object)->fields[index] = value;
}

void *relay_rt_get_field(const void *object, int64_t index) {
  return ((const Object *)object)->fields[index];
}

void *relay_rt_box(const void *data, int64_t bytes) {
  void *box = arenaAlloc(bytes);
  if (bytes)
    memcpy(box, data, (size_t)bytes);
  return box;
}

void relay_rt_unbox(const void *box, void *data, int64_t bytes) {
  if (bytes)
    memcpy(data, box, (size_t)bytes);
}

/*===-------------------------------------------------------------------===*
 * Buffers: plain malloc blocks (callers free() result buffers), recorded
 * with the depth of the guarded call that made them while any is running,
 * so that a run-time error can free what the abandoned code still held.
 *===-------------------------------------------------------------------===*/

typedef struct {
  void *pointer;
  int64_t depth;
} LiveBuffer;

/* Buffers allocated and not yet freed by these functions (all threads). */
static atomic_llong outstanding;

static _Thread_local LiveBuffer *live;
static _Thread_local int64_t numLive, liveCapacity;
static _Thread_local int64_t guardDepth;

static void track(void *pointer) {
  if (!pointer)
    return;
  atomic_fetch_add(&outstanding, 1);
  if (guardDepth == 0)
    return;
  if (numLive == liveCapacity) {
    int64_t capacity = liveCapacity ? 2 * liveCapacity : 64;
    LiveBuffer *grown =
        (LiveBuffer *)realloc(live, (size_t)capacity * sizeof(LiveBuffer));
    if (!grown)
      return; /* untracked: only a leak if an error follows */
    live = grown;
    liveCapacity = capacity;
  }
  live[numLive++] = (LiveBuffer){pointer, guardDepth};
}

static void untrack(void *pointer) {
  /* Buffers are mostly freed in reverse order of allocation. */
  for (int64_t i = numLive - 1; i >= 0; --i)
    if (live[i].pointer == pointer) {
      live[i] = live[--numLive];
      return;
    }
}

/* Large buffers freed by compiled code stay with the thread for its next
 * allocations of about their size instead of going back to the system: a
 * model called again would otherwise map and fault in fresh pages for its
 * activations on every call. The blocks are still malloc's, so a host may
 * free() any it is handed. */
enum { kCacheSlots = 256 };
static const size_t kCachedMin = 16384, kCacheBytes = (size_t)512 << 20;

typedef struct {
  void *pointer;
  size_t size;
} CachedBuffer;

static _Thread_local CachedBuffer cache[kCacheSlots];
static _Thread_local int numCached;
static _Thread_local size_t cachedBytes;
static pthread_key_t cacheKey;
static pthread_once_t cacheKeyOnce = PTHREAD_ONCE_INIT;

void relay_rt_release_cached_buffers(void) {
  freeChunkCache(NULL);
  for (int i = 0; i < numCached; ++i)
    free(cache[i].pointer);
  numCached = 0;
  cachedBytes = 0;
}

static void releaseAtThreadExit(void *unused) {
  (void)unused;
  relay_rt_release_cached_buffers();
}

static void makeCacheKey(void) {
  pthread_key_create(&cacheKey, releaseAtThreadExit);
}

/* The smallest cached block that holds `size` bytes at `alignment` without
 * wasting more than half of it. */
static void *takeCached(size_t size, size_t alignment) {
  if (size < kCachedMin)
    return NULL;
  int best = -1;
  for (int i = 0; i < numCached; ++i) {
    size_t s = cache[i].size;
    if (s >= size && s / 2 <= size &&
        (uintptr_t)cache[i].pointer % alignment == 0 &&
        (best < 0 || s < cache[best].size))
      best = i;
  }
  if (best < 0)
    return NULL;
  void *pointer = cache[best].pointer;
  cachedBytes -= cache[best].size;
  cache[best] = cache[--numCached];
  return pointer;
}

static void release(void *pointer) {
  size_t size = malloc_usable_size(pointer);
  if (size < kCachedMin || size > kCacheBytes) {
    free(pointer);
    return;
  }
  /* Full: the smallest blocks go first (the cheapest to fault in again). */
  while (numCached == kCacheSlots || cachedBytes + size > kCacheBytes) {
    int smallest = 0;
    for (int i = 1; i < numCached; ++i)
      if (cache[i].size < cache[smallest].size)
        smallest = i;
    free(cache[smallest].pointer);
    cachedBytes -= cache[smallest].size;
    cache[smallest] = cache[--numCached];
  }
  if (numCached == 0) {
    pthread_once(&cacheKeyOnce, makeCacheKey);
    pthread_setspecific(cacheKey, cache);
  }
  cache[numCached++] = (CachedBuffer){pointer, size};
  cachedBytes += size;
}

void *_mlir_memref_to_llvm_alloc(size_t size) {
  void *pointer = takeCached(size, 1);
  if (!pointer)
    pointer = malloc(size ? size : 1);
  track(pointer);
  return pointer;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  void *pointer = takeCached(size, alignment);
  if (!pointer) {
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    pointer = aligned_alloc(alignment, rounded ? rounded : alignment);
  }
  track(pointer);
  return pointer;
}

void _mlir_memref_to_llvm_free(void *pointer) {
  if (!pointer)
    return;
  atomic_fetch_sub(&outstanding, 1);
  if (numLive)
    untrack(pointer);
  release(pointer);
}

int64_t relay_rt_outstanding_buffers(void) {
  return (int64_t)atomic_load(&outstanding);
}

/* A guarded call at `depth` ended: on success what it still holds passes to
 * the enclosing call (or to the host at depth 1); on an error it is freed. */
static void releaseBuffers(int64_t depth, int failed) {
  for (int64_t i = numLive - 1; i >= 0; --i) {
    if (live[i].depth < depth)
      continue;
    if (failed || depth == 1) {
      if (failed) {
        atomic_fetch_sub(&outstanding, 1);
        release(live[i].pointer);
      }
      live[i] = live[--numLive];
    } else {
      live[i].depth = depth - 1;
    }
  }
  /* The outermost call is over: the record goes (its thread may end). */
  if (depth == 1) {
    free(live);
    live = NULL;
    numLive = liveCapacity = 0;
  }
}

/*===-------------------------------------------------------------------===*
 * Errors.
 *===-------------------------------------------------------------------===*/

static _Thread_local jmp_buf *guard;
static _Thread_local char lastError[1024];

void relay_rt_fail(const char *message) {
  snprintf(lastError, sizeof(lastError), "%s", message);
  if (guard)
    longjmp(*guard, 1);
  fprintf(stderr, "relay runtime error: %s\n", message);
  exit(1);
}

/* AMX's tile data: state component 18 of XSAVE (Linux's
 * XFEATURE_XTILEDATA), requested with ARCH_REQ_XCOMP_PERM. */
enum { kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18 };
static atomic_int amxState; /* 0: not asked, 1: granted, 2: refused */

void relay_rt_request_amx(void) {
  int state = atomic_load_explicit(&amxState, memory_order_acquire);
  if (state == 0) {
#ifdef SYS_arch_prctl
    long result =
        syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata);
#else
    long result = -1;
#endif
    state = result == 0 ? 1 : 2;
    atomic_store_explicit(&amxState, state, memory_order_release);
  }
  if (state != 1)
    relay_rt_fail("this code computes bf16 products on AMX tiles, but the "
                  "operating system does not let the process use them "
                  "(Linux 5.16 or later grants them); compile for a CPU "
                  "without AMX (relay-run --cpu, e.g. cooperlake)");
}

const char *relay_rt_guarded_call(void (*fn)(void **), void **args) {
  jmp_buf here;
  jmp_buf *outer = guard;
  guard = &here;
  int64_t depth = ++guardDepth;
  if (setjmp(here)) {
    guard = outer;
    releaseBuffers(depth, /*failed=*/1);
    guardDepth = depth - 1;
    return lastError;
  }
  fn(args);
  guard = outer;
  releaseBuffers(depth, /*failed=*/0);
  guardDepth = depth - 1;
  return NULL;
}

/* The fields of a descriptor of rank `rank`. */
typedef struct {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
} View;

static View view(const RelayUnrankedMemRef *m) {
  const int64_t *fields = (const int64_t *)m->descriptor;
  View v;
  v.aligned = (char *)(intptr_t)fields[1];
  v.offset = fields[2];
  v.sizes = fields + 3;
  v.strides = fields + 3 + m->rank;
  return v;
}

void memrefCopy(int64_t elementSize, RelayUnrankedMemRef *srcArg,
                RelayUnrankedMemRef *dstArg) {
  int64_t rank = srcArg->rank;
  View src = view(srcArg), dst = view(dstArg);
  char *from = src.aligned + src.offset * elementSize;
  char *to = dst.aligned + dst.offset * elementSize;
  for (int64_t d = 0; d < rank; ++d)
    if (src.sizes[d] == 0)
      return;
  if (rank == 0) {
    memcpy(to, from, (size_t)elementSize);
    return;
  }
  /* Walk the index space like an odometer, innermost dimension fastest. */
  int64_t index[rank];
  for (int64_t d = 0; d < rank; ++d)
    index[d] = 0;
  for (;;) {
    memcpy(to, from, (size_t)elementSize);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      from += src.strides[d] * elementSize;
      to += dst.strides[d] * elementSize;
      if (++index[d] < src.sizes[d])
        break;
      from -= src.strides[d] * src.sizes[d] * elementSize;
      to -= dst.strides[d] * dst.sizes[d] * elementSize;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
