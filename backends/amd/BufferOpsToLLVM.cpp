// Buffer accesses on CDNA: their resource, their addresses, and tile.load
// as buffer loads. See AMDPatterns.h.
#include "backends/amd/AMDPatterns.h"

#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The bytes a buffer resource lets its accesses reach: offsets from 0 up
/// to 2^31 - 1 (byte offsets are 32-bit), everything past is out of range.
constexpr int64_t kBufferBytes = 0x7FFFFFFF;
/// The offset of a masked-off lane: out of range, so that a load returns 0
/// and a store or atomic does nothing.
constexpr int64_t kMaskedOffset = 0x80000000;
/// Word 3 of a CDNA (gfx9) buffer resource: the destination selects X, Y,
/// Z, W (7 << 12) and a 32-bit data format (4 << 15), which untyped loads
/// need to be in range.
constexpr int32_t kGfx9ResourceFlags = (7 << 12) | (4 << 15);

/// The buffer resource of global `base` (converted) as a pointer in
/// `addressSpace`: 8 for the buffer intrinsics (loads), 7 for a buffer
/// pointer, whose LLVM stores and atomics the AMDGPU back end makes buffer
/// instructions.
Value makeBufferResource(RewriterBase &rewriter, Location loc, Value base,
                         unsigned addressSpace) {
  auto resourceType =
      LLVM::LLVMPointerType::get(rewriter.getContext(), addressSpace);
  return ROCDL::MakeBufferRsrcOp::create(
      rewriter, loc, resourceType, base,
      LLVM::ConstantOp::create(rewriter, loc, rewriter.getI16Type(), 0),
      LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                               kBufferBytes),
      i32Constant(rewriter, loc, kGfx9ResourceFlags));
}

/// The byte offset of element offset `offset` (i32) of `elementBytes`
/// each, or, where `active` (i1, or null for always) is false, one past the
/// resource's end, at which a buffer load reads 0 and a store or atomic
/// does nothing.
Value bufferByteOffset(RewriterBase &rewriter, Location loc, Value offset,
                       unsigned elementBytes, Value active) {
  Value byteOffset = LLVM::MulOp::create(
      rewriter, loc, offset, i32Constant(rewriter, loc, elementBytes));
  if (!active)
    return byteOffset;
  return LLVM::SelectOp::create(rewriter, loc, active, byteOffset,
                                i32Constant(rewriter, loc, kMaskedOffset));
}

/// `value` as the conversion has it (cast where its producer, a kernel's
/// argument, is converted later).
Value convertedValue(ConversionPatternRewriter &rewriter,
                     const TypeConverter &converter, Location loc,
                     Value value) {
  Type type = converter.convertType(value.getType());
  Value remapped = rewriter.getRemappedValue(value);
  if (!type || !remapped || remapped.getType() == type)
    return remapped;
  return UnrealizedConversionCastOp::create(rewriter, loc, type, remapped)
      .getResult(0);
}

struct BufferLoadOpConversion : public ConvertOpToLLVMPattern<tile::LoadOp> {
  BufferLoadOpConversion(TileGPUTypeConverter &converter,
                         const ModuleAxisInfoAnalysis &axisInfo,
                         const BufferAccesses &loads)
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

    const TypeConverter &converter = *getTypeConverter();
    Value resource = makeBufferResource(
        rewriter, loc, convertedValue(rewriter, converter, loc, address->base),
        /*addressSpace=*/8);
    SmallVector<Value> offsets = elementsOf(
        rewriter, loc, convertedValue(rewriter, converter, loc, address->offsets));
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> others = elementsOf(rewriter, loc, adaptor.getOther());
    Value zero = i32Constant(rewriter, loc, 0);
    SmallVector<Value> values;
    for (size_t i = 0; i < offsets.size(); i += width) {
      // A masked-off vector reads out of range: zeros, and no branch.
      Value byteOffset = bufferByteOffset(rewriter, loc, offsets[i], bits / 8,
                                          masks.empty() ? Value() : masks[i]);
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
  const BufferAccesses &loads;
};

} // namespace

TargetInfo::MaskedAddresses
mlir::terrazzo::bufferAddresses(ConversionPatternRewriter &rewriter,
                                const TypeConverter &converter, Operation *op,
                                const BufferAddress &address) {
  Location loc = op->getLoc();
  Value resource = makeBufferResource(
      rewriter, loc, convertedValue(rewriter, converter, loc, address.base),
      /*addressSpace=*/7);
  SmallVector<Value> offsets = elementsOf(
      rewriter, loc, convertedValue(rewriter, converter, loc, address.offsets));
  Type pointee = tile::getPointeeType(getElementTypeOrSelf(
      address.base.getType()));
  unsigned elementBytes = tile::getElementBitWidth(pointee) / 8;
  return [&rewriter, loc, resource, offsets = std::move(offsets),
          elementBytes](unsigned reg, Value active) -> Value {
    Value byteOffset =
        bufferByteOffset(rewriter, loc, offsets[reg], elementBytes, active);
    return LLVM::GEPOp::create(rewriter, loc, resource.getType(),
                               rewriter.getI8Type(), resource,
                               ValueRange{byteOffset});
  };
}

void mlir::terrazzo::populateBufferLoadToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo, const BufferAccesses &accesses) {
  patterns.add<BufferLoadOpConversion>(converter, axisInfo, accesses);
}
