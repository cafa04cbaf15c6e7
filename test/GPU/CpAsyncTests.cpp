// GPU tests of shared-memory buffers filled by asynchronous copies
// (test/GPU/kernels/cp_async_*.mlir, sm_80 and newer): a 2-stage cp.async
// copy of 64 x 64 tiles of an f16 and an f32 matrix into a swizzled
// 2-buffer stack, read back in another layout through local_load. Every
// element of the padded output is checked bit for bit: the source inside
// the matrix, +0.0 (the hardware's zero fill) in the masked tails, and the
// guard elements after the output keep their poison.
#include "GpuTestSupport.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

template <typename Bits>
void testCopy(const LoadedKernel &kernel, const std::string &name, int m,
              int n, int srcStride) {
  unsigned gridM = cdiv(m, 64), gridN = cdiv(n, 64);
  int dstStride = int(gridN) * 64;
  size_t dstElements = size_t(gridM) * 64 * dstStride;
  Buffer<Bits> src(size_t(m) * srcStride), dst(dstElements + kGuard);
  for (Bits &value : src.host)
    value = Bits(rng()());
  src.upload();
  dst.poison();
  launch(kernel, gridM, gridN, src.pointer(), dst.pointer(), int32_t(m),
         int32_t(n), int32_t(srcStride), int32_t(dstStride));
  check(runtime::synchronize(), name);
  dst.download();
  size_t wrong = 0, wrongZero = 0, clobbered = 0, firstBad = dstElements;
  for (size_t i = 0; i < gridM * 64; ++i)
    for (size_t j = 0; j < size_t(dstStride); ++j) {
      bool inside = i < size_t(m) && j < size_t(n);
      Bits want = inside ? src.host[i * srcStride + j] : Bits(0);
      Bits got = dst.host[i * dstStride + j];
      if (got != want) {
        if (firstBad == dstElements)
          firstBad = i * dstStride + j;
        ++(inside ? wrong : wrongZero);
      }
    }
  for (size_t k = 0; k < kGuard; ++k)
    clobbered += !isPoison(dst.host[dstElements + k]);
  char detail[256];
  std::snprintf(detail, sizeof(detail),
                "m=%d n=%d stride=%d: %zu wrong inside, %zu masked elements "
                "not zero (first bad at %zu), %zu guard elements overwritten",
                m, n, srcStride, wrong, wrongZero, firstBad, clobbered);
  report(name, wrong == 0 && wrongZero == 0 && clobbered == 0, detail);
}

} // namespace

TERRAZZO_GPU_TEST_SUITE(cp_async) {
  auto properties = take(runtime::getDeviceProperties(0), "device properties");
  if (properties.computeCapabilityMajor < 8) {
    std::printf("cp_async: skipped (cp.async needs sm_80, the device is "
                "sm_%d%d)\n",
                properties.computeCapabilityMajor,
                properties.computeCapabilityMinor);
    return;
  }
  LoadedKernel f16 = loadKernel("test/GPU/kernels/cp_async_f16.mlir", 4);
  // 16-byte copies: n and the row stride are multiples of 16 elements.
  for (auto [m, n, stride] : {std::tuple{64, 64, 64}, std::tuple{100, 80, 96},
                              std::tuple{1, 16, 16}, std::tuple{130, 144, 160},
                              std::tuple{31, 48, 48}})
    testCopy<uint16_t>(f16, "cp_async_f16 (2 stages, 16-byte cp.async)", m, n,
                       stride);
  LoadedKernel f32 = loadKernel("test/GPU/kernels/cp_async_f32.mlir", 4);
  for (auto [m, n, stride] : {std::tuple{64, 64, 64}, std::tuple{100, 77, 79},
                              std::tuple{33, 1, 5}, std::tuple{65, 130, 131},
                              std::tuple{7, 63, 63}})
    testCopy<uint32_t>(f32, "cp_async_f32 (2 stages, 4-byte cp.async)", m, n,
                       stride);
}
