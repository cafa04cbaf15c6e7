// Which pointers a pass may take as addressing at most 2^31 bytes from the
// kernel argument they come from (tile.pointer_range, set by the launch
// key's "fits in 2^31 bytes" bit): their i32 offsets need no promotion to
// i64, and AMD's buffer loads may address them.
#ifndef TERRAZZO_PASSES_ANALYSIS_POINTERRANGE_H
#define TERRAZZO_PASSES_ANALYSIS_POINTERRANGE_H

#include "mlir/IR/Value.h"

namespace mlir::terrazzo {

/// Whether `arg` is an argument of a kernel (a func.func's entry block)
/// that carries `tile.pointer_range` of at most 32 bits
/// (tile::TileDialect::kPointerRangeAttrName): every address formed from it
/// is less than 2^31 bytes above it.
bool hasSmallPointerRange(Value arg);

/// Whether every pointer `ptr` (a pointer, or a tensor of them) may hold is
/// formed from arguments that hasSmallPointerRange accepts: through splat,
/// broadcast, expand_dims, reshape, trans, join, split, bitcasts between
/// pointer types, addptr (whatever its offsets: the attribute bounds the
/// addresses formed), select, and values an scf.for or scf.if carries
/// (each value that may flow in). Anything else (an
/// int_to_ptr, a call's argument, an argument without the attribute) may
/// address anything.
bool isInSmallPointerRange(Value ptr);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ANALYSIS_POINTERRANGE_H
