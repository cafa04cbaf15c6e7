// The GPU test program of the NVIDIA code generation: compiles kernels from
// tile IR with the public API, launches them through the runtime, and checks
// every element against a float64 (or exact) host reference on fresh random
// inputs, including sizes that are not multiples of the block and the
// elements just past the end, which masked stores must leave alone.
//
//   run-gpu-kernels <source root> [suite filter]   (exit 77 without a GPU)
#include "GpuTestSupport.h"

#include <cmath>
#include <random>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

void testVectorAdd(const LoadedKernel &kernel, size_t n,
                   const std::string &name = "vector_add") {
  Buffer<float> x(n), y(n), out(n + kGuard);
  x.host = randomFloats(n, -1, 1);
  y.host = randomFloats(n, -1, 1);
  x.upload();
  y.upload();
  out.poison();
  launch(kernel, cdiv(n, 1024), 1, x.pointer(), y.pointer(), out.pointer(),
         int32_t(n));
  check(runtime::synchronize(), "vector add");
  out.download();
  checkElements(name, out.host, n,
                [&](size_t i) { return double(x.host[i]) + double(y.host[i]); },
                1e-7, kGuard);
}

void testFused(const LoadedKernel &kernel, size_t n) {
  Buffer<float> x(n), y(n), z(n), out(n + kGuard);
  x.host = randomFloats(n, -2, 2);
  y.host = randomFloats(n, -2, 2);
  z.host = randomFloats(n, -4, 4);
  x.upload();
  y.upload();
  z.upload();
  out.poison();
  launch(kernel, cdiv(n, 512), 1, x.pointer(), y.pointer(), z.pointer(),
         out.pointer(), int32_t(n));
  check(runtime::synchronize(), "fused elementwise");
  out.download();
  checkElements(
      "fused_elementwise (exp, sqrt, select, tanh)", out.host, n,
      [&](size_t i) {
        double xv = x.host[i], yv = y.host[i], zv = z.host[i];
        return std::tanh(std::exp(xv) * yv + std::sqrt(std::fabs(zv)) -
                         std::max(xv, yv));
      },
      2e-5, kGuard);
}

void testCopy2D(const LoadedKernel &kernel, int m, int n, int srcStride,
                int dstStride) {
  Buffer<float> src(size_t(m) * srcStride), dst(size_t(m) * dstStride + kGuard);
  src.host = randomFloats(src.host.size(), -100, 100);
  src.upload();
  dst.poison();
  launch(kernel, cdiv(m, 32), cdiv(n, 64), src.pointer(), dst.pointer(),
         int32_t(m), int32_t(n), int32_t(srcStride), int32_t(dstStride));
  check(runtime::synchronize(), "copy2d");
  dst.download();
  size_t wrong = 0, clobbered = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < dstStride; ++j) {
      float value = dst.host[size_t(i) * dstStride + j];
      if (j < n)
        wrong += value != src.host[size_t(i) * srcStride + j];
      else
        clobbered += !isPoison(value);
    }
  for (size_t k = 0; k < kGuard; ++k)
    clobbered += !isPoison(dst.host[size_t(m) * dstStride + k]);
  char detail[200];
  std::snprintf(detail, sizeof(detail),
                "%dx%d, strides %d/%d: %zu wrong, %zu padding elements "
                "overwritten",
                m, n, srcStride, dstStride, wrong, clobbered);
  report("copy2d (2-D grid, masks on both dims)", wrong == 0 && clobbered == 0,
         detail);
}

/// dst (n x m, row stride dstStride) = the transpose of src (m x n, row
/// stride srcStride); the padding past each destination row must survive.
void testTranspose(const LoadedKernel &kernel, int m, int n, int srcStride,
                   int dstStride, const std::string &name) {
  Buffer<float> src(size_t(m) * srcStride), dst(size_t(n) * dstStride + kGuard);
  src.host = randomFloats(src.host.size(), -100, 100);
  src.upload();
  dst.poison();
  launch(kernel, cdiv(m, 64), cdiv(n, 64), src.pointer(), dst.pointer(),
         int32_t(m), int32_t(n), int32_t(srcStride), int32_t(dstStride));
  check(runtime::synchronize(), "transpose");
  dst.download();
  size_t wrong = 0, clobbered = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < dstStride; ++i) {
      float value = dst.host[size_t(j) * dstStride + i];
      if (i < m)
        wrong += value != src.host[size_t(i) * srcStride + j];
      else
        clobbered += !isPoison(value);
    }
  for (size_t k = 0; k < kGuard; ++k)
    clobbered += !isPoison(dst.host[size_t(n) * dstStride + k]);
  char detail[200];
  std::snprintf(detail, sizeof(detail),
                "%dx%d, strides %d/%d: %zu wrong, %zu padding elements "
                "overwritten",
                m, n, srcStride, dstStride, wrong, clobbered);
  report(name, wrong == 0 && clobbered == 0, detail);
}

void testLoopSum(const LoadedKernel &kernel, int rows, int cols) {
  Buffer<float> x(size_t(std::max(rows, 1)) * cols), out(size_t(cols) + kGuard);
  x.host = randomFloats(x.host.size(), -1, 1);
  x.upload();
  out.poison();
  launch(kernel, cdiv(cols, 256), 1, x.pointer(), out.pointer(), int32_t(rows),
         int32_t(cols));
  check(runtime::synchronize(), "loop sum");
  out.download();
  char name[96];
  std::snprintf(name, sizeof(name), "loop_sum (scf.for + scf.if) rows=%d", rows);
  checkElements(name, out.host, size_t(cols),
                [&](size_t j) {
                  double sum = 0;
                  for (int k = 0; k < rows; ++k)
                    sum += x.host[size_t(k) * cols + j];
                  return rows % 2 ? 2 * sum : sum;
                },
                1e-5, kGuard);
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t biased = (x >> 23) & 0xFF;
  uint32_t mantissa = x & 0x7FFFFF;
  if (biased == 0xFF)
    return sign | 0x7C00 | (mantissa ? 0x200 : 0);
  int32_t exponent = biased - 127 + 15;
  if (exponent >= 31)
    return sign | 0x7C00;
  if (exponent <= 0) {
    if (exponent < -10)
      return sign;
    mantissa |= 0x800000;
    int shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | half;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  uint32_t bits;
  std::memcpy(&bits, &magnitude, 4);
  bits |= sign;
  std::memcpy(&magnitude, &bits, 4);
  return magnitude;
}

uint16_t floatToBFloat16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7FFF + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

void testWidenF16(const LoadedKernel &kernel, size_t n) {
  Buffer<uint16_t> x(n);
  Buffer<float> out(n + kGuard);
  std::vector<float> values = randomFloats(n, -60000, 60000);
  for (size_t i = 0; i < n; ++i)
    x.host[i] = floatToHalf(values[i]);
  x.upload();
  out.poison();
  launch(kernel, cdiv(n, 1024), 1, x.pointer(), out.pointer());
  check(runtime::synchronize(), "widen f16");
  out.download();
  checkElements("widen f16 -> f32 (load and store layouts differ)", out.host,
                n, [&](size_t i) { return double(halfToFloat(x.host[i])); }, 0,
                kGuard);
}

/// Vector add with `x` four bytes off a 16-byte boundary: the kernel drops
/// x's alignment hint, so its loads are scalar while y's stay vectors.
void testVectorAddMisaligned(const LoadedKernel &kernel, size_t n) {
  Buffer<float> x(n + 1), y(n), out(n + kGuard);
  x.host = randomFloats(n + 1, -1, 1);
  y.host = randomFloats(n, -1, 1);
  x.upload();
  y.upload();
  out.poison();
  launch(kernel, cdiv(n, 1024), 1, x.pointer() + sizeof(float), y.pointer(),
         out.pointer(), int32_t(n));
  check(runtime::synchronize(), "misaligned vector add");
  out.download();
  checkElements("vector_add with a misaligned input", out.host, n,
                [&](size_t i) {
                  return double(x.host[i + 1]) + double(y.host[i]);
                },
                1e-7, kGuard);
}

void testConversions(const LoadedKernel &kernel, size_t n) {
  Buffer<float> x(n), f16f32(n + kGuard), i32f32(n + kGuard);
  Buffer<int32_t> xi(n), i32(n + kGuard);
  Buffer<uint16_t> f16(n + kGuard), bf16(n + kGuard);
  Buffer<double> f64(n + kGuard);
  Buffer<int64_t> i64(n + kGuard);
  x.host = randomFloats(n, -1000, 1000);
  std::uniform_int_distribution<int32_t> ints(-(1 << 30), 1 << 30);
  for (int32_t &value : xi.host)
    value = ints(rng());
  x.upload();
  xi.upload();
  for (auto *buffer : {&f16f32, &i32f32})
    buffer->poison();
  f16.poison();
  bf16.poison();
  i32.poison();
  f64.poison();
  i64.poison();
  launch(kernel, cdiv(n, 256), 1, x.pointer(), xi.pointer(), f16.pointer(),
         bf16.pointer(), f16f32.pointer(), i32.pointer(), i32f32.pointer(),
         f64.pointer(), i64.pointer(), int32_t(n));
  check(runtime::synchronize(), "conversions");
  for (auto *buffer : {&f16f32, &i32f32})
    buffer->download();
  f16.download();
  bf16.download();
  i32.download();
  f64.download();
  i64.download();
  checkElements("convert f32 -> f16 (bits, round to nearest even)", f16.host, n,
                [&](size_t i) { return double(floatToHalf(x.host[i])); }, 0,
                kGuard);
  checkElements("convert f32 -> bf16 (bits, round to nearest even)", bf16.host,
                n, [&](size_t i) { return double(floatToBFloat16(x.host[i])); },
                0, kGuard);
  checkElements("convert f32 -> f16 -> f32", f16f32.host, n,
                [&](size_t i) { return double(halfToFloat(floatToHalf(x.host[i]))); },
                0, kGuard);
  checkElements("convert f32 -> i32 (toward zero)", i32.host, n,
                [&](size_t i) { return double(int32_t(x.host[i])); }, 0,
                kGuard);
  checkElements("convert i32 -> f32", i32f32.host, n,
                [&](size_t i) { return double(float(xi.host[i])); }, 0, kGuard);
  checkElements("convert f32 -> f64, multiply in f64", f64.host, n,
                [&](size_t i) { return double(x.host[i]) * 0.3333333333333333; },
                0, kGuard);
  checkElements("convert i32 -> i64, multiply in i64", i64.host, n,
                [&](size_t i) {
                  return double(int64_t(xi.host[i]) * int64_t(3000000000));
                },
                0, kGuard);
}

/// out[i, j] = x[i] * y[j] + x[i] (m x n, row-major, n columns) and
/// twice[i] = 2 x[i]: x broadcast along the columns moves between threads,
/// through shared memory (several warps) or warp shuffles (one warp).
void testOuter(const LoadedKernel &kernel, int m, int n) {
  Buffer<float> x(m), y(n), out(size_t(m) * n + kGuard), twice(m + kGuard);
  x.host = randomFloats(m, -10, 10);
  y.host = randomFloats(n, -10, 10);
  x.upload();
  y.upload();
  out.poison();
  twice.poison();
  bool shuffles = kernel.metadata.numWarps == 1;
  if (!shuffles && kernel.metadata.sharedMemoryBytes <= 0) {
    report("outer (layout conversion through shared memory)", false,
           "the kernel declares no shared memory");
    return;
  }
  launch(kernel, cdiv(m, 32), cdiv(n, 64), x.pointer(), y.pointer(),
         out.pointer(), twice.pointer(), int32_t(m), int32_t(n));
  check(runtime::synchronize(), "outer");
  out.download();
  twice.download();
  std::string shape = std::to_string(m) + "x" + std::to_string(n) +
                      (shuffles ? " (shuffles)" : " (shared memory)");
  checkElements(
      "outer x[:, None] * y[None, :] + x[:, None] " + shape, out.host,
      size_t(m) * n,
      [&](size_t k) {
        double xv = x.host[k / n], yv = y.host[k % n];
        return xv * yv + xv;
      },
      2e-5, kGuard);
  checkElements(
      "outer: x used directly, 2 * x " + shape, twice.host, size_t(m),
      [&](size_t i) { return 2.0 * x.host[i]; }, 0, kGuard);
}

/// For an m x n matrix tiled 8 x 128 over a 2-D grid, sum[b * m + i],
/// max[b * m + i] and arg[b * m + i] are the sum, the maximum and the
/// column of the maximum (lowest on ties) of row i over column block b, and
/// total[b * programs along x + p] the sum of tile (p, b): tile.reduce along
/// axis 1 with three combine regions (the argmax with two sources), masked
/// on both dimensions, and a 1-D reduction to a scalar. With 4 or 8 warps
/// the axis spans warps (shared memory); with one warp it stays in the warp
/// (butterfly shuffles).
void testRowSum(const LoadedKernel &kernel, int m, int n) {
  size_t blocks = size_t(n + 127) / 128;
  size_t gridM = size_t(m + 7) / 8;
  size_t count = blocks * m;
  Buffer<float> x(size_t(m) * n), sum(count + kGuard), max(count + kGuard),
      total(blocks * gridM + kGuard);
  Buffer<int32_t> arg(count + kGuard);
  x.host = randomFloats(size_t(m) * n, -10, 10);
  // Ties: in some rows every element of a block is equal, so the argmax
  // must pick the lowest column.
  for (size_t i = 3; i < size_t(m); i += 5)
    for (size_t j = 0; j < size_t(n); ++j)
      x.host[i * n + j] = 1.5f;
  x.upload();
  sum.poison();
  max.poison();
  arg.poison();
  total.poison();
  launch(kernel, unsigned(gridM), unsigned(blocks), x.pointer(), sum.pointer(),
         max.pointer(), arg.pointer(), total.pointer(), int32_t(m),
         int32_t(n));
  check(runtime::synchronize(), "row_sum");
  sum.download();
  max.download();
  arg.download();
  total.download();
  std::string shape = std::to_string(m) + "x" + std::to_string(n) + ", " +
                      std::to_string(kernel.metadata.numWarps) + " warps";
  // Sums in float32 of up to 128 (1024 for the tile) values in [-10, 10]
  // against float64: relative 1e-3 leaves room for rounding, not for a
  // missing or doubled element.
  struct Row {
    double sum = 0, max = -INFINITY;
    size_t arg = 0;
  };
  auto reference = [&](size_t k) {
    size_t block = k / m, row = k % m;
    Row r;
    for (size_t j = block * 128; j < std::min<size_t>(n, (block + 1) * 128);
         ++j) {
      double v = x.host[row * n + j];
      r.sum += v;
      if (v > r.max) {
        r.max = v;
        r.arg = j;
      }
    }
    return r;
  };
  checkElements("row_sum: sum along axis 1 " + shape, sum.host, count,
                [&](size_t k) { return reference(k).sum; }, 1e-3, kGuard);
  checkElements("row_sum: max along axis 1 " + shape, max.host, count,
                [&](size_t k) { return reference(k).max; }, 0, kGuard);
  checkElements("row_sum: argmax along axis 1 " + shape, arg.host, count,
                [&](size_t k) { return double(reference(k).arg); }, 0, kGuard);
  checkElements(
      "row_sum: 1-D sum of a tile's row sums " + shape, total.host,
      blocks * gridM,
      [&](size_t t) {
        size_t block = t / gridM, tileRow = t % gridM;
        double s = 0;
        for (size_t i = tileRow * 8; i < std::min<size_t>(m, tileRow * 8 + 8);
             ++i)
          s += reference(block * m + i).sum;
        return s;
      },
      1e-3, kGuard);
}

} // namespace

// The code generation of issue 3 and the conversions and reductions of
// issue 5; other suites live in their own files (*Tests.cpp).
TERRAZZO_GPU_TEST_SUITE(codegen) {
  const std::string &root = sourceRoot();
  auto load = [&](const std::string &path) {
    return loadKernel(path);
  };
  LoadedKernel vectorAdd = load("tutorials/vector-add.mlir");
  LoadedKernel fused = load("test/GPU/kernels/fused_elementwise.mlir");
  LoadedKernel copy2d = load("test/GPU/kernels/copy2d.mlir");
  LoadedKernel conversions = load("test/GPU/kernels/conversions.mlir");
  LoadedKernel loopSum = load("test/GPU/kernels/loop_sum.mlir");
  LoadedKernel widen = load("test/GPU/kernels/widen_f16.mlir");
  LoadedKernel outer = load("test/GPU/kernels/outer.mlir");
  // With one warp, outer's conversion is a warp shuffle and those of
  // conversions.mlir go through shared memory.
  LoadedKernel outerOneWarp = compileAndLoad(
      readFile(root + "/test/GPU/kernels/outer.mlir"), "outer.mlir", 1);
  LoadedKernel outerEightWarps = compileAndLoad(
      readFile(root + "/test/GPU/kernels/outer.mlir"), "outer.mlir", 8);
  LoadedKernel rowSum = load("test/GPU/kernels/row_sum.mlir");
  LoadedKernel rowSumOneWarp = compileAndLoad(
      readFile(root + "/test/GPU/kernels/row_sum.mlir"), "row_sum.mlir", 1);
  LoadedKernel rowSumEightWarps = compileAndLoad(
      readFile(root + "/test/GPU/kernels/row_sum.mlir"), "row_sum.mlir", 8);
  LoadedKernel conversionsOneWarp = compileAndLoad(
      readFile(root + "/test/GPU/kernels/conversions.mlir"),
      "conversions.mlir", 1);
  std::string misalignedSource =
      readFile(root + "/tutorials/vector-add.mlir");
  // x without its alignment (its size stays below 2 GiB, as launches on
  // such tensors say).
  const std::string xHint = "%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, "
                            "tile.pointer_range = 32 : i32}";
  size_t hintAt = misalignedSource.find(xHint);
  if (hintAt == std::string::npos) {
    std::fprintf(stderr, "error: vector-add.mlir has no '%s'\n", xHint.c_str());
    std::exit(2);
  }
  misalignedSource.replace(hintAt, xHint.size(),
                           "%x: !tile.ptr<f32> {tile.pointer_range = 32 : i32}");
  LoadedKernel misaligned =
      compileAndLoad(misalignedSource, "vector-add-misaligned.mlir");
  // The same vector add with a cache modifier or eviction hint on each
  // access (inline PTX on NVIDIA).
  std::string hinted = readFile(root + "/tutorials/vector-add.mlir");
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"%xv = tile.load %x_ptrs, %mask :",
                                            "%xv = tile.load %x_ptrs, %mask cache = cg :"},
        {"%yv = tile.load %y_ptrs, %mask :",
         "%yv = tile.load %y_ptrs, %mask evict = evict_first :"},
        {"tile.store %out_ptrs, %sum, %mask :",
         "tile.store %out_ptrs, %sum, %mask cache = cs :"}}) {
    size_t at = hinted.find(from);
    if (at == std::string::npos) {
      std::fprintf(stderr, "error: vector-add.mlir has no '%s'\n", from.c_str());
      std::exit(2);
    }
    hinted.replace(at, from.size(), to);
  }
  LoadedKernel vectorAddHinted = compileAndLoad(hinted, "vector-add-hints.mlir");

  // vector-add.mlir promises n % 16 == 0 (tile.divisibility on n).
  for (size_t n : {16, 1024 * 3 + 48, 98304 + 16 * 7, (1 << 20) + 16 * 5})
    testVectorAdd(vectorAdd, n);
  for (size_t n : {48, (1 << 20) + 16 * 3})
    testVectorAdd(vectorAddHinted, n, "vector_add with cache/eviction hints");
  for (size_t n : {1, 511, 513, 100003})
    testFused(fused, n);
  testCopy2D(copy2d, 1000, 777, 784, 800);
  testCopy2D(copy2d, 31, 65, 80, 96);
  testCopy2D(copy2d, 64, 128, 128, 128);
  // A transposing conversion through swizzled shared memory, at 1, 4 and 8
  // warps.
  for (int warps : {1, 4, 8}) {
    LoadedKernel transpose =
        loadKernel("test/GPU/kernels/transpose_copy.mlir", warps);
    std::string name =
        "transpose_copy (swizzled scratch), " + std::to_string(warps) + " warps";
    testTranspose(transpose, 1000, 777, 784, 1008, name);
    testTranspose(transpose, 64, 64, 64, 64, name);
    testTranspose(transpose, 1, 130, 144, 16, name);
  }
  for (size_t n : {1, 255, 5000})
    testConversions(conversions, n);
  for (size_t n : {1024, 1024 * 37})
    testWidenF16(widen, n);
  for (size_t n : {16, 1024 * 5 + 32})
    testVectorAddMisaligned(misaligned, n);
  for (int rows : {0, 1, 7, 64})
    for (int cols : {16, 256 * 3 + 48})
      testLoopSum(loopSum, rows, cols);
  for (auto [m, n] : {std::pair{32, 64}, {1, 1}, {100, 77}, {257, 1000}})
    for (const LoadedKernel *kernel : {&outer, &outerOneWarp, &outerEightWarps})
      testOuter(*kernel, m, n);
  for (size_t n : {1, 255, 5000})
    testConversions(conversionsOneWarp, n);
  for (auto [m, n] : {std::pair{8, 128}, {1, 1}, {13, 100}, {100, 300},
                      {257, 1000}})
    for (const LoadedKernel *kernel : {&rowSum, &rowSumOneWarp, &rowSumEightWarps})
      testRowSum(*kernel, m, n);
}

int main(int argc, char **argv) {
  runtime::Status status = runtime::initialize();
  if (!status.ok() || !runtime::isAvailable()) {
    std::printf("SKIP: no CUDA GPU here (%s)\n", status.message.c_str());
    return 77;
  }
  auto properties = take(runtime::getDeviceProperties(0), "device properties");
  std::printf("device: %s (%s)\n", properties.name.c_str(),
              deviceTarget().c_str());
  runSuites(argc > 1 ? argv[1] : ".", argc > 2 ? argv[2] : "");
  std::printf("%d passed, %d failed\n", passedCount(), failedCount());
  return failedCount() ? 1 : 0;
}
