/*===- RelayRuntime.c - The C runtime of compiled Relay code -----*- C -*-===*/

#include "runtime/C/RelayRuntime.h"

#include <string.h>

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
