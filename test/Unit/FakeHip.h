// What the fake HIP library (FakeHip.cpp) records of a launch, and the
// functions through which tests read its records. Tests dlopen the fake (the
// same library the runtime loaded) and dlsym these names; Python's tests
// mirror the structure with ctypes (python/test/test_hip_runtime.py).
#ifndef TERRAZZO_TEST_UNIT_FAKEHIP_H
#define TERRAZZO_TEST_UNIT_FAKEHIP_H

#include <cstddef>
#include <cstdint>

constexpr int kFakeHipMaxArguments = 32;

struct FakeHipLaunch {
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  unsigned sharedBytes = 0;
  int device = -1;
  std::uint64_t stream = 0;
  int argumentCount = 0;
  int argumentSizes[kFakeHipMaxArguments] = {};
  /// Each argument's bytes as read through kernelParams, zero-extended.
  std::uint64_t arguments[kFakeHipMaxArguments] = {};
};

extern "C" {
/// Forgets the calls, image and launches recorded so far.
using FakeHipReset = void (*)();
/// Every hip* call since the last reset, in order, separated by spaces:
/// "hipGetDevice hipModuleLoadData(0) hipModuleGetFunction(add) ...".
using FakeHipCalls = const char *(*)();
/// Copies up to `capacity` bytes of the last module image (without its NUL)
/// into `buffer`; returns its size.
using FakeHipImage = std::size_t (*)(char *buffer, std::size_t capacity);
/// Launches since the last reset.
using FakeHipLaunches = int (*)();
/// The last launch and its kernel's name; 0 when there was none.
using FakeHipLastLaunch = int (*)(FakeHipLaunch *launch, char *kernel,
                                  std::size_t capacity);
/// Live allocations (hipMalloc not yet freed).
using FakeHipAllocations = int (*)();
}

#endif // TERRAZZO_TEST_UNIT_FAKEHIP_H
