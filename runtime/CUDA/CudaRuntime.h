/*===- CudaRuntime.h - The runtime of --relay-to-nvvm's host code -*- C -*-===*
 *
 * The functions the host code of --relay-to-nvvm calls (upstream's gpu-to-llvm
 * and the gpu.binary translation name them mgpu*; Debian's MLIR ships no
 * library with them), over the CUDA driver API. libcuda.so.1 comes with the
 * NVIDIA driver, not the toolkit, so it is opened at the first call: a
 * program built here starts on a machine without a GPU and says what is
 * missing when it needs one. CUDA errors go through relay_rt_fail (located
 * in the message, returned by relay_rt_guarded_call).
 *
 *===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_RUNTIME_CUDA_CUDARUNTIME_H
#define RELAY_MLIR_RUNTIME_CUDA_CUDARUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a CUDA device can run code: 1, or 0 with why not written to
 * `why` (at most `size` bytes): no driver library, no device, or the
 * driver's error. */
int relay_cuda_available(char *why, size_t size);

/* The device's name and compute capability ("NVIDIA H100 (sm_90)"), or
 * an empty string without one. */
void relay_cuda_device_name(char *name, size_t size);

/* A constant (a network's weights) on the device: on the first call
 * (`*slot` null) `bytes` bytes at `host` are copied into managed memory,
 * whose address goes into `*slot` (a global of the loaded module); later
 * calls return `*slot`. --relay-to-nvvm's host code calls it where it reads
 * a constant. */
void *relay_cuda_constant(void **slot, const void *host, int64_t bytes);
/* Frees a constant's device memory (the module's destructor). */
void relay_cuda_constant_release(void **slot);

/* Kernel timing (relay-run --profile with --target cuda). From
 * relay_cuda_profile_start (which forgets earlier times) to
 * relay_cuda_profile_stop, each launch is bracketed by two device events
 * on its stream and the time between them added to its kernel's; copies
 * and fills between host and device (synchronous) are timed on the host
 * clock. */
void relay_cuda_profile_start(void);
/* Called once per kernel by relay_cuda_profile_stop, in the order of
 * first launch: its name (the gpu.func's; "(copies)" and "(fills)" for
 * the host-timed transfers), launches and total milliseconds. */
typedef void (*relay_cuda_profile_entry)(const char *kernel, int64_t launches,
                                         double milliseconds, void *context);
/* Stops timing, waits for the timed launches and reports each kernel. */
void relay_cuda_profile_stop(relay_cuda_profile_entry each, void *context);
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
/* Device memory, or managed memory (host and device) when isHostShared. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared);
/* Frees memory of mgpuMemAlloc, or a host buffer of compiled code
 * (malloc, as --relay-to-nvvm lowers memref.alloc): the host code frees
 * both kinds. */
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_MLIR_RUNTIME_CUDA_CUDARUNTIME_H */
