// Layout attributes of tilegpu: verifiers and the layout interfaces.
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/IR/LayoutVerification.h"
#include "dialects/Tile/IR/TileLimits.h"

#include "dialects/TileGPU/IR/LinearLayoutConversion.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tilegpu;

namespace mlir::tilegpu {

/// `[1, 4]`: the syntax of the unsigned-list parameters of the layouts.
static FailureOr<SmallVector<unsigned>> parseUnsignedArray(AsmParser &parser) {
  SmallVector<unsigned> values;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            int64_t value;
            if (parser.parseInteger(value))
              return failure();
            if (value < 0 || value > std::numeric_limits<unsigned>::max())
              return parser.emitError(loc, "expected an unsigned 32-bit "
                                           "integer, got ")
                     << value;
            values.push_back(value);
            return success();
          }))
    return failure();
  return values;
}

static void printUnsignedArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

} // namespace mlir::tilegpu

#include "dialects/TileGPU/IR/TileGPUAttrInterfaces.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TileGPU/IR/TileGPUAttrs.cpp.inc"

void TileGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
}

unsigned mlir::tilegpu::product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned value : values)
    result *= value;
  return result;
}

LogicalResult
mlir::tilegpu::verifyPermutation(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<unsigned> order, size_t rank) {
  if (order.size() != rank)
    return emitError() << "order has " << order.size()
                       << " entries for rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[dim] = true;
  }
  return success();
}

LogicalResult
mlir::tilegpu::verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, ArrayRef<unsigned> values) {
  for (unsigned value : values)
    if (value == 0 || !llvm::isPowerOf2_32(value))
      return emitError() << name << " entries must be powers of two, got "
                         << value;
  return success();
}

LogicalResult
mlir::tilegpu::verifyRank(unsigned rank, ArrayRef<int64_t> shape,
                          function_ref<InFlightDiagnostic()> emitError) {
  if (shape.size() != rank)
    return emitError() << "layout of rank " << rank
                       << " does not fit a tensor of rank " << shape.size();
  return success();
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os);
  return text + "]";
}

LogicalResult
mlir::tilegpu::verifyBlockSize(ArrayRef<int64_t> shape,
                               function_ref<InFlightDiagnostic()> emitError) {
  int64_t elements = 1;
  for (int64_t size : shape) {
    if (size > tile::kMaxBlockElements ||
        (size > 0 && elements > tile::kMaxBlockElements / size))
      return emitError() << "a tensor of shape " << shapeString(shape)
                         << " has more elements than the largest block ("
                         << tile::kMaxBlockElements << ")";
    elements *= std::max<int64_t>(size, 0);
  }
  return success();
}

LogicalResult
mlir::tilegpu::verifyLayoutFits(Attribute layout, unsigned rank,
                                ArrayRef<int64_t> shape,
                                function_ref<InFlightDiagnostic()> emitError) {
  if (failed(verifyRank(rank, shape, emitError)))
    return failure();
  std::string error;
  if (!toLinearLayout(shape, layout, &error))
    return emitError() << "layout " << layout << " cannot lay out a tensor of "
                       << "shape " << shapeString(shape) << ": " << error;
  return verifyBlockSize(shape, emitError);
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> sizePerThread,
                          ArrayRef<unsigned> threadsPerWarp,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one dimension";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp and warpsPerCTA must "
                          "have one entry per dimension";
  if (failed(verifyPowersOfTwo(emitError, "sizePerThread", sizePerThread)) ||
      failed(verifyPowersOfTwo(emitError, "threadsPerWarp", threadsPerWarp)) ||
      failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)))
    return failure();
  return verifyPermutation(emitError, order, rank);
}

unsigned BlockedLayoutAttr::getRank() const { return getOrder().size(); }
unsigned BlockedLayoutAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}
unsigned BlockedLayoutAttr::getWarpSize() const {
  return product(getThreadsPerWarp());
}
LogicalResult BlockedLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutFits(*this, getRank(), shape, emitError);
}
LogicalResult BlockedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, DistributedLayoutAttr parent) {
  if (parent.getRank() < 2)
    return emitError() << "only a layout of rank 2 or more can be sliced";
  if (dim >= parent.getRank())
    return emitError() << "dim " << dim << " is out of range for a parent of rank "
                       << parent.getRank();
  return success();
}

unsigned SliceLayoutAttr::getRank() const { return getParent().getRank() - 1; }
unsigned SliceLayoutAttr::getNumWarps() const {
  return getParent().getNumWarps();
}
unsigned SliceLayoutAttr::getWarpSize() const {
  return getParent().getWarpSize();
}
LogicalResult SliceLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutFits(*this, getRank(), shape, emitError);
}
LogicalResult SliceLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// DotOperandLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             unsigned opIdx, DistributedLayoutAttr parent,
                             unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx must be 0 (A) or 1 (B), got " << opIdx;
  if (isa<AmdMfmaLayoutAttr>(parent)) {
    if (kWidth == 0 || kWidth > 16 || !llvm::isPowerOf2_32(kWidth))
      return emitError() << "kWidth of an MFMA operand must be 1, 2, 4, 8 "
                            "or 16 (consecutive k per lane), got "
                         << kWidth;
    return success();
  }
  auto mma = dyn_cast<NvidiaMmaLayoutAttr>(parent);
  if (!mma || (mma.getVersionMajor() != 2 &&
               (mma.getVersionMajor() != 3 || opIdx != 0)))
    return emitError() << "the parent of a dot operand layout must be an "
                          "mma.sync layout (#tilegpu.nvidia_mma, version 2), "
                          "or a wgmma layout (version 3) for operand A, or "
                          "an MFMA layout (#tilegpu.amd_mfma)";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "kWidth must be 1, 2 or 4 (elements per 32-bit "
                          "register), got "
                       << kWidth;
  return success();
}

unsigned DotOperandLayoutAttr::getRank() const {
  return getParent().getRank();
}
unsigned DotOperandLayoutAttr::getNumWarps() const {
  return getParent().getNumWarps();
}
unsigned DotOperandLayoutAttr::getWarpSize() const {
  return getParent().getWarpSize();
}
LogicalResult DotOperandLayoutAttr::verifyTensorShape(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutFits(*this, getRank(), shape, emitError);
}
LogicalResult DotOperandLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, emitError);
}

//===----------------------------------------------------------------------===//
// SwizzledSharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SwizzledSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned vec, unsigned perPhase,
                                 unsigned maxPhase, ArrayRef<unsigned> order) {
  if (failed(verifyPowersOfTwo(emitError, "vec/perPhase/maxPhase",
                               {vec, perPhase, maxPhase})))
    return failure();
  if (order.empty())
    return emitError() << "shared layout needs at least one dimension";
  return verifyPermutation(emitError, order, order.size());
}

unsigned SwizzledSharedLayoutAttr::getRank() const { return getOrder().size(); }

