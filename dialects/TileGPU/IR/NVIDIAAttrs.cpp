// The NVIDIA-only layouts of tilegpu (NVIDIAAttrs.td): verifiers and the
// layout interfaces.
#include "dialects/TileGPU/IR/LayoutVerification.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

//===----------------------------------------------------------------------===//
// NvidiaMmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
NvidiaMmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            unsigned versionMajor,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "versionMajor must be 2 (mma.sync) or 3 (wgmma), got "
                       << versionMajor;
  if (warpsPerCTA.size() != 2)
    return emitError() << "warpsPerCTA must have two entries (M, N)";
  if (failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)))
    return failure();
  if (versionMajor == 2 &&
      (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 8))
    return emitError() << "mma.sync accumulators need instrShape = [16, 8]";
  if (versionMajor == 3) {
    if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] < 8 ||
        instrShape[1] > 256 || !llvm::isPowerOf2_32(instrShape[1]))
      return emitError() << "wgmma accumulators need instrShape = [16, N, K] "
                            "with N a power of two from 8 to 256";
    // K is what one wgmma consumes: 32 bytes of each operand row (8 tf32,
    // 16 half-precision or 32 8-bit elements). A K of 0 made the lowering
    // emit instructions without end.
    if (instrShape[2] != 8 && instrShape[2] != 16 && instrShape[2] != 32)
      return emitError() << "wgmma accumulators need instrShape = [16, N, K] "
                            "with K 8, 16 or 32, got "
                         << instrShape[2];
    if (warpsPerCTA[0] % kWarpsPerGroup != 0)
      return emitError() << "wgmma needs warpsPerCTA[0] to be a multiple of "
                         << kWarpsPerGroup << " (a warp group)";
  }
  return success();
}

unsigned NvidiaMmaLayoutAttr::getRank() const { return 2; }
unsigned NvidiaMmaLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}
unsigned NvidiaMmaLayoutAttr::getWarpSize() const { return 32; }
LogicalResult NvidiaMmaLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() == getRank())
    for (int64_t size : shape)
      if (size <= 0 || !llvm::isPowerOf2_64(size))
        return emitError() << "an MMA layout needs power-of-two sizes, got "
                           << size;
  return verifyLayoutFits(*this, getRank(), shape, emitError);
}
LogicalResult NvidiaMmaLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// NvmmaSharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
NvmmaSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              unsigned swizzlingByteWidth, bool transposed,
                              unsigned elementBitWidth) {
  if (swizzlingByteWidth != 0 && swizzlingByteWidth != 32 &&
      swizzlingByteWidth != 64 && swizzlingByteWidth != 128)
    return emitError() << "swizzlingByteWidth must be 0, 32, 64 or 128, got "
                       << swizzlingByteWidth;
  if (elementBitWidth != 8 && elementBitWidth != 16 && elementBitWidth != 32)
    return emitError() << "elementBitWidth must be 8, 16 or 32, got "
                       << elementBitWidth;
  return success();
}

unsigned NvmmaSharedLayoutAttr::getRank() const { return 2; }

//===----------------------------------------------------------------------===//
// HostTensormapAttr
//===----------------------------------------------------------------------===//

LogicalResult HostTensormapAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned parameter,
    unsigned base, Type elementType, DenseI64ArrayAttr shapeArguments,
    DenseI64ArrayAttr shapeValues, DenseI64ArrayAttr strideArguments,
    DenseI64ArrayAttr strideValues, DenseI32ArrayAttr box,
    unsigned swizzleBytes, bool stored) {
  size_t rank = box.size();
  // cuTensorMapEncodeTiled's limits: ranks 1 to 5, boxes of 1 to 256.
  if (rank < 1 || rank > 5)
    return emitError() << "box must have 1 to 5 dimensions, got " << rank;
  if (shapeArguments.size() != rank || shapeValues.size() != rank ||
      strideArguments.size() != rank || strideValues.size() != rank)
    return emitError() << "needs an extent and a stride per dimension of the "
                          "box ("
                       << rank << ")";
  for (int32_t extent : box.asArrayRef())
    if (extent < 1 || extent > 256)
      return emitError() << "box extents must be from 1 to 256, got " << extent;
  if (!elementType.isIntOrFloat() ||
      !llvm::is_contained({8u, 16u, 32u, 64u},
                          elementType.getIntOrFloatBitWidth()))
    return emitError() << "elementType must be an integer or float of 8, 16, "
                          "32 or 64 bits, got "
                       << elementType;
  for (auto [arguments, values] : {std::pair(shapeArguments, shapeValues),
                                   std::pair(strideArguments, strideValues)})
    for (auto [argument, value] :
         llvm::zip_equal(arguments.asArrayRef(), values.asArrayRef()))
      if (argument < -1 || (argument == -1 && value < 1))
        return emitError() << "extents and strides are an argument (>= 0) or "
                              "a positive constant (argument -1), got "
                           << argument << " and " << value;
  if (strideArguments[rank - 1] != -1 || strideValues[rank - 1] != 1)
    return emitError() << "the innermost stride must be the constant 1";
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    return emitError() << "swizzleBytes must be 0, 32, 64 or 128, got "
                       << swizzleBytes;
  return success();
}
