// Ops that create blocks or change their shape or layout without moving data
// between threads: splat, make_range, broadcast, expand_dims, and the
// conversions between layouts that only relabel a thread's registers.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

using Coordinates = std::vector<int32_t>;
using CoordinateMap = llvm::function_ref<Coordinates(const Coordinates &)>;

Coordinates registerCoordinates(const LinearLayout &layout, int32_t reg) {
  std::vector<std::pair<std::string, int32_t>> inputs;
  for (const std::string &name : layout.getInDimNames())
    inputs.emplace_back(name, name == kRegister ? reg : 0);
  Coordinates coords;
  for (auto &[name, value] : layout.apply(inputs))
    coords.push_back(value);
  return coords;
}

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

struct MakeRangeOpConversion : public ConvertOpToLLVMPattern<tile::MakeRangeOp> {
  MakeRangeOpConversion(TileGPUTypeConverter &converter, const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter), target(target) {}

  LogicalResult
  matchAndRewrite(tile::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<LinearLayout> layout = getLinearLayout(op.getType());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    Location loc = op.getLoc();
    ThreadPosition thread = getThreadPosition(rewriter, loc, target,
                                              getModuleWarpSize(op));
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> values;
    for (auto &coords : emitIndices(rewriter, loc, *layout, thread))
      values.push_back(LLVM::AddOp::create(rewriter, loc, start, coords[0]));
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(op.getType()),
                                      values));
    return success();
  }

  const TargetInfo &target;
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

struct ConvertLayoutOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::ConvertLayoutOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto identity = [](const Coordinates &coords) { return coords; };
    return relabelRegisters(op, adaptor.getSrc(), op.getSrc().getType(),
                            op.getType(), identity, *getTypeConverter(),
                            rewriter);
  }
};

} // namespace

void mlir::terrazzo::populateShapeOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<SplatOpConversion, BroadcastOpConversion, ExpandDimsOpConversion,
               ConvertLayoutOpConversion>(converter);
  patterns.add<MakeRangeOpConversion>(converter, target);
}
