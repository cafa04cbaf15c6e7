#include "backends/common/MmaOperandLoads.h"

#include "backends/common/SharedMemoryAccess.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// One matrix load: the lane-0 coordinates of its first row (the row and
/// chunk origin of the group), how many 8 x 8 matrices, and for every
/// returned word and each of its two halves the register it fills.
struct MatrixLoad {
  Coordinates origin;
  unsigned num;
  SmallVector<std::array<int32_t, 2>> registers;
  /// How far along the stored rows lanes 16..31 (matrices 2 and 3) read
  /// from lanes 0..15.
  int32_t upperOffset = 8;
};

} // namespace

std::optional<SmallVector<Value>> mlir::terrazzo::loadMmaOperandWithMatrices(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, int32_t chunkElements, ThreadPosition thread,
    const TargetInfo &target,
    llvm::function_ref<Value(ArrayRef<Value>)> addressOf) {
  auto operand =
      dyn_cast_or_null<tilegpu::DotOperandLayoutAttr>(type.getEncoding());
  if (!operand || type.getRank() != 2 || operand.getKWidth() != 2 ||
      type.getElementType().getIntOrFloatBitWidth() != 16 ||
      chunkElements < 8 || type.getShape()[1] < 8)
    return std::nullopt;
  bool isA = operand.getOpIdx() == 0;

  std::map<Coordinates, int32_t> index = registerIndex(layout);
  auto registerAt = [&](int32_t row, int32_t column) -> int32_t {
    auto it = index.find(Coordinates{row, column});
    return it == index.end() ? -1 : it->second;
  };

  // Plan every load before emitting anything, so that a layout this does
  // not understand leaves no IR behind.
  SmallVector<MatrixLoad> loads;
  bool complete = true;
  if (isA) {
    // Matrices j = 0..3 of a 16 x 16 tile: rows m0 + 8 (j % 2), columns
    // k0 + 8 (j / 2); word j is the fragment's register j.
    for (int32_t m0 : tileOrigins(layout, 0, 16))
      for (int32_t k0 : tileOrigins(layout, 1, 16)) {
        MatrixLoad load{{m0, k0}, 4, {}};
        for (int32_t j = 0; j < 4; ++j) {
          int32_t row = m0 + 8 * (j % 2), column = k0 + 8 * (j / 2);
          load.registers.push_back(
              {registerAt(row, column), registerAt(row, column + 1)});
        }
        loads.push_back(std::move(load));
      }
  } else {
    // Transposed matrices of 16 x 8 (K x N) tiles: j = 0, 1 hold k0 and
    // k0 + 8 of the tile at n0, j = 2, 3 those of the thread's next tile
    // along N (8 further, or further where warps interleave along N).
    SmallVector<int32_t> nOrigins = tileOrigins(layout, 1, 8);
    for (int32_t k0 : tileOrigins(layout, 0, 16))
      for (size_t i = 0; i < nOrigins.size();) {
        int32_t n0 = nOrigins[i];
        bool pair = i + 1 < nOrigins.size();
        int32_t next = pair ? nOrigins[i + 1] - n0 : 0;
        MatrixLoad load{{k0, n0}, pair ? 4u : 2u, {}, next};
        for (int32_t j = 0; j < int32_t(load.num); ++j) {
          int32_t k = k0 + 8 * (j % 2), n = n0 + next * (j / 2);
          load.registers.push_back({registerAt(k, n), registerAt(k + 1, n)});
        }
        loads.push_back(std::move(load));
        i += pair ? 2 : 1;
      }
  }
  int32_t covered = 0;
  for (const MatrixLoad &load : loads)
    for (auto [low, high] : load.registers) {
      complete &= low >= 0 && high >= 0;
      covered += 2;
    }
  if (!complete || covered != layout.getInDimSize(kRegister))
    return std::nullopt;

  // The warp's own offset: the coordinates its lane 0 holds.
  ThreadPosition laneZero{i32Constant(rewriter, loc, 0), thread.warp};
  SmallVector<SmallVector<Value>> lane0 =
      emitIndices(rewriter, loc, layout, laneZero);
  // Lane l gives row l % 16 of the group (matrices 0/1 rows 0..15 along
  // the stored rows) and, for l >= 16, matrices 2/3 a load's upperOffset on.
  Value rowInGroup =
      LLVM::AndOp::create(rewriter, loc, thread.lane, i32Constant(rewriter, loc, 15));
  Value upperHalf = LLVM::LShrOp::create(rewriter, loc, thread.lane,
                                         i32Constant(rewriter, loc, 4));

  SmallVector<Value> results(layout.getInDimSize(kRegister));
  Type halfPair = VectorType::get({2}, type.getElementType());
  for (const MatrixLoad &load : loads) {
    int32_t originRegister = registerAt(load.origin[0], load.origin[1]);
    if (originRegister < 0)
      return std::nullopt;
    ArrayRef<Value> origin = lane0[originRegister];
    Value row = LLVM::AddOp::create(rewriter, loc, origin[0], rowInGroup);
    Value column = origin[1];
    if (load.num == 4)
      column = LLVM::AddOp::create(
          rewriter, loc, column,
          LLVM::MulOp::create(rewriter, loc, upperHalf,
                              i32Constant(rewriter, loc, load.upperOffset)));
    SmallVector<Value> words = target.loadMatrices(
        rewriter, loc, addressOf({row, column}), load.num, /*transposed=*/!isA);
    if (words.size() != load.num)
      return std::nullopt;
    for (auto [word, registers] : llvm::zip(words, load.registers)) {
      Value pair = LLVM::BitcastOp::create(rewriter, loc, halfPair, word);
      for (int32_t half = 0; half < 2; ++half)
        results[registers[half]] = LLVM::ExtractElementOp::create(
            rewriter, loc, pair, i32Constant(rewriter, loc, half));
    }
  }
  return results;
}

std::optional<SmallVector<Value>> mlir::terrazzo::loadMmaOperandFromBuffer(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, const LinearLayout &bufferLayout, Value base,
    Type element, ThreadPosition thread, const TargetInfo &target) {
  if (type.getRank() != 2 || !bufferLayout.isInvertible())
    return std::nullopt;
  // Coordinates -> offset. Rows keep 16-byte chunks when the three lowest
  // column bits are the three lowest offset bits and nothing else touches
  // those offset bits (swizzles move whole chunks).
  LinearLayout toOffset = bufferLayout.invert();
  constexpr int32_t kChunk = 8;
  std::string rowDim = toOffset.getInDimNames()[0];
  std::string columnDim = toOffset.getInDimNames()[1];
  for (int32_t bit = 0; bit < toOffset.getInDimSizeLog2(columnDim); ++bit) {
    int32_t offset = toOffset.getBasis(columnDim, bit)[0];
    if (bit < 3 ? offset != (1 << bit) : (offset & (kChunk - 1)) != 0)
      return std::nullopt;
  }
  if (toOffset.getInDimSizeLog2(columnDim) < 3)
    return std::nullopt;
  for (int32_t bit = 0; bit < toOffset.getInDimSizeLog2(rowDim); ++bit)
    if ((toOffset.getBasis(rowDim, bit)[0] & (kChunk - 1)) != 0)
      return std::nullopt;

  auto addressOf = [&](ArrayRef<Value> coords) -> Value {
    Value offset = applyLinearLayout(rewriter, loc, toOffset,
                                     {{rowDim, coords[0]},
                                      {columnDim, coords[1]}})
                       .front();
    return sharedElementPointer(rewriter, loc, base, element,
                                offset ? offset : i32Constant(rewriter, loc, 0));
  };
  return loadMmaOperandWithMatrices(rewriter, loc, type, layout, kChunk,
                                    thread, target, addressOf);
}
