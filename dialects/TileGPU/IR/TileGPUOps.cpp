// Verifiers and folders of the tilegpu ops.
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tilegpu;

#define GET_OP_CLASSES
#include "dialects/TileGPU/IR/TileGPUOps.cpp.inc"

namespace {

LogicalResult verifyLayoutFits(Operation *op, RankedTensorType tensor) {
  auto layout = dyn_cast_or_null<DistributedLayoutAttr>(tensor.getEncoding());
  if (!layout)
    return success();
  return layout.verifyTensorShape(tensor.getShape(),
                                  [&] { return op->emitOpError(); });
}

/// A distributed tensor and a shared buffer exchange data only when the
/// tensor's layout fits it and their shapes and element types agree.
LogicalResult verifyBufferMatches(Operation *op, RankedTensorType tensor,
                                  MemDescType buffer) {
  if (failed(verifyLayoutFits(op, tensor)))
    return failure();
  if (tensor.getShape() != buffer.getShape() ||
      tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("tensor ")
           << tensor << " does not match the buffer " << buffer;
  return success();
}

} // namespace

LogicalResult ConvertLayoutOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getType();
  if (srcType.getShape() != resultType.getShape() ||
      srcType.getElementType() != resultType.getElementType())
    return emitOpError("may change only the layout, not ")
           << srcType << " into " << resultType;
  if (failed(verifyLayoutFits(*this, srcType)))
    return failure();
  return verifyLayoutFits(*this, resultType);
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ConvertLayoutOp::canonicalize(ConvertLayoutOp op,
                                            PatternRewriter &rewriter) {
  // A uniform block looks the same in every layout.
  if (auto splat = op.getSrc().getDefiningOp<tile::SplatOp>()) {
    rewriter.replaceOpWithNewOp<tile::SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
  return failure();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType buffer = getType();
  if (!getSrc()) {
    if (!buffer.getMutableMemory())
      return emitOpError("an uninitialised buffer must be mutable");
    return success();
  }
  return verifyBufferMatches(*this, getSrc().getType(), buffer);
}

LogicalResult LocalLoadOp::verify() {
  return verifyBufferMatches(*this, getType(), getBuffer().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getBuffer().getType().getMutableMemory())
    return emitOpError("cannot write an immutable buffer");
  return verifyBufferMatches(*this, getSrc().getType(), getBuffer().getType());
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType();
  MemDescType result = getType();
  if (src.getShape().size() < 2)
    return emitOpError("needs a buffer with a leading buffer dimension (rank "
                       "2 or more), got ")
           << src;
  if (result.getShape() != src.getShape().drop_front() ||
      result.getElementType() != src.getElementType() ||
      result.getMutableMemory() != src.getMutableMemory())
    return emitOpError("result ")
           << result << " must be one buffer of " << src
           << ": its shape without the leading dimension, the same element "
              "type and mutability";
  if (isa<NvmmaSharedLayoutAttr>(src.getEncoding())) {
    // A stack of 2-D nvmma_shared buffers: each one has the stack's layout.
    if (result.getEncoding() != src.getEncoding())
      return emitOpError("result layout ")
             << result.getEncoding() << " must be the stack's, "
             << src.getEncoding();
    return success();
  }
  auto srcLayout = dyn_cast<SwizzledSharedLayoutAttr>(src.getEncoding());
  auto resultLayout = dyn_cast<SwizzledSharedLayoutAttr>(result.getEncoding());
  if (!srcLayout || !resultLayout)
    return emitOpError("supports swizzled and nvmma shared layouts only");
  // Buffer i then starts at i times the size of one buffer, laid out as
  // the others.
  ArrayRef<unsigned> order = srcLayout.getOrder();
  if (order.back() != 0)
    return emitOpError("the leading (buffer) dimension must be the slowest of "
                       "the layout (last in its order)");
  SmallVector<unsigned> expectedOrder;
  for (unsigned dim : order.drop_back())
    expectedOrder.push_back(dim - 1);
  if (resultLayout.getVec() != srcLayout.getVec() ||
      resultLayout.getPerPhase() != srcLayout.getPerPhase() ||
      resultLayout.getMaxPhase() != srcLayout.getMaxPhase() ||
      resultLayout.getOrder() != ArrayRef<unsigned>(expectedOrder))
    return emitOpError("result layout ")
           << resultLayout << " must be the source's without its leading "
           << "dimension";
  return success();
}

MemDescType MemDescTransOp::transposedType(MemDescType src) {
  auto layout = cast<NvmmaSharedLayoutAttr>(src.getEncoding());
  SmallVector<int64_t> shape(llvm::reverse(src.getShape()));
  return MemDescType::get(
      src.getContext(), shape, src.getElementType(),
      NvmmaSharedLayoutAttr::get(src.getContext(),
                                 layout.getSwizzlingByteWidth(),
                                 !layout.getTransposed(),
                                 layout.getElementBitWidth()),
      src.getMutableMemory());
}

void MemDescTransOp::retypeViewsOf(Value buffer) {
  auto type = cast<MemDescType>(buffer.getType());
  for (Operation *user : buffer.getUsers())
    if (auto view = dyn_cast<MemDescTransOp>(user))
      view.getResult().setType(transposedType(type));
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType();
  MemDescType result = getType();
  if (!isa<NvmmaSharedLayoutAttr>(src.getEncoding()) ||
      src.getShape().size() != 2)
    return emitOpError("needs a 2-D #tilegpu.nvmma_shared buffer, got ")
           << src;
  MemDescType expected = transposedType(src);
  if (result != expected)
    return emitOpError("result ")
           << result << " must be " << src
           << " with its shape reversed and layout " << expected.getEncoding();
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  RankedTensorType src = getSrc().getType();
  MemDescType buffer = getResult().getType();
  if (!buffer.getMutableMemory())
    return emitOpError("cannot write an immutable buffer");
  if (failed(verifyLayoutFits(*this, src)))
    return failure();
  Type pointee = cast<tile::PointerType>(src.getElementType()).getPointeeType();
  if (src.getShape() != buffer.getShape() || pointee != buffer.getElementType())
    return emitOpError("pointers ")
           << src << " do not match the buffer " << buffer;
  if (getMask() && getMask().getType().getShape() != src.getShape())
    return emitOpError("mask must have the shape of the pointers");
  if (getOther()) {
    if (!getMask())
      return emitOpError("other requires a mask");
    RankedTensorType other = getOther().getType();
    if (other.getShape() != src.getShape() || other.getElementType() != pointee)
      return emitOpError("other must be a tensor of ")
             << pointee << " with the shape of the pointers";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WarpGroupDotOp
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotOp::verify() {
  auto aType = cast<ShapedType>(getA().getType());
  MemDescType bType = getB().getType();
  auto aBuffer = dyn_cast<MemDescType>(aType);
  auto aLayout = aBuffer
                     ? dyn_cast<NvmmaSharedLayoutAttr>(aBuffer.getEncoding())
                     : NvmmaSharedLayoutAttr();
  auto bLayout = dyn_cast<NvmmaSharedLayoutAttr>(bType.getEncoding());
  if ((aBuffer && !aLayout) || !bLayout)
    return emitOpError("operands must be shared buffers in "
                       "#tilegpu.nvmma_shared layouts (A maybe registers)");
  RankedTensorType cType = getC().getType(), dType = getType();
  if (cType != dType)
    return emitOpError("accumulator ")
           << cType << " and result " << dType << " must have the same type";
  auto mma = dyn_cast_or_null<NvidiaMmaLayoutAttr>(dType.getEncoding());
  if (!mma || mma.getVersionMajor() != 3)
    return emitOpError("result must be in a #tilegpu.nvidia_mma layout of "
                       "version 3 (wgmma), got ")
           << dType;
  if (!aBuffer) {
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(
        cast<RankedTensorType>(aType).getEncoding());
    unsigned bits = aType.getElementTypeBitWidth();
    if (!operand || operand.getOpIdx() != 0 || operand.getParent() != mma ||
        bits != 16 || operand.getKWidth() != 2)
      return emitOpError("A in registers must be a 16-bit tensor in the "
                         "#tilegpu.dot_operand layout of A (kWidth = 2) whose "
                         "parent is the result's layout, got ")
             << aType;
  }
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(),
                    d = dType.getShape();
  if (a.size() != 2 || b.size() != 2 || d.size() != 2 || a[1] != b[0] ||
      d[0] != a[0] || d[1] != b[1])
    return emitOpError("shapes must be M x K, K x N and M x N, got ")
           << aType << ", " << bType << " and " << dType;

  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  Type dElement = dType.getElementType();
  auto isFp8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(type);
  };
  int64_t kStep = 0;
  if (aElement != bElement && !(isFp8(aElement) && isFp8(bElement)))
    return emitOpError("operand element types ")
           << aElement << " and " << bElement << " must match";
  if (aElement.isF16() && (dElement.isF16() || dElement.isF32()))
    kStep = 16;
  else if (aElement.isBF16() && dElement.isF32())
    kStep = 16;
  else if (aElement.isF32() && dElement.isF32() &&
           getInputPrecision() == tile::InputPrecision::TF32)
    kStep = 8;
  else if (isFp8(aElement) && (dElement.isF16() || dElement.isF32()))
    kStep = 32;
  if (!kStep)
    return emitOpError("no wgmma computes ")
           << dElement << " from " << aElement
           << " operands (f32 operands need precision = tf32)";
  // Only 16-bit operands may be MN-major (wgmma's transpose bits); the
  // others must have K contiguous: dim 1 of A, dim 0 of B.
  if (aElement.getIntOrFloatBitWidth() != 16 &&
      ((aLayout && aLayout.getTransposed()) || !bLayout.getTransposed()))
    return emitOpError("operands of ")
           << aElement << " must be K-major (A not transposed, B transposed)";

  ArrayRef<unsigned> instr = mma.getInstrShape();
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  if (d[0] % (16 * warps[0]) != 0)
    return emitOpError("M = ")
           << d[0] << " must be a multiple of 16 rows per warp along M ("
           << 16 * warps[0] << ")";
  if (d[1] % (int64_t(instr[1]) * warps[1]) != 0)
    return emitOpError("N = ") << d[1] << " must be a multiple of instrShape "
                               << "N times the warps along N ("
                               << instr[1] * warps[1] << ")";
  if (a[1] % kStep != 0)
    return emitOpError("K = ") << a[1] << " must be a multiple of " << kStep
                               << " (one wgmma's K for " << aElement << ")";
  return success();
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError("waits for the results of async warp_group_dots, "
                       "and has none");
  for (Value input : getInputs()) {
    auto mma = dyn_cast_or_null<NvidiaMmaLayoutAttr>(
        cast<RankedTensorType>(input.getType()).getEncoding());
    if (!mma || mma.getVersionMajor() != 3)
      return emitOpError("inputs must be wgmma accumulators (a "
                         "#tilegpu.nvidia_mma layout of version 3), got ")
             << input.getType();
  }
  return success();
}
