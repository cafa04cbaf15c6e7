// Kernels compiled ahead of time and embedded in a program (DESIGN.md §9).
//
// terrazzo_add_kernels() (the CMake package's TerrazzoAddKernels.cmake)
// compiles tile IR files with terrazzo-compile at build time and adds a
// generated source to the program that holds each binary with its metadata
// and registers them here when the program starts. At run time nothing is
// compiled by Terrazzo: the program links the runtime alone.
//
//   terrazzo::runtime::Result<terrazzo::aot::LoadedKernel> add =
//       terrazzo::aot::load("add_kernel");       // for the current device
//   if (!add.ok()) ... add.status.message ...
//   void *args[] = {&x, &y, &out, &n};
//   add.value.launch(gridX, 1, 1, args);
//
// Header only, over include/terrazzo/Runtime.h.
#ifndef TERRAZZO_AOT_H
#define TERRAZZO_AOT_H

#include "terrazzo/Runtime.h"

#include <cstddef>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace terrazzo::aot {

/// One embedded binary: a kernel compiled for one GPU target.
struct Kernel {
  const char *name;       ///< the kernel's symbol
  const char *target;     ///< "cuda:80", "cuda:90", "hip:gfx942", ...
  /// "cubin", "ptx" (compiled by the driver at load) or "hsaco".
  const char *binaryKind;
  const unsigned char *binary;
  std::size_t size;
  int numWarps;
  int threadsPerBlock;
  int sharedMemoryBytes;
  /// Bytes of global scratch per program instance; when nonzero the kernel
  /// takes one more argument (see terrazzo::KernelMetadata).
  int globalScratchBytes;
  const char *metadata; ///< terrazzo-compile's JSON metadata
  const Kernel *next;   ///< the registry's list
};

/// The head of the list of embedded kernels.
inline const Kernel *&registryHead() {
  static const Kernel *head = nullptr;
  return head;
}

/// Registers `count` kernels; generated sources hold one as a static object.
struct Registration {
  Registration(Kernel *kernels, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      kernels[i].next = registryHead();
      registryHead() = &kernels[i];
    }
  }
};

/// Every embedded kernel, in no particular order: for (const Kernel *k =
/// first(); k; k = k->next).
inline const Kernel *first() { return registryHead(); }

/// The capability of a target name ("cuda:90" -> 90); -1 for anything else.
inline int targetCapability(const char *target) {
  if (std::strncmp(target, "cuda:", 5) != 0)
    return -1;
  char *end = nullptr;
  long value = std::strtol(target + 5, &end, 10);
  if (end == target + 5 || *end != '\0')
    return -1;
  return int(value);
}

/// The embedded binaries of `name` that may run on a device of compute
/// capability major.minor, best first: cubins of the same major version at
/// or below the device (its own capability first, then the newest), then
/// PTX at or below the device (the newest first; the driver compiles it).
/// Code for an arch-specific variant (the compiler emits sm_90a, sm_100a,
/// ... from capability 90 on) runs only on that exact GPU: the driver
/// rejects it elsewhere, and load() then takes the next candidate.
inline std::vector<const Kernel *> candidates(const char *name, int major,
                                              int minor) {
  int device = major * 10 + minor;
  std::vector<std::pair<int, const Kernel *>> ranked;
  for (const Kernel *kernel = first(); kernel; kernel = kernel->next) {
    if (std::strcmp(kernel->name, name) != 0)
      continue;
    int capability = targetCapability(kernel->target);
    if (capability < 0 || capability > device)
      continue;
    bool cubin = std::strcmp(kernel->binaryKind, "cubin") == 0;
    if (cubin && capability / 10 != major)
      continue;
    int rank = cubin ? 2000 + (capability == device ? 1000 : 0) + capability
                     : capability;
    ranked.emplace_back(rank, kernel);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<const Kernel *> result;
  for (const auto &entry : ranked)
    result.push_back(entry.second);
  return result;
}

/// The embedded binaries of `name` that may run on `device`: candidates() for
/// a CUDA device; for a HIP device, those compiled for its processor (an
/// hsaco runs on the processor it was compiled for only).
inline std::vector<const Kernel *>
candidates(const char *name, const runtime::DeviceProperties &device) {
  if (device.platform == runtime::Platform::Cuda)
    return candidates(name, device.computeCapabilityMajor,
                      device.computeCapabilityMinor);
  std::vector<const Kernel *> result;
  for (const Kernel *kernel = first(); kernel; kernel = kernel->next)
    if (std::strcmp(kernel->name, name) == 0 && device.target == kernel->target)
      result.push_back(kernel);
  return result;
}

/// The first of candidates(), or null when none may run there.
inline const Kernel *find(const char *name, int major, int minor) {
  std::vector<const Kernel *> found = candidates(name, major, minor);
  return found.empty() ? nullptr : found.front();
}

/// An embedded kernel loaded into the current context.
struct LoadedKernel {
  const Kernel *kernel = nullptr;
  runtime::Module module;
  runtime::Function function;

  /// Launches a grid of program instances with the kernel's own block size
  /// and shared memory on `stream` (nullptr: the default stream). `args`
  /// holds one pointer per kernel argument, as in Function::launch.
  runtime::Status launch(unsigned gridX, unsigned gridY, unsigned gridZ,
                         void **args, void *stream = nullptr) const {
    return function.launch(gridX, gridY, gridZ, unsigned(kernel->threadsPerBlock),
                           1, 1, unsigned(kernel->sharedMemoryBytes), stream,
                           args);
  }
};

/// Loads the embedded `name` for device `ordinal` (negative: the current
/// device) of `platform` (by default the machine's: CUDA or HIP) into the
/// calling thread's context of that device, with the driver of that
/// platform.
inline runtime::Result<LoadedKernel>
load(const char *name, int ordinal = -1,
     runtime::Platform platform = runtime::defaultPlatform()) {
  using Result = runtime::Result<LoadedKernel>;
  if (ordinal < 0) {
    runtime::Result<int> current = runtime::currentDevice(platform);
    if (!current.ok())
      return Result::error(current.status);
    ordinal = current.value;
  }
  runtime::Result<runtime::DeviceProperties> properties =
      runtime::getDeviceProperties(ordinal, platform);
  if (!properties.ok())
    return Result::error(properties.status);
  std::vector<const Kernel *> found = candidates(name, properties.value);
  // "sm_90", "gfx942": the architecture binaries are compiled for.
  std::string architecture =
      platform == runtime::Platform::Cuda
          ? properties.value.architecture
          : properties.value.target.substr(properties.value.target.find(':') +
                                           1);
  std::string device =
      "device " + std::to_string(ordinal) + " (" + architecture + ")";
  if (found.empty()) {
    std::string message =
        std::string("no embedded kernel '") + name + "' runs on " + device +
        "; embedded:";
    bool any = false;
    for (const Kernel *k = first(); k; k = k->next)
      if (std::strcmp(k->name, name) == 0) {
        message += std::string(" ") + k->target + " (" + k->binaryKind + ")";
        any = true;
      }
    if (!any)
      message += " none of that name";
    return Result::error(runtime::Status::error(message));
  }
  runtime::DeviceScope scope;
  if (runtime::Status status = scope.enter(ordinal, platform); !status.ok())
    return Result::error(status);
  std::string failures;
  for (const Kernel *kernel : found) {
    runtime::Result<runtime::Module> module =
        runtime::Module::load(kernel->binary, kernel->size, platform);
    if (!module.ok()) {
      failures += std::string("\n  ") + kernel->target + " (" +
                  kernel->binaryKind + "): " + module.status.message;
      continue;
    }
    LoadedKernel loaded;
    loaded.kernel = kernel;
    loaded.module = std::move(module.value);
    runtime::Result<runtime::Function> function =
        loaded.module.getFunction(kernel->name);
    if (!function.ok())
      return Result::error(function.status);
    loaded.function = function.value;
    if (runtime::Status status = loaded.function.reserveDynamicSharedMemory(
            kernel->sharedMemoryBytes);
        !status.ok())
      return Result::error(status);
    return Result::success(std::move(loaded));
  }
  return Result::error(runtime::Status::error(
      std::string("no embedded binary of '") + name + "' loads on " + device +
      ":" + failures));
}

} // namespace terrazzo::aot

#endif // TERRAZZO_AOT_H
