/*===- Profile.c - Time spent in compiled code's loop nests ---------------===*
 *
 * Code compiled with --relay-to-llvm's `profile` option brackets each call
 * of a loop nest with relay_rt_profile_clock and relay_rt_profile_record;
 * this file sums the times by the name the call passes (the Relay
 * operator's location), in the order of first call.
 *
 *===----------------------------------------------------------------------===*/

#include "runtime/C/RelayRuntime.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  const char *name;
  int64_t calls;
  int64_t nanoseconds;
} ProfileEntry;

static pthread_mutex_t profileMutex = PTHREAD_MUTEX_INITIALIZER;
static ProfileEntry *entries;
static size_t numEntries, capacity;
/* Where the last record was: calls come in the same order every run, so
 * the next name is usually the next entry. */
static size_t lastEntry;

int64_t relay_rt_profile_clock(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* The entry of `name` (names are compared by address: each is a constant
 * of the compiled module), added when new; null when out of memory. With
 * the lock held. */
static ProfileEntry *entryOf(const char *name) {
  for (size_t k = 0; k < numEntries; ++k) {
    size_t at = (lastEntry + 1 + k) % numEntries;
    if (entries[at].name == name) {
      lastEntry = at;
      return &entries[at];
    }
  }
  if (numEntries == capacity) {
    size_t grown = capacity ? 2 * capacity : 64;
    ProfileEntry *moved = realloc(entries, grown * sizeof(ProfileEntry));
    if (!moved)
      return NULL;
    entries = moved;
    capacity = grown;
  }
  lastEntry = numEntries;
  entries[numEntries] = (ProfileEntry){name, 0, 0};
  return &entries[numEntries++];
}

void relay_rt_profile_record(const char *name, int64_t start) {
  int64_t elapsed = relay_rt_profile_clock() - start;
  pthread_mutex_lock(&profileMutex);
  ProfileEntry *entry = entryOf(name);
  if (entry) {
    ++entry->calls;
    entry->nanoseconds += elapsed;
  }
  pthread_mutex_unlock(&profileMutex);
}

void relay_rt_profile_reset(void) {
  pthread_mutex_lock(&profileMutex);
  numEntries = 0;
  lastEntry = 0;
  pthread_mutex_unlock(&profileMutex);
}

void relay_rt_profile_report(relay_rt_profile_entry each, void *context) {
  pthread_mutex_lock(&profileMutex);
  for (size_t k = 0; k < numEntries; ++k)
    each(entries[k].name, entries[k].calls,
         (double)entries[k].nanoseconds / 1e6, context);
  pthread_mutex_unlock(&profileMutex);
}
