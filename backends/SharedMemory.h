// What the shared-memory allocation and the barrier insertion agree on:
// which ops use shared memory, how much, and where the allocation put it.
#ifndef TERRAZZO_BACKENDS_SHAREDMEMORY_H
#define TERRAZZO_BACKENDS_SHAREDMEMORY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::terrazzo {


/// Bytes of scratch `op` needs while it runs (a conversion between warps,
/// a reduction or scan across warps); 0 when none.
int64_t getScratchBytes(Operation *op);

/// Bytes of the buffer a tilegpu.local_alloc creates.
int64_t getBufferBytes(Operation *alloc);

/// The ops that use the buffer a tilegpu.local_alloc creates, directly or
/// through views of it (tilegpu.memdesc_index).
SmallVector<Operation *> getBufferUsers(Operation *alloc);

/// The buffer (or stack of buffers) `buffer` is a view of: `buffer`
/// itself unless it is a tilegpu.memdesc_index or memdesc_trans.
Value getRootBuffer(Value buffer);

/// What writes the memory of a buffer: only cp.async copies, only TMA
/// copies, only its value at allocation followed at once by a proxy fence
/// (a tilegpu.fence_async_shared right after the tilegpu.local_alloc, which
/// terrazzo-accelerate-dot puts after a wgmma operand it stores once,
/// outside the dot's loop), or anything else (stores, an unfenced value at
/// allocation, both kinds of copy; a proxy fence naming the buffer writes
/// nothing, as the one a staged operand's buffer keeps when a TMA copy
/// takes the place of its value). wgmma needs a proxy fence and a
/// barrier of its own (fence, then barrier) for the last only. For the
/// others terrazzo-insert-barriers decides: memory only TMA writes needs
/// none (the mbarrier wait that makes the copy's data visible to a thread is
/// per thread); after cp.async copies or a fenced value, a barrier goes in
/// front of the first dot that reads writes still pending (the async_wait
/// or the fence, then one barrier for every dot after it).
enum class BufferWriters { CpAsyncOnly, TmaOnly, FencedValue, Other };

/// The writers of the memory `buffer` (a tilegpu.local_alloc's buffer or
/// a view of one buffer of its stack) belongs to.
BufferWriters getBufferWriters(Value buffer);

/// Whether the lowering of the tilegpu.warp_group_dot `dot` fences the
/// thread's generic-proxy writes for the async proxy and then passes a
/// barrier of its own before the tensor cores read: an operand in shared
/// memory that not only copies or a fenced value write.
bool wgmmaNeedsProxyFence(Operation *dot);

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
