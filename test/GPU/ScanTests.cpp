// GPU tests of tile.scan: cumulative sums (f32 and wrapping i32), products
// and maxima, reverse scans and two sources scanned together, along 1-D
// blocks and both axes of 2-D blocks, at 1, 4 and 8 warps, with sizes that
// are not multiples of the block. Every element is checked against a
// float64 (or exact) host reference computed sequentially, and the elements
// past the end must keep the poison. Explicit layouts (blocked, slice and
// linear ones with their bits along the axis in unusual orders) run at 4
// warps. The kernels are in test/GPU/kernels/scan_*.mlir.
#include "GpuTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

/// Floats holding integers in [low, high]: their sums are exact in f32, so
/// sums are checked exactly, and maxima have ties.
std::vector<float> smallIntegers(size_t n, int low, int high) {
  std::uniform_int_distribution<int> dist(low, high);
  std::vector<float> values(n);
  for (float &value : values)
    value = float(dist(rng()));
  return values;
}

std::vector<int32_t> anyInts(size_t n) {
  std::uniform_int_distribution<int32_t> dist(
      std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::vector<int32_t> values(n);
  for (int32_t &value : values)
    value = dist(rng());
  return values;
}

/// The sum of `values` as i32 arithmetic wraps it.
int32_t wrap(int64_t value) { return int32_t(uint32_t(uint64_t(value))); }

/// A kernel file with every occurrence of `from` replaced by `to` (the
/// block size of scan_1d.mlir).
LoadedKernel loadVariant(const std::string &path, const std::string &from,
                         const std::string &to, int numWarps) {
  std::string source = readFile(sourceRoot() + "/" + path);
  size_t count = 0;
  for (size_t at = source.find(from); at != std::string::npos;
       at = source.find(from, at + to.size())) {
    source.replace(at, from.size(), to);
    ++count;
  }
  if (!count) {
    std::fprintf(stderr, "error: %s has no '%s'\n", path.c_str(), from.c_str());
    std::exit(2);
  }
  std::string name = path + " (block " + to + ")";
  LoadedKernel kernel = compileAndLoad(source, name, numWarps);
  std::printf("compiled %-40s %6.1f ms (%d warps)\n", name.c_str(),
              kernel.compileMilliseconds, numWarps);
  return kernel;
}

/// scan_1d.mlir (or a variant with `block` elements per program) on n
/// elements.
void testScan1D(const LoadedKernel &kernel, size_t n, size_t block) {
  Buffer<float> x(n), y(n), sum(n + kGuard), prod(n + kGuard),
      max(n + kGuard), rsum(n + kGuard), argv(n + kGuard);
  Buffer<int32_t> k(n), isum(n + kGuard), argi(n + kGuard);
  x.host = smallIntegers(n, -8, 8);
  y.host = randomFloats(n, 0.95f, 1.05f);
  k.host = anyInts(n);
  x.upload();
  y.upload();
  k.upload();
  for (auto *buffer : {&sum, &prod, &max, &rsum, &argv})
    buffer->poison();
  for (auto *buffer : {&isum, &argi})
    buffer->poison();
  launch(kernel, cdiv(n, block), 1, x.pointer(), y.pointer(), k.pointer(),
         sum.pointer(), isum.pointer(), prod.pointer(), max.pointer(),
         rsum.pointer(), argv.pointer(), argi.pointer(), int32_t(n));
  check(runtime::synchronize(), "scan_1d");
  for (auto *buffer : {&sum, &prod, &max, &rsum, &argv})
    buffer->download();
  for (auto *buffer : {&isum, &argi})
    buffer->download();

  // Sequential references, restarting at every block.
  std::vector<double> refSum(n), refProd(n), refMax(n), refRev(n);
  std::vector<int64_t> refISum(n), refArg(n);
  for (size_t start = 0; start < n; start += block) {
    size_t end = std::min(n, start + block);
    double s = 0, p = 1, m = -INFINITY;
    int64_t is = 0, arg = 0;
    for (size_t i = start; i < end; ++i) {
      s += x.host[i];
      p *= double(y.host[i]);
      is += k.host[i];
      if (x.host[i] > m) {
        m = x.host[i];
        arg = int64_t(i - start);
      }
      refSum[i] = s;
      refProd[i] = p;
      refISum[i] = wrap(is);
      refMax[i] = m;
      refArg[i] = arg;
    }
    double r = 0;
    for (size_t i = end; i-- > start;) {
      r += x.host[i];
      refRev[i] = r;
    }
  }
  std::string shape = std::to_string(block) + " per program, " +
                      std::to_string(kernel.metadata.numWarps) + " warps";
  checkElements("scan_1d: cumsum f32 (" + shape + ")", sum.host, n,
                [&](size_t i) { return refSum[i]; }, 0, kGuard);
  checkElements("scan_1d: cumsum i32 (" + shape + ")", isum.host, n,
                [&](size_t i) { return double(refISum[i]); }, 0, kGuard);
  // Products of up to 1024 factors in f32 against float64.
  checkElements("scan_1d: cumprod f32 (" + shape + ")", prod.host, n,
                [&](size_t i) { return refProd[i]; }, 2e-4, kGuard);
  checkElements("scan_1d: cummax f32 (" + shape + ")", max.host, n,
                [&](size_t i) { return refMax[i]; }, 0, kGuard);
  checkElements("scan_1d: reverse cumsum f32 (" + shape + ")", rsum.host, n,
                [&](size_t i) { return refRev[i]; }, 0, kGuard);
  checkElements("scan_1d: running max, 2 sources (" + shape + ")", argv.host,
                n, [&](size_t i) { return refMax[i]; }, 0, kGuard);
  checkElements("scan_1d: running argmax, 2 sources (" + shape + ")",
                argi.host, n, [&](size_t i) { return double(refArg[i]); }, 0,
                kGuard);
}

/// scan_2d.mlir on an m x n matrix in 32 x 64 tiles.
void testScan2D(const LoadedKernel &kernel, size_t m, size_t n) {
  const size_t bm = 32, bn = 64;
  size_t count = m * n;
  Buffer<float> x(count), y(count), rowsum(count + kGuard),
      rowrev(count + kGuard), rowprod(count + kGuard), colmax(count + kGuard),
      colargv(count + kGuard);
  Buffer<int32_t> k(count), colsum(count + kGuard), colargi(count + kGuard);
  x.host = smallIntegers(count, -8, 8);
  y.host = randomFloats(count, 0.9f, 1.1f);
  k.host = anyInts(count);
  x.upload();
  y.upload();
  k.upload();
  for (auto *buffer : {&rowsum, &rowrev, &rowprod, &colmax, &colargv})
    buffer->poison();
  for (auto *buffer : {&colsum, &colargi})
    buffer->poison();
  launch(kernel, cdiv(m, bm), cdiv(n, bn), x.pointer(), y.pointer(),
         k.pointer(), rowsum.pointer(), rowrev.pointer(), rowprod.pointer(),
         colsum.pointer(), colmax.pointer(), colargv.pointer(),
         colargi.pointer(), int32_t(m), int32_t(n));
  check(runtime::synchronize(), "scan_2d");
  for (auto *buffer : {&rowsum, &rowrev, &rowprod, &colmax, &colargv})
    buffer->download();
  for (auto *buffer : {&colsum, &colargi})
    buffer->download();

  std::vector<double> refRowSum(count), refRowRev(count), refRowProd(count),
      refColMax(count), refColArgV(count);
  std::vector<int64_t> refColSum(count), refColArgI(count);
  auto at = [&](size_t i, size_t j) { return i * n + j; };
  // Along rows (axis 1), restarting at every tile column.
  for (size_t i = 0; i < m; ++i)
    for (size_t start = 0; start < n; start += bn) {
      size_t end = std::min(n, start + bn);
      double s = 0, p = 1;
      for (size_t j = start; j < end; ++j) {
        s += x.host[at(i, j)];
        p *= double(y.host[at(i, j)]);
        refRowSum[at(i, j)] = s;
        refRowProd[at(i, j)] = p;
      }
      double r = 0;
      for (size_t j = end; j-- > start;) {
        r += x.host[at(i, j)];
        refRowRev[at(i, j)] = r;
      }
    }
  // Along columns (axis 0), restarting at every tile row.
  for (size_t j = 0; j < n; ++j)
    for (size_t start = 0; start < m; start += bm) {
      size_t end = std::min(m, start + bm);
      int64_t s = 0, arg = 0;
      double best = -INFINITY;
      for (size_t i = start; i < end; ++i) {
        s += k.host[at(i, j)];
        refColSum[at(i, j)] = wrap(s);
        if (x.host[at(i, j)] > best) {
          best = x.host[at(i, j)];
          arg = int64_t(i - start);
        }
        refColArgV[at(i, j)] = best;
        refColArgI[at(i, j)] = arg;
      }
      double r = -INFINITY;
      for (size_t i = end; i-- > start;) {
        r = std::max(r, double(x.host[at(i, j)]));
        refColMax[at(i, j)] = r;
      }
    }
  std::string shape = std::to_string(m) + "x" + std::to_string(n) + ", " +
                      std::to_string(kernel.metadata.numWarps) + " warps";
  checkElements("scan_2d: cumsum f32 along axis 1 (" + shape + ")",
                rowsum.host, count, [&](size_t e) { return refRowSum[e]; }, 0,
                kGuard);
  checkElements("scan_2d: reverse cumsum along axis 1 (" + shape + ")",
                rowrev.host, count, [&](size_t e) { return refRowRev[e]; }, 0,
                kGuard);
  checkElements("scan_2d: cumprod along axis 1 (" + shape + ")", rowprod.host,
                count, [&](size_t e) { return refRowProd[e]; }, 5e-5, kGuard);
  checkElements("scan_2d: cumsum i32 along axis 0 (" + shape + ")",
                colsum.host, count,
                [&](size_t e) { return double(refColSum[e]); }, 0, kGuard);
  checkElements("scan_2d: reverse cummax along axis 0 (" + shape + ")",
                colmax.host, count, [&](size_t e) { return refColMax[e]; }, 0,
                kGuard);
  checkElements("scan_2d: running max along axis 0, 2 sources (" + shape +
                    ")",
                colargv.host, count, [&](size_t e) { return refColArgV[e]; },
                0, kGuard);
  checkElements("scan_2d: running argmax along axis 0, 2 sources (" + shape +
                    ")",
                colargi.host, count,
                [&](size_t e) { return double(refColArgI[e]); }, 0, kGuard);
}

/// scan_layouts.mlir (one program, 4 warps) with n valid elements of x.
void testScanLayouts(const LoadedKernel &kernel, size_t n) {
  const size_t sizeA = 512, sizeB = 2048, sizeC = 16;
  Buffer<float> x(std::max<size_t>(n, 1)), aSum(sizeA + kGuard),
      aRev(sizeA + kGuard), bCol(sizeB + kGuard), bRowRev(sizeB + kGuard),
      cSum(sizeC + kGuard);
  Buffer<int32_t> bRowArg(sizeB + kGuard);
  x.host = smallIntegers(x.host.size(), -8, 8);
  x.upload();
  for (auto *buffer : {&aSum, &aRev, &bCol, &bRowRev, &cSum})
    buffer->poison();
  bRowArg.poison();
  launch(kernel, 1, 1, x.pointer(), aSum.pointer(), aRev.pointer(),
         bCol.pointer(), bRowRev.pointer(), bRowArg.pointer(), cSum.pointer(),
         int32_t(n));
  check(runtime::synchronize(), "scan_layouts");
  for (auto *buffer : {&aSum, &aRev, &bCol, &bRowRev, &cSum})
    buffer->download();
  bRowArg.download();

  auto value = [&](size_t flat) { return flat < n ? double(x.host[flat]) : 0.0; };
  std::string label = " (n=" + std::to_string(n) + ")";
  size_t countA = std::min(n, sizeA);
  checkElements(
      "scan_layouts: cumsum, 4 per thread" + label, aSum.host, countA,
      [&](size_t i) {
        double s = 0;
        for (size_t j = 0; j <= i; ++j)
          s += value(j);
        return s;
      },
      0, sizeA + kGuard - countA);
  checkElements(
      "scan_layouts: reverse cumsum, 4 per thread" + label, aRev.host, countA,
      [&](size_t i) {
        double s = 0;
        for (size_t j = i; j < sizeA; ++j)
          s += value(j);
        return s;
      },
      0, sizeA + kGuard - countA);
  size_t countB = std::min(n, sizeB);
  checkElements(
      "scan_layouts: cumsum along axis 0 of 64x32, 2x2 per thread" + label,
      bCol.host, countB,
      [&](size_t f) {
        size_t r = f / 32, c = f % 32;
        double s = 0;
        for (size_t i = 0; i <= r; ++i)
          s += value(i * 32 + c);
        return s;
      },
      0, sizeB + kGuard - countB);
  checkElements(
      "scan_layouts: reverse cumsum along axis 1 of 64x32" + label,
      bRowRev.host, countB,
      [&](size_t f) {
        size_t r = f / 32, c = f % 32;
        double s = 0;
        for (size_t j = c; j < 32; ++j)
          s += value(r * 32 + j);
        return s;
      },
      0, sizeB + kGuard - countB);
  checkElements(
      "scan_layouts: running argmax along axis 1, 2 sources" + label,
      bRowArg.host, countB,
      [&](size_t f) {
        size_t r = f / 32, c = f % 32;
        double best = -INFINITY;
        size_t arg = 0;
        for (size_t j = 0; j <= c; ++j)
          if (value(r * 32 + j) > best) {
            best = value(r * 32 + j);
            arg = j;
          }
        return double(arg);
      },
      0, sizeB + kGuard - countB);
  size_t countC = std::min(n, sizeC);
  checkElements(
      "scan_layouts: cumsum in a slice layout with copies" + label, cSum.host,
      countC,
      [&](size_t i) {
        double s = 0;
        for (size_t j = 0; j <= i; ++j)
          s += value(j);
        return s;
      },
      0, sizeC + kGuard - countC);
}

/// scan_linear.mlir (one program, 4 warps) with n valid elements of x.
void testScanLinear(const LoadedKernel &kernel, size_t n) {
  const size_t sizeA = 256, sizeB = 512;
  Buffer<float> x(std::max<size_t>(n, 1)), aSum(sizeA + kGuard),
      aRev(sizeA + kGuard), bRow(sizeB + kGuard), bCol(sizeB + kGuard);
  Buffer<int32_t> aArg(sizeA + kGuard);
  x.host = smallIntegers(x.host.size(), -8, 8);
  x.upload();
  for (auto *buffer : {&aSum, &aRev, &bRow, &bCol})
    buffer->poison();
  aArg.poison();
  launch(kernel, 1, 1, x.pointer(), aSum.pointer(), aRev.pointer(),
         aArg.pointer(), bRow.pointer(), bCol.pointer(), int32_t(n));
  check(runtime::synchronize(), "scan_linear");
  for (auto *buffer : {&aSum, &aRev, &bRow, &bCol})
    buffer->download();
  aArg.download();

  auto value = [&](size_t flat) { return flat < n ? double(x.host[flat]) : 0.0; };
  std::string label = " (n=" + std::to_string(n) + ")";
  size_t countA = std::min(n, sizeA);
  checkElements(
      "scan_linear: cumsum, lanes out of order, 2 warp runs" + label,
      aSum.host, countA,
      [&](size_t i) {
        double s = 0;
        for (size_t j = 0; j <= i; ++j)
          s += value(j);
        return s;
      },
      0, sizeA + kGuard - countA);
  checkElements(
      "scan_linear: reverse cumsum, 2 warp runs" + label, aRev.host, countA,
      [&](size_t i) {
        double s = 0;
        for (size_t j = i; j < sizeA; ++j)
          s += value(j);
        return s;
      },
      0, sizeA + kGuard - countA);
  checkElements(
      "scan_linear: running argmax, 2 sources" + label, aArg.host, countA,
      [&](size_t i) {
        double best = -INFINITY;
        size_t arg = 0;
        for (size_t j = 0; j <= i; ++j)
          if (value(j) > best) {
            best = value(j);
            arg = j;
          }
        return double(arg);
      },
      0, sizeA + kGuard - countA);
  size_t countB = std::min(n, sizeB);
  checkElements(
      "scan_linear: cumsum along axis 1 with copies" + label, bRow.host,
      countB,
      [&](size_t f) {
        size_t r = f / 32, c = f % 32;
        double s = 0;
        for (size_t j = 0; j <= c; ++j)
          s += value(r * 32 + j);
        return s;
      },
      0, sizeB + kGuard - countB);
  checkElements(
      "scan_linear: reverse cumsum along axis 0 with copies" + label,
      bCol.host, countB,
      [&](size_t f) {
        size_t r = f / 32, c = f % 32;
        double s = 0;
        for (size_t i = r; i < 16; ++i)
          s += value(i * 32 + c);
        return s;
      },
      0, sizeB + kGuard - countB);
}

} // namespace

TERRAZZO_GPU_TEST_SUITE(scan) {
  const std::string oneD = "test/GPU/kernels/scan_1d.mlir";
  const std::string twoD = "test/GPU/kernels/scan_2d.mlir";
  for (int warps : {1, 4, 8}) {
    LoadedKernel kernel = loadKernel(oneD, warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(1024 * 5 + 3),
                     size_t(100003)})
      testScan1D(kernel, n, 1024);
  }
  // Blocks smaller than the threads: 128 elements over 8 warps (warps hold
  // copies), 16 over 4 warps (lanes and warps hold copies).
  {
    LoadedKernel kernel = loadVariant(oneD, "1024", "128", 8);
    for (size_t n : {size_t(100), size_t(128 * 7 + 5)})
      testScan1D(kernel, n, 128);
  }
  {
    LoadedKernel kernel = loadVariant(oneD, "1024", "16", 4);
    for (size_t n : {size_t(7), size_t(16 * 9 + 11)})
      testScan1D(kernel, n, 16);
  }
  for (int warps : {1, 4, 8}) {
    LoadedKernel kernel = loadKernel(twoD, warps);
    testScan2D(kernel, 1, 1);
    testScan2D(kernel, 37, 100);
    testScan2D(kernel, 300, 517);
  }
  LoadedKernel layouts = loadKernel("test/GPU/kernels/scan_layouts.mlir", 4);
  for (size_t n : {size_t(2048), size_t(1000), size_t(7)})
    testScanLayouts(layouts, n);
  LoadedKernel linear = loadKernel("test/GPU/kernels/scan_linear.mlir", 4);
  for (size_t n : {size_t(512), size_t(300), size_t(200), size_t(7)})
    testScanLinear(linear, n);
}
