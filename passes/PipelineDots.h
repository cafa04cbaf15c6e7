// terrazzo-pipeline's overlap of the warp_group_dots of a loop body that
// has several (attention's backward: four per iteration): each is issued
// asynchronously as early as its operands allow and waited for where its
// result is first needed, so the tensor cores work while the threads
// compute on the results of earlier dots.
#ifndef TERRAZZO_PASSES_PIPELINEDOTS_H
#define TERRAZZO_PASSES_PIPELINEDOTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::terrazzo {

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

} // namespace mlir::terrazzo

#endif
