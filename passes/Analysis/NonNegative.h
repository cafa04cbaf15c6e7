// Which integers (scalars and tensors) a pass may take as never negative,
// from how they are computed: what TMA descriptors and AMD's buffer loads
// need of their offsets.
#ifndef TERRAZZO_PASSES_ANALYSIS_NONNEGATIVE_H
#define TERRAZZO_PASSES_ANALYSIS_NONNEGATIVE_H

#include "mlir/IR/Value.h"

namespace mlir::terrazzo {

/// Whether `value` (an integer, or a tensor of them) is known not to be
/// negative: a constant, a program id or count, a program's index counted
/// from the last (`num_programs(d) - 1 - program_id(d)`), a kernel argument
/// specialised so (tile::TileDialect::kNonNegativeAttrName), an induction
/// variable counting up from such a value by such a step, a loop-carried
/// value (an scf.for iter_arg, or a block argument once scf is lowered to
/// cf) whose every incoming value is such a value given that it is itself
/// one (offsets that start not negative and advance by a stride that is
/// not), a range from a
/// start that is not negative, or sums, products, quotients, signed
/// remainders (of such a dividend), maxima, minima, extensions, splats,
/// broadcasts and expansions of such values (wrapping on overflow, as the
/// language assumes it does not happen).
bool isKnownNonNegative(Value value);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ANALYSIS_NONNEGATIVE_H
