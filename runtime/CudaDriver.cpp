// The CUDA driver behind the runtime's Driver interface: loading libcuda,
// contexts (the primary context of each device, made current on threads that
// have none), device queries, modules, launches, memory, streams and events.
#include "CudaDriverApi.h"
#include "Driver.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

namespace terrazzo::runtime::detail {

/// The built-in name and text of a CUresult, or nullptr when unknown
/// (ErrorNames.cpp).
const char *builtinErrorName(cuda::CUresult result);
const char *builtinErrorString(cuda::CUresult result);

namespace {

using namespace cuda;

/// The driver entry points, resolved by initialize().
struct CudaApi {
  PFN_cuInit cuInit = nullptr;
  PFN_cuDriverGetVersion cuDriverGetVersion = nullptr;
  PFN_cuGetErrorName cuGetErrorName = nullptr;
  PFN_cuGetErrorString cuGetErrorString = nullptr;

  PFN_cuDeviceGet cuDeviceGet = nullptr;
  PFN_cuDeviceGetCount cuDeviceGetCount = nullptr;
  PFN_cuDeviceGetName cuDeviceGetName = nullptr;
  PFN_cuDeviceGetAttribute cuDeviceGetAttribute = nullptr;
  PFN_cuDeviceTotalMem cuDeviceTotalMem = nullptr;
  PFN_cuDevicePrimaryCtxRetain cuDevicePrimaryCtxRetain = nullptr;

  PFN_cuCtxGetCurrent cuCtxGetCurrent = nullptr;
  PFN_cuCtxSetCurrent cuCtxSetCurrent = nullptr;
  PFN_cuCtxGetDevice cuCtxGetDevice = nullptr;
  PFN_cuCtxSynchronize cuCtxSynchronize = nullptr;
  PFN_cuPointerGetAttribute cuPointerGetAttribute = nullptr;

  PFN_cuModuleLoadDataEx cuModuleLoadDataEx = nullptr;
  PFN_cuModuleUnload cuModuleUnload = nullptr;
  PFN_cuModuleGetFunction cuModuleGetFunction = nullptr;
  PFN_cuFuncGetAttribute cuFuncGetAttribute = nullptr;
  PFN_cuFuncSetAttribute cuFuncSetAttribute = nullptr;
  PFN_cuLaunchKernel cuLaunchKernel = nullptr;
  /// Null with a driver older than CUDA 11.8 (launches with attributes
  /// then fail, naming it).
  PFN_cuLaunchKernelEx cuLaunchKernelEx = nullptr;

  PFN_cuMemAlloc cuMemAlloc = nullptr;
  PFN_cuMemFree cuMemFree = nullptr;
  PFN_cuMemcpyHtoD cuMemcpyHtoD = nullptr;
  PFN_cuMemcpyDtoH cuMemcpyDtoH = nullptr;
  PFN_cuMemcpyDtoD cuMemcpyDtoD = nullptr;
  PFN_cuMemsetD8 cuMemsetD8 = nullptr;
  /// Null with a driver older than CUDA 12 (encodeTensorMap says so).
  PFN_cuTensorMapEncodeTiled cuTensorMapEncodeTiled = nullptr;

  PFN_cuStreamCreate cuStreamCreate = nullptr;
  PFN_cuStreamDestroy cuStreamDestroy = nullptr;
  PFN_cuStreamSynchronize cuStreamSynchronize = nullptr;

  PFN_cuEventCreate cuEventCreate = nullptr;
  PFN_cuEventRecord cuEventRecord = nullptr;
  PFN_cuEventSynchronize cuEventSynchronize = nullptr;
  PFN_cuEventElapsedTime cuEventElapsedTime = nullptr;
  PFN_cuEventDestroy cuEventDestroy = nullptr;
};

/// Set once the calling thread has a current context the runtime accepts.
thread_local bool t_contextReady = false;

bool startsWith(const void *image, size_t size, const unsigned char *magic,
                size_t magicSize) {
  return size >= magicSize && std::memcmp(image, magic, magicSize) == 0;
}

/// An ELF image (a cubin) or a fatbin: binary, passed to the driver as is.
bool isBinaryImage(const void *image, size_t size) {
  static const unsigned char elf[] = {0x7f, 'E', 'L', 'F'};
  // The fatbin magic 0xBA55ED50, little-endian.
  static const unsigned char fatbin[] = {0x50, 0xED, 0x55, 0xBA};
  return startsWith(image, size, elf, sizeof(elf)) ||
         startsWith(image, size, fatbin, sizeof(fatbin));
}

/// Process-wide. Leaked on purpose (see driverFor): Modules and buffers held
/// in static objects may be released after any static destructor ran.
class CudaDriver final : public Driver {
public:
  Platform platform() const override { return Platform::Cuda; }

  std::string describe(int code) const override {
    return lookUpName(code) + " (" + lookUpText(code) + ")";
  }

  Status initialize() override {
    // A function-local static: initialized exactly once, thread-safely.
    static const Status status = loadAndInitialize();
    return status;
  }

  Status ensureContext() override {
    if (t_contextReady)
      return Status::success();
    if (Status status = initialize(); !status.ok())
      return status;
    if (t_contextReady) // This thread just ran the initialization.
      return Status::success();
    CUcontext current = nullptr;
    if (CUresult r = api_.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
      return error({"cuCtxGetCurrent", r});
    if (!current) {
      if (CUresult r = api_.cuCtxSetCurrent(defaultContext_); r != CUDA_SUCCESS)
        return error({"cuCtxSetCurrent", r},
                     "for the runtime's default context");
    }
    t_contextReady = true;
    return Status::success();
  }

  Result<int> driverVersion() override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int version = 0;
    if (CUresult r = api_.cuDriverGetVersion(&version); r != CUDA_SUCCESS)
      return Result<int>::error(error({"cuDriverGetVersion", r}));
    return Result<int>::success(version);
  }

  Result<int> deviceCount() override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int count = 0;
    if (CUresult r = api_.cuDeviceGetCount(&count); r != CUDA_SUCCESS)
      return Result<int>::error(error({"cuDeviceGetCount", r}));
    return Result<int>::success(count);
  }

  Result<int> currentDevice() override {
    if (Status status = ensureContext(); !status.ok())
      return Result<int>::error(std::move(status));
    CUdevice device = 0;
    if (CUresult r = api_.cuCtxGetDevice(&device); r != CUDA_SUCCESS)
      return Result<int>::error(error({"cuCtxGetDevice", r}));
    return Result<int>::success(device);
  }

  Status setCurrentDevice(int ordinal) override {
    if (Status status = initialize(); !status.ok())
      return status;
    Result<CUcontext> context = primaryContext(ordinal);
    if (!context.ok())
      return context.status;
    if (CUresult r = api_.cuCtxSetCurrent(context.value); r != CUDA_SUCCESS)
      return error({"cuCtxSetCurrent", r},
                   "for the primary context of device " +
                       std::to_string(ordinal));
    t_contextReady = true;
    return Status::success();
  }

  Result<int> pointerDevice(std::uint64_t address) override {
    if (Status status = ensureContext(); !status.ok())
      return Result<int>::error(std::move(status));
    int ordinal = -1;
    if (CUresult r = api_.cuPointerGetAttribute(
            &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, address);
        r != CUDA_SUCCESS)
      return Result<int>::error(error(
          {"cuPointerGetAttribute", r},
          "(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) for address " +
              hexAddress(address)));
    return Result<int>::success(ordinal);
  }

  Result<bool> deviceCanAccess(std::uint64_t address) override {
    if (Status status = ensureContext(); !status.ok())
      return Result<bool>::error(std::move(status));
    CUdeviceptr pointer = 0;
    return Result<bool>::success(
        api_.cuPointerGetAttribute(&pointer, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                   address) == CUDA_SUCCESS);
  }

  Result<DeviceProperties> deviceProperties(int ordinal) override {
    using R = Result<DeviceProperties>;
    if (Status status = initialize(); !status.ok())
      return R::error(std::move(status));
    std::string what = "for device " + std::to_string(ordinal);
    CUdevice device = 0;
    if (CUresult r = api_.cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS)
      return R::error(error({"cuDeviceGet", r}, what));

    DeviceProperties props;
    props.ordinal = ordinal;
    props.platform = Platform::Cuda;
    char name[256] = {};
    if (CUresult r = api_.cuDeviceGetName(name, sizeof(name) - 1, device);
        r != CUDA_SUCCESS)
      return R::error(error({"cuDeviceGetName", r}, what));
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
         "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT",
         &props.multiprocessorCount},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
         "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
         &props.maxThreadsPerBlock},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
         &props.warpSize},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
         "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
         &props.maxSharedMemoryPerBlock},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
         &props.maxSharedMemoryPerBlockOptin},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
         "CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK",
         &props.maxRegistersPerBlock},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
         "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR",
         &props.maxThreadsPerMultiprocessor},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "CU_DEVICE_ATTRIBUTE_CLOCK_RATE",
         &props.clockRateKHz},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
         "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE", &props.memoryClockRateKHz},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
         "CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH",
         &props.memoryBusWidthBits},
    };
    for (auto &query : queries) {
      if (CUresult r =
              api_.cuDeviceGetAttribute(query.field, query.attribute, device);
          r != CUDA_SUCCESS)
        return R::error(error({"cuDeviceGetAttribute", r},
                              std::string("(") + query.attributeName + ") " +
                                  what));
    }
    std::string capability = std::to_string(props.computeCapabilityMajor) +
                             std::to_string(props.computeCapabilityMinor);
    props.architecture = "sm_" + capability;
    props.target = "cuda:" + capability;

    size_t totalMemory = 0;
    if (CUresult r = api_.cuDeviceTotalMem(&totalMemory, device);
        r != CUDA_SUCCESS)
      return R::error(error({"cuDeviceTotalMem", r}, what));
    props.totalMemoryBytes = totalMemory;
    return R::success(std::move(props));
  }

  Status synchronize() override {
    if (Status status = ensureContext(); !status.ok())
      return status;
    if (CUresult r = api_.cuCtxSynchronize(); r != CUDA_SUCCESS)
      return error({"cuCtxSynchronize", r});
    return Status::success();
  }

  Status enterDevice(int ordinal, Scope &scope) override {
    if (Status status = ensureContext(); !status.ok())
      return status;
    CUcontext current = nullptr;
    if (CUresult r = api_.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
      return error({"cuCtxGetCurrent", r});
    if (ordinal < 0) {
      scope.context = current;
      return Status::success();
    }
    if (current) {
      CUdevice device = -1;
      if (CUresult r = api_.cuCtxGetDevice(&device); r != CUDA_SUCCESS)
        return error({"cuCtxGetDevice", r});
      if (device == ordinal) {
        scope.context = current;
        return Status::success();
      }
    }
    Result<CUcontext> primary = primaryContext(ordinal);
    if (!primary.ok())
      return primary.status;
    if (CUresult r = api_.cuCtxSetCurrent(primary.value); r != CUDA_SUCCESS)
      return error({"cuCtxSetCurrent", r},
                   "for the primary context of device " +
                       std::to_string(ordinal));
    scope.previous = current;
    scope.context = primary.value;
    scope.switched = true;
    return Status::success();
  }

  void leaveDevice(void *previous) override { (void)setContext(previous); }

  Result<LoadedModule> loadModule(const void *image, size_t size) override {
    using R = Result<LoadedModule>;
    // PTX is text the driver reads up to a NUL; a binary image has its size
    // in its headers.
    bool binary = isBinaryImage(image, size);
    std::string ptxCopy;
    const void *data = image;
    if (!binary && static_cast<const char *>(image)[size - 1] != '\0') {
      ptxCopy.assign(static_cast<const char *>(image), size);
      data = ptxCopy.c_str();
    }

    // The JIT's error log says what is wrong with PTX that fails to compile.
    std::string errorLog(16 * 1024, '\0');
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *optionValues[] = {
        errorLog.data(),
        reinterpret_cast<void *>(static_cast<uintptr_t>(errorLog.size()))};

    CUmodule module = nullptr;
    CUresult r =
        api_.cuModuleLoadDataEx(&module, data, 2, options, optionValues);
    if (r != CUDA_SUCCESS) {
      std::string what = "for a " + std::to_string(size) + "-byte " +
                         (binary ? "binary image" : "image read as PTX");
      Status status = error({"cuModuleLoadDataEx", r}, what);
      errorLog.resize(std::strlen(errorLog.c_str()));
      while (!errorLog.empty() &&
             (errorLog.back() == '\n' || errorLog.back() == ' '))
        errorLog.pop_back();
      if (!errorLog.empty())
        status.message += "\n" + errorLog;
      return R::error(std::move(status));
    }
    LoadedModule loaded;
    loaded.handle = module;
    CUcontext context = nullptr;
    (void)api_.cuCtxGetCurrent(&context);
    loaded.context = context;
    return R::success(loaded);
  }

  void unloadModule(const LoadedModule &module) override {
    // A module exists only if the driver was initialized; failures (such as
    // a driver already shut down at process exit) cannot be reported here.
    // The module is unloaded in its own context, which is made current for
    // the call if another one is.
    (void)ensureContext();
    CUcontext current = nullptr;
    (void)api_.cuCtxGetCurrent(&current);
    bool switched = module.context && current != module.context;
    if (switched)
      (void)setContext(module.context);
    (void)api_.cuModuleUnload(static_cast<CUmodule>(module.handle));
    if (switched)
      (void)setContext(current);
  }

  Call getFunction(void *module, const char *name, void *&function) override {
    CUfunction result = nullptr;
    CUresult r = api_.cuModuleGetFunction(
        &result, static_cast<CUmodule>(module), name);
    function = result;
    return check("cuModuleGetFunction", r);
  }

  Status getAttribute(void *function, FunctionAttribute attribute,
                      const std::string &kernelName, int &value) override {
    CUfunction_attribute code = 0;
    const char *name = nullptr;
    switch (attribute) {
    case FunctionAttribute::NumRegisters:
      code = CU_FUNC_ATTRIBUTE_NUM_REGS;
      name = "CU_FUNC_ATTRIBUTE_NUM_REGS";
      break;
    case FunctionAttribute::MaxThreadsPerBlock:
      code = CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
      name = "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK";
      break;
    case FunctionAttribute::StaticSharedBytes:
      code = CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
      name = "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES";
      break;
    case FunctionAttribute::LocalBytes:
      code = CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
      name = "CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES";
      break;
    case FunctionAttribute::MaxDynamicSharedBytes:
      code = CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
      name = "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES";
      break;
    }
    if (CUresult r = api_.cuFuncGetAttribute(&value, code,
                                             static_cast<CUfunction>(function));
        r != CUDA_SUCCESS)
      return error({"cuFuncGetAttribute", r}, std::string("(") + name +
                                                  ") for kernel '" +
                                                  kernelName + "'");
    return Status::success();
  }

  Status setMaxDynamicSharedMemory(void *function, int bytes,
                                   const std::string &kernelName) override {
    if (CUresult r = api_.cuFuncSetAttribute(
            static_cast<CUfunction>(function),
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
        r != CUDA_SUCCESS)
      return error({"cuFuncSetAttribute", r},
                   "(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = " +
                       std::to_string(bytes) + ") for kernel '" + kernelName +
                       "'");
    return Status::success();
  }

  // Above 48 KiB, dynamic shared memory needs the kernel's opt-in.
  int defaultDynamicSharedMemoryLimit() const override { return 48 * 1024; }

  Call launch(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
              unsigned blockX, unsigned blockY, unsigned blockZ,
              unsigned sharedBytes, void *stream, void **kernelParams,
              const LaunchAttributes &attributes) override {
    if (!attributes.any())
      return check("cuLaunchKernel",
                   api_.cuLaunchKernel(
                       static_cast<CUfunction>(function), gridX, gridY, gridZ,
                       blockX, blockY, blockZ, sharedBytes,
                       static_cast<CUstream>(stream), kernelParams, nullptr));
    if (!api_.cuLaunchKernelEx)
      return check("cuLaunchKernelEx", CUDA_ERROR_NOT_SUPPORTED);
    CUlaunchAttribute attrs[3] = {};
    unsigned count = 0;
    if (attributes.cooperative) {
      attrs[count].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
      attrs[count++].value.cooperative = 1;
    }
    if (attributes.programmaticDependentLaunch) {
      attrs[count].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      attrs[count++].value.programmaticStreamSerializationAllowed = 1;
    }
    if (attributes.clustered()) {
      attrs[count].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attrs[count++].value.clusterDim = {
          attributes.clusterX, attributes.clusterY, attributes.clusterZ};
    }
    CUlaunchConfig config{
        gridX,  gridY,  gridZ,       blockX,
        blockY, blockZ, sharedBytes, static_cast<CUstream>(stream),
        attrs,  count};
    return check("cuLaunchKernelEx",
                 api_.cuLaunchKernelEx(&config,
                                       static_cast<CUfunction>(function),
                                       kernelParams, nullptr));
  }

  Call allocate(size_t bytes, std::uint64_t &pointer) override {
    CUdeviceptr result = 0;
    CUresult r = api_.cuMemAlloc(&result, bytes);
    pointer = result;
    return check("cuMemAlloc", r);
  }
  void free(std::uint64_t pointer) override { (void)api_.cuMemFree(pointer); }
  Call copyHostToDevice(std::uint64_t destination, const void *source,
                        size_t bytes) override {
    return check("cuMemcpyHtoD",
                 api_.cuMemcpyHtoD(destination, source, bytes));
  }
  Call copyDeviceToHost(void *destination, std::uint64_t source,
                        size_t bytes) override {
    return check("cuMemcpyDtoH",
                 api_.cuMemcpyDtoH(destination, source, bytes));
  }
  Call copyDeviceToDevice(std::uint64_t destination, std::uint64_t source,
                          size_t bytes) override {
    return check("cuMemcpyDtoD",
                 api_.cuMemcpyDtoD(destination, source, bytes));
  }
  Call fill(std::uint64_t destination, std::uint8_t value,
            size_t bytes) override {
    return check("cuMemsetD8", api_.cuMemsetD8(destination, value, bytes));
  }

  Status encodeTensorMap(const TensorMapDescription &map, void *out) override {
    if (!api_.cuTensorMapEncodeTiled)
      return Status::error("the CUDA driver in " + libraryPath_ +
                           " has no cuTensorMapEncodeTiled (CUDA 12 or newer "
                           "has it)");
    auto code = [](unsigned bytes, std::initializer_list<unsigned> sizes) {
      int k = 0;
      for (unsigned size : sizes) {
        if (size == bytes)
          return k;
        ++k;
      }
      return -1;
    };
    // uint8, uint16, uint32, (int32), uint64: copies move bits.
    int dataType = code(map.elementBytes, {1, 2, 4, 0, 8});
    int swizzle = code(map.swizzleBytes, {0, 32, 64, 128});
    if (dataType < 0 || swizzle < 0)
      return Status::error("a tensor map's elements are 1, 2, 4 or 8 bytes "
                           "and its swizzle 0, 32, 64 or 128 bytes, not " +
                           std::to_string(map.elementBytes) + " and " +
                           std::to_string(map.swizzleBytes));
    const unsigned elementStrides[5] = {1, 1, 1, 1, 1};
    unsigned box[5];
    for (unsigned d = 0; d < 5; ++d)
      box[d] = map.box[d];
    Call failed = check(
        "cuTensorMapEncodeTiled",
        api_.cuTensorMapEncodeTiled(
            out, dataType, map.rank, reinterpret_cast<void *>(map.address),
            map.dims, map.strides + 1, box, elementStrides, /*interleave=*/0,
            swizzle, /*l2Promotion=*/0, /*oobFill=*/0));
    if (!failed)
      return Status::success();
    std::string what = "(rank " + std::to_string(map.rank) + ", address " +
                       std::to_string(map.address) + ", extents";
    for (unsigned d = 0; d < map.rank; ++d)
      what += " " + std::to_string(map.dims[d]);
    what += ", byte strides";
    for (unsigned d = 1; d < map.rank; ++d)
      what += " " + std::to_string(map.strides[d]);
    what += ", box";
    for (unsigned d = 0; d < map.rank; ++d)
      what += " " + std::to_string(map.box[d]);
    return error(failed, "for a tensor map " + what + ")");
  }

  Call createStream(bool nonBlocking, void *&stream) override {
    CUstream result = nullptr;
    CUresult r = api_.cuStreamCreate(
        &result, nonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT);
    stream = result;
    return check("cuStreamCreate", r);
  }
  void destroyStream(void *stream) override {
    (void)api_.cuStreamDestroy(static_cast<CUstream>(stream));
  }
  Call synchronizeStream(void *stream) override {
    return check("cuStreamSynchronize",
                 api_.cuStreamSynchronize(static_cast<CUstream>(stream)));
  }

  Call createEvent(void *&event) override {
    CUevent result = nullptr;
    CUresult r = api_.cuEventCreate(&result, CU_EVENT_DEFAULT);
    event = result;
    return check("cuEventCreate", r);
  }
  void destroyEvent(void *event) override {
    (void)api_.cuEventDestroy(static_cast<CUevent>(event));
  }
  Call recordEvent(void *event, void *stream) override {
    return check("cuEventRecord",
                 api_.cuEventRecord(static_cast<CUevent>(event),
                                    static_cast<CUstream>(stream)));
  }
  Call synchronizeEvent(void *event) override {
    return check("cuEventSynchronize",
                 api_.cuEventSynchronize(static_cast<CUevent>(event)));
  }
  Call elapsedMilliseconds(void *start, void *stop,
                           float &milliseconds) override {
    return check("cuEventElapsedTime",
                 api_.cuEventElapsedTime(&milliseconds,
                                         static_cast<CUevent>(start),
                                         static_cast<CUevent>(stop)));
  }

private:
  static Call check(const char *call, CUresult result) {
    return result == CUDA_SUCCESS ? Call{} : Call{call, result};
  }

  Status resolveAll() {
    void *lib = library_;
    CudaApi &api = api_;
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
    ok &= resolve(lib, api.cuModuleLoadDataEx, {"cuModuleLoadDataEx"},
                  missing);
    ok &= resolve(lib, api.cuModuleUnload, {"cuModuleUnload"}, missing);
    ok &= resolve(lib, api.cuModuleGetFunction, {"cuModuleGetFunction"},
                  missing);
    ok &= resolve(lib, api.cuFuncGetAttribute, {"cuFuncGetAttribute"},
                  missing);
    ok &= resolve(lib, api.cuFuncSetAttribute, {"cuFuncSetAttribute"},
                  missing);
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
    ok &= resolve(lib, api.cuEventSynchronize, {"cuEventSynchronize"},
                  missing);
    // The _v2 (CUDA 12.8+, same signature) where the driver has it.
    ok &= resolve(lib, api.cuEventElapsedTime,
                  {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
    ok &= resolve(lib, api.cuEventDestroy, {"cuEventDestroy_v2"}, missing);
    // Optional: only kernels with tensor maps need it.
    std::string optional;
    (void)resolve(lib, api.cuTensorMapEncodeTiled, {"cuTensorMapEncodeTiled"},
                  optional);
    // Optional: only launches with attributes need it.
    (void)resolve(lib, api.cuLaunchKernelEx, {"cuLaunchKernelEx"}, optional);
    if (ok)
      return Status::success();
    return missingSymbols("CUDA", libraryPath_, missing);
  }

  Status loadAndInitialize() {
    if (Status status = openLibrary(
            "TERRAZZO_LIBCUDA", {"libcuda.so.1"},
            "is the NVIDIA driver installed? TERRAZZO_LIBCUDA may name the "
            "library's path",
            library_, libraryPath_);
        !status.ok())
      return status;

    // The library stays loaded even if what follows fails: a driver whose
    // cuInit ran may have started threads, and nothing else will use it.
    if (Status status = resolveAll(); !status.ok())
      return status;

    if (CUresult r = api_.cuInit(0); r != CUDA_SUCCESS)
      return error({"cuInit", r},
                   "with driver library '" + libraryPath_ + "'");

    CUcontext current = nullptr;
    if (CUresult r = api_.cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
      return error({"cuCtxGetCurrent", r});
    if (!current) {
      CUdevice device = 0;
      if (CUresult r = api_.cuDeviceGet(&device, 0); r != CUDA_SUCCESS)
        return error({"cuDeviceGet", r}, "for device 0");
      if (CUresult r = api_.cuDevicePrimaryCtxRetain(&current, device);
          r != CUDA_SUCCESS)
        return error({"cuDevicePrimaryCtxRetain", r}, "for device 0");
      if (CUresult r = api_.cuCtxSetCurrent(current); r != CUDA_SUCCESS)
        return error({"cuCtxSetCurrent", r},
                     "for the primary context of device 0");
      std::lock_guard<std::mutex> lock(primaryContextsMutex_);
      primaryContexts_[0] = current;
    }
    defaultContext_ = current;
    t_contextReady = true;
    return Status::success();
  }

  /// Makes `context` (possibly null) current on the calling thread and keeps
  /// the record of whether the thread has a context in step.
  Status setContext(void *context) {
    if (CUresult r = api_.cuCtxSetCurrent(static_cast<CUcontext>(context));
        r != CUDA_SUCCESS)
      return error({"cuCtxSetCurrent", r});
    // A thread left without a context gets the default one again from the
    // next ensureContext().
    t_contextReady = context != nullptr;
    return Status::success();
  }

  /// The primary context of device `ordinal`, retained on first use and kept
  /// for the life of the process.
  Result<CUcontext> primaryContext(int ordinal) {
    using R = Result<CUcontext>;
    std::string what = "for device " + std::to_string(ordinal);
    std::lock_guard<std::mutex> lock(primaryContextsMutex_);
    auto it = primaryContexts_.find(ordinal);
    if (it != primaryContexts_.end())
      return R::success(it->second);
    CUdevice device = 0;
    if (CUresult r = api_.cuDeviceGet(&device, ordinal); r != CUDA_SUCCESS)
      return R::error(error({"cuDeviceGet", r}, what));
    CUcontext context = nullptr;
    if (CUresult r = api_.cuDevicePrimaryCtxRetain(&context, device);
        r != CUDA_SUCCESS)
      return R::error(error({"cuDevicePrimaryCtxRetain", r}, what));
    primaryContexts_[ordinal] = context;
    return R::success(context);
  }

  /// The driver's name of a code, else the built-in table's (the toolkit's
  /// stub libcuda cannot describe any code).
  std::string lookUpName(CUresult result) const {
    const char *name = nullptr;
    if (api_.cuGetErrorName &&
        api_.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
      return name;
    if ((name = builtinErrorName(result)))
      return name;
    return "CUDA error " + std::to_string(result);
  }

  std::string lookUpText(CUresult result) const {
    const char *text = nullptr;
    if (api_.cuGetErrorString &&
        api_.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
      return text;
    if ((text = builtinErrorString(result)))
      return text;
    return "no description available";
  }

  std::string libraryPath_;
  void *library_ = nullptr;
  CudaApi api_;
  /// The context made current on threads that have none: the one current
  /// when initialize() ran, else device 0's primary context.
  CUcontext defaultContext_ = nullptr;

  std::mutex primaryContextsMutex_;
  std::map<int, CUcontext> primaryContexts_; // retained once, never released
};

} // namespace

Driver &cudaDriver() {
  static CudaDriver *driver = new CudaDriver();
  return *driver;
}

} // namespace terrazzo::runtime::detail
