/* A stand-in for the NVIDIA driver's libcuda.so.1, for testing the CUDA
 * runtime's host side on machines without a GPU: one device, memory from
 * malloc (so the host reads "managed" memory), kernels that do nothing,
 * and events 0.25 ms apart. Built by the lit tests that use it (no cuda.h:
 * the handles are pointers and CUresult an int, as the driver's ABI has
 * them). RELAY_STAND_IN_FAIL_LAUNCH=N makes the Nth launch fail. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef void *Handle;
enum { kSuccess = 0, kLaunchFailed = 719 };

static int context;
static long launches;

CUresult cuInit(unsigned flags) { return kSuccess; }
CUresult cuGetErrorString(CUresult result, const char **text) {
  *text = result == kLaunchFailed ? "unspecified launch failure (stand-in)"
                                  : "error (stand-in)";
  return kSuccess;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = 0;
  return kSuccess;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return kSuccess;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  strncpy(name, "Stand-in GPU", (size_t)length);
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  *value = 9;
  return kSuccess;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  *bytes = (size_t)1 << 32;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(Handle *ctx, int device) {
  *ctx = &context;
  return kSuccess;
}
CUresult cuCtxSetCurrent(Handle ctx) { return kSuccess; }
CUresult cuModuleLoadData(Handle *module, const void *image) {
  *module = &context;
  return kSuccess;
}
CUresult cuModuleLoadDataEx(Handle *module, const void *image, unsigned n,
                            void *options, void **values) {
  *module = &context;
  return kSuccess;
}
CUresult cuModuleUnload(Handle module) { return kSuccess; }
CUresult cuModuleGetFunction(Handle *function, Handle module,
                             const char *name) {
  *function = strdup(name);
  return kSuccess;
}
CUresult cuLaunchKernel(Handle function, unsigned gx, unsigned gy,
                        unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, Handle stream, void **params,
                        void **extra) {
  const char *fail = getenv("RELAY_STAND_IN_FAIL_LAUNCH");
  if (fail && ++launches == atol(fail))
    return kLaunchFailed;
  return kSuccess;
}
CUresult cuStreamCreate(Handle *stream, unsigned flags) {
  *stream = malloc(1);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(Handle stream) {
  free(stream);
  return kSuccess;
}
CUresult cuStreamSynchronize(Handle stream) { return kSuccess; }
CUresult cuStreamWaitEvent(Handle stream, Handle event, unsigned flags) {
  return kSuccess;
}
CUresult cuEventCreate(Handle *event, unsigned flags) {
  *event = malloc(1);
  return kSuccess;
}
CUresult cuEventDestroy_v2(Handle event) {
  free(event);
  return kSuccess;
}
CUresult cuEventSynchronize(Handle event) { return kSuccess; }
CUresult cuEventRecord(Handle event, Handle stream) { return kSuccess; }
CUresult cuEventQuery(Handle event) { return kSuccess; }
CUresult cuEventElapsedTime_v2(float *milliseconds, Handle start,
                               Handle end) {
  *milliseconds = 0.25f;
  return kSuccess;
}
CUresult cuMemAlloc_v2(uintptr_t *pointer, size_t bytes) {
  *pointer = (uintptr_t)malloc(bytes);
  return kSuccess;
}
CUresult cuMemAllocManaged(uintptr_t *pointer, size_t bytes, unsigned flags) {
  *pointer = (uintptr_t)malloc(bytes);
  return kSuccess;
}
CUresult cuMemFree_v2(uintptr_t pointer) {
  free((void *)pointer);
  return kSuccess;
}
CUresult cuMemcpy(uintptr_t dst, uintptr_t src, size_t bytes) {
  memcpy((void *)dst, (void *)src, bytes);
  return kSuccess;
}
CUresult cuMemsetD32_v2(uintptr_t dst, unsigned value, size_t count) {
  for (size_t i = 0; i < count; ++i)
    ((uint32_t *)dst)[i] = value;
  return kSuccess;
}
CUresult cuMemsetD16_v2(uintptr_t dst, unsigned short value, size_t count) {
  for (size_t i = 0; i < count; ++i)
    ((uint16_t *)dst)[i] = value;
  return kSuccess;
}
