//===- AccelerateDot.h - Which dots run on tensor cores ----------*- C++ -*-===//
//
// terrazzo-accelerate-dot's choice (see Passes.td), for passes before it
// that rewrite a dot only where tensor cores will then compute it.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_PASSES_ACCELERATEDOT_H
#define TERRAZZO_PASSES_ACCELERATEDOT_H

#include "target/Target.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::terrazzo {

/// The target and warps per program that terrazzo-convert-tile-to-tilegpu
/// recorded on a module, which the dot passes choose instructions by.
struct ModuleTarget {
  ::terrazzo::Target target;
  unsigned numWarps;
};
/// `module`'s ModuleTarget, or failure after an error naming `pass`.
FailureOr<ModuleTarget> getModuleTarget(ModuleOp module, StringRef pass);

/// Whether terrazzo-accelerate-dot computes `dot` with wgmma or mma.sync,
/// were its input precision `precision`, for a CUDA compute capability
/// (times ten; 0 for other targets) and warps per program. fp8 dots, which
/// that pass may first widen to float16, are not covered.
bool isTensorCoreDot(tile::DotOp dot, tile::InputPrecision precision,
                     unsigned capability, unsigned numWarps);

/// Whether `value` is computed from the result of a dot (a tensor-core
/// accumulator) through elementwise ops, broadcasts, reductions, layout
/// conversions and the branches of scf.ifs within its block: the A operand
/// of the tail of a chain of dots (attention's P V, P = softmax(Q K^T)), in
/// registers already.
bool computedFromDot(Value value);

/// Whether `dot`'s result reaches the A operand of another dot through such
/// ops within its block: the head of a chain of dots.
bool feedsDotOperandA(tile::DotOp dot);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ACCELERATEDOT_H
