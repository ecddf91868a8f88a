/*===- RelayRuntime.h - The C runtime of compiled Relay code -----*- C -*-===*
 *
 * What object files from `relay-run --emit-object` call besides libc and
 * libm. Link libRelayMLIRCRuntime.a (installed with relay-mlir) into the
 * program.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H
#define RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H

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

/* Copies the elements (elementSize bytes each) of `src` into `dst`, both of
 * the same shape and any strides. Compiled code calls it (under MLIR's
 * name) for copies the LLVM lowering cannot do with one memcpy. */
void memrefCopy(int64_t elementSize, RelayUnrankedMemRef *src,
                RelayUnrankedMemRef *dst);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_MLIR_RUNTIME_C_RELAYRUNTIME_H */
