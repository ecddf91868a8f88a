//===- ArenaTest.cpp - The arenas' chunk allocator ------------------------===//
//
// Tests that an installed chunk allocator (the CUDA runtime installs managed
// memory) gets the arenas' new chunks, and that each chunk goes back
// through the allocator that made it.
//
//===----------------------------------------------------------------------===//

#include "runtime/C/RelayRuntime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

namespace {

std::set<void *> *made;
int allocated = 0, freed = 0;

void *countingAllocate(size_t bytes) {
  void *chunk = std::malloc(bytes);
  made->insert(chunk);
  ++allocated;
  return chunk;
}

void countingFree(void *chunk) {
  EXPECT_EQ(made->count(chunk), 1u) << "freed a chunk it did not make";
  made->erase(chunk);
  ++freed;
  std::free(chunk);
}

TEST(Arena, InstalledAllocatorMakesAndFreesChunks) {
  std::set<void *> chunks;
  made = &chunks;
  allocated = freed = 0; // so that --gtest_repeat runs it again
  std::thread worker([] {
    // A chunk cached before the allocator is installed is not reused.
    relay_rt_arena_push();
    relay_rt_alloc(0, 2);
    relay_rt_arena_pop();

    relay_rt_set_chunk_allocator(countingAllocate, countingFree);
    relay_rt_arena_push();
    char bytes[100] = {1};
    char *box = static_cast<char *>(relay_rt_box(bytes, sizeof(bytes)));
    EXPECT_EQ(box[0], 1);
    // A large box gets a chunk of its own.
    std::vector<char> large(200 * 1024, 2);
    char *big = static_cast<char *>(relay_rt_box(large.data(), large.size()));
    EXPECT_EQ(big[large.size() - 1], 2);
    bool inMadeChunk = false;
    for (void *chunk : *made)
      inMadeChunk |= box > static_cast<char *>(chunk) &&
                     box < static_cast<char *>(chunk) + 64 * 1024 + 64;
    EXPECT_TRUE(inMadeChunk) << "the box is not in an installed chunk";
    relay_rt_arena_pop();
    relay_rt_set_chunk_allocator(nullptr, nullptr); // malloc again
    // The thread's cached chunks are freed at its exit.
  });
  worker.join();
  EXPECT_EQ(allocated, 2);
  EXPECT_EQ(freed, 2);
  EXPECT_TRUE(chunks.empty());
}

} // namespace
