// Terrazzo's GPU runtime (DESIGN.md §6).
//
// Loads GPU binaries and launches kernels through a vendor's driver: the CUDA
// driver API (cubin or PTX) or HIP (hsaco). Each driver is loaded with dlopen
// at run time, so the library builds and links without a CUDA toolkit or
// ROCm, and a process that never touches a GPU never needs one. This header
// includes no CUDA, HIP, LLVM or MLIR header: driver handles (streams, raw
// kernel handles) cross it as `void *`.
//
// Platforms: every entry point takes the Platform it talks to, CUDA unless
// told otherwise; a kernel's platform follows from the target it was compiled
// for (platformOfTarget: "cuda:90" -> CUDA, "hip:gfx942" -> HIP), and the
// objects made on a platform (Module, Function, DeviceBuffer, Stream,
// EventTimer) remember theirs.
//
// Errors come back as values (the project builds with -fno-exceptions): every
// fallible call returns a Status or a Result<T>, whose message names the
// driver call that failed and the driver's own error name and text, e.g.
//   cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation
//   failed)
//   hipModuleLaunchKernel failed for kernel 'add' (...): hipErrorLaunchFailure
//   (unspecified launch failure)
//
// Contexts (CUDA): initialize() makes the primary context of device 0 current
// when no context is current (a framework such as PyTorch that already made
// one current keeps it), and every call that needs a context makes that same
// context current on threads that have none, so kernels may be launched from
// any thread. A launch on another device than the current one goes through a
// DeviceScope, which makes a context of that device current for the driver
// calls and restores the thread's context after them; a Module belongs to
// the context that was current when it was loaded. HIP has a current device
// per thread instead of contexts: a DeviceScope makes its device current and
// restores the thread's, and a Module belongs to the device it was loaded on.
#ifndef TERRAZZO_RUNTIME_H
#define TERRAZZO_RUNTIME_H

#include "terrazzo/TensorMap.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#ifndef TERRAZZO_API
#define TERRAZZO_API __attribute__((visibility("default")))
#endif

namespace terrazzo::runtime {

//===----------------------------------------------------------------------===//
// Status and Result
//===----------------------------------------------------------------------===//

/// Success, or an error with a message. The message is empty exactly when the
/// status is a success.
struct [[nodiscard]] Status {
  std::string message;

  bool ok() const { return message.empty(); }

  static Status success() { return Status(); }
  /// An error; an empty `message` becomes "unknown error" so that the result
  /// never reads as a success.
  static Status error(std::string message) {
    Status status;
    status.message =
        message.empty() ? std::string("unknown error") : std::move(message);
    return status;
  }
};

/// A value, valid when `status.ok()`, or an error.
template <typename T> struct [[nodiscard]] Result {
  T value{};
  Status status;

  bool ok() const { return status.ok(); }

  static Result success(T value) {
    Result result;
    result.value = std::move(value);
    return result;
  }
  static Result error(Status status) {
    Result result;
    result.status = std::move(status);
    return result;
  }
};

//===----------------------------------------------------------------------===//
// Platforms
//===----------------------------------------------------------------------===//

/// The GPU platforms the runtime drives, each through its vendor's driver.
enum class Platform {
  Cuda, ///< NVIDIA: the CUDA driver API (libcuda.so.1)
  Hip,  ///< AMD: HIP (libamdhip64.so)
};

/// "cuda" or "hip": the vendor part of the targets the platform runs.
TERRAZZO_API const char *platformName(Platform platform);

/// The platform that runs kernels compiled for `target`: CUDA for "cuda:*",
/// HIP for "hip:*"; an error naming the target for anything else.
TERRAZZO_API Result<Platform> platformOfTarget(const std::string &target);

/// The platform of this machine's GPUs: CUDA when its driver loads and reports
/// a device, else HIP when its driver does, else CUDA (whose initialize() says
/// why there is none). Asked once per process.
TERRAZZO_API Platform defaultPlatform();

//===----------------------------------------------------------------------===//
// Driver loading and devices
//===----------------------------------------------------------------------===//

/// Loads the platform's driver, resolves the entry points the runtime uses
/// and initializes it. CUDA: the library is the path in the environment
/// variable TERRAZZO_LIBCUDA if set, else "libcuda.so.1"; cuInit(0) runs and,
/// if the calling thread has no current context, the primary context of
/// device 0 becomes current. HIP: the path in TERRAZZO_HIP_LIBRARY if set,
/// else the first of "libamdhip64.so", "libamdhip64.so.6" and
/// "libamdhip64.so.5" that loads; hipInit(0) runs.
///
/// Runs once per process and platform: later calls, from any thread, return
/// the first call's result (a failure is not retried). Every other function
/// here calls it, so calling it first is optional.
TERRAZZO_API Status initialize(Platform platform = Platform::Cuda);

/// True when initialize() succeeds and the driver reports at least one device.
/// Never fails loudly: a machine without a driver or GPU simply gives false.
TERRAZZO_API bool isAvailable(Platform platform = Platform::Cuda);

/// The driver's version, e.g. 12080 for CUDA 12.8 (cuDriverGetVersion,
/// hipDriverGetVersion).
TERRAZZO_API Result<int> driverVersion(Platform platform = Platform::Cuda);

/// Number of devices (cuDeviceGetCount, hipGetDeviceCount).
TERRAZZO_API Result<int> deviceCount(Platform platform = Platform::Cuda);

/// The calling thread's current device: CUDA, the device of its current
/// context (after making the runtime's default context current if the thread
/// had none); HIP, hipGetDevice.
TERRAZZO_API Result<int> currentDevice(Platform platform = Platform::Cuda);

/// Makes device `ordinal` current on the calling thread (CUDA: its primary
/// context).
TERRAZZO_API Status setCurrentDevice(int ordinal,
                                     Platform platform = Platform::Cuda);

struct DeviceProperties {
  int ordinal = 0;
  Platform platform = Platform::Cuda;
  std::string name;
  /// The compiler's target for the device: "cuda:90", "hip:gfx942".
  std::string target;
  /// The driver's name of the architecture: "sm_90"; HIP's gcnArchName,
  /// features included ("gfx942:sramecc+:xnack-").
  std::string architecture;
  int computeCapabilityMajor = 0; ///< e.g. 9 for an H100 (sm_90)
  int computeCapabilityMinor = 0; ///< e.g. 0 for an H100 (sm_90)
  int multiprocessorCount = 0;
  int maxThreadsPerBlock = 0;
  int warpSize = 0;
  /// Shared memory a block may use without opting in (usually 48 KiB).
  int maxSharedMemoryPerBlock = 0;
  /// Shared memory a block may use once the kernel opts in with
  /// Function::setMaxDynamicSharedMemory (227 KiB on an H100).
  int maxSharedMemoryPerBlockOptin = 0;
  /// 32-bit registers a block may use (the register file a block sees).
  int maxRegistersPerBlock = 0;
  int maxThreadsPerMultiprocessor = 0;
  int clockRateKHz = 0;       ///< peak multiprocessor clock
  int memoryClockRateKHz = 0; ///< peak memory clock
  int memoryBusWidthBits = 0; ///< global memory bus width
  std::size_t totalMemoryBytes = 0;
};

/// The device whose memory `address` points into
/// (cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL), HIP's
/// hipPointerGetAttribute likewise); an error for an address the driver does
/// not know, such as ordinary host memory or an integer that is no address.
TERRAZZO_API Result<int> pointerDevice(std::uint64_t address,
                                       Platform platform = Platform::Cuda);

/// Whether kernels can access the memory at `address`
/// (cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_DEVICE_POINTER) succeeds):
/// device memory and pinned host memory, not pageable host memory. An
/// error only when no context can be made current.
TERRAZZO_API Result<bool> deviceCanAccess(std::uint64_t address,
                                          Platform platform = Platform::Cuda);

/// Makes a context of one device current on the calling thread for the
/// scope's lifetime and restores the thread's previous context (none
/// included) when the scope ends:
///
///   DeviceScope scope;
///   if (Status status = scope.enter(1); !status.ok()) ...
///   ... driver calls on device 1 (load, launch) ...
///
/// The thread's current context is kept when it already belongs to that
/// device (PyTorch's, or an application's own context), so nothing is
/// switched in the common case of a launch on the current device; otherwise
/// the device's primary context (the one the CUDA runtime and PyTorch use)
/// becomes current. On HIP the scope makes the device current and restores
/// the thread's current device. Not copyable or movable: it restores on the
/// thread that entered it.
class TERRAZZO_API DeviceScope {
public:
  DeviceScope() = default;
  ~DeviceScope();
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;

  /// Makes a context of device `ordinal` current, or, for a negative
  /// ordinal, keeps the thread's current context (making the runtime's
  /// default context current on a thread that has none). Call it once per
  /// scope.
  Status enter(int ordinal, Platform platform = Platform::Cuda);

  /// The context in use after a successful enter() (a CUcontext; on HIP a
  /// token of the device): modules loaded while the scope is entered belong
  /// to it.
  void *context() const { return context_; }
  /// True when enter() made another context current (restored at the end).
  bool switched() const { return switched_; }

private:
  void *context_ = nullptr;
  void *previous_ = nullptr;
  bool switched_ = false;
  Platform platform_ = Platform::Cuda;
};

/// Properties of device `ordinal` (cuDeviceGetName, cuDeviceGetAttribute,
/// cuDeviceTotalMem; HIP's hipDeviceGetName, hipDeviceGetAttribute,
/// hipDeviceTotalMem and hipGetDeviceProperties for the architecture).
TERRAZZO_API Result<DeviceProperties>
getDeviceProperties(int ordinal, Platform platform = Platform::Cuda);

/// Blocks until all work on the current context (HIP: device) has finished
/// (cuCtxSynchronize, hipDeviceSynchronize). Errors of kernels that faulted
/// asynchronously surface here.
TERRAZZO_API Status synchronize(Platform platform = Platform::Cuda);

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// How a launch asks the driver to run a grid beyond its dimensions.
struct LaunchAttributes {
  /// All programs resident at once, or the launch fails (CUDA's
  /// cooperative launch, hipModuleLaunchCooperativeKernel), so that they may
  /// wait for each other.
  bool cooperative = false;
  /// CUDA on sm_90 and later: the grid may start before the previous
  /// kernel on the stream has finished, once every program of that kernel
  /// has executed griddepcontrol.launch_dependents or exited; it waits for
  /// that kernel's memory with griddepcontrol.wait (programmatic dependent
  /// launch). HIP has no such launch: there it launches as usual.
  bool programmaticDependentLaunch = false;
  /// CUDA on sm_90 and later: the grid (in CTAs, a multiple of these) runs
  /// as thread-block clusters of clusterX x clusterY x clusterZ CTAs,
  /// co-scheduled on one GPC, which may read and write each other's shared
  /// memory and meet at cluster barriers. {1, 1, 1}: no clusters. HIP has
  /// no clusters: a launch asking for them fails.
  unsigned clusterX = 1, clusterY = 1, clusterZ = 1;

  bool clustered() const {
    return clusterX != 1 || clusterY != 1 || clusterZ != 1;
  }
  bool any() const {
    return cooperative || programmaticDependentLaunch || clustered();
  }
};

/// A kernel of a loaded module: a cheap, copyable handle. It is valid only
/// while the Module it came from is alive.
class TERRAZZO_API Function {
public:
  Function() = default;

  bool valid() const { return handle_ != nullptr; }
  /// The kernel's symbol name.
  const std::string &name() const { return name_; }
  /// The driver's CUfunction or hipFunction_t.
  void *handle() const { return handle_; }
  Platform platform() const { return platform_; }

  /// Allows launches with up to `bytes` of dynamic shared memory
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
  /// hipFuncAttributeMaxDynamicSharedMemorySize).
  Status setMaxDynamicSharedMemory(int bytes) const;

  /// Makes launches with `bytes` of dynamic shared memory possible: opts in
  /// (setMaxDynamicSharedMemory) when that is more than the platform lets
  /// every kernel use (48 KiB on CUDA, 64 KiB on HIP), and does nothing
  /// otherwise. What a loader calls with a kernel's shared-memory size.
  Status reserveDynamicSharedMemory(int bytes) const;

  /// Registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS).
  Result<int> numRegisters() const;

  struct Attributes {
    int numRegisters = 0;
    int maxThreadsPerBlock = 0;
    int staticSharedBytes = 0;
    int localBytes = 0; ///< per-thread local memory, e.g. register spills
    int maxDynamicSharedBytes = 0;
  };
  /// All of the attributes above (cuFuncGetAttribute).
  Result<Attributes> attributes() const;

  /// Launches the kernel (cuLaunchKernel, hipModuleLaunchKernel; with
  /// `attributes`, cuLaunchKernelEx or hipModuleLaunchCooperativeKernel) on
  /// `stream` (a CUstream or hipStream_t; nullptr for the default stream).
  /// `kernelParams` points at one pointer per kernel parameter, each
  /// pointing at that parameter's value. The launch is asynchronous: faults
  /// inside the kernel surface at the next synchronizing call.
  Status launch(unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                void *stream, void **kernelParams,
                LaunchAttributes attributes = {}) const;

private:
  friend class Module;
  Function(void *handle, std::string name, Platform platform)
      : handle_(handle), name_(std::move(name)), platform_(platform) {}

  void *handle_ = nullptr;
  std::string name_;
  Platform platform_ = Platform::Cuda;
};

/// A loaded GPU module (cuModuleLoadDataEx / cuModuleUnload, hipModuleLoadData
/// / hipModuleUnload). Move-only; the module is unloaded when the object is
/// destroyed.
class TERRAZZO_API Module {
public:
  Module() = default;
  ~Module();
  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// Loads a cubin (an ELF image), a fatbin, or PTX text of `size` bytes
  /// into the calling thread's current context (see DeviceScope). PTX need
  /// not be NUL-terminated. A failure to compile PTX carries the driver's
  /// JIT error log in the message. On HIP: an hsaco (code object) for the
  /// current device's architecture, loaded on the current device.
  static Result<Module> load(const void *image, std::size_t size,
                             Platform platform = Platform::Cuda);

  /// The kernel named `name` (cuModuleGetFunction, hipModuleGetFunction);
  /// the error names it.
  Result<Function> getFunction(const std::string &name) const;

  bool valid() const { return handle_ != nullptr; }
  /// The driver's CUmodule or hipModule_t.
  void *handle() const { return handle_; }
  /// The context the module was loaded into (a CUcontext; on HIP the
  /// device's token, as DeviceScope::context()); it is unloaded there too.
  void *context() const { return context_; }
  Platform platform() const { return platform_; }

private:
  void reset();

  void *handle_ = nullptr;
  void *context_ = nullptr;
  Platform platform_ = Platform::Cuda;
};

//===----------------------------------------------------------------------===//
// Tensor maps (TMA, CUDA sm_90)
//===----------------------------------------------------------------------===//

/// The bytes of a tensor map (CUtensorMap) and their alignment in host
/// memory (terrazzo/TensorMap.h, which the compiler reads too).
using ::terrazzo::kTensorMapAlignment;
using ::terrazzo::kTensorMapBytes;

/// A tiled tensor map as cuTensorMapEncodeTiled takes it: the tensor at
/// `address` of `rank` dimensions (1 to 5), numbered from the innermost,
/// with `dims[d]` elements of `elementBytes` bytes (1, 2, 4 or 8) and, for
/// d >= 1, `strides[d]` bytes from one index of dimension d to the next
/// (strides[0] is the element); copied in boxes of `box[d]` elements whose
/// rows are swizzled in `swizzleBytes` bytes (0, 32, 64 or 128).
/// Out-of-bounds elements read as zero.
struct TensorMapDescription {
  unsigned rank = 0;
  std::uint64_t address = 0;
  std::uint64_t dims[5] = {};
  std::uint64_t strides[5] = {};
  std::uint32_t box[5] = {};
  unsigned elementBytes = 0;
  unsigned swizzleBytes = 0;
};

/// Encodes `map` into the kTensorMapBytes bytes at `out` (aligned to
/// kTensorMapAlignment): host memory, no device or context involved. An
/// error names cuTensorMapEncodeTiled and the driver's message, or says
/// that the platform has no tensor maps (HIP) or the driver no such call.
TERRAZZO_API Status encodeTensorMap(const TensorMapDescription &map, void *out,
                                    Platform platform = Platform::Cuda);

//===----------------------------------------------------------------------===//
// Memory, streams and timing (for tests and benchmarks)
//===----------------------------------------------------------------------===//

/// Device memory (cuMemAlloc / cuMemFree, hipMalloc / hipFree). Move-only.
/// Copies are synchronous.
class TERRAZZO_API DeviceBuffer {
public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// Allocates `bytes` bytes (uninitialized). Zero bytes gives an empty buffer
  /// whose device pointer is 0.
  static Result<DeviceBuffer> allocate(std::size_t bytes,
                                       Platform platform = Platform::Cuda);

  std::size_t size() const { return size_; }
  Platform platform() const { return platform_; }
  /// The device address, to pass as a kernel argument.
  std::uint64_t devicePointer() const { return pointer_; }

  /// Copies `bytes` bytes (at most size()) from host memory to the start of
  /// the buffer.
  Status copyFromHost(const void *source, std::size_t bytes);
  /// Copies `bytes` bytes (at most size()) from the start of the buffer to
  /// host memory.
  Status copyToHost(void *destination, std::size_t bytes) const;
  /// Copies all of `source` (at most size() bytes) to the start of this
  /// buffer, device to device.
  Status copyFrom(const DeviceBuffer &source);
  /// Sets every byte of the buffer to `value` (cuMemsetD8, hipMemsetD8).
  Status fill(std::uint8_t value);

private:
  void reset();

  std::uint64_t pointer_ = 0;
  std::size_t size_ = 0;
  Platform platform_ = Platform::Cuda;
};

/// A stream (cuStreamCreate / cuStreamDestroy, hipStreamCreateWithFlags /
/// hipStreamDestroy). Move-only.
class TERRAZZO_API Stream {
public:
  Stream() = default;
  ~Stream();
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  /// A new stream; `nonBlocking` streams do not synchronize with the default
  /// stream.
  static Result<Stream> create(bool nonBlocking = false,
                               Platform platform = Platform::Cuda);

  /// The CUstream or hipStream_t, for Function::launch and EventTimer.
  void *handle() const { return handle_; }
  Platform platform() const { return platform_; }
  Status synchronize() const;

private:
  void reset();

  void *handle_ = nullptr;
  Platform platform_ = Platform::Cuda;
};

/// Times a region of work on a stream with a pair of events:
///   timer.start(stream); ...launches...; timer.stop(stream);
///   Result<float> ms = timer.elapsedMilliseconds();
/// Move-only.
class TERRAZZO_API EventTimer {
public:
  EventTimer() = default;
  ~EventTimer();
  EventTimer(EventTimer &&other) noexcept;
  EventTimer &operator=(EventTimer &&other) noexcept;
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;

  static Result<EventTimer> create(Platform platform = Platform::Cuda);

  /// Records the start event on `stream` (nullptr: the default stream).
  Status start(void *stream = nullptr);
  /// Records the stop event on `stream` (nullptr: the default stream).
  Status stop(void *stream = nullptr);
  /// Waits for the stop event and returns the time between the two events
  /// in milliseconds (cuEventElapsedTime, hipEventElapsedTime).
  Result<float> elapsedMilliseconds() const;

private:
  void reset();

  void *start_ = nullptr;
  void *stop_ = nullptr;
  Platform platform_ = Platform::Cuda;
};

} // namespace terrazzo::runtime

#endif // TERRAZZO_RUNTIME_H
