// GPU tests of the shape ops trans, reshape, join and split
// (test/GPU/kernels/shape_*.mlir) at 1, 4 and 8 warps: every element is
// checked exactly against the host's answer (the ops only move values), and
// the padding and guard elements a masked store must skip keep their poison.
#include "GpuTestSupport.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

/// Counts values that differ from `want` and values that should have kept
/// the poison and did not.
struct Tally {
  size_t wrong = 0, clobbered = 0;

  void expect(float got, double want) { wrong += !(double(got) == want); }
  void untouched(float got) { clobbered += !isPoison(got); }
  bool ok() const { return wrong == 0 && clobbered == 0; }
  std::string detail(const std::string &what) const {
    char text[200];
    std::snprintf(text, sizeof(text), "%s: %zu wrong, %zu guard elements "
                  "overwritten", what.c_str(), wrong, clobbered);
    return text;
  }
};

std::string withWarps(const std::string &name, int warps) {
  return name + " (" + std::to_string(warps) + " warps)";
}

/// out (n x m) = x (m x n) transposed, in 32 x 64 tiles.
void testTranspose(const LoadedKernel &kernel, int warps, int m, int n) {
  Buffer<float> x(size_t(m) * n), out(size_t(m) * n + kGuard);
  x.host = randomFloats(x.host.size(), -100, 100);
  x.upload();
  out.poison();
  launch(kernel, cdiv(m, 32), cdiv(n, 64), x.pointer(), out.pointer(),
         int32_t(m), int32_t(n));
  check(runtime::synchronize(), "shape_transpose");
  out.download();
  Tally tally;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      tally.expect(out.host[size_t(j) * m + i], x.host[size_t(i) * n + j]);
  for (size_t k = 0; k < kGuard; ++k)
    tally.untouched(out.host[size_t(m) * n + k]);
  char what[64];
  std::snprintf(what, sizeof(what), "%d x %d", m, n);
  report(withWarps("shape_transpose (tile.trans of 32x64 tiles)", warps),
         tally.ok(), tally.detail(what));
}

/// Both reshapes of shape_reshape.mlir: an m x 64 matrix with row stride
/// xStride packed into a flat array, and a flat array of len elements
/// unpacked into a 64-column matrix with row stride tileStride.
void testReshape(const LoadedKernel &kernel, int warps, int m, int xStride,
                 int len, int tileStride) {
  int tileRows = (len + 63) / 64;
  Buffer<float> x(size_t(std::max(m, 1)) * xStride),
      flat(size_t(m) * 64 + kGuard), y(std::max(len, 1)),
      tile(size_t(tileRows) * tileStride + kGuard);
  // Integers, so that x + index and 2 y + row are exact in float.
  for (float &value : x.host)
    value = float(int(rng()() % 2001) - 1000);
  for (float &value : y.host)
    value = float(int(rng()() % 2001) - 1000);
  x.upload();
  y.upload();
  flat.poison();
  tile.poison();
  unsigned programs = std::max(cdiv(m, 32), cdiv(len, 2048));
  launch(kernel, std::max(programs, 1u), 1, x.pointer(), flat.pointer(),
         y.pointer(), tile.pointer(), int32_t(m), int32_t(xStride),
         int32_t(len), int32_t(tileStride));
  check(runtime::synchronize(), "shape_reshape");
  flat.download();
  tile.download();

  Tally packed;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < 64; ++j)
      packed.expect(flat.host[size_t(i) * 64 + j],
                    double(x.host[size_t(i) * xStride + j]) + (64 * i + j));
  for (size_t k = 0; k < kGuard; ++k)
    packed.untouched(flat.host[size_t(m) * 64 + k]);
  char what[96];
  std::snprintf(what, sizeof(what), "%d rows of stride %d", m, xStride);
  report(withWarps("shape_reshape 2-D -> 1-D", warps), packed.ok(),
         packed.detail(what));

  Tally unpacked;
  for (int i = 0; i < tileRows; ++i)
    for (int j = 0; j < tileStride; ++j) {
      float got = tile.host[size_t(i) * tileStride + j];
      if (j < 64 && 64 * i + j < len)
        unpacked.expect(got, 2.0 * y.host[size_t(64) * i + j] + i);
      else
        unpacked.untouched(got);
    }
  for (size_t k = 0; k < kGuard; ++k)
    unpacked.untouched(tile.host[size_t(tileRows) * tileStride + k]);
  std::snprintf(what, sizeof(what), "%d elements into rows of stride %d", len,
                tileStride);
  report(withWarps("shape_reshape 1-D -> 2-D", warps), unpacked.ok(),
         unpacked.detail(what));
}

/// Interleave (join + reshape) and de-interleave (reshape + split) of n
/// elements.
void testJoinSplit(const LoadedKernel &kernel, int warps, int n) {
  size_t count = std::max(n, 1);
  Buffer<float> a(count), b(count), ab(size_t(2) * n + kGuard), c(2 * count),
      lo(size_t(n) + kGuard), hi(size_t(n) + kGuard);
  a.host = randomFloats(count, -10, 10);
  b.host = randomFloats(count, -10, 10);
  c.host = randomFloats(2 * count, -10, 10);
  a.upload();
  b.upload();
  c.upload();
  ab.poison();
  lo.poison();
  hi.poison();
  launch(kernel, std::max(cdiv(n, 1024), 1u), 1, a.pointer(), b.pointer(),
         ab.pointer(), c.pointer(), lo.pointer(), hi.pointer(), int32_t(n));
  check(runtime::synchronize(), "shape_join_split");
  ab.download();
  lo.download();
  hi.download();

  Tally joined, split;
  for (int k = 0; k < n; ++k) {
    joined.expect(ab.host[2 * size_t(k)], a.host[k]);
    joined.expect(ab.host[2 * size_t(k) + 1], b.host[k]);
    split.expect(lo.host[k], c.host[2 * size_t(k)]);
    split.expect(hi.host[k], c.host[2 * size_t(k) + 1]);
  }
  for (size_t k = 0; k < kGuard; ++k) {
    joined.untouched(ab.host[2 * size_t(n) + k]);
    split.untouched(lo.host[size_t(n) + k]);
    split.untouched(hi.host[size_t(n) + k]);
  }
  std::string what = "n=" + std::to_string(n);
  report(withWarps("shape_join_split interleave (join)", warps), joined.ok(),
         joined.detail(what));
  report(withWarps("shape_join_split de-interleave (split)", warps),
         split.ok(), split.detail(what));
}

/// The column-major copy of each 32 x 64 tile of a flat array (a reshape
/// from a #tilegpu.linear layout).
void testLinear(const LoadedKernel &kernel, int n) {
  Buffer<float> x(std::max(n, 1)), out(size_t(n) + kGuard);
  x.host = randomFloats(x.host.size(), -100, 100);
  x.upload();
  out.poison();
  launch(kernel, std::max(cdiv(n, 2048), 1u), 1, x.pointer(), out.pointer(),
         int32_t(n));
  check(runtime::synchronize(), "shape_linear");
  out.download();
  Tally tally;
  for (int k = 0; k < n; ++k) {
    int base = k / 2048 * 2048, r = k % 2048;
    int i = r % 32, j = r / 32; // out[base + 32 j + i] = x[base + 64 i + j]
    int from = base + 64 * i + j;
    // Source elements past n were masked off; their value is unspecified.
    if (from < n)
      tally.expect(out.host[k], x.host[from]);
  }
  for (size_t k = 0; k < kGuard; ++k)
    tally.untouched(out.host[size_t(n) + k]);
  report("shape_linear (reshape of a transposed tile, #tilegpu.linear)",
         tally.ok(), tally.detail("n=" + std::to_string(n)));
}

} // namespace

TERRAZZO_GPU_TEST_SUITE(shape) {
  for (int warps : {1, 4, 8}) {
    LoadedKernel transpose =
        loadKernel("test/GPU/kernels/shape_transpose.mlir", warps);
    LoadedKernel reshape =
        loadKernel("test/GPU/kernels/shape_reshape.mlir", warps);
    LoadedKernel joinSplit =
        loadKernel("test/GPU/kernels/shape_join_split.mlir", warps);
    for (auto [m, n] : {std::pair{32, 64}, {1, 1}, {31, 65}, {100, 77},
                        {257, 1000}})
      testTranspose(transpose, warps, m, n);
    for (auto [m, len] : {std::pair{32, 2048}, {1, 1}, {33, 2047}, {70, 5000}})
      testReshape(reshape, warps, m, 64 + 16 * (m % 3), len, 80);
    for (int n : {1, 1023, 1024, 5000})
      testJoinSplit(joinSplit, warps, n);
  }
  LoadedKernel linear = loadKernel("test/GPU/kernels/shape_linear.mlir", 4);
  for (int n : {2048, 100, 5000})
    testLinear(linear, n);
}
