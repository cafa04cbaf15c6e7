// Which global-memory accesses buffer operations may serve on CDNA, and
// at which base and offsets (BufferAccess.cpp): one decision, which the
// conversion (buffer loads, stores, atomics) and
// terrazzo-amd-buffer-addresses share.
#ifndef TERRAZZO_BACKENDS_AMD_BUFFERACCESS_H
#define TERRAZZO_BACKENDS_AMD_BUFFERACCESS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::terrazzo {

/// An access's pointers as one scalar base pointer (uniform over the
/// program) plus i32 element offsets known not to be negative.
struct BufferAddress {
  Value base;
  Value offsets;
};
using BufferAccesses = llvm::DenseMap<Operation *, BufferAddress>;

/// Whether accesses at `base` (a scalar pointer) plus `offsets` (element
/// offsets) may go through a buffer resource: `base` points to global
/// memory, is a kernel argument with `tile.pointer_range` of at most 32
/// bits (hasSmallPointerRange: the tensor is smaller than 2 GiB) or such an
/// argument advanced by offsets that are not negative, and `offsets` are
/// i32 and known not to be negative (isKnownNonNegative). The one decision
/// of which addresses buffer operations may serve; matchBufferAccess and
/// terrazzo-amd-buffer-addresses ask it.
bool isBufferAddress(Value base, Value offsets);

/// Whether `op` may access global memory through a buffer resource, and
/// at which base and offsets (isBufferAddress). A tile.load (not volatile), tile.store (no cache
/// or eviction hints on either) or tile.atomic_rmw / tile.atomic_cas (of
/// 32- or 64-bit elements, which buffer atomics have) of a tensor of
/// global memory, not of i1, through `addptr(splat(base), offsets)` (maybe
/// broadcast).
std::optional<BufferAddress> matchBufferAccess(Operation *op);

/// The accesses of `module` that matchBufferAccess takes, found before the
/// conversion, which replaces what the offsets are computed from.
BufferAccesses findBufferAccesses(ModuleOp module);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_BUFFERACCESS_H
