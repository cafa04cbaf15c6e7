// GPU tests of tl.dot on Hopper's wgmma (test/GPU/kernels/wgmma_dot_*.mlir,
// sm_90a only): one program computes a float16 dot with a float32
// accumulator, 64 x 64 x 64 at 4 warps and 128 x 128 x 64 at 4 and 8
// warps, through nvmma_shared operands and wgmma.mma_async. Inputs are
// multiples of 1/8 in [-1, 1], so every product and sum is exact in
// float32: the result must equal the float64 reference exactly, and a
// wrong descriptor, swizzle or accumulator mapping shows as wrong elements.
// wgmma_matmul_loop.mlir adds a K loop that terrazzo-pipeline turns into
// cp.async pipelines through stacks of nvmma_shared buffers, with masked
// edges; wgmma_matmul_loop_fp8.mlir is the same loop on f8E4M3FN operands,
// both K-major.
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

/// Fills `buffer` with random multiples of 1/8 in [-1, 1] (float16 bits)
/// and `values` with the same numbers.
void fillEighths(Buffer<uint16_t> &buffer, std::vector<double> &values) {
  auto &random = rng();
  for (size_t i = 0; i < buffer.host.size(); ++i) {
    int value = int(random() % 17) - 8;
    buffer.host[i] = eighthsToHalf(value);
    values[i] = value / 8.0;
  }
}

/// Reports whether `c` (M x N, row stride N, then kGuard poisoned guard
/// elements) holds exactly a * b: a row-major M x K in `av`, b K x N in
/// `bv`, row-major or, with `bKMajor`, element (l, j) at j * K + l. The
/// inputs make every partial sum exact in float32.
void checkExactProduct(const std::string &name, const Buffer<float> &c,
                       const std::vector<double> &av,
                       const std::vector<double> &bv, int m, int n, int k,
                       bool bKMajor) {
  size_t wrong = 0, firstBad = size_t(m) * n, clobbered = 0;
  double firstWant = 0, firstGot = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int l = 0; l < k; ++l)
        want += av[size_t(i) * k + l] *
                bv[bKMajor ? size_t(j) * k + l : size_t(l) * n + j];
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
                "M %d N %d K %d: %zu wrong (first at row %zu column %zu: %g, "
                "want %g), %zu guard elements overwritten",
                m, n, k, wrong, firstBad / n, firstBad % n, firstGot,
                firstWant, clobbered);
  report(name, wrong == 0 && clobbered == 0, detail);
}

void testDot(const LoadedKernel &kernel, const std::string &name, int m, int n,
             int k) {
  Buffer<uint16_t> a(size_t(m) * k), b(size_t(k) * n);
  Buffer<float> c(size_t(m) * n + kGuard);
  std::vector<double> av(a.host.size()), bv(b.host.size());
  fillEighths(a, av);
  fillEighths(b, bv);
  a.upload();
  b.upload();
  c.poison();
  launch(kernel, 1, 1, a.pointer(), b.pointer(), c.pointer());
  check(runtime::synchronize(), name);
  c.download();
  checkExactProduct(name, c, av, bv, m, n, k, /*bKMajor=*/false);
}

/// The pipelined K loop (wgmma_matmul_loop.mlir): c = a * b for an M x K
/// a and a K x N b (row strides K and N), c of M x N (row stride N) followed
/// by guard elements that must stay untouched; the kernel's 128 x 128 tile
/// masks rows past M, columns past N and k past K.
void testLoop(const LoadedKernel &kernel, const std::string &name, int m,
              int n, int k) {
  Buffer<uint16_t> a(size_t(m) * k), b(size_t(k) * n);
  Buffer<float> c(size_t(m) * n + kGuard);
  std::vector<double> av(a.host.size()), bv(b.host.size());
  fillEighths(a, av);
  fillEighths(b, bv);
  a.upload();
  b.upload();
  c.poison();
  launch(kernel, 1, 1, a.pointer(), b.pointer(), c.pointer(), int32_t(m),
         int32_t(n), int32_t(k));
  check(runtime::synchronize(), name);
  c.download();
  checkExactProduct(name, c, av, bv, m, n, k, /*bKMajor=*/false);
}

/// The f8E4M3FN byte of an integer v in [-4, 4] (exact: 1.m x 2^p with
/// two mantissa bits is enough).
uint8_t integerToE4M3(int v) {
  if (v == 0)
    return 0;
  uint8_t sign = v < 0 ? 0x80 : 0;
  int magnitude = v < 0 ? -v : v;
  int p = magnitude >= 4 ? 2 : magnitude >= 2 ? 1 : 0;
  int mantissa = ((magnitude << 3) >> p) & 0x7; // (magnitude / 2^p - 1) * 8
  return uint8_t(sign | ((p + 7) << 3) | mantissa);
}

/// The fp8 K loop (wgmma_matmul_loop_fp8.mlir): c = a * b for an M x K
/// f8E4M3FN a (row stride K) and a K x N b stored K-major (element (k, n)
/// at n * K + k), c as in testLoop. Integers in [-4, 4]: products of at
/// most 16 and sums of at most 4096, exact in float32 and in wgmma's fp8
/// accumulation (which keeps about 14 bits below the largest term).
void testLoopFp8(const LoadedKernel &kernel, const std::string &name, int m,
                 int n, int k) {
  Buffer<uint8_t> a(size_t(m) * k), b(size_t(k) * n);
  Buffer<float> c(size_t(m) * n + kGuard);
  std::vector<double> av(a.host.size()), bv(b.host.size());
  auto &random = rng();
  for (size_t i = 0; i < a.host.size(); ++i) {
    int value = int(random() % 9) - 4;
    a.host[i] = integerToE4M3(value);
    av[i] = value;
  }
  for (size_t i = 0; i < b.host.size(); ++i) { // i = column * K + row
    int value = int(random() % 9) - 4;
    b.host[i] = integerToE4M3(value);
    bv[i] = value;
  }
  a.upload();
  b.upload();
  c.poison();
  launch(kernel, 1, 1, a.pointer(), b.pointer(), c.pointer(), int32_t(m),
         int32_t(n), int32_t(k));
  check(runtime::synchronize(), name);
  c.download();
  checkExactProduct(name, c, av, bv, m, n, k, /*bKMajor=*/true);
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
  // The K loop pipelined by terrazzo-pipeline (3 stages, cp.async into
  // nvmma_shared stacks): full tiles over K = 256 (4 iterations, more than
  // the stages), masked M and N edges, and a K that ends inside a tile.
  for (int warps : {4, 8}) {
    LoadedKernel loop =
        loadKernel("test/GPU/kernels/wgmma_matmul_loop.mlir", warps);
    std::string prefix =
        "wgmma_matmul_loop (f16, " + std::to_string(warps) + " warps, ";
    testLoop(loop, prefix + "128x128, K 256)", 128, 128, 256);
    testLoop(loop, prefix + "masked 120x112, K 256)", 120, 112, 256);
    testLoop(loop, prefix + "masked 100x48, K 208)", 100, 48, 208);
    testLoop(loop, prefix + "K 64, one iteration)", 128, 128, 64);
  }
  // The same loop on f8E4M3FN with a K-major B (m64n128k32.e4m3.e4m3),
  // K steps of 128.
  for (int warps : {4, 8}) {
    LoadedKernel loop =
        loadKernel("test/GPU/kernels/wgmma_matmul_loop_fp8.mlir", warps);
    std::string prefix =
        "wgmma_matmul_loop_fp8 (e4m3, " + std::to_string(warps) + " warps, ";
    testLoopFp8(loop, prefix + "128x128, K 512)", 128, 128, 512);
    testLoopFp8(loop, prefix + "masked 120x112, K 256)", 120, 112, 256);
    testLoopFp8(loop, prefix + "masked 100x48, K 208)", 100, 48, 208);
    testLoopFp8(loop, prefix + "K 128, one iteration)", 128, 128, 128);
  }
}
