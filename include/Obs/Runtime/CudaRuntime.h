/*===- CudaRuntime.h - obs's CUDA runtime, over the dlopened driver -*- C
 * -*-===//
 *
 * What host code lowered for the cuda target calls: the `mgpu*` functions
 * that MLIR's gpu-to-llvm conversion and the gpu.binary's translation emit
 * (module load, launch, streams, events, memory), with the signatures of
 * LLVM 22, and obs's own calls for the program that runs such code
 * (obs-run, or a compiler that embeds obs).
 *
 * The driver is opened with dlopen("libcuda.so.1") on first use, so the
 * library links and starts anywhere; every entry point is looked up by its
 * versioned name. The device's primary context is retained and made
 * current. Every driver result is checked. The first failure is kept,
 * with the driver's name and description of the error (or its number,
 * where the driver describes none), a module's JIT error log, or the
 * runtime's own reason; from then on every call does nothing and returns
 * null, so that code that goes on running after a failure cannot make
 * things worse. obsCudaError() says what failed, and obsCudaRelease()
 * releases everything still live and the primary context.
 *
 *===----------------------------------------------------------------------===*/

#ifndef OBS_RUNTIME_CUDARUNTIME_H
#define OBS_RUNTIME_CUDARUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime calls of MLIR's GPU lowering (gpu-to-llvm and the
 * gpu.binary's LLVM translation). Handles are the driver's. */
void *mgpuModuleLoad(void *data, uint64_t bytes);
/* PTX, NUL-terminated, which the driver compiles at `optLevel` (0 to 4). */
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t paramCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *destination, void *source, size_t bytes, void *stream);
void mgpuMemset32(void *destination, unsigned value, size_t count,
                  void *stream);
void mgpuMemset16(void *destination, unsigned short value, size_t count,
                  void *stream);
void mgpuSetDefaultDevice(int32_t device);

/* obs's own calls. */

/* Opens the driver, the device and its primary context, unless done;
 * returns 0, or nonzero with obsCudaError() saying why (no driver, no
 * device, a failed call). */
int obsCudaInit(void);

/* The first failure since the last obsCudaRelease(), as one line, or null. */
const char *obsCudaError(void);

/* Calls `handler` with the first failure when host code next waits for a
 * stream (mgpuStreamSynchronize, which comes before every read of device
 * data), outside the runtime's lock; null: no handler. Host code goes on
 * after a failure with every call a no-op, and a loop whose condition
 * reads device data would then spin forever: obs-run's handler prints the
 * failure and exits. */
void obsCudaSetFailureHandler(void (*handler)(const char *message));

/* The device's compute capability; 0, or nonzero on failure. */
int obsCudaComputeCapability(int *major, int *minor);

/* Waits for all work on the device; 0, or nonzero on failure (a kernel
 * that failed reports here). */
int obsCudaSynchronize(void);

/* Events that time: record one before and one after the work, then ask for
 * the milliseconds between them (which waits for the second). */
void *obsCudaTimerCreate(void);
int obsCudaTimerElapsed(void *start, void *stop, float *milliseconds);

/* While on, every launch is timed with a pair of events, and
 * obsCudaProfiledLaunch(i) gives the kernel's name and its milliseconds
 * (waiting for it). Turning it on forgets earlier launches. */
void obsCudaProfileLaunches(int on);
size_t obsCudaProfiledLaunchCount(void);
const char *obsCudaProfiledLaunch(size_t index, float *milliseconds);

/* Releases everything the runtime made that is still live (modules,
 * streams, events, memory, the profile) and the primary context, and
 * forgets the failure; returns 0, or nonzero with the first failure to
 * release as obsCudaError() until the next call. */
int obsCudaRelease(void);

#ifdef __cplusplus
}
#endif

#endif /* OBS_RUNTIME_CUDARUNTIME_H */
