// terrazzo._C.Kernel: a compiled kernel that launches itself.
//
// Holds the binary (cubin or PTX for a cuda:* target, hsaco for hip:*) and
// loads it on the first launch with the runtime's driver of its target's
// platform (CUDA or HIP), so a Kernel can be created, cached and inspected on
// a machine without a GPU. In dry-run mode (TERRAZZO_DRY_LAUNCH=1 when the module was
// imported, or `kernel.dry_run = True`) a launch does everything but the
// driver call: the arguments are converted and packed, and the packed values
// are kept for last_launch(), so the host-side cost can be measured and
// tested anywhere.
//
// Devices: a launch runs on the device of its pointer arguments (the first
// one that names a device decides; the others must agree), with the binary
// loaded once per context, so one Kernel serves every GPU of the process.
// With a single GPU nothing of this costs anything: no argument's device is
// looked at and the launch runs in the current context.
#ifndef TERRAZZO_PYTHON_KERNEL_H
#define TERRAZZO_PYTHON_KERNEL_H

#include "ArgumentPacking.h"
#include "terrazzo/Compiler.h"
#include "terrazzo/Runtime.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace terrazzo::python {

/// A launch on the current device: no argument named one.
inline constexpr int kCurrentDevice = -1;

/// The platform whose devices the process launches on (runtime's
/// defaultPlatform): where launches look for their arguments' devices and
/// the current device.
runtime::Platform devicePlatform();

/// True when the process sees more than one GPU (asked once). False
/// without a driver, with one device, and in dry-run mode
/// (TERRAZZO_DRY_LAUNCH), where launches never reach a device: then every
/// launch runs on the current device and no argument's device is read.
bool multipleDevices();

/// Finds the device of a launch from its pointer arguments: a torch
/// tensor's get_device(), a DLPack producer's device, else the driver's
/// answer for the address (__cuda_array_interface__ and other objects with
/// data_ptr()). None, integer addresses and host tensors name no device.
/// The first argument that names a device decides; one on another device
/// raises ValueError naming both arguments.
class LaunchDevice {
public:
  explicit LaunchDevice(const std::string &kernelName)
      : kernelName_(kernelName) {}

  /// Notes the device of argument `object`, extracted as `value`; checks
  /// it as requireAccessible does.
  void add(PyObject *object, const ArgValue &value, const ParamRef &who);
  /// Raises ValueError naming the argument when `object` says it is in host
  /// memory (a tensor whose get_device() is negative, a CPU torch tensor)
  /// that the driver does not know: pageable memory, which a kernel cannot
  /// read (pinned memory it can). Nothing is asked of other objects.
  void requireAccessible(PyObject *object, const ArgValue &value,
                         const ParamRef &who) const;
  /// The device found, or kCurrentDevice.
  int device() const { return device_; }

private:
  const std::string &kernelName_;
  int device_ = kCurrentDevice;
  ParamRef first_{0, nullptr};
};

class Kernel {
public:
  Kernel(std::string binary, std::string name, int threadsPerBlock,
         int sharedMemoryBytes, std::string signature, bool dryRun,
         int globalScratchBytes = 0,
         runtime::Platform platform = runtime::Platform::Cuda,
         std::vector<HostTensorMap> hostTensorMaps = {},
         runtime::LaunchAttributes launchAttributes = {});

  const std::string &name() const { return name_; }
  const std::string &signature() const { return signature_; }
  const std::string &binary() const { return binary_; }
  int threadsPerBlock() const { return threadsPerBlock_; }
  /// The platform whose driver loads and launches the binary.
  runtime::Platform platform() const { return platform_; }
  int sharedMemoryBytes() const { return sharedMemoryBytes_; }
  /// Global scratch per program instance (tensor maps of TMA descriptors):
  /// when nonzero, a launch passes one more parameter, a pointer to that
  /// many bytes per program instance (GlobalScratch.h).
  int globalScratchBytes() const { return globalScratchBytes_; }
  /// Tensor maps passed after the parameters (before the global scratch),
  /// as the compiler's metadata describes them: extents and strides name
  /// parameters by their index among those the signature does not skip.
  const std::vector<HostTensorMap> &hostTensorMaps() const {
    return hostTensorMaps_;
  }
  /// How every launch of the kernel asks the driver to run it (Triton's
  /// launch_cooperative_grid and launch_pdl).
  const runtime::LaunchAttributes &launchAttributes() const {
    return launchAttributes_;
  }
  /// Number of parameters the kernel really has (signature without '-').
  std::size_t numKernelParams() const { return paramKinds_.size(); }
  /// Whether the binary is loaded in at least one context.
  bool loaded() const {
    return numLoaded_.load(std::memory_order_acquire) > 0;
  }
  ~Kernel();

  bool dryRun = false;
  std::uint64_t launchCount = 0;

  /// Launches on device `device` (kCurrentDevice: the current context's) and
  /// `stream`, a stream of that device, with `params[k]` pointing at
  /// `slots[k]`, one per kernel parameter. The device's context is current
  /// for the driver calls and the thread's own context is restored after
  /// them. Loads the module in that context first if needed. Releases the
  /// GIL around the driver calls; driver errors throw std::runtime_error (a
  /// Python RuntimeError) with the runtime's message. A grid with a zero
  /// dimension launches nothing. Must be called with the GIL held.
  void launch(int device, const unsigned grid[3], std::uintptr_t stream,
              const Slot *slots, void **params);

  /// The last dry-run launch, as {"grid", "stream", "args"}; None before
  /// the first.
  py::object lastLaunch() const;

private:
  /// The binary loaded in one context.
  struct Loaded {
    void *context = nullptr;
    runtime::Module module;
    runtime::Function function;
  };
  /// Contexts a Kernel can be loaded in (one per device, usually).
  static constexpr int kMaxContexts = 64;

  /// The binary loaded in `context` (the current one), loading it there on
  /// the first call. Thread-safe; lock-free once loaded.
  runtime::Status ensureLoaded(void *context, const Loaded *&loaded);

  std::string binary_;
  std::string name_;
  int threadsPerBlock_;
  int sharedMemoryBytes_;
  int globalScratchBytes_ = 0;
  runtime::Platform platform_ = runtime::Platform::Cuda;
  std::string signature_;
  /// The signature's characters of the parameters ('-' left out).
  std::string paramKinds_;
  std::vector<HostTensorMap> hostTensorMaps_;
  runtime::LaunchAttributes launchAttributes_;

  /// The tensor map of `recipe` for parameters `slots`, in the
  /// driver's terms. An empty tensor (an extent of 0, which a tensor map
  /// cannot describe) is described as one element at `emptyAddress`
  /// (zeros, or the place stores may write), whose other elements all lie
  /// out of bounds; `empty` says so.
  runtime::TensorMapDescription describeMap(const HostTensorMap &recipe,
                                            const Slot *slots,
                                            bool &empty) const;

  std::mutex loadMutex_;
  /// loaded_[0, numLoaded_) are published (release) and never removed.
  std::atomic<Loaded *> loaded_[kMaxContexts] = {};
  std::atomic<int> numLoaded_{0};

  bool haveLast_ = false;
  unsigned lastGrid_[3] = {0, 0, 0};
  std::uintptr_t lastStream_ = 0;
  std::vector<Slot> lastSlots_;
  std::vector<runtime::TensorMapDescription> lastMaps_;
  std::vector<bool> lastEmpty_;
};

} // namespace terrazzo::python

#endif // TERRAZZO_PYTHON_KERNEL_H
