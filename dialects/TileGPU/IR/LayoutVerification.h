// Checks the layout attributes' verifiers share (TileGPUAttrs.cpp for the
// portable layouts, NVIDIAAttrs.cpp for NVIDIA's).
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_LAYOUTVERIFICATION_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_LAYOUTVERIFICATION_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <cstddef>
#include <cstdint>

namespace mlir::tilegpu {

/// The product of `values` (1 for none).
unsigned product(ArrayRef<unsigned> values);

/// `order` is a permutation of 0..rank-1.
LogicalResult verifyPermutation(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<unsigned> order, size_t rank);

/// Every entry of `values` (the parameter `name`) is a power of two.
LogicalResult verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError,
                                StringRef name, ArrayRef<unsigned> values);

/// A layout of rank `rank` fits a tensor of `shape`.
LogicalResult verifyRank(unsigned rank, ArrayRef<int64_t> shape,
                         function_ref<InFlightDiagnostic()> emitError);

/// A tensor of `shape` can carry `layout` (of rank `rank`): the ranks agree
/// and the layout library can build the linear layout (powers of two,
/// sizes it can hold), so that no pass or lowering meets a fatal error of
/// the library on it.
/// Fails when `shape` has more elements than the largest block
/// (tile::kMaxBlockElements, as in the tile dialect and the frontend): the
/// lowering unrolls every element of a thread, and such a block compiled
/// for hours.
LogicalResult verifyBlockSize(ArrayRef<int64_t> shape,
                              function_ref<InFlightDiagnostic()> emitError);

LogicalResult verifyLayoutFits(Attribute layout, unsigned rank,
                               ArrayRef<int64_t> shape,
                               function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_LAYOUTVERIFICATION_H
