// The TMA and mbarrier ops of the tilegpu dialect (verifiers), and the
// shared layouts TMA copies produce (TmaLayout.h).
#include "dialects/TileGPU/IR/TmaLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Bytes of an element TMA can copy (1, 2, 4 or 8), or 0.
int64_t tmaElementBytes(Type type) {
  if (!type.isIntOrFloat() || type.isInteger(1))
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return 0;
  return bits / 8;
}

LogicalResult fail(std::string *why, const Twine &message) {
  if (why)
    *why = message.str();
  return failure();
}

bool isRowMajor(SwizzledSharedLayoutAttr layout) {
  if (layout.getVec() != 1 || layout.getPerPhase() != 1 ||
      layout.getMaxPhase() != 1)
    return false;
  ArrayRef<unsigned> order = layout.getOrder();
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != order.size() - 1 - i)
      return false;
  return true;
}

} // namespace

LogicalResult mlir::tilegpu::getTmaCopies(MemDescType type,
                                          SmallVectorImpl<int64_t> &box,
                                          SmallVectorImpl<TmaCopy> &copies,
                                          std::string *why) {
  box.clear();
  copies.clear();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t elementBytes = tmaElementBytes(type.getElementType());
  if (!elementBytes)
    return fail(why, "TMA copies elements of 1, 2, 4 or 8 bytes only");
  if (rank < 1 || rank > kTmaMaxRank)
    return fail(why, "TMA copies blocks of rank 1 to 5");
  if (auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(type.getEncoding())) {
    int64_t width = nvmma.getSwizzlingByteWidth();
    if (rank != 2 || nvmma.getTransposed() || !width)
      return fail(why, "an nvmma_shared TMA buffer must be 2-D, not "
                       "transposed and swizzled");
    int64_t rows = shape[0], columns = shape[1];
    int64_t boxColumns = width / elementBytes;
    if (columns % boxColumns || rows < 8 || !llvm::isPowerOf2_64(rows))
      return fail(why, "a swizzled TMA buffer needs a power-of-two number "
                       "of rows, at least 8, and whole swizzle rows");
    int64_t boxRows = std::min(rows, kTmaMaxBoxDim);
    box.assign({boxRows, boxColumns});
    for (int64_t c = 0; c < columns / boxColumns; ++c)
      for (int64_t r = 0; r < rows / boxRows; ++r)
        copies.push_back(
            {{r * boxRows, c * boxColumns}, (c * rows + r * boxRows) * width});
    return success();
  }
  auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(type.getEncoding());
  if (!swizzled || !isRowMajor(swizzled))
    return fail(why, "a TMA buffer must be nvmma_shared or a row-major "
                     "swizzled_shared without swizzle");
  if ((shape.back() * elementBytes) % 16)
    return fail(why, "TMA boxes hold a multiple of 16 bytes in their "
                     "innermost dimension");
  for (int64_t size : shape)
    if (size > kTmaMaxBoxDim)
      return fail(why, "an unswizzled TMA buffer is one box, at most 256 "
                       "elements in each dimension");
  box.assign(shape.begin(), shape.end());
  copies.push_back({SmallVector<int64_t>(rank, 0), 0});
  return success();
}

unsigned mlir::tilegpu::getTmaSwizzleBytes(MemDescType type) {
  if (auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(type.getEncoding()))
    return nvmma.getSwizzlingByteWidth();
  return 0;
}

SharedLayoutAttr mlir::tilegpu::getTmaSharedLayout(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   Type elementType) {
  int64_t rank = shape.size();
  int64_t elementBytes = tmaElementBytes(elementType);
  if (!elementBytes || rank < 1 || rank > kTmaMaxRank)
    return {};
  for (int64_t size : shape)
    if (size < 1 || !llvm::isPowerOf2_64(size))
      return {};
  int64_t innerBytes = shape.back() * elementBytes;
  if (innerBytes % 16)
    return {};
  // Swizzled rows spread a column's elements over the banks; the swizzle
  // pattern repeats every 8 rows, so fewer rows cannot use it.
  if (rank == 2 && shape[0] >= 8 && innerBytes >= 32 && elementBytes <= 4)
    return NvmmaSharedLayoutAttr::get(
        context, unsigned(std::min<int64_t>(innerBytes, 128)),
        /*transposed=*/false, unsigned(elementBytes * 8));
  for (int64_t size : shape)
    if (size > kTmaMaxBoxDim)
      return {};
  SmallVector<unsigned> order;
  for (int64_t d = rank - 1; d >= 0; --d)
    order.push_back(unsigned(d));
  return SwizzledSharedLayoutAttr::get(context, 1, 1, 1, order);
}

MemDescType mlir::tilegpu::getMBarrierType(MLIRContext *context) {
  auto layout = SwizzledSharedLayoutAttr::get(context, 1, 1, 1, {0});
  return MemDescType::get(context, {1}, IntegerType::get(context, 64), layout,
                          /*mutableMemory=*/true);
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

namespace {

LogicalResult verifyMBarrier(Operation *op, MemDescType type) {
  if (type.getShape() != ArrayRef<int64_t>{1} ||
      !type.getElementType().isInteger(64) || !type.getMutableMemory())
    return op->emitOpError("needs an mbarrier: a mutable shared buffer of "
                           "one i64, got ")
           << type;
  return success();
}

LogicalResult verifyTmaBuffer(Operation *op, MemDescType type,
                              size_t numCoords) {
  if (numCoords != type.getShape().size())
    return op->emitOpError("needs one coordinate per buffer dimension (")
           << type.getShape().size() << "), got " << numCoords;
  SmallVector<int64_t> box;
  SmallVector<TmaCopy> copies;
  std::string why;
  if (failed(getTmaCopies(type, box, copies, &why)))
    return op->emitOpError("cannot fill ") << type << " by TMA: " << why;
  return success();
}

} // namespace

LogicalResult TensormapCreateOp::verify() {
  ArrayRef<int32_t> box = getBoxShape();
  int64_t rank = box.size();
  if (rank < 1 || rank > kTmaMaxRank)
    return emitOpError("needs a box of rank 1 to 5, got rank ") << rank;
  if (int64_t(getShape().size()) != rank || int64_t(getStrides().size()) != rank)
    return emitOpError("needs one shape and one stride per box dimension (")
           << rank << "), got " << getShape().size() << " and "
           << getStrides().size();
  for (int32_t size : box)
    if (size < 1 || size > kTmaMaxBoxDim)
      return emitOpError("box dimensions must be 1 to 256, got ") << size;
  Type element = cast<tile::PointerType>(getBase().getType()).getPointeeType();
  int64_t elementBytes = tmaElementBytes(element);
  if (!elementBytes)
    return emitOpError("TMA copies elements of 1, 2, 4 or 8 bytes, not ")
           << element;
  int64_t innerBytes = int64_t(box.back()) * elementBytes;
  if (innerBytes % 16)
    return emitOpError("the innermost box dimension holds ")
           << innerBytes << " bytes; TMA needs a multiple of 16";
  int32_t swizzle = getSwizzleBytes();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("swizzle must be 0, 32, 64 or 128 bytes, got ")
           << swizzle;
  if (swizzle && innerBytes > swizzle)
    return emitOpError("the innermost box dimension (")
           << innerBytes << " bytes) is wider than the " << swizzle
           << "-byte swizzle";
  return success();
}

LogicalResult MBarrierInitOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierExpectTxOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierInvalOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyMBarrier(*this, getBarrier().getType())))
    return failure();
  MemDescType type = getResult().getType();
  if (!type.getMutableMemory())
    return emitOpError("writes an immutable buffer");
  return verifyTmaBuffer(*this, type, getCoords().size());
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  return verifyTmaBuffer(*this, getSrc().getType(), getCoords().size());
}
