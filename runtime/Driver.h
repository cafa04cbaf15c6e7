// The runtime's internal view of a GPU driver (DESIGN.md §6): one interface,
// Driver, implemented once per vendor (CudaDriver.cpp over libcuda,
// HipDriver.cpp over libamdhip64), which the public classes of
// include/terrazzo/Runtime.h call through driverFor(platform). What is the same
// for every vendor (argument checks, the text of error messages around the
// driver's own) stays in the public classes; what names a driver call stays
// behind the interface. Not installed; used by the runtime's .cpp files only.
#ifndef TERRAZZO_RUNTIME_DRIVER_H
#define TERRAZZO_RUNTIME_DRIVER_H

#include "terrazzo/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace terrazzo::runtime::detail {

/// A driver call that failed: its name ("cuMemAlloc", "hipMalloc") and the
/// driver's result code. `call` is null when nothing failed, so a Call
/// converts to true exactly on failure.
struct Call {
  const char *call = nullptr;
  int code = 0;

  explicit operator bool() const { return call != nullptr; }
};

/// The attributes of a kernel that Function reads.
enum class FunctionAttribute {
  NumRegisters,
  MaxThreadsPerBlock,
  StaticSharedBytes,
  LocalBytes,
  MaxDynamicSharedBytes,
};

/// One vendor's driver. Handles (modules, functions, streams, events,
/// contexts) cross the interface as `void *`, device memory as an integer.
/// The loading and device methods initialize the driver themselves; the
/// others (modules, kernels, memory, streams, events) expect ensureContext()
/// to have succeeded on the calling thread, which the public classes see to.
class Driver {
public:
  virtual ~Driver() = default;

  virtual Platform platform() const = 0;

  /// "<call> failed[ <what>]: <describe(code)>".
  Status error(const Call &failed, const std::string &what = {}) const;
  /// The driver's name and text of a result code, "NAME (text)".
  virtual std::string describe(int code) const = 0;

  // --- Loading and devices --------------------------------------------------

  /// Loads and initializes the driver once per process; later calls return
  /// the first call's result.
  virtual Status initialize() = 0;
  /// initialize(), then whatever the calling thread needs before other calls
  /// (CUDA: a current context). Cheap after the first call on a thread.
  virtual Status ensureContext() = 0;
  virtual Result<int> driverVersion() = 0;
  virtual Result<int> deviceCount() = 0;
  virtual Result<int> currentDevice() = 0;
  virtual Status setCurrentDevice(int ordinal) = 0;
  virtual Result<int> pointerDevice(std::uint64_t address) = 0;
  virtual Result<bool> deviceCanAccess(std::uint64_t address) = 0;
  virtual Result<DeviceProperties> deviceProperties(int ordinal) = 0;
  virtual Status synchronize() = 0;

  /// What DeviceScope keeps: the context (CUDA) or device token (HIP) in use,
  /// and what to restore when `switched`.
  struct Scope {
    void *context = nullptr;
    void *previous = nullptr;
    bool switched = false;
  };
  /// Makes device `ordinal` current (negative: keeps the current one).
  virtual Status enterDevice(int ordinal, Scope &scope) = 0;
  /// Restores what enterDevice switched away from.
  virtual void leaveDevice(void *previous) = 0;

  // --- Modules and kernels --------------------------------------------------

  struct LoadedModule {
    void *handle = nullptr;
    void *context = nullptr; ///< where it was loaded and is unloaded
  };
  /// Loads a binary into the current context (device); the error names the
  /// call and says what the image was.
  virtual Result<LoadedModule> loadModule(const void *image,
                                          std::size_t size) = 0;
  /// Unloads in the module's own context; failures cannot be reported.
  virtual void unloadModule(const LoadedModule &module) = 0;
  virtual Call getFunction(void *module, const char *name,
                           void *&function) = 0;
  virtual Status getAttribute(void *function, FunctionAttribute attribute,
                              const std::string &kernelName, int &value) = 0;
  virtual Status setMaxDynamicSharedMemory(void *function, int bytes,
                                           const std::string &kernelName) = 0;
  /// Dynamic shared memory every kernel may use without opting in.
  virtual int defaultDynamicSharedMemoryLimit() const = 0;
  virtual Call launch(void *function, unsigned gridX, unsigned gridY,
                      unsigned gridZ, unsigned blockX, unsigned blockY,
                      unsigned blockZ, unsigned sharedBytes, void *stream,
                      void **kernelParams,
                      const LaunchAttributes &attributes) = 0;

  /// Encodes a tensor map in host memory (TensorMapDescription).
  virtual Status encodeTensorMap(const TensorMapDescription &map,
                                 void *out) = 0;
  // --- Memory, streams and events -------------------------------------------

  virtual Call allocate(std::size_t bytes, std::uint64_t &pointer) = 0;
  virtual void free(std::uint64_t pointer) = 0;
  virtual Call copyHostToDevice(std::uint64_t destination, const void *source,
                                std::size_t bytes) = 0;
  virtual Call copyDeviceToHost(void *destination, std::uint64_t source,
                                std::size_t bytes) = 0;
  virtual Call copyDeviceToDevice(std::uint64_t destination,
                                  std::uint64_t source, std::size_t bytes) = 0;
  virtual Call fill(std::uint64_t destination, std::uint8_t value,
                    std::size_t bytes) = 0;

  virtual Call createStream(bool nonBlocking, void *&stream) = 0;
  virtual void destroyStream(void *stream) = 0;
  virtual Call synchronizeStream(void *stream) = 0;

  virtual Call createEvent(void *&event) = 0;
  virtual void destroyEvent(void *event) = 0;
  virtual Call recordEvent(void *event, void *stream) = 0;
  virtual Call synchronizeEvent(void *event) = 0;
  virtual Call elapsedMilliseconds(void *start, void *stop,
                                   float &milliseconds) = 0;
};

/// The driver of `platform` (process-wide, never destroyed).
Driver &driverFor(Platform platform);

/// Each vendor's driver (CudaDriver.cpp, HipDriver.cpp).
Driver &cudaDriver();
Driver &hipDriver();

/// Opens the first of `names` that dlopen can load, or the path in the
/// environment variable `variable` when it is set. On failure the error
/// names every path tried, dlopen's reason, and `hint` (what to install);
/// `path` is the library's name as opened.
Status openLibrary(const char *variable,
                   std::initializer_list<const char *> names,
                   const char *hint, void *&library, std::string &path);

/// Resolves the first of `names` that `library` exports into `slot`; on
/// failure appends the names to `missing` ("a, b or c").
bool resolveSymbol(void *library, void *&slot,
                   std::initializer_list<const char *> names,
                   std::string &missing);

template <typename F>
bool resolve(void *library, F &slot, std::initializer_list<const char *> names,
             std::string &missing) {
  void *symbol = nullptr;
  bool found = resolveSymbol(library, symbol, names, missing);
  slot = reinterpret_cast<F>(symbol);
  return found;
}

/// "dlsym failed: the <vendor> driver library '<path>' has no symbol
/// <missing>".
Status missingSymbols(const char *vendor, const std::string &path,
                      const std::string &missing);

/// "0x1f00": an address for messages.
std::string hexAddress(std::uint64_t address);

} // namespace terrazzo::runtime::detail

#endif // TERRAZZO_RUNTIME_DRIVER_H
