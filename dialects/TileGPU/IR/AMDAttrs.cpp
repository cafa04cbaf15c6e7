// The AMD-only layouts of tilegpu (AMDAttrs.td): verifiers and the layout
// interfaces.
#include "dialects/TileGPU/IR/LayoutVerification.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

//===----------------------------------------------------------------------===//
// AmdMfmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
AmdMfmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> instrShape, bool isTransposed) {
  if (warpsPerCTA.size() != 2)
    return emitError() << "warpsPerCTA must have two entries (M, N)";
  if (failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)))
    return failure();
  if (instrShape.size() != 2 || instrShape[0] != instrShape[1] ||
      (instrShape[0] != 32 && instrShape[0] != 16))
    return emitError() << "MFMA accumulators need instrShape = [32, 32] or "
                          "[16, 16]";
  return success();
}

unsigned AmdMfmaLayoutAttr::getRank() const { return 2; }
unsigned AmdMfmaLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}
// MFMA runs on wavefronts of 64.
unsigned AmdMfmaLayoutAttr::getWarpSize() const { return 64; }
LogicalResult AmdMfmaLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutFits(*this, getRank(), shape, emitError);
}
LogicalResult AmdMfmaLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}
