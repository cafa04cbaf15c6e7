// terrazzo-amd-dot-operands-to-lds: see Passes.td.
#include "backends/amd/LdsSwizzle.h"
#include "backends/amd/Passes.h"
#include "backends/common/Patterns.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/LayoutUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/bit.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOAMDDOTOPERANDSTOLDS
#include "backends/amd/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The buffer an MFMA operand of `type` (in `operand`'s layout) is read
/// from: rows along K, swizzled for reads of kWidth elements.
tilegpu::MemDescType operandBufferType(RankedTensorType type,
                                       tilegpu::DotOperandLayoutAttr operand) {
  unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0;
  unsigned elementBytes =
      std::max(1u, tile::getElementBitWidth(type.getElementType()) / 8);
  ::terrazzo::amd::LdsSwizzle swizzle = ::terrazzo::amd::operandSwizzle(
      type.getShape()[kDim], elementBytes, operand.getKWidth());
  auto layout = tilegpu::SwizzledSharedLayoutAttr::get(
      type.getContext(), swizzle.vec, swizzle.perPhase, swizzle.maxPhase,
      {kDim, 1 - kDim});
  return tilegpu::MemDescType::get(type.getContext(), type.getShape(),
                                   type.getElementType(), layout,
                                   /*mutableMemory=*/false);
}

/// Whether `convert` is one this pass moves into LDS.
bool isMfmaOperandConversion(tilegpu::ConvertLayoutOp convert) {
  RankedTensorType type = convert.getType();
  auto operand =
      dyn_cast_or_null<tilegpu::DotOperandLayoutAttr>(type.getEncoding());
  if (!operand || !isa<tilegpu::AmdMfmaLayoutAttr>(operand.getParent()) ||
      type.getRank() != 2)
    return false;
  auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
  if (!isa_and_nonnull<tilegpu::DistributedLayoutAttr>(srcType.getEncoding()) ||
      isa<tilegpu::DotOperandLayoutAttr>(srcType.getEncoding()))
    return false;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return false;
  // One the conversion does in registers or warp shuffles, with no shared
  // memory (a transposed MFMA result to the next dot's A operand) stays.
  if (getConvertLayoutScratchBytes(convert) == 0)
    return false;
  return llvm::all_of(type.getShape(), [](int64_t size) {
    return size > 0 && llvm::has_single_bit(uint64_t(size));
  });
}

struct DotOperandsToLdsPass
    : public mlir::terrazzo::impl::TerrazzoAmdDotOperandsToLdsBase<
          DotOperandsToLdsPass> {
  void runOnOperation() override {
    if (failed(verifyTensorsHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    SmallVector<tilegpu::ConvertLayoutOp> converts;
    getOperation().walk([&](tilegpu::ConvertLayoutOp convert) {
      if (isMfmaOperandConversion(convert))
        converts.push_back(convert);
    });
    for (tilegpu::ConvertLayoutOp convert : converts) {
      RankedTensorType type = convert.getType();
      OpBuilder builder(convert);
      auto buffer = tilegpu::LocalAllocOp::create(
          builder, convert.getLoc(),
          operandBufferType(
              type, cast<tilegpu::DotOperandLayoutAttr>(type.getEncoding())),
          convert.getSrc());
      auto read = tilegpu::LocalLoadOp::create(builder, convert.getLoc(),
                                               type, buffer.getResult());
      convert.replaceAllUsesWith(read.getResult());
      convert.erase();
    }
  }
};

} // namespace
