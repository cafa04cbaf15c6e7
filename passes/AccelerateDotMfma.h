//===- AccelerateDotMfma.h - tile.dot on AMD matrix cores --------*- C++ -*-===//
//
// The CDNA part of terrazzo-accelerate-dot (see Passes.td): which of the
// target's matrix-core instructions (Target::matrixInstructions) computes a
// dot, by its operand types, input precision and shape.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_PASSES_ACCELERATEDOTMFMA_H
#define TERRAZZO_PASSES_ACCELERATEDOTMFMA_H

#include "dialects/Tile/IR/Tile.h"
#include "target/Target.h"

#include <optional>

namespace mlir::terrazzo {

/// The instruction of `target` that computes `dot` (2-D, operand types the
/// chip multiplies, M and N at least the instruction's, K a multiple of
/// its k), were its input precision `precision`: the first in the
/// target's order, so 32 x 32 before 16 x 16 and more k per instruction
/// first. Nullopt where none does (the FMA lowering then computes it).
std::optional<::terrazzo::MatrixInstruction>
chooseMatrixInstruction(tile::DotOp dot, tile::InputPrecision precision,
                        const ::terrazzo::Target &target);

/// The operand type of the matrix instructions that multiply elements of
/// `type` in `precision` on `target` (float32 in tf32 precision is XF32
/// where the chip has it; fp8 in the chip's own formats only); nullopt for
/// none.
std::optional<::terrazzo::MatrixOperand>
matrixOperandOf(Type type, tile::InputPrecision precision,
                const ::terrazzo::Target &target);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ACCELERATEDOTMFMA_H
