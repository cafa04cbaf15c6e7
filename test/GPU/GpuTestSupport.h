// What the GPU test program and the benchmarks share: compiling a tile IR
// file with the public compiler API, loading it with the runtime, and
// checking results. Built against include/terrazzo/ only.
#ifndef TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H
#define TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H

#include "terrazzo/Compiler.h"
#include "terrazzo/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>
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

// ---------------------------------------------------------------------------
// Checking results
// ---------------------------------------------------------------------------

/// The source tree (for kernels under test/GPU/kernels) given on the command
/// line of the test program.
const std::string &sourceRoot();
/// Fresh random numbers for every run (seeded from the device's entropy).
std::mt19937_64 &rng();

/// Counts one test as passed or failed and prints its line.
void report(const std::string &name, bool ok, const std::string &detail);

std::vector<float> randomFloats(size_t n, float low, float high);

/// Compiles test IR `path` (relative to the source tree) and prints how long
/// it took.
LoadedKernel loadKernel(const std::string &path, int numWarps = 4);

template <typename T> bool isPoison(T value) {
  T poison;
  std::memset(&poison, 0xFF, sizeof(T));
  return std::memcmp(&value, &poison, sizeof(T)) == 0;
}

/// Checks `got[i]` against `want(i)` for i < n within `tolerance` (relative
/// to max(1, |want|)), and that the `guard` elements after n kept the poison.
template <typename T, typename Want>
void checkElements(const std::string &name, const std::vector<T> &got, size_t n,
                   Want want, double tolerance, size_t guard) {
  size_t bad = 0, firstBad = n;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double expected = want(i);
    double actual = double(got[i]);
    double error =
        std::fabs(actual - expected) / std::max(1.0, std::fabs(expected));
    // An unwritten float is NaN and fails here; an unwritten integer is -1,
    // which fails unless -1 is the right answer.
    if (!(error <= tolerance)) {
      if (!bad++)
        firstBad = i;
    }
    if (error > worst || std::isnan(error))
      worst = error;
  }
  size_t clobbered = 0;
  for (size_t i = n; i < n + guard; ++i)
    clobbered += !isPoison(got[i]);
  char detail[256];
  std::snprintf(detail, sizeof(detail),
                "n=%zu max rel err %.2e, %zu wrong (first at %zu), %zu of %zu "
                "guard elements overwritten",
                n, worst, bad, firstBad, clobbered, guard);
  report(name, bad == 0 && clobbered == 0, detail);
}

constexpr size_t kGuard = 64;

inline unsigned cdiv(size_t a, size_t b) { return unsigned((a + b - 1) / b); }

// ---------------------------------------------------------------------------
// Suites: each test file registers its own, and the test program runs them
// all, in the order of their names.
// ---------------------------------------------------------------------------

struct SuiteRegistration {
  SuiteRegistration(const char *name, std::function<void()> run);
};

#define TERRAZZO_GPU_TEST_SUITE(name)                                          \
  static void runSuite_##name();                                               \
  static ::terrazzo::gputest::SuiteRegistration registration_##name(           \
      #name, runSuite_##name);                                                 \
  static void runSuite_##name()

/// Runs every registered suite (or those whose names contain `filter`).
void runSuites(const std::string &root, const std::string &filter);
/// The counts so far.
int passedCount();
int failedCount();

} // namespace terrazzo::gputest

#endif // TERRAZZO_TEST_GPU_GPUTESTSUPPORT_H
