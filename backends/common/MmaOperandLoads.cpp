#include "backends/common/MmaOperandLoads.h"

#include "backends/common/SharedMemoryAccess.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <functional>
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

/// The register of lane 0 of warp 0 holding (row, column) of a 2-D layout,
/// or -1 when no register does.
struct RegisterLookup {
  explicit RegisterLookup(const LinearLayout &layout)
      : index(registerIndex(layout)) {}
  int32_t operator()(int32_t row, int32_t column) const {
    auto it = index.find(Coordinates{row, column});
    return it == index.end() ? -1 : it->second;
  }
  std::map<Coordinates, int32_t> index;
};

/// The 16 x 16 tiles of a thread's registers as four untransposed 8 x 8
/// matrices each: j = 0..3 at rows m0 + 8 (j % 2), columns n0 + 8 (j / 2);
/// word j pairs the registers at (row, column) and (row, column + 1). This
/// is an mma.sync A fragment, and the accumulator of mma.sync and wgmma.
SmallVector<MatrixLoad> planRowTiles(const LinearLayout &layout,
                                     const RegisterLookup &registerAt) {
  SmallVector<MatrixLoad> tiles;
  for (int32_t m0 : tileOrigins(layout, 0, 16))
    for (int32_t n0 : tileOrigins(layout, 1, 16)) {
      MatrixLoad tile{{m0, n0}, 4, {}};
      for (int32_t j = 0; j < 4; ++j) {
        int32_t row = m0 + 8 * (j % 2), column = n0 + 8 * (j / 2);
        tile.registers.push_back(
            {registerAt(row, column), registerAt(row, column + 1)});
      }
      tiles.push_back(std::move(tile));
    }
  return tiles;
}

/// Whether `plan` names every register of `layout` exactly once.
bool coversAllRegisters(ArrayRef<MatrixLoad> plan, const LinearLayout &layout) {
  int32_t covered = 0;
  for (const MatrixLoad &load : plan)
    for (auto [low, high] : load.registers) {
      if (low < 0 || high < 0)
        return false;
      covered += 2;
    }
  return covered == layout.getInDimSize(kRegister);
}

/// The shared address the calling lane gives for `load`: row l % 16 of the
/// group from its origin (matrices 0/1 stacked along the rows), and for
/// l >= 16 (matrices 2/3) the load's upperOffset further along them.
/// `lane0`: the coordinates of each register in lane 0 of this warp.
Value matrixRowAddress(RewriterBase &rewriter, Location loc,
                       const MatrixLoad &load, ArrayRef<Value> origin,
                       ThreadPosition thread,
                       llvm::function_ref<Value(ArrayRef<Value>)> addressOf) {
  Value rowInGroup = LLVM::AndOp::create(rewriter, loc, thread.lane,
                                         i32Constant(rewriter, loc, 15));
  Value row = LLVM::AddOp::create(rewriter, loc, origin[0], rowInGroup);
  Value column = origin[1];
  if (load.num == 4) {
    Value upperHalf = LLVM::LShrOp::create(rewriter, loc, thread.lane,
                                           i32Constant(rewriter, loc, 4));
    column = LLVM::AddOp::create(
        rewriter, loc, column,
        LLVM::MulOp::create(rewriter, loc, upperHalf,
                            i32Constant(rewriter, loc, load.upperOffset)));
  }
  return addressOf({row, column});
}

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

  RegisterLookup registerAt(layout);

  // Plan every load before emitting anything, so that a layout this does
  // not understand leaves no IR behind.
  SmallVector<MatrixLoad> loads;
  if (isA) {
    loads = planRowTiles(layout, registerAt);
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
  if (!coversAllRegisters(loads, layout))
    return std::nullopt;

  // The warp's own offset: the coordinates its lane 0 holds.
  ThreadPosition laneZero{i32Constant(rewriter, loc, 0), thread.warp};
  SmallVector<SmallVector<Value>> lane0 =
      emitIndices(rewriter, loc, layout, laneZero);
  SmallVector<Value> results(layout.getInDimSize(kRegister));
  Type halfPair = VectorType::get({2}, type.getElementType());
  for (const MatrixLoad &load : loads) {
    int32_t originRegister = registerAt(load.origin[0], load.origin[1]);
    if (originRegister < 0)
      return std::nullopt;
    SmallVector<Value> words = target.loadMatrices(
        rewriter, loc,
        matrixRowAddress(rewriter, loc, load, lane0[originRegister], thread,
                         addressOf),
        load.num, /*transposed=*/!isA);
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

namespace {

/// The address of an element (row, column) of a shared buffer (`base`, its
/// linear layout offset -> coordinates), when the buffer keeps rows in
/// 16-byte chunks of eight consecutive 16-bit elements: the three lowest
/// column bits are the three lowest offset bits and nothing else touches
/// those offset bits (swizzles move whole chunks). Null otherwise.
std::function<Value(ArrayRef<Value>)>
chunkedRowAddresses(RewriterBase &rewriter, Location loc,
                    const LinearLayout &bufferLayout, Value base,
                    Type element) {
  if (!bufferLayout.isInvertible())
    return nullptr;
  LinearLayout toOffset = bufferLayout.invert();
  if (toOffset.getNumInDims() != 2)
    return nullptr;
  constexpr int32_t kChunk = 8;
  std::string rowDim = toOffset.getInDimNames()[0];
  std::string columnDim = toOffset.getInDimNames()[1];
  for (int32_t bit = 0; bit < toOffset.getInDimSizeLog2(columnDim); ++bit) {
    int32_t offset = toOffset.getBasis(columnDim, bit)[0];
    if (bit < 3 ? offset != (1 << bit) : (offset & (kChunk - 1)) != 0)
      return nullptr;
  }
  if (toOffset.getInDimSizeLog2(columnDim) < 3)
    return nullptr;
  for (int32_t bit = 0; bit < toOffset.getInDimSizeLog2(rowDim); ++bit)
    if ((toOffset.getBasis(rowDim, bit)[0] & (kChunk - 1)) != 0)
      return nullptr;
  return [&rewriter, loc, toOffset, rowDim, columnDim, base,
          element](ArrayRef<Value> coords) -> Value {
    Value offset = applyLinearLayout(rewriter, loc, toOffset,
                                     {{rowDim, coords[0]},
                                      {columnDim, coords[1]}})
                       .front();
    return sharedElementPointer(rewriter, loc, base, element,
                                offset ? offset : i32Constant(rewriter, loc, 0));
  };
}

constexpr int32_t kBufferChunkElements = 8;

} // namespace

std::optional<SmallVector<Value>> mlir::terrazzo::loadMmaOperandFromBuffer(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, const LinearLayout &bufferLayout, Value base,
    Type element, ThreadPosition thread, const TargetInfo &target) {
  if (type.getRank() != 2)
    return std::nullopt;
  auto addressOf =
      chunkedRowAddresses(rewriter, loc, bufferLayout, base, element);
  if (!addressOf)
    return std::nullopt;
  return loadMmaOperandWithMatrices(rewriter, loc, type, layout,
                                    kBufferChunkElements, thread, target,
                                    addressOf);
}

bool mlir::terrazzo::storeMmaResultToBuffer(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, ArrayRef<Value> values,
    const LinearLayout &bufferLayout, Value base, Type element,
    ThreadPosition thread, const TargetInfo &target) {
  if (type.getRank() != 2)
    return false;
  auto addressOf =
      chunkedRowAddresses(rewriter, loc, bufferLayout, base, element);
  if (!addressOf)
    return false;
  return storeMmaResultWithMatrices(rewriter, loc, type, layout, values,
                                    kBufferChunkElements, thread, target,
                                    addressOf);
}

bool mlir::terrazzo::storeMmaResultWithMatrices(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, ArrayRef<Value> values, int32_t chunkElements,
    ThreadPosition thread, const TargetInfo &target,
    llvm::function_ref<Value(ArrayRef<Value>)> addressOf) {
  if (!isa_and_nonnull<tilegpu::NvidiaMmaLayoutAttr>(type.getEncoding()) ||
      type.getRank() != 2 || !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() != 16 ||
      chunkElements < 8 || !target.hasMatrixStores())
    return false;
  RegisterLookup registerAt(layout);
  SmallVector<MatrixLoad> stores = planRowTiles(layout, registerAt);
  if (stores.empty() || !coversAllRegisters(stores, layout))
    return false;

  ThreadPosition laneZero{i32Constant(rewriter, loc, 0), thread.warp};
  SmallVector<SmallVector<Value>> lane0 =
      emitIndices(rewriter, loc, layout, laneZero);
  for (const MatrixLoad &store : stores) {
    SmallVector<Value> words;
    for (auto [low, high] : store.registers)
      words.push_back(packRegister(rewriter, loc, {values[low], values[high]},
                                   rewriter.getI32Type()));
    int32_t originRegister = registerAt(store.origin[0], store.origin[1]);
    target.storeMatrices(rewriter, loc,
                         matrixRowAddress(rewriter, loc, store,
                                          lane0[originRegister], thread,
                                          addressOf),
                         words);
  }
  return true;
}
