/* Calls the object relay-run --emit-object --num-threads 2 made from
 * parallel.rly from several threads at once (each call splits its product
 * across the runtime's workers) and checks every element against loops
 * written here. */
#include "parallel.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { M = 128, K = 256, N = 192, kCallers = 3, kCalls = 20 };
static float x[M][K], w[N][K], want[M][N];

static void *caller(void *failures) {
  for (int call = 0; call < kCalls; ++call) {
    relay_main_arg0_t a0 = {&x[0][0], &x[0][0], 0, {M, K}, {K, 1}};
    relay_main_arg1_t a1 = {&w[0][0], &w[0][0], 0, {N, K}, {K, 1}};
    relay_main_results_t r;
    relay_main(&r, &a0, &a1);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float got = r.r0.aligned[r.r0.offset + i * r.r0.strides[0] +
                                 j * r.r0.strides[1]];
        if (fabsf(got - want[i][j]) > 1e-4f * (1.0f + fabsf(want[i][j]))) {
          printf("MISMATCH at (%d, %d): got %g, want %g\n", i, j, got,
                 want[i][j]);
          ++*(int *)failures;
          return NULL;
        }
      }
    free(r.r0.allocated);
  }
  return NULL;
}

int main(void) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      x[i][k] = (float)((i * 7 + k * 3) % 17) / 8.0f - 1.0f;
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k)
      w[j][k] = (float)((j * 5 + k * 11) % 13) / 16.0f - 0.375f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (double)x[i][k] * w[j][k];
      want[i][j] = acc > 0 ? (float)acc : 0.0f;
    }
  pthread_t threads[kCallers];
  int failures[kCallers] = {0};
  for (int t = 0; t < kCallers; ++t)
    pthread_create(&threads[t], NULL, caller, &failures[t]);
  int total = 0;
  for (int t = 0; t < kCallers; ++t) {
    pthread_join(threads[t], NULL);
    total += failures[t];
  }
  if (total)
    return 1;
  printf("PASS: %d threads x %d calls of relu(dense) %dx%dx%d\n", kCallers,
         kCalls, M, K, N);
  return 0;
}
