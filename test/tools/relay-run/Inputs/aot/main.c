/* A plain C program calling the object relay-run --emit-object made from
 * model.rly, checking every result against loops written here. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

static void expect(const char *what, float got, float want) {
  if (fabsf(got - want) > 1e-5f * (1.0f + fabsf(want))) {
    printf("MISMATCH %s: got %g, want %g\n", what, got, want);
    ++failures;
  }
}

static void release(void *allocated, void *const *inputs, int n) {
  if (allocated == (void *)0xdeadbeef)
    return;
  for (int i = 0; i < n; ++i)
    if (allocated == inputs[i])
      return;
  free(allocated);
}

int main(void) {
  float x[2][4], w[3][4], b[3];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k)
      x[i][k] = (float)(i * 4 + k) / 8.0f - 0.5f;
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 4; ++k)
      w[j][k] = (float)((j + 1) * (k - 1)) / 4.0f;
    b[j] = 0.25f * (float)j - 0.25f;
  }
  relay_main_arg0_t a0 = {&x[0][0], &x[0][0], 0, {2, 4}, {4, 1}};
  relay_main_arg1_t a1 = {&w[0][0], &w[0][0], 0, {3, 4}, {4, 1}};
  relay_main_arg2_t a2 = {b, b, 0, {3}, {1}};
  relay_main_results_t r;
  relay_main(&r, &a0, &a1, &a2);

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float acc = b[j];
      for (int k = 0; k < 4; ++k)
        acc += x[i][k] * w[j][k];
      float *y = r.r0.aligned + r.r0.offset + i * r.r0.strides[0] +
                 j * r.r0.strides[1];
      expect("relu(dense + bias)", *y, acc > 0 ? acc : 0);
    }
  for (int i = 0; i < 2; ++i) {
    float s = 0;
    for (int k = 0; k < 4; ++k)
      s += x[i][k];
    expect("sum", r.r1.aligned[r.r1.offset + i * r.r1.strides[0]], s);
  }
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k)
      expect(
          "split",
          r.r2.aligned[r.r2.offset + i * r.r2.strides[0] + k * r.r2.strides[1]],
          x[i][2 + k]);

  void *inputs[] = {x, w, b};
  release(r.r0.allocated, inputs, 3);
  release(r.r1.allocated, inputs, 3);
  release(r.r2.allocated, inputs, 3);
  printf("%s: relu(dense) %gx%g, sum %g, split %gx%g\n",
         failures ? "FAIL" : "PASS", (double)r.r0.sizes[0],
         (double)r.r0.sizes[1], (double)r.r1.sizes[0], (double)r.r2.sizes[0],
         (double)r.r2.sizes[1]);
  return failures != 0;
}
