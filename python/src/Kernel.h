// terrazzo._C.Kernel: a compiled kernel that launches itself.
//
// Holds the binary (cubin or PTX) and loads it with the runtime on the first
// launch, so a Kernel can be created, cached and inspected on a machine
// without a GPU. In dry-run mode (TERRAZZO_DRY_LAUNCH=1 when the module was
// imported, or `kernel.dry_run = True`) a launch does everything but the
// driver call: the arguments are converted and packed, and the packed values
// are kept for last_launch(), so the host-side cost can be measured and
// tested anywhere.
#ifndef TERRAZZO_PYTHON_KERNEL_H
#define TERRAZZO_PYTHON_KERNEL_H

#include "ArgumentPacking.h"
#include "terrazzo/Runtime.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace terrazzo::python {

class Kernel {
public:
  Kernel(std::string binary, std::string name, int threadsPerBlock,
         int sharedMemoryBytes, std::string signature, bool dryRun,
         int globalScratchBytes = 0);

  const std::string &name() const { return name_; }
  const std::string &signature() const { return signature_; }
  const std::string &binary() const { return binary_; }
  int threadsPerBlock() const { return threadsPerBlock_; }
  int sharedMemoryBytes() const { return sharedMemoryBytes_; }
  /// Global scratch per program instance (tensor maps of TMA descriptors):
  /// when nonzero, a launch passes one more parameter, a pointer to that
  /// many bytes per program instance (GlobalScratch.h).
  int globalScratchBytes() const { return globalScratchBytes_; }
  /// Number of parameters the kernel really has (signature without '-').
  std::size_t numKernelParams() const { return numKernelParams_; }
  bool loaded() const { return loaded_.load(std::memory_order_acquire); }

  bool dryRun = false;
  std::uint64_t launchCount = 0;

  /// Launches on `stream` with `params[k]` pointing at `slots[k]`, one per
  /// kernel parameter. Loads the module first if needed. Releases the GIL
  /// around the driver calls; driver errors throw std::runtime_error (a
  /// Python RuntimeError) with the runtime's message. A grid with a zero
  /// dimension launches nothing. Must be called with the GIL held.
  void launch(const unsigned grid[3], std::uintptr_t stream, const Slot *slots,
              void **params);

  /// The last dry-run launch, as {"grid", "stream", "args"}; None before
  /// the first.
  py::object lastLaunch() const;

private:
  runtime::Status ensureLoaded();

  std::string binary_;
  std::string name_;
  int threadsPerBlock_;
  int sharedMemoryBytes_;
  int globalScratchBytes_ = 0;
  std::string signature_;
  std::size_t numKernelParams_ = 0;

  std::mutex loadMutex_;
  std::atomic<bool> loaded_{false};
  runtime::Module module_;
  runtime::Function function_;

  bool haveLast_ = false;
  unsigned lastGrid_[3] = {0, 0, 0};
  std::uintptr_t lastStream_ = 0;
  std::vector<Slot> lastSlots_;
};

} // namespace terrazzo::python

#endif // TERRAZZO_PYTHON_KERNEL_H
