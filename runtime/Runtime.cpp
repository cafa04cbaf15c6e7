// Loading the CUDA driver, error messages, contexts and device queries.
#include "Driver.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>

namespace terrazzo::runtime {
namespace detail {
namespace {

using namespace cuda;

/// Process-wide driver state. Leaked on purpose: Modules and buffers held in
/// static objects may be released after any static destructor ran.
struct DriverState {
  std::string libraryPath;
  void *library = nullptr;
  DriverApi api;
  /// The context made current on threads that have none: the one current
  /// when initialize() ran, else device 0's primary context.
  CUcontext defaultContext = nullptr;

  std::mutex primaryContextsMutex;
  std::map<int, CUcontext> primaryContexts; // retained once, never released
};

DriverState &state() {
  static DriverState *driverState = new DriverState();
  return *driverState;
}

/// Set once the calling thread has a current context the runtime accepts.
thread_local bool t_contextReady = false;

/// Resolves the first of `names` the library exports into `slot`.
template <typename F>
bool resolve(void *library, F &slot, std::initializer_list<const char *> names,
             std::string &missing) {
  for (const char *name : names) {
    if (void *symbol = dlsym(library, name)) {
      slot = reinterpret_cast<F>(symbol);
      return true;
    }
  }
  if (!missing.empty())
    missing += ", ";
  bool first = true;
  for (const char *name : names) {
    if (!first)
      missing += " or ";
    missing += name;
    first = false;
  }
  return false;
}

Status resolveAll(DriverState &s) {
  void *lib = s.library;
  DriverApi &api = s.api;
  std::string missing;
  // `&` rather than `&&`: report every missing symbol, not just the first.
  bool ok = true;
  ok &= resolve(lib, api.cuInit, {"cuInit"}, missing);
  ok &= resolve(lib, api.cuDriverGetVersion, {"cuDriverGetVersion"}, missing);
  ok &= resolve(lib, api.cuGetErrorName, {"cuGetErrorName"}, missing);
  ok &= resolve(lib, api.cuGetErrorString, {"cuGetErrorString"}, missing);
  ok &= resolve(lib, api.cuDeviceGet, {"cuDeviceGet"}, missing);
  ok &= resolve(lib, api.cuDeviceGetCount, {"cuDeviceGetCount"}, missing);
  ok &= resolve(lib, api.cuDeviceGetName, {"cuDeviceGetName"}, missing);
  ok &= resolve(lib, api.cuDeviceGetAttribute, {"cuDeviceGetAttribute"},
                missing);
  ok &= resolve(lib, api.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"}, missing);
  ok &= resolve(lib, api.cuDevicePrimaryCtxRetain,
                {"cuDevicePrimaryCtxRetain"}, missing);
  ok &= resolve(lib, api.cuCtxGetCurrent, {"cuCtxGetCurrent"}, missing);
  ok &= resolve(lib, api.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing);
  ok &= resolve(lib, api.cuCtxGetDevice, {"cuCtxGetDevice"}, missing);
  // Not cuCtxSynchronize_v2: that one (CUDA 12.9+) takes a context argument.
  ok &= resolve(lib, api.cuCtxSynchronize, {"cuCtxSynchronize"}, missing);
  ok &= resolve(lib, api.cuPointerGetAttribute, {"cuPointerGetAttribute"},
                missing);
  ok &= resolve(lib, api.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
  ok &= resolve(lib, api.cuModuleUnload, {"cuModuleUnload"}, missing);
  ok &= resolve(lib, api.cuModuleGetFunction, {"cuModuleGetFunction"},
                missing);
  ok &= resolve(lib, api.cuFuncGetAttribute, {"cuFuncGetAttribute"}, missing);
  ok &= resolve(lib, api.cuFuncSetAttribute, {"cuFuncSetAttribute"}, missing);
  ok &= resolve(lib, api.cuLaunchKernel, {"cuLaunchKernel"}, missing);
  ok &= resolve(lib, api.cuMemAlloc, {"cuMemAlloc_v2"}, missing);
  ok &= resolve(lib, api.cuMemFree, {"cuMemFree_v2"}, missing);
  ok &= resolve(lib, api.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, missing);
  ok &= resolve(lib, api.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, missing);
  ok &= resolve(lib, api.cuMemcpyDtoD, {"cuMemcpyDtoD_v2"}, missing);
  ok &= resolve(lib, api.cuMemsetD8, {"cuMemsetD8_v2"}, missing);
  ok &= resolve(lib, api.cuStreamCreate, {"cuStreamCreate"}, missing);
  ok &= resolve(lib, api.cuStreamDestroy, {"cuStreamDestroy_v2"}, missing);
  ok &= resolve(lib, api.cuStreamSynchronize, {"cuStreamSynchronize"},
                missing);
  ok &= resolve(lib, api.cuEventCreate, {"cuEventCreate"}, missing);
  ok &= resolve(lib, api.cuEventRecord, {"cuEventRecord"}, missing);
  ok &= resolve(lib, api.cuEventSynchronize, {"cuEventSynchronize"}, missing);
  // The _v2 (CUDA 12.8+, same signature) where the driver has it.
  ok &= resolve(lib, api.cuEventElapsedTime,
                {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  ok &= resolve(lib, api.cuEventDestroy, {"cuEventDestroy_v2"}, missing);
  if (ok)
    return Status::success();
  return Status::error("dlsym failed: the CUDA driver library '" +
                       s.libraryPath + "' has no symbol " + missing);
}

Status loadAndInitialize() {
  DriverState &s = state();
  const char *fromEnvironment = std::getenv("TERRAZZO_LIBCUDA");
  bool overridden = fromEnvironment && *fromEnvironment;
  s.libraryPath = overridden ? fromEnvironment : "libcuda.so.1";

  dlerror(); // Clear any earlier error.
  s.library = dlopen(s.libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!s.library) {
    const char *reason = dlerror();
    std::string message = "dlopen(\"" + s.libraryPath +
                          "\") failed: " + (reason ? reason : "unknown error");
    message += overridden ? " (path from TERRAZZO_LIBCUDA)"
                          : " (is the NVIDIA driver installed? "
                            "TERRAZZO_LIBCUDA may name the library's path)";
    return Status::error(std::move(message));
  }

  // The library stays loaded even if what follows fails: a driver whose
  // cuInit ran may have started threads, and nothing else will use it.
  if (Status status = resolveAll(s); !status.ok())
    return status;

  DriverApi &api = s.api;
  if (CUresult r = api.cuInit(0); r != CUDA_SUCCESS)
    return driverError("cuInit", r,
                       "with driver library '" + s.libraryPath + "'");

  CUcontext current = nullptr;
  if (CUresult r = api.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
    return driverError("cuCtxGetCurrent", r);
  if (!current) {
    CUdevice device = 0;
    if (CUresult r = api.cuDeviceGet(&device, 0); r != CUDA_SUCCESS)
      return driverError("cuDeviceGet", r, "for device 0");
    if (CUresult r = api.cuDevicePrimaryCtxRetain(&current, device);
        r != CUDA_SUCCESS)
      return driverError("cuDevicePrimaryCtxRetain", r, "for device 0");
    if (CUresult r = api.cuCtxSetCurrent(current); r != CUDA_SUCCESS)
      return driverError("cuCtxSetCurrent", r,
                         "for the primary context of device 0");
    std::lock_guard<std::mutex> lock(s.primaryContextsMutex);
    s.primaryContexts[0] = current;
  }
  s.defaultContext = current;
  t_contextReady = true;
  return Status::success();
}

std::string lookUpName(CUresult result) {
  const DriverApi &api = state().api;
  const char *name = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == CUDA_SUCCESS &&
      name)
    return name;
  if ((name = builtinErrorName(result)))
    return name;
  return "CUDA error " + std::to_string(result);
}

std::string lookUpText(CUresult result) {
  const DriverApi &api = state().api;
  const char *text = nullptr;
  if (api.cuGetErrorString &&
      api.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    return text;
  if ((text = builtinErrorString(result)))
    return text;
  return "no description available";
}

} // namespace

const DriverApi &driver() { return state().api; }

std::string describeError(CUresult result) {
  return lookUpName(result) + " (" + lookUpText(result) + ")";
}

Status driverError(const char *call, CUresult result, const std::string &what) {
  std::string message = call;
  message += " failed";
  if (!what.empty()) {
    message += ' ';
    message += what;
  }
  message += ": ";
  message += describeError(result);
  return Status::error(std::move(message));
}

Status ensureContext() {
  if (t_contextReady)
    return Status::success();
  if (Status status = initialize(); !status.ok())
    return status;
  if (t_contextReady) // This thread just ran the initialization.
    return Status::success();
  DriverState &s = state();
  CUcontext current = nullptr;
  if (CUresult r = s.api.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
    return driverError("cuCtxGetCurrent", r);
  if (!current) {
    if (CUresult r = s.api.cuCtxSetCurrent(s.defaultContext);
        r != CUDA_SUCCESS)
      return driverError("cuCtxSetCurrent", r,
                         "for the runtime's default context");
  }
  t_contextReady = true;
  return Status::success();
}

Status setContext(void *context) {
  if (CUresult r = state().api.cuCtxSetCurrent(static_cast<CUcontext>(context));
      r != CUDA_SUCCESS)
    return driverError("cuCtxSetCurrent", r);
  // A thread left without a context gets the default one again from the
  // next ensureContext().
  t_contextReady = context != nullptr;
  return Status::success();
}

/// The primary context of device `ordinal`, retained on first use and kept
/// for the life of the process.
Result<CUcontext> primaryContext(int ordinal) {
  using R = Result<CUcontext>;
  DriverState &s = state();
  std::string what = "for device " + std::to_string(ordinal);
  std::lock_guard<std::mutex> lock(s.primaryContextsMutex);
  auto it = s.primaryContexts.find(ordinal);
  if (it != s.primaryContexts.end())
    return R::success(it->second);
  CUdevice device = 0;
  if (CUresult r = s.api.cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS)
    return R::error(driverError("cuDeviceGet", r, what));
  CUcontext context = nullptr;
  if (CUresult r = s.api.cuDevicePrimaryCtxRetain(&context, device);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuDevicePrimaryCtxRetain", r, what));
  s.primaryContexts[ordinal] = context;
  return R::success(context);
}

} // namespace detail

using namespace cuda;
using detail::driver;
using detail::driverError;

Status initialize() {
  // A function-local static: initialized exactly once, thread-safely.
  static const Status status = detail::loadAndInitialize();
  return status;
}

bool isAvailable() {
  Result<int> count = deviceCount();
  return count.ok() && count.value > 0;
}

Result<int> driverVersion() {
  if (Status status = initialize(); !status.ok())
    return Result<int>::error(std::move(status));
  int version = 0;
  if (CUresult r = driver().cuDriverGetVersion(&version); r != CUDA_SUCCESS)
    return Result<int>::error(driverError("cuDriverGetVersion", r));
  return Result<int>::success(version);
}

Result<int> deviceCount() {
  if (Status status = initialize(); !status.ok())
    return Result<int>::error(std::move(status));
  int count = 0;
  if (CUresult r = driver().cuDeviceGetCount(&count); r != CUDA_SUCCESS)
    return Result<int>::error(driverError("cuDeviceGetCount", r));
  return Result<int>::success(count);
}

Result<int> currentDevice() {
  if (Status status = detail::ensureContext(); !status.ok())
    return Result<int>::error(std::move(status));
  CUdevice device = 0;
  if (CUresult r = driver().cuCtxGetDevice(&device); r != CUDA_SUCCESS)
    return Result<int>::error(driverError("cuCtxGetDevice", r));
  return Result<int>::success(device);
}

Status setCurrentDevice(int ordinal) {
  if (Status status = initialize(); !status.ok())
    return status;
  Result<CUcontext> context = detail::primaryContext(ordinal);
  if (!context.ok())
    return context.status;
  if (CUresult r = driver().cuCtxSetCurrent(context.value); r != CUDA_SUCCESS)
    return driverError("cuCtxSetCurrent", r,
                       "for the primary context of device " +
                           std::to_string(ordinal));
  detail::t_contextReady = true;
  return Status::success();
}

Result<int> pointerDevice(std::uint64_t address) {
  if (Status status = detail::ensureContext(); !status.ok())
    return Result<int>::error(std::move(status));
  int ordinal = -1;
  if (CUresult r = driver().cuPointerGetAttribute(
          &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, address);
      r != CUDA_SUCCESS) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%llx",
                  static_cast<unsigned long long>(address));
    return Result<int>::error(driverError(
        "cuPointerGetAttribute", r,
        std::string("(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) for address ") +
            text));
  }
  return Result<int>::success(ordinal);
}

Result<bool> deviceCanAccess(std::uint64_t address) {
  if (Status status = detail::ensureContext(); !status.ok())
    return Result<bool>::error(std::move(status));
  cuda::CUdeviceptr pointer = 0;
  return Result<bool>::success(
      driver().cuPointerGetAttribute(&pointer,
                                     CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                     address) == CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// DeviceScope
//===----------------------------------------------------------------------===//

Status DeviceScope::enter(int ordinal) {
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  const detail::DriverApi &api = driver();
  CUcontext current = nullptr;
  if (CUresult r = api.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
    return driverError("cuCtxGetCurrent", r);
  if (ordinal < 0) {
    context_ = current;
    return Status::success();
  }
  if (current) {
    CUdevice device = -1;
    if (CUresult r = api.cuCtxGetDevice(&device); r != CUDA_SUCCESS)
      return driverError("cuCtxGetDevice", r);
    if (device == ordinal) {
      context_ = current;
      return Status::success();
    }
  }
  Result<CUcontext> primary = detail::primaryContext(ordinal);
  if (!primary.ok())
    return primary.status;
  if (CUresult r = api.cuCtxSetCurrent(primary.value); r != CUDA_SUCCESS)
    return driverError("cuCtxSetCurrent", r,
                       "for the primary context of device " +
                           std::to_string(ordinal));
  previous_ = current;
  context_ = primary.value;
  switched_ = true;
  return Status::success();
}

DeviceScope::~DeviceScope() {
  if (switched_)
    (void)detail::setContext(previous_);
}

Result<DeviceProperties> getDeviceProperties(int ordinal) {
  using R = Result<DeviceProperties>;
  if (Status status = initialize(); !status.ok())
    return R::error(std::move(status));
  const detail::DriverApi &api = driver();
  std::string what = "for device " + std::to_string(ordinal);
  CUdevice device = 0;
  if (CUresult r = api.cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS)
    return R::error(driverError("cuDeviceGet", r, what));

  DeviceProperties props;
  props.ordinal = ordinal;
  char name[256] = {};
  if (CUresult r = api.cuDeviceGetName(name, sizeof(name) - 1, device);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuDeviceGetName", r, what));
  props.name = name;

  struct {
    CUdevice_attribute attribute;
    const char *attributeName;
    int *field;
  } queries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR",
       &props.computeCapabilityMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR",
       &props.computeCapabilityMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
       "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", &props.multiprocessorCount},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", &props.maxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
       &props.warpSize},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
       &props.maxSharedMemoryPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
       &props.maxSharedMemoryPerBlockOptin},
  };
  for (auto &query : queries) {
    if (CUresult r =
            api.cuDeviceGetAttribute(query.field, query.attribute, device);
        r != CUDA_SUCCESS)
      return R::error(driverError("cuDeviceGetAttribute", r,
                                  std::string("(") + query.attributeName +
                                      ") " + what));
  }

  size_t totalMemory = 0;
  if (CUresult r = api.cuDeviceTotalMem(&totalMemory, device);
      r != CUDA_SUCCESS)
    return R::error(driverError("cuDeviceTotalMem", r, what));
  props.totalMemoryBytes = totalMemory;
  return R::success(std::move(props));
}

Status synchronize() {
  if (Status status = detail::ensureContext(); !status.ok())
    return status;
  if (CUresult r = driver().cuCtxSynchronize(); r != CUDA_SUCCESS)
    return driverError("cuCtxSynchronize", r);
  return Status::success();
}

} // namespace terrazzo::runtime
