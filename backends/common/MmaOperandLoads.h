// Reading a tensor-core operand out of the row-major conversion scratch with
// the target's matrix loads (ldmatrix), and writing a tensor-core result
// into it with matrix stores (stmatrix), where each lane moves a 16-byte row
// instead of one 4-byte word per register.
#ifndef TERRAZZO_BACKENDS_COMMON_MMAOPERANDLOADS_H
#define TERRAZZO_BACKENDS_COMMON_MMAOPERANDLOADS_H

#include "backends/common/TargetInfo.h"
#include "backends/common/Utility.h"

#include <optional>

namespace mlir::terrazzo {

/// The registers of a tensor of `type` in an mma.sync operand layout
/// (#tilegpu.dot_operand, 16-bit elements), read from a row-major scratch
/// whose rows (the last dimension) are stored in contiguous 16-byte chunks:
/// A (M x K, K along rows) with plain matrix loads, B (K x N, N along rows)
/// with transposed ones. `addressOf` gives the shared address of an
/// element's coordinates. Nullopt (and no IR) when the type, the chunks or
/// the target do not allow it; the caller then loads word by word.
std::optional<SmallVector<Value>> loadMmaOperandWithMatrices(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, int32_t chunkElements, ThreadPosition thread,
    const TargetInfo &target,
    llvm::function_ref<Value(ArrayRef<Value>)> addressOf);

/// The same from a shared buffer (`base`: its address, `bufferLayout`: its
/// linear layout, offset -> coordinates) whose 16-byte chunks each hold
/// eight consecutive elements of a row; nullopt when the buffer's layout
/// does not keep rows so or the conditions above fail.
std::optional<SmallVector<Value>> loadMmaOperandFromBuffer(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, const LinearLayout &bufferLayout, Value base,
    Type element, ThreadPosition thread, const TargetInfo &target);

/// Stores `values`, the registers of a tensor of `type` in an mma
/// accumulator layout (#tilegpu.nvidia_mma, 16-bit elements, e.g. a result
/// narrowed before its conversion), into a row-major scratch whose rows are
/// stored in contiguous 16-byte chunks, four 8 x 8 matrices per matrix
/// store. False (and no IR) when the type, the chunks or the target do not
/// allow it; the caller then stores word by word.
bool storeMmaResultWithMatrices(
    RewriterBase &rewriter, Location loc, RankedTensorType type,
    const LinearLayout &layout, ArrayRef<Value> values, int32_t chunkElements,
    ThreadPosition thread, const TargetInfo &target,
    llvm::function_ref<Value(ArrayRef<Value>)> addressOf);

/// The same into a shared buffer (`base`: its address, `bufferLayout`: its
/// linear layout, offset -> coordinates) whose 16-byte chunks each hold
/// eight consecutive elements of a row (a wgmma or TMA buffer's swizzle
/// moves whole chunks): a tensor-core result written for a TMA store.
/// False (and no IR) when the buffer's layout does not keep rows so or the
/// conditions above fail.
bool storeMmaResultToBuffer(RewriterBase &rewriter, Location loc,
                            RankedTensorType type, const LinearLayout &layout,
                            ArrayRef<Value> values,
                            const LinearLayout &bufferLayout, Value base,
                            Type element, ThreadPosition thread,
                            const TargetInfo &target);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_MMAOPERANDLOADS_H
