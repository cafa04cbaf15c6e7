// The tilegpu dialect: tile IR with layouts and shared memory (DESIGN.md §2-3).
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_TILEGPU_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_TILEGPU_H

#include "dialects/Tile/IR/Tile.h"
#include "target/Target.h"

#include <optional>

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/TensorEncoding.h"

#include "dialects/TileGPU/IR/TileGPUDialect.h.inc"
#include "dialects/TileGPU/IR/TileGPUEnums.h.inc"
#include "dialects/TileGPU/IR/TileGPUAttrInterfaces.h.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/TileGPU/IR/TileGPUAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TileGPU/IR/TileGPUTypes.h.inc"

namespace mlir::tilegpu {

/// Unit attribute of an async_copy_global_to_local or a local_store: no
/// shared-memory read since the last barrier touches its buffer, and the
/// buffer's earlier readers completed before that barrier (a software
/// pipeliner's refill of a buffer read in an earlier iteration); of an
/// async_tma_copy_global_to_local: the buffer's readers released it on an
/// mbarrier that the copy's thread waited for. Barrier insertion then needs
/// no barrier between pending reads and the copy.
inline constexpr const char *kReadsRetiredAttrName = "tilegpu.reads_retired";
/// On a tilegpu.convert_layout through shared memory: the scope
/// (BarrierScope) of the barrier between its stores and its loads, which
/// terrazzo-insert-barriers chose; the program's when absent.
inline constexpr const char *kScratchBarrierScopeAttrName =
    "tilegpu.barrier_scope";

/// Warps in a warp group: the unit of sm_90's wgmma (each warp group's own
/// rows of a warp_group_dot), of warp specialization's partitions (a
/// producer is one) and of the turns between them.
inline constexpr unsigned kWarpsPerGroup = 4;

/// The launch configuration of the module `op` is (or is in), from its
/// attributes (TileGPUDialect::kTargetAttrName, ...), which the dialect
/// verifies: the one place that reads them.
/// The module's target; nullopt when it has none.
std::optional<::terrazzo::Target> getTarget(Operation *op);
/// Warps per program instance; ::terrazzo::kDefaultNumWarps when unset.
unsigned getNumWarps(Operation *op);
/// Warps the program is launched with: getNumWarps plus the producer
/// warps of a warp_specialize (TileGPUDialect::kTotalNumWarpsAttrName).
unsigned getTotalNumWarps(Operation *op);
/// Registers per thread the program may use
/// (TileGPUDialect::kMaxRegistersAttrName); nullopt when unset.
std::optional<unsigned> getMaxRegisters(Operation *op);
/// Threads per warp; when unset, the target's warp size (32 without one).
unsigned getThreadsPerWarp(Operation *op);

/// Shared memory, the resource of local_alloc/load/store.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

} // namespace mlir::tilegpu

#define GET_OP_CLASSES
#include "dialects/TileGPU/IR/TileGPUOps.h.inc"

namespace mlir::tilegpu {

/// The turn ops of `func` that one warp group makes alone (`only`: the
/// last group's first pass in front of a loop that takes turns, group 0's
/// last wait after it), in program order; returns whether `func` takes
/// turns at all (any tilegpu.warp_group_turn_wait or _pass).
bool collectTurnEnds(Operation *func,
                     SmallVectorImpl<WarpGroupTurnPassOp> &starts,
                     SmallVectorImpl<WarpGroupTurnWaitOp> &ends);
/// Whether turns whose ends (collectTurnEnds) are `starts` and `ends` pair
/// up only with barriers of the whole program between them: unless there
/// is exactly one first pass and one last wait, neither in a loop. With a
/// first pass and a last wait around each of several loops, the last
/// group, let through the program's barriers no more, could pass the next
/// loop's first turn before group 0 took the last turn of the loop before;
/// the two passes would then complete one wait together
/// (terrazzo-continuous-turns leaves one pair).
bool turnEndsNeedProgramBarriers(ArrayRef<WarpGroupTurnPassOp> starts,
                                 ArrayRef<WarpGroupTurnWaitOp> ends);
/// Whether `func` takes turns whose ends need the program's barriers
/// (turnEndsNeedProgramBarriers).
bool turnsNeedProgramBarriers(Operation *func);

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_TILEGPU_H
