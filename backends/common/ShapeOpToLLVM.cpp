// Ops that create blocks or change their shape or layout: splat, make_range,
// broadcast, expand_dims, and convert_layout (a relabelling of a thread's
// registers where the layouts allow, warp shuffles where data stays in its
// warp, otherwise through shared memory).
#include "backends/common/MmaOperandLoads.h"
#include "backends/common/Patterns.h"
#include "backends/common/SharedMemoryAccess.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

using CoordinateMap = llvm::function_ref<Coordinates(const Coordinates &)>;

/// For each register of `dst`, the register of `src` that holds the same
/// element in the same thread, where `dstToSrc` maps coordinates of the
/// result to those of the source (a linear map: zeroing or dropping
/// dimensions). Fails when the two layouts put those elements in different
/// threads, which needs data movement.
FailureOr<SmallVector<int32_t>> mapRegisters(const LinearLayout &src,
                                             const LinearLayout &dst,
                                             CoordinateMap dstToSrc) {
  for (const char *name : {kLane, kWarp, kBlock}) {
    int srcBits = src.hasInDim(name) ? src.getInDimSizeLog2(name) : 0;
    int dstBits = dst.hasInDim(name) ? dst.getInDimSizeLog2(name) : 0;
    if (srcBits != dstBits)
      return failure();
    for (int i = 0; i < dstBits; ++i)
      if (dstToSrc(dst.getBasis(name, i)) != src.getBasis(name, i))
        return failure();
  }
  std::map<Coordinates, int32_t> srcRegisters;
  for (int32_t reg = src.getInDimSize(kRegister); reg-- > 0;)
    srcRegisters[registerCoordinates(src, reg)] = reg;
  SmallVector<int32_t> mapping;
  for (int32_t reg = 0, e = dst.getInDimSize(kRegister); reg < e; ++reg) {
    auto it = srcRegisters.find(dstToSrc(registerCoordinates(dst, reg)));
    if (it == srcRegisters.end())
      return failure();
    mapping.push_back(it->second);
  }
  return mapping;
}

/// Replaces `op` by a struct of `dstType` whose register i is register
/// mapping[i] of `src`.
LogicalResult relabelRegisters(Operation *op, Value src, RankedTensorType srcType,
                               RankedTensorType dstType, CoordinateMap dstToSrc,
                               const TypeConverter &converter,
                               ConversionPatternRewriter &rewriter) {
  std::optional<LinearLayout> srcLayout = getLinearLayout(srcType);
  std::optional<LinearLayout> dstLayout = getLinearLayout(dstType);
  if (!srcLayout || !dstLayout)
    return rewriter.notifyMatchFailure(op, "operand or result has no layout");
  FailureOr<SmallVector<int32_t>> mapping =
      mapRegisters(*srcLayout, *dstLayout, dstToSrc);
  if (failed(mapping))
    return op->emitOpError("moves data between threads (from ")
           << srcType << " to " << dstType
           << "), which this backend cannot lower yet";
  Location loc = op->getLoc();
  SmallVector<Value> elements = unpackStruct(rewriter, loc, src);
  SmallVector<Value> results;
  for (int32_t reg : *mapping)
    results.push_back(elements[reg]);
  rewriter.replaceOp(op, packStruct(rewriter, loc,
                                    converter.convertType(dstType), results));
  return success();
}

struct SplatOpConversion : public ConvertOpToLLVMPattern<tile::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    size_t count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    rewriter.replaceOp(
        op, packStruct(rewriter, op.getLoc(), structType,
                       SmallVector<Value>(count, adaptor.getSrc())));
    return success();
  }
};

struct MakeRangeOpConversion : public TargetPattern<tile::MakeRangeOp> {
  using TargetPattern<tile::MakeRangeOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<LinearLayout> layout = getLinearLayout(op.getType());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    Location loc = op.getLoc();
    ThreadPosition thread = getThreadPosition(rewriter, loc, target,
                                              tilegpu::getThreadsPerWarp(op));
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> values;
    for (auto &coords : emitIndices(rewriter, loc, *layout, thread))
      values.push_back(LLVM::AddOp::create(rewriter, loc, start, coords[0]));
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(op.getType()),
                                      values));
    return success();
  }
};

struct BroadcastOpConversion : public ConvertOpToLLVMPattern<tile::BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    auto dropBroadcast = [&](const Coordinates &coords) {
      Coordinates result = coords;
      for (size_t d = 0; d < result.size(); ++d)
        if (srcShape[d] == 1)
          result[d] = 0;
      return result;
    };
    return relabelRegisters(op, adaptor.getSrc(), op.getSrc().getType(),
                            op.getType(), dropBroadcast, *getTypeConverter(),
                            rewriter);
  }
};

struct ExpandDimsOpConversion
    : public ConvertOpToLLVMPattern<tile::ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int32_t axis = op.getAxis();
    auto dropAxis = [&](const Coordinates &coords) {
      Coordinates result = coords;
      result.erase(result.begin() + axis);
      return result;
    };
    return relabelRegisters(op, adaptor.getSrc(), op.getSrc().getType(),
                            op.getType(), dropAxis, *getTypeConverter(),
                            rewriter);
  }
};

/// How many consecutive registers of `layout` (a power of two) hold
/// elements consecutive in row-major order and start at an offset that is a
/// multiple of their number, so that they move as one vector of at most
/// `maxElements`.
int32_t contiguousRegisters(const LinearLayout &layout, int32_t maxElements) {
  unsigned rank = layout.getNumOutDims();
  int registerBits = layout.getInDimSizeLog2(kRegister);
  int k = 0;
  while (k < registerBits && (int32_t(1) << (k + 1)) <= maxElements) {
    std::vector<int32_t> basis = layout.getBasis(kRegister, k);
    bool unit = true;
    for (unsigned d = 0; d < rank; ++d)
      unit &= basis[d] == (d + 1 == rank ? (int32_t(1) << k) : 0);
    if (!unit)
      break;
    ++k;
  }
  // No other basis may touch the low k bits of the last dimension.
  int32_t lowBits = (int32_t(1) << k) - 1;
  for (const std::string &name : layout.getInDimNames())
    for (int i = name == kRegister ? k : 0, e = layout.getInDimSizeLog2(name);
         i < e; ++i)
      while (k > 0 && (layout.getBasis(name, i)[rank - 1] & lowBits)) {
        --k;
        lowBits >>= 1;
      }
  return int32_t(1) << k;
}

/// Where each element of a tensor goes in the conversion scratch: row-major
/// over rows of the last dimension, with the chunks of `chunk` elements of
/// a row permuted by XOR with the row's phase, so that threads reading a
/// column (the other layout of a transposing conversion) hit different
/// banks. Chunks are as wide as the widest vector either side moves, so
/// vectors stay contiguous; rows sharing one 128-byte line share a phase.
struct SwizzledRows {
  SmallVector<int64_t> strides; // row-major, in elements
  int32_t chunk = 1;            // elements per chunk (a power of two)
  int32_t perPhase = 1;         // rows per phase
  int32_t maxPhase = 1;         // phases (1: no swizzle)

  Value offset(RewriterBase &rewriter, Location loc,
               ArrayRef<Value> coords) const {
    auto constant = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    Value row;
    for (size_t d = 0; d + 1 < coords.size(); ++d) {
      Value term =
          strides[d] == 1
              ? coords[d]
              : LLVM::MulOp::create(rewriter, loc, coords[d],
                                    constant(strides[d]))
                    .getResult();
      row = row ? LLVM::AddOp::create(rewriter, loc, row, term).getResult()
                : term;
    }
    Value column = coords.back();
    if (!row)
      return column;
    if (maxPhase > 1) {
      Value phase = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::UDivOp::create(rewriter, loc, row,
                               constant(perPhase * strides[coords.size() - 2])),
          constant(maxPhase - 1));
      column = LLVM::XOrOp::create(
          rewriter, loc, column,
          LLVM::MulOp::create(rewriter, loc, phase, constant(chunk)));
    }
    return LLVM::AddOp::create(rewriter, loc, row, column);
  }
};

SwizzledRows chooseSwizzle(ArrayRef<int64_t> shape, int32_t chunk,
                           unsigned elementBytes) {
  SwizzledRows swizzle;
  swizzle.strides.assign(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    swizzle.strides[d] = swizzle.strides[d + 1] * shape[d + 1];
  swizzle.chunk = chunk;
  int64_t rowLength = shape.back();
  if (shape.size() < 2 || rowLength < 2 * chunk)
    return swizzle;
  constexpr int64_t kBankLineBytes = 128;
  int64_t rowBytes = rowLength * elementBytes;
  int64_t chunkBytes = int64_t(chunk) * elementBytes;
  swizzle.perPhase = int32_t(std::max<int64_t>(1, kBankLineBytes / rowBytes));
  swizzle.maxPhase = int32_t(std::min<int64_t>(
      rowLength / chunk, std::max<int64_t>(1, kBankLineBytes / chunkBytes)));
  return swizzle;
}

/// In how many rounds a conversion through shared memory of a tensor of
/// `type` moves it: 1, or where the whole tensor would take more than the
/// target's shared memory (`limit` bytes), the fewest (a power of two) whose
/// slabs -- equal ranges of dim-0 indices, one per round -- fit, provided
/// that which slab an element is in depends only on the register holding
/// it in both layouts (the slab bits of dim 0 come from "register" bases
/// alone, as where a tensor larger than the program's tile repeats over
/// registers), so that each round stores and loads fixed registers. 0 where
/// no such split exists.
int64_t conversionRounds(RankedTensorType type, const LinearLayout &srcLayout,
                         const LinearLayout &dstLayout, int64_t limit) {
  int64_t bytes =
      type.getNumElements() * scratchElementBytes(type.getElementType());
  if (bytes <= limit)
    return 1;
  int64_t rows = type.getShape()[0];
  int64_t rounds = 2;
  while (rounds <= rows && bytes / rounds > limit)
    rounds *= 2;
  if (rounds > rows)
    return 0;
  int32_t slabShift = llvm::Log2_64(rows / rounds);
  for (const LinearLayout *layout : {&srcLayout, &dstLayout})
    for (const std::string &name : layout->getInDimNames()) {
      if (name == kRegister)
        continue;
      for (int i = 0, e = layout->getInDimSizeLog2(name); i < e; ++i)
        if (layout->getBasis(name, i)[0] >> slabShift)
          return 0;
    }
  return rounds;
}

/// The shared memory one program may use on `op`'s target (no limit
/// without one).
int64_t sharedMemoryLimit(Operation *op) {
  if (std::optional<::terrazzo::Target> target = tilegpu::getTarget(op))
    if (target->maxSharedMemoryBytes > 0)
      return target->maxSharedMemoryBytes;
  return std::numeric_limits<int64_t>::max();
}

/// The slab (conversionRounds) of the element register `reg` of `layout`
/// holds, in every thread.
int64_t slabOf(const LinearLayout &layout, int32_t reg, int32_t slabShift) {
  std::vector<std::pair<std::string, int32_t>> inputs;
  for (const std::string &name : layout.getInDimNames())
    inputs.push_back({name, name == kRegister ? reg : 0});
  return layout.apply(inputs)[0].second >> slabShift;
}

/// getConvertLayoutBarrierScope for layouts `src` and `dst`.
tilegpu::BarrierScope conversionBarrierScope(const LinearLayout &src,
                                             const LinearLayout &dst) {
  if (src.getOutDimNames() != dst.getOutDimNames())
    return tilegpu::BarrierScope::Program;
  SmallVector<int32_t> from = elementWarps(src), to = elementWarps(dst);
  if (from.size() != to.size())
    return tilegpu::BarrierScope::Program;
  bool sameWarp = true;
  for (auto [a, b] : llvm::zip_equal(from, to)) {
    if (a < 0 || b < 0 ||
        a / int32_t(tilegpu::kWarpsPerGroup) !=
            b / int32_t(tilegpu::kWarpsPerGroup))
      return tilegpu::BarrierScope::Program;
    sameWarp &= a == b;
  }
  // With one warp group, its barrier is the program's.
  bool oneGroup = !src.hasInDim(kWarp) ||
                  src.getInDimSize(kWarp) <= int32_t(tilegpu::kWarpsPerGroup);
  return sameWarp   ? tilegpu::BarrierScope::Warp
         : oneGroup ? tilegpu::BarrierScope::Program
                    : tilegpu::BarrierScope::WarpGroup;
}

/// Moves the elements of `src` (laid out by `srcLayout`) to the registers
/// of `dstLayout` through the module's shared-memory scratch: each thread
/// stores what it holds at the element's row-major offset, and after a
/// barrier loads what it needs. A barrier before the stores keeps them from
/// overwriting what an earlier use of the scratch has yet to read.
/// In `rounds` > 1 (conversionRounds), one slab of dim-0 indices at a time,
/// in a scratch of one slab: a barrier between a round's stores and its
/// loads, and one before the next round's stores.
LogicalResult convertThroughSharedMemory(tilegpu::ConvertLayoutOp op, Value src,
                                         const LinearLayout &srcLayout,
                                         const LinearLayout &dstLayout,
                                         int64_t rounds,
                                         const TypeConverter &converter,
                                         const TargetInfo &target,
                                         ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value scratch = getScratchPointer(rewriter, loc, op);
  if (!scratch)
    return failure();
  RankedTensorType type = op.getType();
  Type elementType = converter.convertType(type.getElementType());
  bool vectorisable = !elementType.isInteger(1) && elementType.isIntOrFloat();
  unsigned elementBytes = scratchElementBytes(type.getElementType());

  auto vectorWidth = [&](const LinearLayout &layout) -> int32_t {
    return vectorisable ? contiguousRegisters(layout, 16 / elementBytes) : 1;
  };
  int32_t storeWidth = vectorWidth(srcLayout);
  int32_t loadWidth = vectorWidth(dstLayout);
  // One round's slab of dim-0 indices (the whole tensor in one round).
  SmallVector<int64_t> slabShape(type.getShape());
  slabShape[0] /= rounds;
  int32_t slabShift = llvm::Log2_64(slabShape[0]);
  SwizzledRows swizzle =
      chooseSwizzle(slabShape, std::max(storeWidth, loadWidth), elementBytes);
  auto addressOf = [&](ArrayRef<Value> coords) -> Value {
    SmallVector<Value> inSlab(coords);
    if (rounds > 1)
      inSlab[0] =
          LLVM::AndOp::create(rewriter, loc, coords[0],
                              i32Constant(rewriter, loc, slabShape[0] - 1));
    return sharedElementPointer(rewriter, loc, scratch, elementType,
                                swizzle.offset(rewriter, loc, inSlab));
  };

  ThreadPosition thread =
      getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
  // No barrier first: terrazzo-insert-barriers puts one in front of the op
  // when an earlier access to this scratch may still be in flight.
  SmallVector<Value> values = unpackStruct(rewriter, loc, src);
  if (rounds == 1) {
    if (!storeMmaResultWithMatrices(
            rewriter, loc, cast<RankedTensorType>(op.getSrc().getType()),
            srcLayout, values, swizzle.chunk, thread, target, addressOf)) {
      auto srcIndices = emitIndices(rewriter, loc, srcLayout, thread);
      for (size_t reg = 0; reg < values.size(); reg += storeWidth)
        storeSharedElements(rewriter, loc, addressOf(srcIndices[reg]),
                            ArrayRef<Value>(values).slice(reg, storeWidth),
                            elementBytes);
    }
    // Every thread's loads read what threads of the scope
    // terrazzo-insert-barriers recorded stored (the program's by default).
    auto scope = op->getAttrOfType<tilegpu::BarrierScopeAttr>(
        tilegpu::kScratchBarrierScopeAttrName);
    target.barrier(rewriter, loc,
                   scope ? scope.getValue() : tilegpu::BarrierScope::Program);

    if (std::optional<SmallVector<Value>> loaded = loadMmaOperandWithMatrices(
            rewriter, loc, type, dstLayout, swizzle.chunk, thread, target,
            addressOf)) {
      rewriter.replaceOp(
          op, packStruct(rewriter, loc, converter.convertType(type), *loaded));
      return success();
    }
  }
  SmallVector<SmallVector<Value>> srcIndices;
  if (rounds > 1)
    srcIndices = emitIndices(rewriter, loc, srcLayout, thread);
  auto dstIndices = emitIndices(rewriter, loc, dstLayout, thread);
  SmallVector<Value> results(dstIndices.size());
  // Round by round (once where the tensor fits): this slab's registers
  // stored, a barrier, its registers loaded, and a barrier before the next
  // round overwrites what this one read. A vector's registers share a row
  // (or a slab: vectors along dim 0 are aligned and slabs hold more).
  for (int64_t round = 0; round < rounds; ++round) {
    if (round > 0)
      target.barrier(rewriter, loc);
    if (rounds > 1) {
      for (size_t reg = 0; reg < values.size(); reg += storeWidth) {
        if (slabOf(srcLayout, reg, slabShift) != round)
          continue;
        storeSharedElements(rewriter, loc, addressOf(srcIndices[reg]),
                            ArrayRef<Value>(values).slice(reg, storeWidth),
                            elementBytes);
      }
      target.barrier(rewriter, loc);
    }
    for (size_t reg = 0; reg < dstIndices.size(); reg += loadWidth) {
      if (rounds > 1 && slabOf(dstLayout, reg, slabShift) != round)
        continue;
      SmallVector<Value> loaded =
          loadSharedElements(rewriter, loc, addressOf(dstIndices[reg]),
                             elementType, loadWidth, elementBytes);
      for (auto [i, value] : llvm::enumerate(loaded))
        results[reg + i] = value;
    }
  }
  rewriter.replaceOp(op, packStruct(rewriter, loc, converter.convertType(type),
                                    results));
  return success();
}

/// How a conversion moves data within warps: for each destination register,
/// the source register to read (the same in every lane) and the lane to read
/// it from, `laneConstant[r]` XOR the image of the calling lane's bits
/// (`laneImage`).
struct ShufflePlan {
  SmallVector<int32_t> srcRegister;
  SmallVector<int32_t> laneConstant;
  SmallVector<int32_t> laneImage;
};

/// A plan when every element of `dst` is held by the same warp (and block)
/// of `src` and the source register of a destination register does not
/// depend on the lane; otherwise nullopt.
std::optional<ShufflePlan> planWarpShuffle(const LinearLayout &src,
                                           const LinearLayout &dst) {
  for (const char *name : {kRegister, kLane})
    if (!src.hasInDim(name) || !dst.hasInDim(name))
      return std::nullopt;
  std::optional<LinearLayout> map = dst.tryInvertAndCompose(src);
  if (!map)
    return std::nullopt;
  auto image = [&](const std::string &in, int i, const char *out) -> int32_t {
    return map->hasOutDim(out) ? map->getBasis(in, i, out) : 0;
  };
  for (const char *name : {kWarp, kBlock}) {
    int srcBits = src.hasInDim(name) ? src.getInDimSizeLog2(name) : 0;
    int dstBits = dst.hasInDim(name) ? dst.getInDimSizeLog2(name) : 0;
    if (srcBits != dstBits)
      return std::nullopt;
  }
  for (const std::string &in : map->getInDimNames())
    for (int i = 0, e = map->getInDimSizeLog2(in); i < e; ++i) {
      bool thread = in == kWarp || in == kBlock;
      for (const char *out : {kWarp, kBlock}) {
        int32_t expected = thread && in == out ? int32_t(1) << i : 0;
        if (image(in, i, out) != expected)
          return std::nullopt;
      }
      if (thread && (image(in, i, kRegister) || image(in, i, kLane)))
        return std::nullopt;
      if (in == kLane && image(in, i, kRegister))
        return std::nullopt;
    }
  ShufflePlan plan;
  for (int i = 0, e = map->getInDimSizeLog2(kLane); i < e; ++i)
    plan.laneImage.push_back(image(kLane, i, kLane));
  for (int32_t reg = 0, e = dst.getInDimSize(kRegister); reg < e; ++reg) {
    int32_t srcReg = 0, lane = 0;
    for (int i = 0, bits = map->getInDimSizeLog2(kRegister); i < bits; ++i)
      if (reg & (1 << i)) {
        srcReg ^= image(kRegister, i, kRegister);
        lane ^= image(kRegister, i, kLane);
      }
    plan.srcRegister.push_back(srcReg);
    plan.laneConstant.push_back(lane);
  }
  return plan;
}

/// Whether elements of `type` (a tile-level scalar) can go through warp
/// shuffles of 32-bit values.
bool isShuffleable(Type type) {
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth() <= 64;
  return isa<tile::PointerType>(type);
}

/// Moves data within warps with one shuffle per distinct (source register,
/// source lane) a destination register needs.
void convertWithShuffles(tilegpu::ConvertLayoutOp op, Value src,
                         const ShufflePlan &plan,
                         const TypeConverter &converter,
                         const TargetInfo &target,
                         ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  unsigned warpSize = tilegpu::getThreadsPerWarp(op);
  ThreadPosition thread = getThreadPosition(rewriter, loc, target, warpSize);
  Value lanePart;
  for (auto [i, basis] : llvm::enumerate(plan.laneImage)) {
    if (!basis)
      continue;
    Value bit = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, thread.lane,
                             i32Constant(rewriter, loc, i)),
        i32Constant(rewriter, loc, 1));
    Value term = LLVM::MulOp::create(rewriter, loc, bit,
                                     i32Constant(rewriter, loc, basis));
    lanePart = lanePart ? LLVM::XOrOp::create(rewriter, loc, lanePart, term)
                              .getResult()
                        : term;
  }
  SmallVector<Value> values = unpackStruct(rewriter, loc, src);
  std::map<std::pair<int32_t, int32_t>, Value> moved;
  SmallVector<Value> results;
  for (auto [srcReg, laneConstant] :
       llvm::zip_equal(plan.srcRegister, plan.laneConstant)) {
    Value &result = moved[{srcReg, laneConstant}];
    if (!result) {
      Value constant = i32Constant(rewriter, loc, laneConstant);
      Value lane = !lanePart ? constant
                   : laneConstant
                       ? LLVM::XOrOp::create(rewriter, loc, lanePart, constant)
                             .getResult()
                       : lanePart;
      result = shuffleScalar(rewriter, loc, values[srcReg], [&](Value word) {
        return target.shuffleIdx(rewriter, loc, word, lane, warpSize);
      });
    }
    results.push_back(result);
  }
  rewriter.replaceOp(op, packStruct(rewriter, loc,
                                    converter.convertType(op.getType()),
                                    results));
}

struct ConvertLayoutOpConversion
    : public TargetPattern<tilegpu::ConvertLayoutOp> {
  using TargetPattern<tilegpu::ConvertLayoutOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto identity = [](const Coordinates &coords) { return coords; };
    std::optional<LinearLayout> srcLayout =
        getLinearLayout(op.getSrc().getType());
    std::optional<LinearLayout> dstLayout = getLinearLayout(op.getType());
    if (!srcLayout || !dstLayout)
      return rewriter.notifyMatchFailure(op, "operand or result has no layout");
    if (succeeded(mapRegisters(*srcLayout, *dstLayout, identity)))
      return relabelRegisters(op, adaptor.getSrc(), op.getSrc().getType(),
                              op.getType(), identity, *getTypeConverter(),
                              rewriter);
    if (isShuffleable(op.getType().getElementType()))
      if (std::optional<ShufflePlan> plan =
              planWarpShuffle(*srcLayout, *dstLayout)) {
        convertWithShuffles(op, adaptor.getSrc(), *plan, *getTypeConverter(),
                            target, rewriter);
        return success();
      }
    int64_t rounds = conversionRounds(op.getType(), *srcLayout, *dstLayout,
                                      sharedMemoryLimit(op));
    if (rounds == 0)
      return rewriter.notifyMatchFailure(op, "the scratch does not fit");
    return convertThroughSharedMemory(op, adaptor.getSrc(), *srcLayout,
                                      *dstLayout, rounds, *getTypeConverter(),
                                      target, rewriter);
  }
};

} // namespace

void mlir::terrazzo::populateShapeOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<SplatOpConversion, BroadcastOpConversion,
               ExpandDimsOpConversion>(converter);
  patterns.add<MakeRangeOpConversion, ConvertLayoutOpConversion>(converter,
                                                                 target);
}

unsigned mlir::terrazzo::scratchElementBytes(Type elementType) {
  if (elementType.isIntOrFloat())
    return std::max(1u, (elementType.getIntOrFloatBitWidth() + 7) / 8);
  return 8; // pointers
}

tilegpu::BarrierScope
mlir::terrazzo::getConvertLayoutBarrierScope(Operation *op) {
  auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op);
  if (!convert || !getConvertLayoutScratchBytes(op))
    return tilegpu::BarrierScope::Program;
  std::optional<LinearLayout> srcLayout =
      getLinearLayout(convert.getSrc().getType());
  std::optional<LinearLayout> dstLayout = getLinearLayout(convert.getType());
  if (!srcLayout || !dstLayout ||
      conversionRounds(convert.getType(), *srcLayout, *dstLayout,
                       sharedMemoryLimit(op)) != 1)
    return tilegpu::BarrierScope::Program;
  return conversionBarrierScope(*srcLayout, *dstLayout);
}

int64_t mlir::terrazzo::getConvertLayoutScratchBytes(Operation *op) {
  auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op);
  if (!convert)
    return 0;
  std::optional<LinearLayout> srcLayout =
      getLinearLayout(convert.getSrc().getType());
  std::optional<LinearLayout> dstLayout = getLinearLayout(convert.getType());
  if (!srcLayout || !dstLayout)
    return 0;
  auto identity = [](const Coordinates &coords) { return coords; };
  if (succeeded(mapRegisters(*srcLayout, *dstLayout, identity)))
    return 0;
  RankedTensorType type = convert.getType();
  if (isShuffleable(type.getElementType()) &&
      planWarpShuffle(*srcLayout, *dstLayout))
    return 0;
  int64_t bytes =
      type.getNumElements() * scratchElementBytes(type.getElementType());
  // A tensor larger than the target's shared memory goes in rounds, where
  // its layouts allow them; otherwise the whole, which the allocation
  // reports as too large.
  int64_t rounds =
      conversionRounds(type, *srcLayout, *dstLayout, sharedMemoryLimit(op));
  return rounds > 1 ? bytes / rounds : bytes;
}
