// terrazzo-pipeline's overlap of the warp_group_dots of a loop body that
// has several (attention's backward: four per iteration): each is issued
// asynchronously as early as its operands allow and waited for where its
// result is first needed, so the tensor cores work while the threads
// compute on the results of earlier dots.
#ifndef TERRAZZO_PASSES_PIPELINEDOTS_H
#define TERRAZZO_PASSES_PIPELINEDOTS_H

#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::terrazzo {

/// The loop-carried accumulator of a loop's warp_group_dot, read in a way
/// that lets the dot stay in flight across iterations: the loop carries
/// the dot's result `d` (its own accumulator, `index` among the iter_args,
/// which only the dot reads), either directly or through `reset`, an
/// `arith.select %c, zeros, d` (or `%c, d, zeros`) on a scalar condition
/// (a flattened tile loop clearing the accumulator on a tile's last step);
/// anything else reads `d` only inside the regions of `scf.if`s of the
/// body (`readers`: the tile's epilogue under `if k == k_tiles - 1`). The
/// conditions are the same in every thread: computed from constants,
/// arguments, program ids, loop counters and reductions, not from inline
/// assembly, atomics or tensor elements.
struct InFlightAccumulator {
  tilegpu::WarpGroupDotOp dot;
  unsigned index = 0;
  arith::SelectOp reset;
  bool resetWhenTrue = true;
  Value zeros; // the reset's zeros
  SmallVector<Region *> readers;
};

/// `dot`'s accumulator in `loop` when it is such a one.
std::optional<InFlightAccumulator>
matchInFlightAccumulator(tilegpu::WarpGroupDotOp dot, scf::ForOp loop);

/// Rewrites the readers of `acc` once its dot is async and `inFlight` is
/// its result as the loop carries it (after the iteration's
/// warp_group_dot_wait {pendings = 1}): each reader region first waits for
/// no group in flight (`warp_group_dot_wait {pendings = 0}`) and reads
/// that; the reset's select goes, the loop carrying `inFlight` itself.
/// Returns, with a reset, whether the accumulator holds a value for the
/// next iteration (the condition, or its negation: the next dot's
/// `use_c`), built in front of `yield`; else null.
Value keepInFlight(InFlightAccumulator &acc, Value inFlight, Operation *yield);

/// Makes the synchronous warp_group_dots of `loop`'s body asynchronous when
/// every shared-memory operand they read is one the body does not write
/// (a buffer from outside the loop, or a view of a pipelined stack taken
/// after the wait for its copies): each dot moves up to just after the
/// last of its operands (and of the wait-like op before it), its result is
/// waited for (tilegpu.warp_group_dot_wait, with the dots issued after it
/// left in flight) in front of its first user, and the results only the
/// loop carries are waited for at the end of the iteration, so that no
/// group is in flight when the iteration ends. Returns whether it did.
bool overlapWarpGroupDots(scf::ForOp loop);

/// Whether `loop`'s body is a dot chain that rotateDotChain software-
/// pipelines across iterations: two synchronous warp_group_dots, the first
/// one's result reaching the second's A operand in registers (attention's
/// S = Q K^T, P = softmax(S), O = P V + O), the second's result carried only
/// into its own accumulator, which nothing but the ops feeding the second
/// dot reads. The pipeliner keeps one more buffer per load of such a loop.
bool isDotChain(scf::ForOp loop);

/// Software-pipelines the dot chain `loop` (isDotChain, its loads already
/// pipelined into stacks defined outside it, with one buffer more than
/// copies in flight) over two stages: the second dot, and the ops that
/// only feed it and are not on its A operand's path from the first dot's
/// results (the accumulator's rescaling), run one iteration late, so that
/// each iteration issues this iteration's first dot and the previous
/// iteration's second dot and computes on the first one's result (the
/// softmax) while the second runs on the tensor cores (FlashAttention-3's
/// intra-warp-group overlap). The first stage of the first iteration is
/// peeled in front of the loop, the second stage of the last one behind
/// it, all under a check that the loop runs; the values the late stage
/// takes from the early one (P, the row scale, the buffer index) are
/// carried. The dots are then made asynchronous (overlapWarpGroupDots), and
/// P's conversion to the second dot's operand (truncation, layout) moves to
/// the end of the iteration, after the wait for the second dot, whose
/// registers it rewrites. Returns the rotated loop, or null when `loop` is
/// not such a chain.
scf::ForOp rotateDotChain(scf::ForOp loop);

} // namespace mlir::terrazzo

#endif
