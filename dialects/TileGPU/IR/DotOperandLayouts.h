// The layouts of tile.dot's operands for the FMA lowering (no tensor
// cores): each thread holds, for every element of the result it computes,
// the whole row of A and the whole column of B that element needs.
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_DOTOPERANDLAYOUTS_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_DOTOPERANDLAYOUTS_H

#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/LinearLayout.h"

#include <optional>

namespace mlir::tilegpu {

/// The linear layout of operand `index` (0: A, M x K; 1: B, K x N; with a
/// leading batch dimension when the result has one) of a dot whose result
/// has `resultLayout` (out dims dim0.., M x N): the K dimension in
/// registers (consecutive registers, consecutive k), the result's bases
/// that move along M (for A) or N (for B) kept, and those that move along
/// the other dimension made broadcasts. Nullopt when a result basis moves
/// along M and N at once.
std::optional<::terrazzo::LinearLayout>
getFmaDotOperandLinearLayout(const ::terrazzo::LinearLayout &resultLayout,
                             unsigned index, int64_t k);

/// The same as a layout attribute for an operand of `operandShape`
/// (blocked when one describes it, else #tilegpu.linear); null when there
/// is none.
Attribute getFmaDotOperandLayout(RankedTensorType resultType, unsigned index,
                                 ArrayRef<int64_t> operandShape);

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_DOTOPERANDLAYOUTS_H
