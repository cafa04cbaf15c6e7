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

LogicalResult PrefetchGlobalOp::verify() {
  RankedTensorType ptr = getPtr().getType();
  if (failed(verifyLayoutFits(*this, ptr)))
    return failure();
  if (getMask() && (getMask().getType().getShape() != ptr.getShape() ||
                    getMask().getType().getEncoding() != ptr.getEncoding()))
    return emitOpError("mask must have the shape and layout of the pointers");
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

