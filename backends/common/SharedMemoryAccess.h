// How a thread reaches the elements of a shared-memory buffer that its
// registers hold under a distributed layout: the composition of the
// tensor's linear layout with the inverse of the buffer's (DESIGN.md §3)
// gives each register's offset, and the widest vectors both allow. Shared
// by the local_load/local_store lowering and the asynchronous copies.
#ifndef TERRAZZO_BACKENDS_COMMON_SHAREDMEMORYACCESS_H
#define TERRAZZO_BACKENDS_COMMON_SHAREDMEMORYACCESS_H

#include "backends/common/Utility.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tilegpu {
class MemDescType;
} // namespace mlir::tilegpu

namespace mlir::terrazzo {

/// The linear layout (in dim "offset", out dims dim0..) of a shared buffer
/// type, or nullopt when its layout or shape (powers of two) has none.
std::optional<LinearLayout> getSharedLayout(tilegpu::MemDescType type);

/// Which offset each register of a distributed tensor has in a buffer, and
/// how many consecutive registers move as one vector.
struct SharedAccessPlan {
  LinearLayout offsets; // register, lane, warp, block -> offset
  int32_t vectorWidth = 1;
};

/// The plan for moving a tensor of `tensor` (with a distributed layout) to
/// or from `buffer`, vectors of at most `maxBytes`; emits an error on `op`
/// and fails when either layout has no linear form.
FailureOr<SharedAccessPlan> planSharedAccess(Operation *op,
                                             RankedTensorType tensor,
                                             tilegpu::MemDescType buffer,
                                             unsigned maxBytes);

/// The type an element (an LLVM scalar) has in shared memory: i1 as i8.
Type sharedElementType(Type element);

/// For every register of the plan, the i32 offset (in elements) of the
/// element the calling thread holds there.
SmallVector<Value> emitSharedOffsets(RewriterBase &rewriter, Location loc,
                                     const SharedAccessPlan &plan,
                                     ThreadPosition thread);

/// Stores `values` (LLVM scalars of one type) at consecutive elements from
/// `ptr` in shared memory, as one vector when there are several; elements
/// are widened to their shared type (i1 as i8). `elementBytes` is the size
/// of one element there.
void storeSharedElements(RewriterBase &rewriter, Location loc, Value ptr,
                         ArrayRef<Value> values, unsigned elementBytes);

/// Loads `count` consecutive elements of LLVM type `element` from `ptr` in
/// shared memory (one vector when there are several), narrowed back from
/// their shared type.
SmallVector<Value> loadSharedElements(RewriterBase &rewriter, Location loc,
                                      Value ptr, Type element, int32_t count,
                                      unsigned elementBytes);

/// A pointer (address space 3) to the element at `offset` of the buffer at
/// `base` whose elements have LLVM type `element`.
Value sharedElementPointer(RewriterBase &rewriter, Location loc, Value base,
                           Type element, Value offset);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_SHAREDMEMORYACCESS_H
