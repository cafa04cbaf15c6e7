// What terrazzo-pipeline's cp.async and TMA forms share: which ops of a
// loop body can be cloned for another iteration, and after which op a
// buffer the iteration read may be refilled.
#ifndef TERRAZZO_PASSES_PIPELINESUPPORT_H
#define TERRAZZO_PASSES_PIPELINESUPPORT_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <utility>

namespace mlir::tile {
class LoadOp;
} // namespace mlir::tile

namespace mlir::terrazzo {

bool isLoopInvariant(Value value, scf::ForOp loop);

/// Whether `value` is a constant zero (integer, or float +0.0), scalar or
/// splat: a load's `other` that masked copies write anyway, an accumulator
/// that a wgmma with `use_c` false need not read.
bool isZero(Value value);

/// A load of `loop`'s body that a pipeliner may issue for another
/// iteration: its pointers a loop-carried argument advanced by the
/// loop-invariant `step` every iteration, or (both null) computed in the
/// loop; `user`, the one op that uses its value.
struct AheadLoad {
  BlockArgument arg;
  Value step;
  Operation *user = nullptr;
};
/// Fails for a volatile load, a load of a scalar, one not in the loop's
/// body, through loop-invariant pointers or carried pointers advanced
/// otherwise, or whose value has several uses.
FailureOr<AheadLoad> matchAheadLoad(tile::LoadOp load, scf::ForOp loop);

/// The ops of the loop body that `values` depend on, in program order,
/// when they only read the induction variable, loop invariants and each
/// other, have no memory effects and no regions: they can be cloned for
/// another iteration.
FailureOr<SmallVector<Operation *>> cloneableSlice(ValueRange values,
                                                   scf::ForOp loop);

/// What `loop` adds to its iter_arg `arg` every iteration: the
/// loop-invariant `s` of a yielded `tile.addptr arg, s` (carried pointers)
/// or `arith.addi` of arg and s (carried integers); null otherwise.
Value loopAdvance(BlockArgument arg, scf::ForOp loop);

/// Derives from the induction variable each integer iter_arg that `values`
/// depend on in `loop`'s body and that the loop advances by a multiple of
/// its step every iteration (loopAdvance: the step itself or a constant
/// multiple of a constant step): its uses in the body read
/// `init + (iv - lb) * (s / step)` instead, the same value (Triton's
/// attention tutorial advances its K and V row offset so), which
/// cloneableSlice then takes.
void deriveAdvancedArgs(ValueRange values, scf::ForOp loop);

/// Clones `slice` with the induction variable of `loop` replaced by `iv`;
/// `mapping` then maps the slice's values to their clones.
void cloneSliceFor(OpBuilder &b, ArrayRef<Operation *> slice, scf::ForOp loop,
                   Value iv, IRMapping &mapping);

/// The pointers and mask of `load` (in `loop`) for the iteration whose
/// induction variable is `iv`, maybe past the loop's end (then the mask is
/// false everywhere): `slice` (the cloneableSlice of what the load computes
/// in the loop) cloned for `iv` into `mapping`; `ptr`, the pointers when
/// they are carried (null: the load's own, recomputed).
std::pair<Value, Value> pointersAndMaskFor(OpBuilder &b, tile::LoadOp load,
                                           ArrayRef<Operation *> slice,
                                           scf::ForOp loop, Value iv,
                                           Value ptr, IRMapping &mapping);

/// The bytes of a buffer or tensor of `type` (its elements' bits, packed).
int64_t bufferBytes(ShapedType type);

/// The stage after `index` (i32) in a ring of `stages` buffers: back to 0
/// after the last.
Value nextStage(OpBuilder &b, Location loc, Value index, int64_t stages);
/// The stage before `index` (i32) in a ring of `stages`: index - 1, or
/// stages - 1 for stage 0.
Value previousStage(OpBuilder &b, Location loc, Value index, int64_t stages);

/// `parity` (i32, 0 or 1) flipped when `next` (nextStage's result) wrapped
/// to stage 0: the parity of the mbarrier phase that the next use of each
/// stage waits for.
Value flipOnWrap(OpBuilder &b, Location loc, Value next, Value parity);

/// The op after which the shared buffer `read` (a tilegpu.local_load) reads
/// may be overwritten: `read` itself, or a later dot on FMAs in its block
/// that reads the loaded operand (the FMA lowering re-reads the buffer k by
/// k, next to the products).
Operation *lastReadOfBuffer(Operation *read);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_PIPELINESUPPORT_H
