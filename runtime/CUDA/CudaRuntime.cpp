//===- CudaRuntime.cpp - mgpu* over the CUDA driver API ---------*- C++ -*-===//
//
// The driver library is opened on first use (see CudaRuntime.h); each
// function makes the device's primary context current on the calling
// thread. Managed and device allocations are remembered, so mgpuMemFree
// can tell them from host buffers of compiled code.
//
//===----------------------------------------------------------------------===//

#include "runtime/CUDA/CudaRuntime.h"

#include "runtime/C/RelayRuntime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

// The symbol a driver API name stands for (cuda.h maps some to versioned
// ones: cuMemAlloc is cuMemAlloc_v2).
#define RELAY_CUDA_STR(x) #x
#define RELAY_CUDA_SYMBOL(x) RELAY_CUDA_STR(x)

struct Driver {
  void *library = nullptr;
  std::string error;
  CUcontext context = nullptr;
  /// The device's memory.
  size_t totalBytes = 0;
#define RELAY_CUDA_FN(name) decltype(&name) name##Fn = nullptr;
#define RELAY_CUDA_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventSynchronize)                                                        \
  X(cuEventRecord)                                                             \
  X(cuEventQuery)                                                              \
  X(cuEventElapsedTime)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpy)                                                                  \
  X(cuMemsetD32)                                                               \
  X(cuMemsetD16)
  RELAY_CUDA_FUNCTIONS(RELAY_CUDA_FN)
#undef RELAY_CUDA_FN

  /// Opens the library, finds every function, initialises the driver and
  /// retains device 0's primary context; `error` says what failed.
  Driver() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *why = dlerror();
      error = std::string("no CUDA driver on this machine (") +
              (why ? why : "libcuda.so.1 not found") + ")";
      return;
    }
#define RELAY_CUDA_LOAD(name)                                                  \
  name##Fn = reinterpret_cast<decltype(&name)>(                                \
      dlsym(library, RELAY_CUDA_SYMBOL(name)));                                \
  if (!name##Fn) {                                                             \
    error = "the CUDA driver lacks " RELAY_CUDA_SYMBOL(name);                  \
    return;                                                                    \
  }
    RELAY_CUDA_FUNCTIONS(RELAY_CUDA_LOAD)
#undef RELAY_CUDA_LOAD
    if (!check(cuInitFn(0), "cuInit"))
      return;
    int count = 0;
    if (!check(cuDeviceGetCountFn(&count), "cuDeviceGetCount"))
      return;
    if (count == 0) {
      error = "the CUDA driver found no device";
      return;
    }
    CUdevice device;
    if (!check(cuDeviceGetFn(&device, 0), "cuDeviceGet") ||
        !check(cuDeviceTotalMemFn(&totalBytes, device), "cuDeviceTotalMem") ||
        !check(cuDevicePrimaryCtxRetainFn(&context, device),
               "cuDevicePrimaryCtxRetain"))
      return;
  }

  bool check(CUresult result, const char *call) {
    if (result == CUDA_SUCCESS)
      return true;
    const char *text = nullptr;
    if (cuGetErrorStringFn)
      cuGetErrorStringFn(result, &text);
    error = std::string(call) + " failed: " + (text ? text : "unknown error") +
            " (CUresult " + std::to_string(static_cast<int>(result)) + ")";
    return false;
  }

  bool ready() const { return context != nullptr; }
};

void *allocateManagedChunk(size_t bytes);
void freeManagedChunk(void *chunk);

Driver &driver() {
  static Driver *instance = [] {
    auto *d = new Driver();
    // Objects (ADT values, closures) box their tensors in the arenas'
    // chunks, which compiled code reads in place: kernels too.
    if (d->ready())
      relay_rt_set_chunk_allocator(allocateManagedChunk, freeManagedChunk);
    return d;
  }();
  return *instance;
}

void *allocateManagedChunk(size_t bytes) {
  Driver &d = driver();
  CUdeviceptr pointer = 0;
  d.cuCtxSetCurrentFn(d.context);
  if (d.cuMemAllocManagedFn(&pointer, bytes, CU_MEM_ATTACH_GLOBAL) !=
      CUDA_SUCCESS)
    return nullptr;
  return reinterpret_cast<void *>(pointer);
}

void freeManagedChunk(void *chunk) {
  Driver &d = driver();
  d.cuCtxSetCurrentFn(d.context);
  d.cuMemFreeFn(reinterpret_cast<CUdeviceptr>(chunk));
}

/// The driver, its context current on this thread; a run-time error when
/// there is none.
Driver &use() {
  Driver &d = driver();
  if (!d.ready()) {
    std::string message = "--target cuda: " + d.error;
    relay_rt_fail(message.c_str());
  }
  d.cuCtxSetCurrentFn(d.context);
  return d;
}

/// Raises a run-time error naming `call` unless `result` is success.
void require(Driver &d, CUresult result, const char *call) {
  if (!d.check(result, call)) {
    std::string message = "CUDA: " + d.error;
    relay_rt_fail(message.c_str());
  }
}

/// The allocations made here, live or cached for reuse, under one lock.
struct Allocations {
  /// Live ones: their rounded size, and whether managed (else device).
  std::unordered_map<void *, std::pair<size_t, bool>> live;
  /// Freed managed buffers by rounded size: a program called again (or a
  /// loop over time steps) allocates the same sizes, and cuMemAllocManaged
  /// and cuMemFree (which waits for the device) cost tens of microseconds.
  /// With the stream of the thread that freed each: kernels still in
  /// flight there may use it (frees join the chain of launches).
  std::unordered_map<size_t, std::vector<std::pair<void *, CUstream>>> cached;
  size_t cachedBytes = 0;
};
/// The most bytes of freed managed buffers kept for reuse: a quarter of
/// the device's memory, at least 1 GiB. A buffer that does not fit is
/// freed, and its next allocation is fresh managed memory whose every page
/// the device then faults in (VGG-16 at batch 64, activations of 0.8 GB,
/// spent most of its time there with a cache of 1 GiB).
size_t managedCacheBytes(const Driver &d) {
  return std::max(size_t(1) << 30, d.totalBytes / 4);
}

std::mutex allocationsMutex;
Allocations &allocations() {
  static Allocations *all = new Allocations(); // outlives exit-time frees
  return *all;
}

/// Sizes rounded up so that buffers of nearby sizes share a cache entry.
size_t roundedSize(size_t bytes) {
  size_t granule = bytes >= (size_t(1) << 20) ? 64 * 1024 : 256;
  return (bytes + granule - 1) / granule * granule;
}

/// Frees the cached buffers (waiting for the streams that last used them);
/// whether there were any.
bool releaseCachedBuffers(Driver &d) {
  std::vector<std::pair<void *, CUstream>> released;
  {
    std::lock_guard<std::mutex> lock(allocationsMutex);
    Allocations &all = allocations();
    for (auto &[bytes, buffers] : all.cached)
      released.insert(released.end(), buffers.begin(), buffers.end());
    all.cached.clear();
    all.cachedBytes = 0;
  }
  for (auto [address, stream] : released) {
    if (stream)
      d.cuStreamSynchronizeFn(stream);
    d.cuMemFreeFn(reinterpret_cast<CUdeviceptr>(address));
  }
  return !released.empty();
}

/// This thread's stream: upstream's launch lowering creates, synchronises
/// and destroys a stream around every kernel; creating one costs more than
/// a small kernel runs.
thread_local CUstream threadStream = nullptr;

/// The kernel timer of relay_cuda_profile_start/stop: every launch while
/// it is on gets two timing events, kept pending until the launch is done.
struct KernelProfile {
  std::atomic<bool> on{false};
  std::mutex mutex;
  /// Every kernel's name, by function (mgpuModuleGetFunction).
  std::unordered_map<CUfunction, std::string> names;
  struct Pending {
    CUfunction function;
    CUevent start, end;
  };
  std::vector<Pending> pending;
  std::vector<CUevent> spareEvents;
  struct Total {
    std::string name;
    int64_t launches = 0;
    double milliseconds = 0;
  };
  /// In the order of first launch.
  std::vector<Total> totals;
  std::unordered_map<std::string, size_t> indexOf;

  /// Adds a launch (or a host-timed transfer) to `name`'s total; with the
  /// lock held.
  void add(const std::string &name, double milliseconds) {
    auto [it, inserted] = indexOf.try_emplace(name, totals.size());
    if (inserted)
      totals.push_back({name, 0, 0});
    Total &total = totals[it->second];
    ++total.launches;
    total.milliseconds += milliseconds;
  }

  /// Accounts the pending launches whose end event has passed (all of
  /// them, waiting, when `wait`); with the lock held.
  void drain(Driver &d, bool wait) {
    size_t kept = 0;
    for (Pending &launch : pending) {
      CUresult done = wait ? d.cuEventSynchronizeFn(launch.end)
                           : d.cuEventQueryFn(launch.end);
      if (done == CUDA_ERROR_NOT_READY) {
        pending[kept++] = launch;
        continue;
      }
      float milliseconds = 0;
      // A launch that failed is reported by the call that waits for it.
      if (done == CUDA_SUCCESS &&
          d.cuEventElapsedTimeFn(&milliseconds, launch.start, launch.end) ==
              CUDA_SUCCESS) {
        auto name = names.find(launch.function);
        add(name != names.end() ? name->second : "(unnamed kernel)",
            milliseconds);
      }
      spareEvents.push_back(launch.start);
      spareEvents.push_back(launch.end);
    }
    pending.resize(kept);
  }

  /// A timing event, reused or new; with the lock held.
  CUevent event(Driver &d) {
    if (!spareEvents.empty()) {
      CUevent event = spareEvents.back();
      spareEvents.pop_back();
      return event;
    }
    CUevent event = nullptr;
    if (d.cuEventCreateFn(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
      return nullptr;
    return event;
  }
};

KernelProfile &kernelProfile() {
  static KernelProfile *profile = new KernelProfile(); // outlives exit
  return *profile;
}

/// Runs a synchronous transfer, timed on the host clock under `name` while
/// the kernel timer is on.
template <typename Transfer>
void timedTransfer(const char *name, Transfer transfer) {
  KernelProfile &profile = kernelProfile();
  if (!profile.on.load(std::memory_order_relaxed)) {
    transfer();
    return;
  }
  auto start = std::chrono::steady_clock::now();
  transfer();
  double milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.add(name, milliseconds);
}

} // namespace

extern "C" {

void relay_cuda_profile_start(void) {
  Driver &d = driver();
  KernelProfile &profile = kernelProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  if (d.ready()) {
    d.cuCtxSetCurrentFn(d.context);
    profile.drain(d, /*wait=*/true);
  }
  profile.totals.clear();
  profile.indexOf.clear();
  profile.on = true;
}

void relay_cuda_profile_stop(relay_cuda_profile_entry each, void *context) {
  Driver &d = driver();
  KernelProfile &profile = kernelProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.on = false;
  if (d.ready()) {
    d.cuCtxSetCurrentFn(d.context);
    profile.drain(d, /*wait=*/true);
  }
  if (each)
    for (const KernelProfile::Total &total : profile.totals)
      each(total.name.c_str(), total.launches, total.milliseconds, context);
}

int relay_cuda_available(char *why, size_t size) {
  Driver &d = driver();
  if (d.ready())
    return 1;
  if (why && size)
    std::snprintf(why, size, "%s", d.error.c_str());
  return 0;
}

void relay_cuda_device_name(char *name, size_t size) {
  if (!name || !size)
    return;
  name[0] = 0;
  Driver &d = driver();
  if (!d.ready())
    return;
  CUdevice device;
  char text[256] = {0};
  int major = 0, minor = 0;
  if (d.cuDeviceGetFn(&device, 0) != CUDA_SUCCESS ||
      d.cuDeviceGetNameFn(text, sizeof(text) - 1, device) != CUDA_SUCCESS)
    return;
  d.cuDeviceGetAttributeFn(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device);
  d.cuDeviceGetAttributeFn(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device);
  std::snprintf(name, size, "%s (sm_%d%d)", text, major, minor);
}

void *relay_cuda_constant(void **slot, const void *host, int64_t bytes) {
  // Calls of one program from several threads upload a constant once. No
  // lock is held across a call that may raise a run-time error (a longjmp
  // would leave it locked).
  static std::mutex uploads;
  {
    std::lock_guard<std::mutex> lock(uploads);
    if (*slot)
      return *slot;
  }
  void *device = mgpuMemAlloc(static_cast<uint64_t>(bytes), nullptr,
                              /*isHostShared=*/1);
  if (bytes)
    std::memcpy(device, host, static_cast<size_t>(bytes));
  void *raced = nullptr;
  {
    std::lock_guard<std::mutex> lock(uploads);
    if (*slot)
      raced = device;
    else
      *slot = device;
  }
  if (raced)
    mgpuMemFree(raced, nullptr);
  return *slot;
}

void relay_cuda_constant_release(void **slot) {
  if (!*slot)
    return;
  Driver &d = driver();
  // At exit, after a failed start, there is nothing to free.
  if (d.ready()) {
    std::lock_guard<std::mutex> lock(allocationsMutex);
    allocations().live.erase(*slot);
    d.cuCtxSetCurrentFn(d.context);
    d.cuMemFreeFn(reinterpret_cast<CUdeviceptr>(*slot));
  }
  *slot = nullptr;
}

void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  (void)gpuBlobSize;
  Driver &d = use();
  CUmodule module = nullptr;
  require(d, d.cuModuleLoadDataFn(&module, data), "cuModuleLoadData");
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  Driver &d = use();
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUresult result = d.cuModuleLoadDataExFn(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS && log[0]) {
    d.check(result, "cuModuleLoadDataEx");
    std::string message = "CUDA: " + d.error + ": " + log;
    relay_rt_fail(message.c_str());
  }
  require(d, result, "cuModuleLoadDataEx");
  return module;
}

void mgpuModuleUnload(void *module) {
  Driver &d = driver();
  // At exit, after a failed start, there is nothing to unload.
  if (!d.ready() || !module)
    return;
  d.cuCtxSetCurrentFn(d.context);
  d.cuModuleUnloadFn(static_cast<CUmodule>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Driver &d = use();
  CUfunction function = nullptr;
  require(
      d,
      d.cuModuleGetFunctionFn(&function, static_cast<CUmodule>(module), name),
      "cuModuleGetFunction");
  KernelProfile &profile = kernelProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.names[function] = name;
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  Driver &d = use();
  auto launch = [&] {
    require(d,
            d.cuLaunchKernelFn(static_cast<CUfunction>(function), gridX, gridY,
                               gridZ, blockX, blockY, blockZ, smem,
                               static_cast<CUstream>(stream), params, extra),
            "cuLaunchKernel");
  };
  KernelProfile &profile = kernelProfile();
  if (!profile.on.load(std::memory_order_relaxed)) {
    launch();
    return;
  }
  CUevent start, end;
  {
    std::lock_guard<std::mutex> lock(profile.mutex);
    // Launches done by now give their events back.
    if (profile.pending.size() >= 1024)
      profile.drain(d, /*wait=*/false);
    start = profile.event(d);
    end = profile.event(d);
  }
  auto timingStream = static_cast<CUstream>(stream);
  bool timed =
      start && end && d.cuEventRecordFn(start, timingStream) == CUDA_SUCCESS;
  // (No lock is held: a failed launch is a run-time error's longjmp.)
  launch();
  timed = timed && d.cuEventRecordFn(end, timingStream) == CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(profile.mutex);
  if (timed) {
    profile.pending.push_back({static_cast<CUfunction>(function), start, end});
    return;
  }
  for (CUevent event : {start, end})
    if (event)
      profile.spareEvents.push_back(event);
}

void *mgpuStreamCreate(void) {
  Driver &d = use();
  if (!threadStream)
    require(d, d.cuStreamCreateFn(&threadStream, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate");
  return threadStream;
}

void mgpuStreamDestroy(void *stream) {
  Driver &d = use();
  // The thread's stream stays for its next kernels.
  if (stream == threadStream)
    return;
  require(d, d.cuStreamDestroyFn(static_cast<CUstream>(stream)),
          "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  Driver &d = use();
  // Kernel faults surface here.
  require(d, d.cuStreamSynchronizeFn(static_cast<CUstream>(stream)),
          "a kernel (cuStreamSynchronize)");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  Driver &d = use();
  require(d,
          d.cuStreamWaitEventFn(static_cast<CUstream>(stream),
                                static_cast<CUevent>(event), 0),
          "cuStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  Driver &d = use();
  CUevent event = nullptr;
  require(d, d.cuEventCreateFn(&event, CU_EVENT_DISABLE_TIMING),
          "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  Driver &d = use();
  require(d, d.cuEventDestroyFn(static_cast<CUevent>(event)), "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  Driver &d = use();
  require(d, d.cuEventSynchronizeFn(static_cast<CUevent>(event)),
          "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  Driver &d = use();
  require(d,
          d.cuEventRecordFn(static_cast<CUevent>(event),
                            static_cast<CUstream>(stream)),
          "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared) {
  (void)stream;
  Driver &d = use();
  // A zero-sized buffer still gets an address of its own.
  size_t bytes = roundedSize(sizeBytes ? sizeBytes : 1);
  if (isHostShared) {
    void *address = nullptr;
    CUstream freedOn = nullptr;
    {
      std::lock_guard<std::mutex> lock(allocationsMutex);
      Allocations &all = allocations();
      auto cached = all.cached.find(bytes);
      if (cached != all.cached.end() && !cached->second.empty()) {
        std::tie(address, freedOn) = cached->second.back();
        cached->second.pop_back();
        all.cachedBytes -= bytes;
        all.live[address] = {bytes, true};
      }
    }
    if (address) {
      // This thread's later kernels follow the ones that used it on its
      // own stream; another thread's may still run. (No lock is held: a
      // failure is a run-time error's longjmp.)
      if (freedOn && freedOn != threadStream)
        require(d, d.cuStreamSynchronizeFn(freedOn),
                "a kernel (cuStreamSynchronize)");
      return address;
    }
  }
  CUdeviceptr pointer = 0;
  auto allocate = [&] {
    return isHostShared
               ? d.cuMemAllocManagedFn(&pointer, bytes, CU_MEM_ATTACH_GLOBAL)
               : d.cuMemAllocFn(&pointer, bytes);
  };
  CUresult result = allocate();
  // The cache of freed buffers gives its memory back before the device is
  // called full.
  if (result == CUDA_ERROR_OUT_OF_MEMORY && releaseCachedBuffers(d))
    result = allocate();
  require(d, result, isHostShared ? "cuMemAllocManaged" : "cuMemAlloc");
  void *address = reinterpret_cast<void *>(pointer);
  std::lock_guard<std::mutex> lock(allocationsMutex);
  allocations().live[address] = {bytes, isHostShared != 0};
  return address;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  {
    std::lock_guard<std::mutex> lock(allocationsMutex);
    Allocations &all = allocations();
    auto found = all.live.find(ptr);
    if (found == all.live.end()) {
      // A host buffer (an entry function's result, returned to a caller
      // of the same program: malloc, as --relay-to-nvvm lowers memref.alloc).
      free(ptr);
      return;
    }
    auto [bytes, managed] = found->second;
    all.live.erase(found);
    // Kernels of this thread that may still use it run on its stream,
    // before any later kernel of the thread that gets it; another thread
    // waits for this stream first (mgpuMemAlloc).
    if (managed && all.cachedBytes + bytes <= managedCacheBytes(driver())) {
      all.cached[bytes].push_back({ptr, threadStream});
      all.cachedBytes += bytes;
      return;
    }
  }
  Driver &d = use();
  // A free chained after kernels (--relay-gpu-async-launches) waits for
  // them before the memory goes.
  if (stream)
    require(d, d.cuStreamSynchronizeFn(static_cast<CUstream>(stream)),
            "a kernel (cuStreamSynchronize)");
  require(d, d.cuMemFreeFn(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  (void)stream;
  if (!sizeBytes)
    return;
  Driver &d = use();
  timedTransfer("(copies)", [&] {
    require(d,
            d.cuMemcpyFn(reinterpret_cast<CUdeviceptr>(dst),
                         reinterpret_cast<CUdeviceptr>(src), sizeBytes),
            "cuMemcpy");
  });
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  (void)stream;
  Driver &d = use();
  timedTransfer("(fills)", [&] {
    require(d,
            d.cuMemsetD32Fn(reinterpret_cast<CUdeviceptr>(dst), value, count),
            "cuMemsetD32");
  });
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  (void)stream;
  Driver &d = use();
  timedTransfer("(fills)", [&] {
    require(d,
            d.cuMemsetD16Fn(reinterpret_cast<CUdeviceptr>(dst), value, count),
            "cuMemsetD16");
  });
}

void mgpuSetDefaultDevice(int32_t device) {
  // Device 0's primary context is the one used.
  (void)device;
}

} // extern "C"
