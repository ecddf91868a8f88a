// The arithmetic peaks of AVX2's int8 and f32 products on this CPU: eight
// independent accumulator chains of `vpmaddwd` + `vpaddd` (16 int16
// multiply-adds each, the int8 kernels' step without VNNI) against eight
// of `vfmadd231ps` (8 f32 multiply-adds each), all in registers.
//
//   clang-22 -O2 -mavx2 -mfma benchmark/avx2_int8_peak.c -o /tmp/peak
//   /tmp/peak
//
// (gcc -O2 spills the accumulators to the stack here and understates the
// int8 rate.) RESULTS.md "Quantized speed on the Zen 3 since the NHWC
// change" records what it printed.
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  (void)argv;
  const long n = 200000000L;
  __m256i a0 = _mm256_set1_epi16(argc), a1 = _mm256_set1_epi16(argc + 1),
          a2 = _mm256_set1_epi16(argc + 2), a3 = _mm256_set1_epi16(argc + 3);
  __m256i b0 = _mm256_set1_epi16(5), b1 = _mm256_set1_epi16(7);
  __m256i c0 = a0, c1 = a1, c2 = a2, c3 = a3, c4 = b0, c5 = b1, c6 = a0,
          c7 = a1;
  double t = now();
  for (long i = 0; i < n; i++) {
    c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(a0, b0));
    c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(a1, b0));
    c2 = _mm256_add_epi32(c2, _mm256_madd_epi16(a2, b0));
    c3 = _mm256_add_epi32(c3, _mm256_madd_epi16(a3, b0));
    c4 = _mm256_add_epi32(c4, _mm256_madd_epi16(a0, b1));
    c5 = _mm256_add_epi32(c5, _mm256_madd_epi16(a1, b1));
    c6 = _mm256_add_epi32(c6, _mm256_madd_epi16(a2, b1));
    c7 = _mm256_add_epi32(c7, _mm256_madd_epi16(a3, b1));
    // Opaque to the optimiser: the products are not hoisted.
    __asm__("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3));
  }
  double tInt = now() - t;
  __m256 x = _mm256_set1_ps((float)argc), y0 = _mm256_set1_ps(1.0f),
         y1 = _mm256_set1_ps(2.0f);
  __m256 f0 = y0, f1 = y1, f2 = y0, f3 = y1, f4 = y0, f5 = y1, f6 = y0, f7 = y1;
  t = now();
  for (long i = 0; i < n; i++) {
    f0 = _mm256_fmadd_ps(x, y0, f0);
    f1 = _mm256_fmadd_ps(x, y1, f1);
    f2 = _mm256_fmadd_ps(x, y0, f2);
    f3 = _mm256_fmadd_ps(x, y1, f3);
    f4 = _mm256_fmadd_ps(x, y0, f4);
    f5 = _mm256_fmadd_ps(x, y1, f5);
    f6 = _mm256_fmadd_ps(x, y0, f6);
    f7 = _mm256_fmadd_ps(x, y1, f7);
    __asm__("" : "+x"(x));
  }
  double tFloat = now() - t;
  __m256i s = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_add_epi32(c0, c1), _mm256_add_epi32(c2, c3)),
      _mm256_add_epi32(_mm256_add_epi32(c4, c5), _mm256_add_epi32(c6, c7)));
  __m256 fs = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(f0, f1), _mm256_add_ps(f2, f3)),
      _mm256_add_ps(_mm256_add_ps(f4, f5), _mm256_add_ps(f6, f7)));
  double intRate = n * 8 / tInt / 1e9, floatRate = n * 8 / tFloat / 1e9;
  printf("vpmaddwd+vpaddd %.2f G/s (%.1f G int8 multiply-adds/s), "
         "vfmadd231ps %.2f G/s (%.1f G f32 multiply-adds/s): int8 peak "
         "%.2fx f32 (%d %g)\n",
         intRate, 16 * intRate, floatRate, 8 * floatRate,
         16 * intRate / (8 * floatRate), _mm256_extract_epi32(s, 0),
         (double)_mm256_cvtss_f32(fs));
  return 0;
}
