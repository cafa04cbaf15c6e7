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

void check(const std::string &error) {
  if (!error.empty())
    fail(error);
}

/// log2 of a power of two in [1, 2^kMaxDimBits], or -1 and the reason in
/// *error.
int log2Of(unsigned value, const char *what, std::string &error) {
  if (value == 0 || !llvm::isPowerOf2_32(value) ||
      value > (1u << LinearLayout::kMaxDimBits)) {
    error = std::string(what) + " must be a power of two in [1, 2^" +
            std::to_string(LinearLayout::kMaxDimBits) + "], got " +
            std::to_string(value);
    return -1;
  }
  return int(llvm::Log2_32(value));
}

/// The checks both layouts share: a 2-D shape and two warp counts; sets
/// the warps' log2 along M and N.
std::string checkShapeAndWarps(llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<unsigned> warpsPerCTA,
                               int &warpBitsM, int &warpBitsN) {
  if (shape.size() != 2)
    return "tensor-core layouts are 2-D, got rank " +
           std::to_string(shape.size());
  if (std::string error = checkTensorShape(shape); !error.empty())
    return error;
  if (warpsPerCTA.size() != 2)
    return "warpsPerCTA needs two entries";
  std::string error;
  warpBitsM = log2Of(warpsPerCTA[0], "warpsPerCTA[0]", error);
  warpBitsN = log2Of(warpsPerCTA[1], "warpsPerCTA[1]", error);
  return error;
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

/// The checks both operand layouts share: checkShapeAndWarps, opIdx 0 or 1,
/// kWidth a power of two; sets the warps' and kWidth's log2.
std::string checkOperand(llvm::ArrayRef<int64_t> shape, unsigned opIdx,
                         llvm::ArrayRef<unsigned> warpsPerCTA, unsigned kWidth,
                         int &warpBitsM, int &warpBitsN, int &widthBits) {
  if (std::string error =
          checkShapeAndWarps(shape, warpsPerCTA, warpBitsM, warpBitsN);
      !error.empty())
    return error;
  if (opIdx > 1)
    return "opIdx must be 0 or 1, got " + std::to_string(opIdx);
  std::string error;
  widthBits = log2Of(kWidth, "kWidth", error);
  return error;
}

/// The warp bases of operand `opIdx`: A's warps along M step `stepM` and
/// B's along N `stepN`; the warps along the other dimension hold copies.
std::vector<Basis> operandWarps(unsigned opIdx, int32_t stepM, int32_t stepN,
                                unsigned warpBitsM, unsigned warpBitsN) {
  std::vector<Basis> warps;
  if (opIdx == 0) {
    appendAlong(warps, 0, stepM, warpBitsM);
    appendZeros(warps, warpBitsN);
  } else {
    appendZeros(warps, warpBitsM);
    appendAlong(warps, 1, stepN, warpBitsN);
  }
  return warps;
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

std::string terrazzo::checkNvidiaMmaLayout(llvm::ArrayRef<int64_t> shape,
                                           unsigned version,
                                           llvm::ArrayRef<unsigned> warpsPerCTA,
                                           unsigned instrN) {
  int warpBitsM, warpBitsN;
  if (std::string error =
          checkShapeAndWarps(shape, warpsPerCTA, warpBitsM, warpBitsN);
      !error.empty())
    return error;
  if (version != 2 && version != 3)
    return "version must be 2 or 3, got " + std::to_string(version);
  std::string error;
  int instrBits = log2Of(instrN, "instrN", error);
  if (instrBits < 0)
    return error;
  if (instrN < 8 || (version == 2 && instrN != 8))
    return "instrN must be 8 for version 2 and at least 8 for version 3";
  if (version == 3 && warpBitsM < 2)
    return "a wgmma warp group spans four warps along M";
  // The tile: 16 rows per warp along M, instrN columns per warp along N;
  // registers 2 per 8 columns, 32 lanes.
  return checkFitToShape({4 + warpBitsM, instrBits + warpBitsN},
                         2 + instrBits - 3, 5, warpBitsM + warpBitsN, shape);
}

LinearLayout terrazzo::nvidiaMmaLayout(llvm::ArrayRef<int64_t> shape,
                                       unsigned version,
                                       llvm::ArrayRef<unsigned> warpsPerCTA,
                                       unsigned instrN) {
  check(checkNvidiaMmaLayout(shape, version, warpsPerCTA, instrN));
  unsigned warpBitsM = llvm::Log2_32(warpsPerCTA[0]);
  unsigned warpBitsN = llvm::Log2_32(warpsPerCTA[1]);
  unsigned tilesN = llvm::Log2_32(instrN) - 3;

  std::vector<Basis> registers{{0, 1}, {8, 0}};
  appendAlong(registers, 1, 8, tilesN);
  std::vector<Basis> lanes{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Basis> warps;
  appendAlong(warps, 0, 16, warpBitsM);
  appendAlong(warps, 1, static_cast<int32_t>(instrN), warpBitsN);
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {1, 0});
}

std::string terrazzo::checkMmaV2OperandLayout(
    llvm::ArrayRef<int64_t> shape, unsigned opIdx,
    llvm::ArrayRef<unsigned> warpsPerCTA, unsigned kWidth) {
  int warpBitsM, warpBitsN, widthBits;
  if (std::string error = checkOperand(shape, opIdx, warpsPerCTA, kWidth,
                                       warpBitsM, warpBitsN, widthBits);
      !error.empty())
    return error;
  // The tile along K: kWidth per register, 4 lanes, 2 registers; along M
  // (A): 8 lanes, 2 registers, then the warps; along N (B): 8 lanes, then
  // the warps. Warps along the other dimension hold copies.
  int kBits = widthBits + 3;
  if (opIdx == 0)
    return checkFitToShape({4 + warpBitsM, kBits}, widthBits + 2, 5,
                           warpBitsM + warpBitsN, shape);
  return checkFitToShape({kBits, 3 + warpBitsN}, widthBits + 1, 5,
                         warpBitsM + warpBitsN, shape);
}

LinearLayout terrazzo::mmaV2OperandLayout(llvm::ArrayRef<int64_t> shape,
                                          unsigned opIdx,
                                          llvm::ArrayRef<unsigned> warpsPerCTA,
                                          unsigned kWidth) {
  check(checkMmaV2OperandLayout(shape, opIdx, warpsPerCTA, kWidth));
  unsigned widthBits = llvm::Log2_32(kWidth);
  unsigned warpBitsM = llvm::Log2_32(warpsPerCTA[0]);
  unsigned warpBitsN = llvm::Log2_32(warpsPerCTA[1]);
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
  std::vector<Basis> warps = operandWarps(opIdx, 16, 8, warpBitsM, warpBitsN);
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {kDim, other});
}

namespace {

/// MFMA runs on wavefronts of 64 lanes.
constexpr int kMfmaLaneBits = 6;

/// log2 of an MFMA result size (32 or 16), or -1 and the reason in *error.
int mfmaSizeBits(unsigned instrSize, std::string &error) {
  if (instrSize != 32 && instrSize != 16) {
    error = "the MFMA result tile must be 32 x 32 or 16 x 16, got " +
            std::to_string(instrSize);
    return -1;
  }
  return int(llvm::Log2_32(instrSize));
}

} // namespace

std::string terrazzo::checkAmdMfmaLayout(llvm::ArrayRef<int64_t> shape,
                                         llvm::ArrayRef<unsigned> warpsPerCTA,
                                         unsigned instrSize) {
  int warpBitsM, warpBitsN;
  if (std::string error =
          checkShapeAndWarps(shape, warpsPerCTA, warpBitsM, warpBitsN);
      !error.empty())
    return error;
  std::string error;
  int sizeBits = mfmaSizeBits(instrSize, error);
  if (sizeBits < 0)
    return error;
  // s^2 / 64 registers: rows 1, 2 and, for 32 x 32, 8 and 16.
  return checkFitToShape({sizeBits + warpBitsM, sizeBits + warpBitsN},
                         2 * sizeBits - kMfmaLaneBits, kMfmaLaneBits,
                         warpBitsM + warpBitsN, shape);
}

LinearLayout terrazzo::amdMfmaLayout(llvm::ArrayRef<int64_t> shape,
                                     llvm::ArrayRef<unsigned> warpsPerCTA,
                                     unsigned instrSize, bool transposed) {
  check(checkAmdMfmaLayout(shape, warpsPerCTA, instrSize));
  unsigned sizeBits = llvm::Log2_32(instrSize);
  int32_t size = static_cast<int32_t>(instrSize);
  // Rows r % 4 + 8 (r / 4) in registers, 4 (l / s) in the lanes above the
  // s columns; transposed, the same with rows and columns swapped.
  unsigned rows = transposed ? 1 : 0, columns = 1 - rows;
  std::vector<Basis> registers;
  appendAlong(registers, rows, 1, 2);
  appendAlong(registers, rows, 8, 2 * sizeBits - 8);
  std::vector<Basis> lanes;
  appendAlong(lanes, columns, 1, sizeBits);
  appendAlong(lanes, rows, 4, kMfmaLaneBits - sizeBits);
  std::vector<Basis> warps;
  appendAlong(warps, 0, size, llvm::Log2_32(warpsPerCTA[0]));
  appendAlong(warps, 1, size, llvm::Log2_32(warpsPerCTA[1]));
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {1, 0});
}

std::string
terrazzo::checkMfmaOperandLayout(llvm::ArrayRef<int64_t> shape, unsigned opIdx,
                                 llvm::ArrayRef<unsigned> warpsPerCTA,
                                 unsigned instrSize, unsigned kWidth) {
  int warpBitsM, warpBitsN, widthBits;
  if (std::string error = checkOperand(shape, opIdx, warpsPerCTA, kWidth,
                                       warpBitsM, warpBitsN, widthBits);
      !error.empty())
    return error;
  std::string error;
  int sizeBits = mfmaSizeBits(instrSize, error);
  if (sizeBits < 0)
    return error;
  // Along K: kWidth per lane, the lanes above the s rows (columns); along
  // M (N): s lanes, then the warps.
  int kBits = widthBits + kMfmaLaneBits - sizeBits;
  int otherBits = sizeBits + (opIdx == 0 ? warpBitsM : warpBitsN);
  if (opIdx == 0)
    return checkFitToShape({otherBits, kBits}, widthBits, kMfmaLaneBits,
                           warpBitsM + warpBitsN, shape);
  return checkFitToShape({kBits, otherBits}, widthBits, kMfmaLaneBits,
                         warpBitsM + warpBitsN, shape);
}

LinearLayout terrazzo::mfmaOperandLayout(llvm::ArrayRef<int64_t> shape,
                                         unsigned opIdx,
                                         llvm::ArrayRef<unsigned> warpsPerCTA,
                                         unsigned instrSize, unsigned kWidth) {
  check(checkMfmaOperandLayout(shape, opIdx, warpsPerCTA, instrSize, kWidth));
  unsigned sizeBits = llvm::Log2_32(instrSize);
  unsigned warpBitsM = llvm::Log2_32(warpsPerCTA[0]);
  unsigned warpBitsN = llvm::Log2_32(warpsPerCTA[1]);
  int32_t size = static_cast<int32_t>(instrSize);
  unsigned kDim = opIdx == 0 ? 1 : 0;
  unsigned other = 1 - kDim;

  std::vector<Basis> registers;
  appendAlong(registers, kDim, 1, llvm::Log2_32(kWidth));
  std::vector<Basis> lanes;
  appendAlong(lanes, other, 1, sizeBits);
  appendAlong(lanes, kDim, static_cast<int32_t>(kWidth),
              kMfmaLaneBits - sizeBits);
  std::vector<Basis> warps =
      operandWarps(opIdx, size, size, warpBitsM, warpBitsN);
  return fit(std::move(registers), std::move(lanes), std::move(warps), shape,
             {kDim, other});
}
