// GPU tests of tl.dot on Hopper's wgmma (test/GPU/kernels/wgmma_dot_*.mlir,
// sm_90a only): one program computes a float16 dot with a float32
// accumulator, 64 x 64 x 64 at 4 warps and 128 x 128 x 64 at 4 and 8
// warps, through nvmma_shared operands and wgmma.mma_async. Inputs are
// multiples of 1/8 in [-1, 1], so every product and sum is exact in
// float32: the result must equal the float64 reference exactly, and a
// wrong descriptor, swizzle or accumulator mapping shows as wrong elements.
#include "GpuTestSupport.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

/// The float16 bits of k / 8 for an integer k in [-8, 8] (exact).
uint16_t eighthsToHalf(int k) {
  if (k == 0)
    return 0;
  uint16_t sign = k < 0 ? 0x8000 : 0;
  int magnitude = k < 0 ? -k : k;
  // magnitude / 8 = 1.f * 2^e with magnitude = 1.f * 2^p, e = p - 3.
  int p = 0;
  while ((magnitude >> (p + 1)) != 0)
    ++p;
  int mantissa = (magnitude << (10 - p)) & 0x3FF;
  int exponent = p - 3 + 15;
  return uint16_t(sign | (exponent << 10) | mantissa);
}

void testDot(const LoadedKernel &kernel, const std::string &name, int m, int n,
             int k) {
  Buffer<uint16_t> a(size_t(m) * k), b(size_t(k) * n);
  Buffer<float> c(size_t(m) * n + kGuard);
  std::vector<double> av(a.host.size()), bv(b.host.size());
  auto &random = rng();
  for (size_t i = 0; i < a.host.size(); ++i) {
    int value = int(random() % 17) - 8;
    a.host[i] = eighthsToHalf(value);
    av[i] = value / 8.0;
  }
  for (size_t i = 0; i < b.host.size(); ++i) {
    int value = int(random() % 17) - 8;
    b.host[i] = eighthsToHalf(value);
    bv[i] = value / 8.0;
  }
  a.upload();
  b.upload();
  c.poison();
  launch(kernel, 1, 1, a.pointer(), b.pointer(), c.pointer());
  check(runtime::synchronize(), name);
  c.download();
  size_t wrong = 0, firstBad = size_t(m) * n, clobbered = 0;
  double firstWant = 0, firstGot = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int l = 0; l < k; ++l)
        want += av[size_t(i) * k + l] * bv[size_t(l) * n + j];
      double got = c.host[size_t(i) * n + j];
      if (got != want) {
        if (!wrong) {
          firstBad = size_t(i) * n + j;
          firstWant = want;
          firstGot = got;
        }
        ++wrong;
      }
    }
  for (size_t g = 0; g < kGuard; ++g)
    clobbered += !isPoison(c.host[size_t(m) * n + g]);
  char detail[256];
  std::snprintf(detail, sizeof(detail),
                "%dx%dx%d: %zu wrong (first at row %zu column %zu: %g, want "
                "%g), %zu guard elements overwritten",
                m, n, k, wrong, firstBad / n, firstBad % n, firstGot,
                firstWant, clobbered);
  report(name, wrong == 0 && clobbered == 0, detail);
}

} // namespace

TERRAZZO_GPU_TEST_SUITE(wgmma) {
  auto properties = take(runtime::getDeviceProperties(0), "device properties");
  if (properties.computeCapabilityMajor != 9) {
    std::printf("wgmma: skipped (wgmma needs sm_90a, the device is sm_%d%d)\n",
                properties.computeCapabilityMajor,
                properties.computeCapabilityMinor);
    return;
  }
  LoadedKernel small = loadKernel("test/GPU/kernels/wgmma_dot_64.mlir", 4);
  testDot(small, "wgmma_dot_64 (f16, 4 warps, m64n64k16)", 64, 64, 64);
  for (int warps : {4, 8}) {
    LoadedKernel large =
        loadKernel("test/GPU/kernels/wgmma_dot_128.mlir", warps);
    testDot(large,
            "wgmma_dot_128 (f16, " + std::to_string(warps) +
                " warps, m64n128k16)",
            128, 128, 64);
  }
}
