// tile.load as buffer loads on CDNA: see AMDPatterns.h.
#include "backends/amd/AMDPatterns.h"

#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/Analysis/NonNegative.h"
#include "passes/Analysis/PointerRange.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The bytes a buffer resource lets its loads read: offsets from 0 up to
/// 2^31 - 1 (byte offsets are 32-bit), everything past is out of range.
constexpr int64_t kBufferBytes = 0x7FFFFFFF;
/// The offset of a masked-off lane: out of range, so the load returns 0.
constexpr int64_t kMaskedOffset = 0x80000000;
/// Word 3 of a CDNA (gfx9) buffer resource: the destination selects X, Y,
/// Z, W (7 << 12) and a 32-bit data format (4 << 15), which untyped loads
/// need to be in range.
constexpr int32_t kGfx9ResourceFlags = (7 << 12) | (4 << 15);

std::optional<BufferAddress> matchBufferAddress(tile::LoadOp load) {
  if (load.getIsVolatile() || load.getCache() || load.getEvict() ||
      !isa<RankedTensorType>(load.getType()) ||
      getElementTypeOrSelf(load.getType()).isInteger(1))
    return std::nullopt;
  auto addptr = load.getPtr().getDefiningOp<tile::AddPtrOp>();
  if (!addptr)
    return std::nullopt;
  Value offsets = addptr.getOffset();
  if (!getElementTypeOrSelf(offsets.getType()).isInteger(32) ||
      !isKnownNonNegative(offsets))
    return std::nullopt;
  Value ptrs = addptr.getPtr();
  if (auto broadcast = ptrs.getDefiningOp<tile::BroadcastOp>())
    ptrs = broadcast.getSrc();
  auto splat = ptrs.getDefiningOp<tile::SplatOp>();
  if (!splat)
    return std::nullopt;
  auto base = dyn_cast<tile::PointerType>(splat.getSrc().getType());
  // Global memory only (address space 1).
  if (!base || base.getAddressSpace() != 1)
    return std::nullopt;
  // The resource reaches 2^31 - 1 bytes past the base: the base must be a
  // kernel argument whose addresses stay that close
  // (tile.pointer_range, the launch key's "fits in 2^31 bytes"), advanced
  // by offsets that are not negative.
  Value root = splat.getSrc();
  while (auto step = root.getDefiningOp<tile::AddPtrOp>()) {
    if (!isKnownNonNegative(step.getOffset()))
      return std::nullopt;
    root = step.getPtr();
  }
  if (!hasSmallPointerRange(root))
    return std::nullopt;
  return BufferAddress{splat.getSrc(), offsets};
}

struct BufferLoadOpConversion : public ConvertOpToLLVMPattern<tile::LoadOp> {
  BufferLoadOpConversion(TileGPUTypeConverter &converter,
                         const ModuleAxisInfoAnalysis &axisInfo,
                         const BufferLoads &loads)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2), axisInfo(axisInfo),
        loads(loads) {}

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto found = loads.find(op);
    if (found == loads.end())
      return rewriter.notifyMatchFailure(op, "not a buffer load");
    const BufferAddress *address = &found->second;
    Type sourceElement = getElementTypeOrSelf(op.getType());
    Type element = getTypeConverter()->convertType(sourceElement);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!element || !resultType)
      return rewriter.notifyMatchFailure(op, "no buffer load of this type");
    Location loc = op.getLoc();
    unsigned bits = tile::getElementBitWidth(sourceElement);
    unsigned width = getGlobalAccessWidth(axisInfo, op.getPtr(), op.getMask(),
                                          sourceElement);
    // The access as integers (i8, i16, i32, or i32 vectors), which every
    // buffer load width has, bitcast to the elements.
    unsigned accessBits = width * bits;
    Type wordType = accessBits <= 32
                        ? Type(rewriter.getIntegerType(accessBits))
                        : Type(VectorType::get({int64_t(accessBits / 32)},
                                               rewriter.getI32Type()));
    Type accessType =
        width == 1 ? element : VectorType::get({int64_t(width)}, element);

    // The base and offsets as converted (cast where their producers, a
    // kernel's arguments say, are converted later).
    auto converted = [&](Value value) -> Value {
      Type type = getTypeConverter()->convertType(value.getType());
      Value remapped = rewriter.getRemappedValue(value);
      if (!type || !remapped || remapped.getType() == type)
        return remapped;
      return UnrealizedConversionCastOp::create(rewriter, loc, type, remapped)
          .getResult(0);
    };
    Value base = converted(address->base);
    auto resourceType = LLVM::LLVMPointerType::get(rewriter.getContext(), 8);
    Value resource = ROCDL::MakeBufferRsrcOp::create(
        rewriter, loc, resourceType, base,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI16Type(), 0),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                 kBufferBytes),
        i32Constant(rewriter, loc, kGfx9ResourceFlags));
    SmallVector<Value> offsets =
        elementsOf(rewriter, loc, converted(address->offsets));
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> others = elementsOf(rewriter, loc, adaptor.getOther());
    Value elementBytes = i32Constant(rewriter, loc, bits / 8);
    Value zero = i32Constant(rewriter, loc, 0);
    SmallVector<Value> values;
    for (size_t i = 0; i < offsets.size(); i += width) {
      Value byteOffset =
          LLVM::MulOp::create(rewriter, loc, offsets[i], elementBytes);
      // A masked-off vector reads out of range: zeros, and no branch.
      if (!masks.empty())
        byteOffset = LLVM::SelectOp::create(
            rewriter, loc, masks[i], byteOffset,
            i32Constant(rewriter, loc, kMaskedOffset));
      Value word = ROCDL::RawPtrBufferLoadOp::create(
          rewriter, loc, wordType, resource, byteOffset, zero, zero,
          /*alias_scopes=*/ArrayAttr(), /*noalias_scopes=*/ArrayAttr(),
          /*tbaa=*/ArrayAttr());
      Value loaded = LLVM::BitcastOp::create(rewriter, loc, accessType, word);
      for (unsigned j = 0; j < width; ++j) {
        Value value =
            width == 1 ? loaded
                       : LLVM::ExtractElementOp::create(
                             rewriter, loc, loaded, i32Constant(rewriter, loc, j))
                             .getResult();
        // A nonzero `other` where the mask is false.
        if (!others.empty())
          value = LLVM::SelectOp::create(rewriter, loc, masks[i + j], value,
                                         others[i + j]);
        values.push_back(value);
      }
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, values));
    return success();
  }

  const ModuleAxisInfoAnalysis &axisInfo;
  const BufferLoads &loads;
};

} // namespace

BufferLoads mlir::terrazzo::findBufferLoads(ModuleOp module) {
  BufferLoads loads;
  module.walk([&](tile::LoadOp load) {
    if (std::optional<BufferAddress> address = matchBufferAddress(load))
      loads[load] = *address;
  });
  return loads;
}

void mlir::terrazzo::populateBufferLoadToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo, const BufferLoads &loads) {
  patterns.add<BufferLoadOpConversion>(converter, axisInfo, loads);
}
