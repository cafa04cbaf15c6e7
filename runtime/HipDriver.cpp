// HIP behind the runtime's Driver interface: loading libamdhip64, the calling
// thread's current device (HIP's stand-in for a context), device queries,
// code objects (hsaco), launches, memory, streams and events.
#include "Driver.h"
#include "HipDriverApi.h"

#include <cstdint>
#include <cstring>

namespace terrazzo::runtime::detail {
namespace {

using namespace hip;

/// The entry points, resolved by initialize().
struct HipApi {
  PFN_hipInit hipInit = nullptr;
  PFN_hipDriverGetVersion hipDriverGetVersion = nullptr;
  PFN_hipGetErrorName hipGetErrorName = nullptr;
  PFN_hipGetErrorString hipGetErrorString = nullptr;

  PFN_hipGetDeviceCount hipGetDeviceCount = nullptr;
  PFN_hipGetDevice hipGetDevice = nullptr;
  PFN_hipSetDevice hipSetDevice = nullptr;
  PFN_hipDeviceGetName hipDeviceGetName = nullptr;
  PFN_hipDeviceGetAttribute hipDeviceGetAttribute = nullptr;
  PFN_hipDeviceTotalMem hipDeviceTotalMem = nullptr;
  /// hipGetDevicePropertiesR0600 (ROCm 6 and later), else the
  /// hipGetDeviceProperties of ROCm 5's layout; see archNameOffset.
  PFN_hipGetDeviceProperties hipGetDeviceProperties = nullptr;
  std::size_t archNameOffset = 0;
  PFN_hipDeviceSynchronize hipDeviceSynchronize = nullptr;
  PFN_hipPointerGetAttribute hipPointerGetAttribute = nullptr;

  PFN_hipModuleLoadData hipModuleLoadData = nullptr;
  PFN_hipModuleUnload hipModuleUnload = nullptr;
  PFN_hipModuleGetFunction hipModuleGetFunction = nullptr;
  PFN_hipFuncGetAttribute hipFuncGetAttribute = nullptr;
  PFN_hipFuncSetAttribute hipFuncSetAttribute = nullptr;
  PFN_hipModuleLaunchKernel hipModuleLaunchKernel = nullptr;
  /// Null where the runtime lacks it (cooperative launches then fail,
  /// naming it).
  PFN_hipModuleLaunchCooperativeKernel hipModuleLaunchCooperativeKernel =
      nullptr;

  PFN_hipMalloc hipMalloc = nullptr;
  PFN_hipFree hipFree = nullptr;
  PFN_hipMemcpyHtoD hipMemcpyHtoD = nullptr;
  PFN_hipMemcpyDtoH hipMemcpyDtoH = nullptr;
  PFN_hipMemcpyDtoD hipMemcpyDtoD = nullptr;
  PFN_hipMemsetD8 hipMemsetD8 = nullptr;

  PFN_hipStreamCreateWithFlags hipStreamCreateWithFlags = nullptr;
  PFN_hipStreamDestroy hipStreamDestroy = nullptr;
  PFN_hipStreamSynchronize hipStreamSynchronize = nullptr;

  PFN_hipEventCreate hipEventCreate = nullptr;
  PFN_hipEventRecord hipEventRecord = nullptr;
  PFN_hipEventSynchronize hipEventSynchronize = nullptr;
  PFN_hipEventElapsedTime hipEventElapsedTime = nullptr;
  PFN_hipEventDestroy hipEventDestroy = nullptr;
};

/// HIP has no contexts to hand out: a module belongs to the device it was
/// loaded on, and the runtime's "context" of a device is this token (never
/// null, so that device 0 reads as a context too).
void *deviceToken(int device) {
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(device) + 1);
}
int tokenDevice(void *token) {
  return static_cast<int>(reinterpret_cast<std::uintptr_t>(token) - 1);
}

void *devicePointer(std::uint64_t address) {
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(address));
}

/// "gfx942" of "gfx942:sramecc+:xnack-": the processor, without features.
std::string processorOf(const std::string &archName) {
  return archName.substr(0, archName.find(':'));
}

class HipDriver final : public Driver {
public:
  Platform platform() const override { return Platform::Hip; }

  std::string describe(int code) const override {
    const char *name = api_.hipGetErrorName ? api_.hipGetErrorName(code)
                                            : nullptr;
    const char *text = api_.hipGetErrorString ? api_.hipGetErrorString(code)
                                              : nullptr;
    return (name && *name ? std::string(name)
                          : "HIP error " + std::to_string(code)) +
           " (" + (text && *text ? text : "no description available") + ")";
  }

  Status initialize() override {
    static const Status status = loadAndInitialize();
    return status;
  }

  Status ensureContext() override { return initialize(); }

  Result<int> driverVersion() override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int version = 0;
    if (Call failed = check("hipDriverGetVersion",
                            api_.hipDriverGetVersion(&version)))
      return Result<int>::error(error(failed));
    return Result<int>::success(version);
  }

  Result<int> deviceCount() override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int count = 0;
    if (Call failed =
            check("hipGetDeviceCount", api_.hipGetDeviceCount(&count)))
      return Result<int>::error(error(failed));
    return Result<int>::success(count);
  }

  Result<int> currentDevice() override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int device = 0;
    if (Call failed = check("hipGetDevice", api_.hipGetDevice(&device)))
      return Result<int>::error(error(failed));
    return Result<int>::success(device);
  }

  Status setCurrentDevice(int ordinal) override {
    if (Status status = initialize(); !status.ok())
      return status;
    if (Call failed = check("hipSetDevice", api_.hipSetDevice(ordinal)))
      return error(failed, "for device " + std::to_string(ordinal));
    return Status::success();
  }

  Result<int> pointerDevice(std::uint64_t address) override {
    if (Status status = initialize(); !status.ok())
      return Result<int>::error(std::move(status));
    int ordinal = -1;
    if (Call failed = check("hipPointerGetAttribute",
                            api_.hipPointerGetAttribute(
                                &ordinal, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                devicePointer(address))))
      return Result<int>::error(
          error(failed, "(HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL) for address " +
                            hexAddress(address)));
    return Result<int>::success(ordinal);
  }

  Result<bool> deviceCanAccess(std::uint64_t address) override {
    if (Status status = initialize(); !status.ok())
      return Result<bool>::error(std::move(status));
    void *pointer = nullptr;
    return Result<bool>::success(
        api_.hipPointerGetAttribute(&pointer,
                                    HIP_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                    devicePointer(address)) == hipSuccess);
  }

  Result<DeviceProperties> deviceProperties(int ordinal) override {
    using R = Result<DeviceProperties>;
    if (Status status = initialize(); !status.ok())
      return R::error(std::move(status));
    std::string what = "for device " + std::to_string(ordinal);

    DeviceProperties props;
    props.ordinal = ordinal;
    props.platform = Platform::Hip;
    char name[256] = {};
    if (Call failed = check("hipDeviceGetName",
                            api_.hipDeviceGetName(name, sizeof(name) - 1,
                                                  ordinal)))
      return R::error(error(failed, what));
    props.name = name;

    struct {
      hipDeviceAttribute_t attribute;
      const char *attributeName;
      int *field;
    } queries[] = {
        {hipDeviceAttributeComputeCapabilityMajor,
         "hipDeviceAttributeComputeCapabilityMajor",
         &props.computeCapabilityMajor},
        {hipDeviceAttributeComputeCapabilityMinor,
         "hipDeviceAttributeComputeCapabilityMinor",
         &props.computeCapabilityMinor},
        {hipDeviceAttributeMultiprocessorCount,
         "hipDeviceAttributeMultiprocessorCount", &props.multiprocessorCount},
        {hipDeviceAttributeMaxThreadsPerBlock,
         "hipDeviceAttributeMaxThreadsPerBlock", &props.maxThreadsPerBlock},
        {hipDeviceAttributeWarpSize, "hipDeviceAttributeWarpSize",
         &props.warpSize},
        {hipDeviceAttributeMaxSharedMemoryPerBlock,
         "hipDeviceAttributeMaxSharedMemoryPerBlock",
         &props.maxSharedMemoryPerBlock},
        {hipDeviceAttributeSharedMemPerBlockOptin,
         "hipDeviceAttributeSharedMemPerBlockOptin",
         &props.maxSharedMemoryPerBlockOptin},
        {hipDeviceAttributeMaxRegistersPerBlock,
         "hipDeviceAttributeMaxRegistersPerBlock", &props.maxRegistersPerBlock},
        {hipDeviceAttributeMaxThreadsPerMultiProcessor,
         "hipDeviceAttributeMaxThreadsPerMultiProcessor",
         &props.maxThreadsPerMultiprocessor},
        {hipDeviceAttributeClockRate, "hipDeviceAttributeClockRate",
         &props.clockRateKHz},
        {hipDeviceAttributeMemoryClockRate, "hipDeviceAttributeMemoryClockRate",
         &props.memoryClockRateKHz},
        {hipDeviceAttributeMemoryBusWidth, "hipDeviceAttributeMemoryBusWidth",
         &props.memoryBusWidthBits},
    };
    for (auto &query : queries)
      if (Call failed = check("hipDeviceGetAttribute",
                              api_.hipDeviceGetAttribute(
                                  query.field, query.attribute, ordinal)))
        return R::error(error(failed, std::string("(") + query.attributeName +
                                          ") " + what));

    // The architecture has no attribute: it is a field of the properties.
    alignas(16) static thread_local unsigned char
        buffer[kDevicePropertiesBufferBytes];
    std::memset(buffer, 0, sizeof(buffer));
    if (Call failed = check("hipGetDeviceProperties",
                            api_.hipGetDeviceProperties(buffer, ordinal)))
      return R::error(error(failed, what));
    const char *arch =
        reinterpret_cast<const char *>(buffer + api_.archNameOffset);
    props.architecture.assign(arch, strnlen(arch, kGcnArchNameBytes));
    if (props.architecture.rfind("gfx", 0) != 0)
      return R::error(Status::error(
          "hipGetDeviceProperties " + what +
          " gave no gfx architecture name (got '" + props.architecture +
          "'): the HIP library's device properties have a layout the "
          "runtime does not know"));
    props.target = "hip:" + processorOf(props.architecture);

    size_t totalMemory = 0;
    if (Call failed = check("hipDeviceTotalMem",
                            api_.hipDeviceTotalMem(&totalMemory, ordinal)))
      return R::error(error(failed, what));
    props.totalMemoryBytes = totalMemory;
    return R::success(std::move(props));
  }

  Status synchronize() override {
    if (Status status = initialize(); !status.ok())
      return status;
    if (Call failed =
            check("hipDeviceSynchronize", api_.hipDeviceSynchronize()))
      return error(failed);
    return Status::success();
  }

  Status enterDevice(int ordinal, Scope &scope) override {
    if (Status status = initialize(); !status.ok())
      return status;
    int current = 0;
    if (Call failed = check("hipGetDevice", api_.hipGetDevice(&current)))
      return error(failed);
    if (ordinal < 0 || ordinal == current) {
      scope.context = deviceToken(current);
      return Status::success();
    }
    if (Call failed = check("hipSetDevice", api_.hipSetDevice(ordinal)))
      return error(failed, "for device " + std::to_string(ordinal));
    scope.previous = deviceToken(current);
    scope.context = deviceToken(ordinal);
    scope.switched = true;
    return Status::success();
  }

  void leaveDevice(void *previous) override {
    (void)api_.hipSetDevice(tokenDevice(previous));
  }

  Result<LoadedModule> loadModule(const void *image, size_t size) override {
    using R = Result<LoadedModule>;
    int device = 0;
    if (Call failed = check("hipGetDevice", api_.hipGetDevice(&device)))
      return R::error(error(failed));
    hipModule_t module = nullptr;
    if (Call failed = check("hipModuleLoadData",
                            api_.hipModuleLoadData(&module, image)))
      return R::error(error(failed, "for a " + std::to_string(size) +
                                        "-byte image on device " +
                                        std::to_string(device)));
    LoadedModule loaded;
    loaded.handle = module;
    loaded.context = deviceToken(device);
    return R::success(loaded);
  }

  void unloadModule(const LoadedModule &module) override {
    // Unloaded on its own device, made current for the call if another is.
    int current = 0;
    (void)api_.hipGetDevice(&current);
    int device = module.context ? tokenDevice(module.context) : current;
    if (device != current)
      (void)api_.hipSetDevice(device);
    (void)api_.hipModuleUnload(static_cast<hipModule_t>(module.handle));
    if (device != current)
      (void)api_.hipSetDevice(current);
  }

  Call getFunction(void *module, const char *name, void *&function) override {
    hipFunction_t result = nullptr;
    hipError_t r = api_.hipModuleGetFunction(
        &result, static_cast<hipModule_t>(module), name);
    function = result;
    return check("hipModuleGetFunction", r);
  }

  Status getAttribute(void *function, FunctionAttribute attribute,
                      const std::string &kernelName, int &value) override {
    hipFunction_attribute code = 0;
    const char *name = nullptr;
    switch (attribute) {
    case FunctionAttribute::NumRegisters:
      code = HIP_FUNC_ATTRIBUTE_NUM_REGS;
      name = "HIP_FUNC_ATTRIBUTE_NUM_REGS";
      break;
    case FunctionAttribute::MaxThreadsPerBlock:
      code = HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
      name = "HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK";
      break;
    case FunctionAttribute::StaticSharedBytes:
      code = HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
      name = "HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES";
      break;
    case FunctionAttribute::LocalBytes:
      code = HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
      name = "HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES";
      break;
    case FunctionAttribute::MaxDynamicSharedBytes:
      code = HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
      name = "HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES";
      break;
    }
    if (Call failed = check("hipFuncGetAttribute",
                            api_.hipFuncGetAttribute(
                                &value, code,
                                static_cast<hipFunction_t>(function))))
      return error(failed, std::string("(") + name + ") for kernel '" +
                               kernelName + "'");
    return Status::success();
  }

  Status setMaxDynamicSharedMemory(void *function, int bytes,
                                   const std::string &kernelName) override {
    if (Call failed = check("hipFuncSetAttribute",
                            api_.hipFuncSetAttribute(
                                function,
                                hipFuncAttributeMaxDynamicSharedMemorySize,
                                bytes)))
      return error(failed, "(hipFuncAttributeMaxDynamicSharedMemorySize = " +
                               std::to_string(bytes) + ") for kernel '" +
                               kernelName + "'");
    return Status::success();
  }

  // 64 KiB of LDS is what every CDNA kernel may use; above it (gfx950 has
  // 160 KiB) the kernel says how much it wants.
  int defaultDynamicSharedMemoryLimit() const override { return 64 * 1024; }

  // AMD GPUs have no programmatic dependent launch: such a launch is an
  // ordinary one (griddepcontrol's intrinsics compile to nothing there).
  Call launch(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
              unsigned blockX, unsigned blockY, unsigned blockZ,
              unsigned sharedBytes, void *stream, void **kernelParams,
              const LaunchAttributes &attributes) override {
    // AMD GPUs have no thread-block clusters.
    if (attributes.clustered())
      return check("hipModuleLaunchKernel", hipErrorNotSupported);
    if (attributes.cooperative) {
      if (!api_.hipModuleLaunchCooperativeKernel)
        return check("hipModuleLaunchCooperativeKernel", hipErrorNotSupported);
      return check("hipModuleLaunchCooperativeKernel",
                   api_.hipModuleLaunchCooperativeKernel(
                       static_cast<hipFunction_t>(function), gridX, gridY,
                       gridZ, blockX, blockY, blockZ, sharedBytes,
                       static_cast<hipStream_t>(stream), kernelParams));
    }
    return check("hipModuleLaunchKernel",
                 api_.hipModuleLaunchKernel(
                     static_cast<hipFunction_t>(function), gridX, gridY, gridZ,
                     blockX, blockY, blockZ, sharedBytes,
                     static_cast<hipStream_t>(stream), kernelParams, nullptr));
  }

  Call allocate(size_t bytes, std::uint64_t &pointer) override {
    void *result = nullptr;
    hipError_t r = api_.hipMalloc(&result, bytes);
    pointer = reinterpret_cast<std::uintptr_t>(result);
    return check("hipMalloc", r);
  }
  void free(std::uint64_t pointer) override {
    (void)api_.hipFree(devicePointer(pointer));
  }
  Call copyHostToDevice(std::uint64_t destination, const void *source,
                        size_t bytes) override {
    return check("hipMemcpyHtoD",
                 api_.hipMemcpyHtoD(devicePointer(destination),
                                    const_cast<void *>(source), bytes));
  }
  Call copyDeviceToHost(void *destination, std::uint64_t source,
                        size_t bytes) override {
    return check("hipMemcpyDtoH",
                 api_.hipMemcpyDtoH(destination, devicePointer(source), bytes));
  }
  Call copyDeviceToDevice(std::uint64_t destination, std::uint64_t source,
                          size_t bytes) override {
    return check("hipMemcpyDtoD",
                 api_.hipMemcpyDtoD(devicePointer(destination),
                                    devicePointer(source), bytes));
  }
  Call fill(std::uint64_t destination, std::uint8_t value,
            size_t bytes) override {
    return check("hipMemsetD8",
                 api_.hipMemsetD8(devicePointer(destination), value, bytes));
  }

  Status encodeTensorMap(const TensorMapDescription &, void *) override {
    return Status::error("HIP has no tensor maps (TMA is NVIDIA's, sm_90)");
  }

  Call createStream(bool nonBlocking, void *&stream) override {
    hipStream_t result = nullptr;
    hipError_t r = api_.hipStreamCreateWithFlags(
        &result, nonBlocking ? hipStreamNonBlocking : hipStreamDefault);
    stream = result;
    return check("hipStreamCreateWithFlags", r);
  }
  void destroyStream(void *stream) override {
    (void)api_.hipStreamDestroy(static_cast<hipStream_t>(stream));
  }
  Call synchronizeStream(void *stream) override {
    return check("hipStreamSynchronize",
                 api_.hipStreamSynchronize(static_cast<hipStream_t>(stream)));
  }

  Call createEvent(void *&event) override {
    hipEvent_t result = nullptr;
    hipError_t r = api_.hipEventCreate(&result);
    event = result;
    return check("hipEventCreate", r);
  }
  void destroyEvent(void *event) override {
    (void)api_.hipEventDestroy(static_cast<hipEvent_t>(event));
  }
  Call recordEvent(void *event, void *stream) override {
    return check("hipEventRecord",
                 api_.hipEventRecord(static_cast<hipEvent_t>(event),
                                     static_cast<hipStream_t>(stream)));
  }
  Call synchronizeEvent(void *event) override {
    return check("hipEventSynchronize",
                 api_.hipEventSynchronize(static_cast<hipEvent_t>(event)));
  }
  Call elapsedMilliseconds(void *start, void *stop,
                           float &milliseconds) override {
    return check("hipEventElapsedTime",
                 api_.hipEventElapsedTime(&milliseconds,
                                          static_cast<hipEvent_t>(start),
                                          static_cast<hipEvent_t>(stop)));
  }

private:
  static Call check(const char *call, hipError_t result) {
    return result == hipSuccess ? Call{} : Call{call, result};
  }

  Status resolveAll() {
    void *lib = library_;
    HipApi &api = api_;
    std::string missing;
    // `&` rather than `&&`: report every missing symbol, not just the first.
    bool ok = true;
    ok &= resolve(lib, api.hipInit, {"hipInit"}, missing);
    ok &= resolve(lib, api.hipDriverGetVersion, {"hipDriverGetVersion"},
                  missing);
    ok &= resolve(lib, api.hipGetErrorName, {"hipGetErrorName"}, missing);
    ok &= resolve(lib, api.hipGetErrorString, {"hipGetErrorString"}, missing);
    ok &= resolve(lib, api.hipGetDeviceCount, {"hipGetDeviceCount"}, missing);
    ok &= resolve(lib, api.hipGetDevice, {"hipGetDevice"}, missing);
    ok &= resolve(lib, api.hipSetDevice, {"hipSetDevice"}, missing);
    ok &= resolve(lib, api.hipDeviceGetName, {"hipDeviceGetName"}, missing);
    ok &= resolve(lib, api.hipDeviceGetAttribute, {"hipDeviceGetAttribute"},
                  missing);
    ok &= resolve(lib, api.hipDeviceTotalMem, {"hipDeviceTotalMem"}, missing);
    // The name of the architecture is read at the offset of the layout of
    // the function found (HipDriverApi.h).
    std::string noR0600;
    if (resolve(lib, api.hipGetDeviceProperties,
                {"hipGetDevicePropertiesR0600"}, noR0600)) {
      api.archNameOffset = kGcnArchNameOffsetR0600;
    } else {
      ok &= resolve(lib, api.hipGetDeviceProperties,
                    {"hipGetDeviceProperties"}, missing);
      api.archNameOffset = kGcnArchNameOffsetR0000;
    }
    ok &= resolve(lib, api.hipDeviceSynchronize, {"hipDeviceSynchronize"},
                  missing);
    ok &= resolve(lib, api.hipPointerGetAttribute, {"hipPointerGetAttribute"},
                  missing);
    ok &= resolve(lib, api.hipModuleLoadData, {"hipModuleLoadData"}, missing);
    ok &= resolve(lib, api.hipModuleUnload, {"hipModuleUnload"}, missing);
    ok &= resolve(lib, api.hipModuleGetFunction, {"hipModuleGetFunction"},
                  missing);
    ok &= resolve(lib, api.hipFuncGetAttribute, {"hipFuncGetAttribute"},
                  missing);
    ok &= resolve(lib, api.hipFuncSetAttribute, {"hipFuncSetAttribute"},
                  missing);
    ok &= resolve(lib, api.hipModuleLaunchKernel, {"hipModuleLaunchKernel"},
                  missing);
    {
      // Optional: only cooperative launches need it.
      std::string optional;
      (void)resolve(lib, api.hipModuleLaunchCooperativeKernel,
                    {"hipModuleLaunchCooperativeKernel"}, optional);
    }
    ok &= resolve(lib, api.hipMalloc, {"hipMalloc"}, missing);
    ok &= resolve(lib, api.hipFree, {"hipFree"}, missing);
    ok &= resolve(lib, api.hipMemcpyHtoD, {"hipMemcpyHtoD"}, missing);
    ok &= resolve(lib, api.hipMemcpyDtoH, {"hipMemcpyDtoH"}, missing);
    ok &= resolve(lib, api.hipMemcpyDtoD, {"hipMemcpyDtoD"}, missing);
    ok &= resolve(lib, api.hipMemsetD8, {"hipMemsetD8"}, missing);
    ok &= resolve(lib, api.hipStreamCreateWithFlags,
                  {"hipStreamCreateWithFlags"}, missing);
    ok &= resolve(lib, api.hipStreamDestroy, {"hipStreamDestroy"}, missing);
    ok &= resolve(lib, api.hipStreamSynchronize, {"hipStreamSynchronize"},
                  missing);
    ok &= resolve(lib, api.hipEventCreate, {"hipEventCreate"}, missing);
    ok &= resolve(lib, api.hipEventRecord, {"hipEventRecord"}, missing);
    ok &= resolve(lib, api.hipEventSynchronize, {"hipEventSynchronize"},
                  missing);
    ok &= resolve(lib, api.hipEventElapsedTime, {"hipEventElapsedTime"},
                  missing);
    ok &= resolve(lib, api.hipEventDestroy, {"hipEventDestroy"}, missing);
    if (ok)
      return Status::success();
    return missingSymbols("HIP", libraryPath_, missing);
  }

  Status loadAndInitialize() {
    if (Status status = openLibrary(
            "TERRAZZO_HIP_LIBRARY",
            {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"},
            "is ROCm installed? TERRAZZO_HIP_LIBRARY may name the library's "
            "path",
            library_, libraryPath_);
        !status.ok())
      return status;
    if (Status status = resolveAll(); !status.ok())
      return status;
    if (Call failed = check("hipInit", api_.hipInit(0)))
      return error(failed, "with driver library '" + libraryPath_ + "'");
    return Status::success();
  }

  std::string libraryPath_;
  void *library_ = nullptr;
  HipApi api_;
};

} // namespace

Driver &hipDriver() {
  static HipDriver *driver = new HipDriver();
  return *driver;
}

} // namespace terrazzo::runtime::detail
