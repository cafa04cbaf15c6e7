// terrazzo-pipeline's warp-specialized form (tl.range(...,
// warp_specialize=True)): the TMA copies of a pipelined loop move to a
// producer warp group, which fills the loop's ring ahead of the consumers
// (the kernel's own warps) as far as the consumers' releases allow.
#ifndef TERRAZZO_PASSES_PIPELINEWARPSPECIALIZE_H
#define TERRAZZO_PASSES_PIPELINEWARPSPECIALIZE_H

#include "passes/PipelineTma.h"

namespace mlir::terrazzo {

/// The loop over tiles that `loop` sits in, directly, when that loop is at
/// the top of its function (or of the consumers of the function's
/// warp_specialize): a persistent kernel's. Null otherwise.
scf::ForOp tileLoopOf(scf::ForOp loop);

/// The ops outside `loop` that a producer needs in order to issue the
/// copies of `candidates` itself: those computing the loop's bounds and
/// step, the tensor maps (tilegpu.tensormap_create included), and the
/// coordinates' loop-invariant inputs, in program order; for a loop in a
/// loop over tiles (tileLoopOf), also the tile loop's bounds, and the ops
/// of its body computing the inputs from its induction variable. Failure
/// when one is not scalar code that can be cloned (a tensor, a region,
/// another memory effect), reads the tile loop's carried values, or the
/// loop is nested in other control flow.
FailureOr<SmallVector<Operation *>>
producerSlice(scf::ForOp loop, ArrayRef<TmaCandidate> candidates);

/// The warp_specialize of `loop`'s function: created the first time, with
/// the function's body (but `loop`'s ring, allocated after this call in
/// front of it) moved into its consumers, `producerWarps` warps of
/// producers, and register budgets that balance.
tilegpu::WarpSpecializeOp getOrCreateWarpSpecialize(scf::ForOp loop,
                                                    unsigned producerWarps);

/// Builds, at the end of `ws`'s producer, a loop over `loop`'s iterations
/// that issues each one's copies into `ring`'s stages in turn, waiting
/// for the consumers' release of a stage before it refills it; `slice`
/// (producerSlice) is cloned first, but for what `cloned` already maps
/// (an earlier loop's producer cloned it: tensor maps are built once);
/// `cloned` then maps the slice's values to the producer's. The loop
/// starts at stage `index` waiting for empty parity `emptyPhase` (null: a
/// fresh ring, stage 0 and parity 1) and returns both after its last
/// iteration (results 0 and 1), where a later loop sharing the ring goes on.
/// A loop in a loop over tiles goes into the producer's own loop over the
/// same tiles (made by the tile's first specialized loop, the tile-body
/// part of the slice cloned in it), which carries the stage and parity
/// from tile to tile: with a null `index` the loop starts from those, and
/// the tile loop yields its results.
scf::ForOp buildProducer(tilegpu::WarpSpecializeOp ws, scf::ForOp loop,
                         TmaRing &ring, int64_t buffers,
                         ArrayRef<Operation *> slice, IRMapping &cloned,
                         Value index = Value(), Value emptyPhase = Value());

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_PIPELINEWARPSPECIALIZE_H
