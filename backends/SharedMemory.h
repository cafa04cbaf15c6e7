// What the shared-memory allocation and the barrier insertion agree on:
// which ops use shared memory, how much, and where the allocation put it.
#ifndef TERRAZZO_BACKENDS_SHAREDMEMORY_H
#define TERRAZZO_BACKENDS_SHAREDMEMORY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::terrazzo {

/// The byte offset (i64) of a tilegpu.local_alloc's buffer in the module's
/// shared memory, set by terrazzo-allocate-shared-memory.
inline constexpr const char *kBufferOffsetAttrName = "tilegpu.buffer_offset";

/// Bytes of scratch `op` needs while it runs (a conversion between warps,
/// a reduction or scan across warps); 0 when none.
int64_t getScratchBytes(Operation *op);

/// Bytes of the buffer a tilegpu.local_alloc creates.
int64_t getBufferBytes(Operation *alloc);

/// The ops that use the buffer a tilegpu.local_alloc creates, directly or
/// through views of it (tilegpu.memdesc_index).
SmallVector<Operation *> getBufferUsers(Operation *alloc);

/// A range of bytes of shared memory, [begin, end).
struct SharedRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool overlaps(const SharedRange &other) const {
    return begin < other.end && other.begin < end;
  }
};

/// The scratch range the allocation gave `op`, if it has scratch.
std::optional<SharedRange> getScratchRange(Operation *op);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_SHAREDMEMORY_H
