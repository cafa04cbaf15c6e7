#include "dialects/TileGPU/Layout/MmaLayouts.h"

#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

using namespace terrazzo;
using Basis = LinearLayout::Basis;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::report_fatal_error(llvm::Twine("MMA layout: ") + message);
}

void checkShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.size() != 2)
    fail("tensor-core layouts are 2-D, got rank " + llvm::Twine(shape.size()));
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      fail("sizes must be powers of two, got " + llvm::Twine(size));
}

/// `count` bases doubling from `first` along dimension `dim` of a 2-D tile.
void appendAlong(std::vector<Basis> &bases, unsigned dim, int32_t first,
                 unsigned count) {
  for (unsigned i = 0; i < count; ++i) {
    Basis basis{0, 0};
    basis[dim] = first << i;
    bases.push_back(basis);
  }
}

void appendZeros(std::vector<Basis> &bases, unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    bases.push_back(Basis{0, 0});
}

unsigned log2Of(unsigned value, const char *what) {
  if (value == 0 || !llvm::isPowerOf2_32(value))
    fail(llvm::Twine(what) + " must be a power of two, got " +
         llvm::Twine(value));
  return llvm::Log2_32(value);
}

/// The tile (registers, lanes, warps; no block bits) fitted to `shape`,
/// repeating along `repeatOrder`.
LinearLayout fit(std::vector<Basis> registers, std::vector<Basis> lanes,
                 std::vector<Basis> warps, llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<unsigned> repeatOrder) {
  int32_t extent[2] = {1, 1};
  for (const std::vector<Basis> *group : {&registers, &lanes, &warps})
    for (const Basis &basis : *group)
      for (unsigned d = 0; d < 2; ++d)
        extent[d] = std::max(extent[d], 2 * basis[d]);
  LinearLayout tile(
      {{"register", std::move(registers)},
       {"lane", std::move(lanes)},
       {"warp", std::move(warps)},
       {"block", {}}},
      {{tensorDimName(0), extent[0]}, {tensorDimName(1), extent[1]}});
  return fitLayoutToShape(tile, shape, repeatOrder);
}

} // namespace

LinearLayout terrazzo::nvidiaMmaLayout(llvm::ArrayRef<int64_t> shape,
                                       unsigned version,
                                       llvm::ArrayRef<unsigned> warpsPerCTA,
                                       unsigned instrN) {
  checkShape(shape);
  if (warpsPerCTA.size() != 2)
    fail("warpsPerCTA needs two entries");
  if (version != 2 && version != 3)
    fail("version must be 2 or 3, got " + llvm::Twine(version));
  unsigned warpBitsM = log2Of(warpsPerCTA[0], "warpsPerCTA[0]");
  unsigned warpBitsN = log2Of(warpsPerCTA[1], "warpsPerCTA[1]");
  unsigned tilesN = log2Of(instrN, "instrN") - 3;
  if (instrN < 8 || (version == 2 && instrN != 8))
    fail("instrN must be 8 for version 2 and at least 8 for version 3");
  if (version == 3 && warpBitsM < 2)
    fail("a wgmma warp group spans four warps along M");

  std::vector<Basis> registers{{0, 1}, {8, 0}};
  appendAlong(registers, 1, 8, tilesN);
  std::vector<Basis> lanes{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Basis> warps;
  appendAlong(warps, 0, 16, warpBitsM);
  appendAlong(warps, 1, static_cast<int32_t>(instrN), warpBitsN);
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {1, 0});
}

LinearLayout terrazzo::mmaV2OperandLayout(llvm::ArrayRef<int64_t> shape,
                                          unsigned opIdx,
                                          llvm::ArrayRef<unsigned> warpsPerCTA,
                                          unsigned kWidth) {
  checkShape(shape);
  if (opIdx > 1)
    fail("opIdx must be 0 or 1, got " + llvm::Twine(opIdx));
  if (warpsPerCTA.size() != 2)
    fail("warpsPerCTA needs two entries");
  unsigned widthBits = log2Of(kWidth, "kWidth");
  unsigned warpBitsM = log2Of(warpsPerCTA[0], "warpsPerCTA[0]");
  unsigned warpBitsN = log2Of(warpsPerCTA[1], "warpsPerCTA[1]");
  int32_t width = static_cast<int32_t>(kWidth);
  // kDim is the dimension K runs along, other the one of M (A) or N (B).
  unsigned kDim = opIdx == 0 ? 1 : 0;
  unsigned other = 1 - kDim;

  std::vector<Basis> registers;
  appendAlong(registers, kDim, 1, widthBits);
  if (opIdx == 0)
    appendAlong(registers, other, 8, 1);
  appendAlong(registers, kDim, 4 * width, 1);
  std::vector<Basis> lanes;
  appendAlong(lanes, kDim, width, 2);
  appendAlong(lanes, other, 1, 3);
  std::vector<Basis> warps;
  if (opIdx == 0) {
    appendAlong(warps, other, 16, warpBitsM);
    appendZeros(warps, warpBitsN);
  } else {
    appendZeros(warps, warpBitsM);
    appendAlong(warps, other, 8, warpBitsN);
  }
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {kDim, other});
}
