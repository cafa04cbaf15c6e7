// What the GPU test program and the benchmarks share: compiling a tile IR
// file with the public compiler API, loading it with the runtime, and
// checking results. Built against include/terrazzo/ only.
#ifndef TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H
#define TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H

#include "terrazzo/Compiler.h"
#include "terrazzo/Runtime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace terrazzo::gputest {

/// Stops the program with `what` and the runtime's message when `status`
/// failed.
inline void check(const runtime::Status &status, const std::string &what) {
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s: %s\n", what.c_str(), status.message.c_str());
    std::exit(2);
  }
}

template <typename T>
T take(runtime::Result<T> result, const std::string &what) {
  check(result.status, what);
  return std::move(result.value);
}

/// "cuda:90" for the current device.
inline std::string deviceTarget() {
  auto properties = take(runtime::getDeviceProperties(0), "device properties");
  return "cuda:" + std::to_string(properties.computeCapabilityMajor * 10 +
                                  properties.computeCapabilityMinor);
}

struct LoadedKernel {
  runtime::Module module;
  runtime::Function function;
  KernelMetadata metadata;
  double compileMilliseconds = 0;
};

inline std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

/// Compiles tile IR `source` to a binary for the current device and loads
/// it.
LoadedKernel compileAndLoad(const std::string &source, const std::string &name,
                            int numWarps = 4);

/// A buffer on the device with a host copy of its contents.
template <typename T> struct Buffer {
  std::vector<T> host;
  runtime::DeviceBuffer device;

  explicit Buffer(size_t count) : host(count) {
    device = take(runtime::DeviceBuffer::allocate(std::max<size_t>(1, count) *
                                                  sizeof(T)),
                  "allocate");
  }
  void upload() {
    check(device.copyFromHost(host.data(), host.size() * sizeof(T)), "upload");
  }
  void download() {
    check(device.copyToHost(host.data(), host.size() * sizeof(T)), "download");
  }
  /// Fills the device copy with 0xFF bytes (NaN for floats, -1 for ints) so
  /// that elements a kernel fails to write stand out.
  void poison() { check(device.fill(0xFF), "poison"); }
  uint64_t pointer() const { return device.devicePointer(); }
};

/// Launches `kernel` with its metadata's threads per block.
template <typename... Args>
void launch(const LoadedKernel &kernel, unsigned gridX, unsigned gridY,
            Args... args) {
  void *params[] = {static_cast<void *>(&args)...};
  check(kernel.function.launch(gridX, gridY, 1,
                               kernel.metadata.threadsPerBlock, 1, 1,
                               unsigned(kernel.metadata.sharedMemoryBytes),
                               nullptr, params),
        "launch " + kernel.metadata.name);
}

} // namespace terrazzo::gputest

#endif // TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H
