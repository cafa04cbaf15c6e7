// The runtime's internal view of the loaded CUDA driver: the resolved entry
// points, error formatting and per-thread context handling. Not installed;
// used by the runtime's .cpp files only.
#ifndef TERRAZZO_RUNTIME_DRIVER_H
#define TERRAZZO_RUNTIME_DRIVER_H

#include "CudaDriverApi.h"
#include "terrazzo/Runtime.h"

#include <string>

namespace terrazzo::runtime::detail {

/// The driver entry points, resolved by initialize(). Read only after
/// initialize() (or ensureContext()) succeeded.
struct DriverApi {
  cuda::PFN_cuInit cuInit = nullptr;
  cuda::PFN_cuDriverGetVersion cuDriverGetVersion = nullptr;
  cuda::PFN_cuGetErrorName cuGetErrorName = nullptr;
  cuda::PFN_cuGetErrorString cuGetErrorString = nullptr;

  cuda::PFN_cuDeviceGet cuDeviceGet = nullptr;
  cuda::PFN_cuDeviceGetCount cuDeviceGetCount = nullptr;
  cuda::PFN_cuDeviceGetName cuDeviceGetName = nullptr;
  cuda::PFN_cuDeviceGetAttribute cuDeviceGetAttribute = nullptr;
  cuda::PFN_cuDeviceTotalMem cuDeviceTotalMem = nullptr;
  cuda::PFN_cuDevicePrimaryCtxRetain cuDevicePrimaryCtxRetain = nullptr;

  cuda::PFN_cuCtxGetCurrent cuCtxGetCurrent = nullptr;
  cuda::PFN_cuCtxSetCurrent cuCtxSetCurrent = nullptr;
  cuda::PFN_cuCtxGetDevice cuCtxGetDevice = nullptr;
  cuda::PFN_cuCtxSynchronize cuCtxSynchronize = nullptr;
  cuda::PFN_cuPointerGetAttribute cuPointerGetAttribute = nullptr;

  cuda::PFN_cuModuleLoadDataEx cuModuleLoadDataEx = nullptr;
  cuda::PFN_cuModuleUnload cuModuleUnload = nullptr;
  cuda::PFN_cuModuleGetFunction cuModuleGetFunction = nullptr;
  cuda::PFN_cuFuncGetAttribute cuFuncGetAttribute = nullptr;
  cuda::PFN_cuFuncSetAttribute cuFuncSetAttribute = nullptr;
  cuda::PFN_cuLaunchKernel cuLaunchKernel = nullptr;

  cuda::PFN_cuMemAlloc cuMemAlloc = nullptr;
  cuda::PFN_cuMemFree cuMemFree = nullptr;
  cuda::PFN_cuMemcpyHtoD cuMemcpyHtoD = nullptr;
  cuda::PFN_cuMemcpyDtoH cuMemcpyDtoH = nullptr;
  cuda::PFN_cuMemcpyDtoD cuMemcpyDtoD = nullptr;
  cuda::PFN_cuMemsetD8 cuMemsetD8 = nullptr;

  cuda::PFN_cuStreamCreate cuStreamCreate = nullptr;
  cuda::PFN_cuStreamDestroy cuStreamDestroy = nullptr;
  cuda::PFN_cuStreamSynchronize cuStreamSynchronize = nullptr;

  cuda::PFN_cuEventCreate cuEventCreate = nullptr;
  cuda::PFN_cuEventRecord cuEventRecord = nullptr;
  cuda::PFN_cuEventSynchronize cuEventSynchronize = nullptr;
  cuda::PFN_cuEventElapsedTime cuEventElapsedTime = nullptr;
  cuda::PFN_cuEventDestroy cuEventDestroy = nullptr;
};

/// The resolved entry points. Only meaningful after initialize() succeeded.
const DriverApi &driver();

/// initialize(), then makes the runtime's default context current on the
/// calling thread if the thread has none. Cheap after the first call on a
/// thread. Every entry point that talks to the driver calls this first.
Status ensureContext();

/// Makes `context` (a CUcontext, possibly null) current on the calling thread
/// and keeps the runtime's record of whether the thread has a context in
/// step; for DeviceScope and Module, which switch contexts and switch back.
Status setContext(void *context);

/// "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)": the driver's
/// error name and text, with a built-in table when the driver cannot describe
/// the code (the toolkit's stub libcuda cannot).
std::string describeError(cuda::CUresult result);

/// "<call> failed: <describeError(result)>", or with `what` (e.g. "for
/// kernel 'foo'") after the call's name.
Status driverError(const char *call, cuda::CUresult result,
                   const std::string &what = std::string());

/// The built-in name and text of a CUresult, or nullptr when unknown.
const char *builtinErrorName(cuda::CUresult result);
const char *builtinErrorString(cuda::CUresult result);

} // namespace terrazzo::runtime::detail

#endif // TERRAZZO_RUNTIME_DRIVER_H
