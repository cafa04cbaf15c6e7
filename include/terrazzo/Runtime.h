// Terrazzo's GPU runtime (DESIGN.md §6).
//
// Loads GPU binaries (cubin or PTX) and launches kernels through the CUDA
// driver API. The driver is loaded with dlopen at run time, so the library
// builds and links without a CUDA toolkit, and a process that never touches a
// GPU never needs one. This header includes no CUDA, LLVM or MLIR header: driver
// handles (streams, raw kernel handles) cross it as `void *`.
//
// Errors come back as values (the project builds with -fno-exceptions): every
// fallible call returns a Status or a Result<T>, whose message names the
// driver call that failed and the driver's own error name and text, e.g.
//   cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation
//   failed)
//
// Contexts: initialize() makes the primary context of device 0 current when
// no context is current (a framework such as PyTorch that already made one
// current keeps it), and every call that needs a context makes that same
// context current on threads that have none, so kernels may be launched from
// any thread. A launch on another device than the current one goes through a
// DeviceScope, which makes a context of that device current for the driver
// calls and restores the thread's context after them; a Module belongs to
// the context that was current when it was loaded.
#ifndef TERRAZZO_RUNTIME_H
#define TERRAZZO_RUNTIME_H

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
// Driver loading and devices
//===----------------------------------------------------------------------===//

/// Loads the CUDA driver (the path in the environment variable
/// TERRAZZO_LIBCUDA if set, else "libcuda.so.1"), resolves the entry points
/// the runtime uses, calls cuInit(0) and, if the calling thread has no current
/// context, makes the primary context of device 0 current.
///
/// Runs once per process: later calls, from any thread, return the first
/// call's result (a failure is not retried). Every other function here calls
/// it, so calling it first is optional.
TERRAZZO_API Status initialize();

/// True when initialize() succeeds and the driver reports at least one device.
/// Never fails loudly: a machine without a driver or GPU simply gives false.
TERRAZZO_API bool isAvailable();

/// The driver's CUDA version, e.g. 12080 for CUDA 12.8 (cuDriverGetVersion).
TERRAZZO_API Result<int> driverVersion();

/// Number of CUDA devices (cuDeviceGetCount).
TERRAZZO_API Result<int> deviceCount();

/// The device of the calling thread's current context (after making the
/// runtime's default context current if the thread had none).
TERRAZZO_API Result<int> currentDevice();

/// Makes the primary context of device `ordinal` current on the calling thread.
TERRAZZO_API Status setCurrentDevice(int ordinal);

struct DeviceProperties {
  int ordinal = 0;
  std::string name;
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
  std::size_t totalMemoryBytes = 0;
};

/// The device whose memory `address` points into
/// (cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)); an error for
/// an address the driver does not know, such as ordinary host memory or an
/// integer that is no address.
TERRAZZO_API Result<int> pointerDevice(std::uint64_t address);

/// Whether kernels can access the memory at `address`
/// (cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_DEVICE_POINTER) succeeds):
/// device memory and pinned host memory, not pageable host memory. An
/// error only when no context can be made current.
TERRAZZO_API Result<bool> deviceCanAccess(std::uint64_t address);

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
/// becomes current. Not copyable or movable: it restores on the thread that
/// entered it.
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
  Status enter(int ordinal);

  /// The context in use after a successful enter() (a CUcontext): modules
  /// loaded while the scope is entered belong to it.
  void *context() const { return context_; }
  /// True when enter() made another context current (restored at the end).
  bool switched() const { return switched_; }

private:
  void *context_ = nullptr;
  void *previous_ = nullptr;
  bool switched_ = false;
};

/// Properties of device `ordinal` (cuDeviceGetName, cuDeviceGetAttribute,
/// cuDeviceTotalMem).
TERRAZZO_API Result<DeviceProperties> getDeviceProperties(int ordinal);

/// Blocks until all work on the current context has finished
/// (cuCtxSynchronize). Errors of kernels that faulted asynchronously surface
/// here.
TERRAZZO_API Status synchronize();

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// A kernel of a loaded module: a cheap, copyable handle. It is valid only
/// while the Module it came from is alive.
class TERRAZZO_API Function {
public:
  Function() = default;

  bool valid() const { return handle_ != nullptr; }
  /// The kernel's symbol name.
  const std::string &name() const { return name_; }
  /// The driver's CUfunction.
  void *handle() const { return handle_; }

  /// Allows launches with up to `bytes` of dynamic shared memory
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); needed above 48 KiB.
  Status setMaxDynamicSharedMemory(int bytes) const;

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

  /// Launches the kernel (cuLaunchKernel) on `stream` (a CUstream; nullptr for
  /// the default stream). `kernelParams` points at one pointer per kernel
  /// parameter, each pointing at that parameter's value. The launch is
  /// asynchronous: faults inside the kernel surface at the next synchronizing
  /// call.
  Status launch(unsigned gridX, unsigned gridY, unsigned gridZ,
                unsigned blockX, unsigned blockY, unsigned blockZ,
                unsigned sharedBytes, void *stream,
                void **kernelParams) const;

private:
  friend class Module;
  Function(void *handle, std::string name)
      : handle_(handle), name_(std::move(name)) {}

  void *handle_ = nullptr;
  std::string name_;
};

/// A loaded GPU module (cuModuleLoadDataEx / cuModuleUnload). Move-only; the
/// module is unloaded when the object is destroyed.
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
  /// JIT error log in the message.
  static Result<Module> load(const void *image, std::size_t size);

  /// The kernel named `name` (cuModuleGetFunction); the error names it.
  Result<Function> getFunction(const std::string &name) const;

  bool valid() const { return handle_ != nullptr; }
  /// The driver's CUmodule.
  void *handle() const { return handle_; }
  /// The context the module was loaded into (a CUcontext); it is unloaded
  /// there too.
  void *context() const { return context_; }

private:
  void reset();

  void *handle_ = nullptr;
  void *context_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Memory, streams and timing (for tests and benchmarks)
//===----------------------------------------------------------------------===//

/// Device memory (cuMemAlloc / cuMemFree). Move-only. Copies are synchronous.
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
  static Result<DeviceBuffer> allocate(std::size_t bytes);

  std::size_t size() const { return size_; }
  /// The CUdeviceptr, to pass as a kernel argument.
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
  /// Sets every byte of the buffer to `value` (cuMemsetD8).
  Status fill(std::uint8_t value);

private:
  void reset();

  std::uint64_t pointer_ = 0;
  std::size_t size_ = 0;
};

/// A CUDA stream (cuStreamCreate / cuStreamDestroy). Move-only.
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
  static Result<Stream> create(bool nonBlocking = false);

  /// The CUstream, for Function::launch and EventTimer.
  void *handle() const { return handle_; }
  Status synchronize() const;

private:
  void reset();

  void *handle_ = nullptr;
};

/// Times a region of work on a stream with a pair of CUDA events:
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

  static Result<EventTimer> create();

  /// Records the start event on `stream` (nullptr: the default stream).
  Status start(void *stream = nullptr);
  /// Records the stop event on `stream` (nullptr: the default stream).
  Status stop(void *stream = nullptr);
  /// Waits for the stop event and returns the time between the two events
  /// in milliseconds (cuEventElapsedTime).
  Result<float> elapsedMilliseconds() const;

private:
  void reset();

  void *start_ = nullptr;
  void *stop_ = nullptr;
};

} // namespace terrazzo::runtime

#endif // TERRAZZO_RUNTIME_H
