#ifndef TERRAZZO_BACKENDS_PASSES
#define TERRAZZO_BACKENDS_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoConvertTileGPUToLLVM
    : Pass<"terrazzo-convert-tilegpu-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tilegpu IR to the LLVM dialect and the target's GPU dialect";
  let description = [{
    Each tensor becomes the values one thread holds under its layout (an LLVM
    struct); each op becomes the per-thread code that computes them. The
    target comes from the module's `tilegpu.target`, and the conversion is
    its vendor's (Backend::convertToLLVM; NVVM for `cuda:*`): the shared
    patterns of backends/common do the work, with the vendor's own patterns
    and its TargetInfo, which supplies special registers, kernel attributes,
    printing and assertions.
    Loads and stores are vectorised from the layout and AxisInfo. A
    `convert_layout` that only relabels a thread's registers costs nothing;
    one that keeps every element in its warp, with each result register read
    from the same source register in every lane, is one warp shuffle per
    distinct (register, lane offset); any other goes through shared memory: a
    barrier, every thread storing its elements at their row-major offsets in
    the module's external `@global_smem` (address space 3), a barrier, and
    the loads of the result layout. A `tile.reduce` combines, with its
    region, first the registers of a thread that differ only along the axis,
    then across the lanes along the axis with butterfly shuffles, then, when
    warps hold different parts of the axis, through that buffer (a barrier,
    each warp's partials stored per output element, a barrier, every thread
    combining them). Every such conversion or reduction reuses that
    buffer, and the module attribute `tilegpu.shared` (i32) records the
    largest need: the dynamic shared memory the kernel must be launched
    with, checked against the target's limit. A `tile.atomic_rmw` or
    `tile.atomic_cas` updates each element once, from the one thread and
    register that hold it with no free bit of the layout (thread 0 for a
    scalar), as inline PTX `atom` (`red` when the old values are unused and
    the ordering allows) with its ordering and scope; float max/min of
    f32/f64 are integer max/min of the bits chosen by the value's sign, and
    what has no instruction (f16/bf16 max, min and exchange, bf16 add before
    sm_90) is a compare-and-swap loop; the copies of an element get its old
    value by a shuffle or through the op's scratch. Public
    functions become kernels launched with `num-warps * threads-per-warp`
    threads; a pointer argument's `tile.divisibility` becomes its LLVM
    alignment. Transcendental math on NVIDIA calls libdevice (`__nv_*`),
    which is linked when the module is turned into PTX. The module must
    contain no `scf` ops (run `convert-scf-to-cf` first).
  }];
  // The vendors' dialects come from the pass (registerBackendDialects).
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TerrazzoAllocateSharedMemory
    : Pass<"terrazzo-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer and scratch area its offset";
  let description = [{
    Two kinds of shared memory: the scratch an op needs while it runs (a
    layout conversion between warps -- one round's slab of rows for a tensor
    larger than the target's shared memory that the lowering converts in
    rounds --, a reduction or scan across warps), live
    only at that op (a tensor map's, to the end of the group of maps built
    at the same time, each of which records its place in the group as
    `tilegpu.tensormap_group`), and explicit buffers (`tilegpu.local_alloc`), live from
    their allocation to their last use (to the end of a loop that uses a
    buffer allocated outside it). Offsets are chosen first-fit, 16-byte
    aligned, so that buffers live at the same time never overlap; a scratch
    area is moved past the previous op's scratch when that costs no more
    than the kernel needs anyway (or at most 4 KiB; up to the target's
    limit for a kernel that needs more than half of it, which runs one
    program per multiprocessor whatever it grows to), so that
    terrazzo-insert-barriers can drop the barrier between the two. Offsets
    are recorded as `tilegpu.scratch_offset` on ops and
    `tilegpu.buffer_offset` on allocations (a `tilegpu.memdesc_index`
    view of one buffer of a stack keeps the whole stack live); the module attribute
    `tilegpu.shared` (i32) is the total, the dynamic shared memory a kernel
    is launched with, checked against the target's limit. A function over
    the limit gets a located error with a note at each of the (largest six)
    buffers and scratch areas live at its peak, saying their bytes and
    shapes, so that the error names the lines whose blocks to shrink.
  }];
}

def TerrazzoContinuousTurns
    : Pass<"terrazzo-continuous-turns", "::mlir::ModuleOp"> {
  let summary = "One first pass and one last wait for all of a function's warp-group turns";
  let description = [{
    terrazzo-pipeline puts the ends of a loop's turns around it: the last
    warp group passes the first turn in front of the loop
    (`tilegpu.warp_group_turn_pass {only = G - 1}`), group 0 takes the
    last one after it (`tilegpu.warp_group_turn_wait {only = 0}`). With
    several such loops (one per tile of a persistent kernel, two per tile
    of a causal one) the pairs rely on the program's barriers between the
    loops: without one, the last group could pass the next loop's first
    turn before group 0 waited for the last turn of the loop before, and
    the two passes would complete one wait together (a hang; the narrow
    barriers of terrazzo-insert-barriers, bench/RESULTS.md session 36).

    This pass keeps one pair per function: the first pass in front of the
    op of the function's body (or of a `tilegpu.warp_specialize`'s
    consumers) that holds the first loop, the last wait after the op that
    holds the last, and removes the others. The turns then run on from one
    loop into the next: group 0's first wait in a loop takes the last
    group's last pass of the loop before. Every warp group takes the same
    path through the loops (their bounds and conditions are the program's
    scalars), so the passes and waits still pair up, with no barrier
    between them. A function whose turn ends are one pair outside loops
    already, or whose ends lie in different blocks of that body, is left
    as it is. lib's pipeline runs it in front of terrazzo-insert-barriers'
    narrow barriers (unless TERRAZZO_NARROW_BARRIERS=0), which keep the
    program's barriers in a function whose turns need them
    (tilegpu::turnsNeedProgramBarriers).
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoInsertBarriers
    : Pass<"terrazzo-insert-barriers", "::mlir::ModuleOp"> {
  let summary = "Insert a barrier exactly where shared-memory accesses can conflict";
  let options = [
    Option<"narrow", "narrow", "bool", /*default=*/"false",
           "Barriers of a warp or warp group where only its threads' "
           "accesses conflict">,
  ];
  let description = [{
    Walks each function in program order with the set of shared-memory
    accesses (byte ranges, read or write) made since the last barrier. An
    access that overlaps a pending write, or a write that overlaps a pending
    read, gets a `tilegpu.barrier` in front of its op, which clears the set.
    An op with scratch writes its whole area, waits at a barrier of its own
    lowering, and reads it: after it, its area is pending as read. Loops
    iterate to a fixed point (the end of an iteration flows into the next)
    and the branches of an `scf.if` join. Where a loop's body would need
    fewer barriers with none pending at its entry (the first read of a
    buffer written in front of the loop, say), the barrier goes in front of
    the loop instead, to run once rather than every iteration. A call may
    touch any shared memory.
    An asynchronous copy is a write that must not start while its buffer has
    pending accesses, and that lands at an `async_wait`: from there its
    buffer is pending as written (a barrier before reading it); a barrier
    does not complete it; a copy marked `tilegpu.reads_retired` (a
    pipeliner's refill of a buffer whose readers finished before the last
    barrier, or a TMA refill of a buffer its readers released on an
    mbarrier) only waits for pending writes. A `memdesc_index` with a
    constant index is its own buffer of the stack, otherwise the whole
    stack. A write through the generic proxy (a store, scratch, an
    mbarrier's init or inval, a call) to memory that a TMA copy of the
    function also writes (the copy's buffer reusing that memory) is
    followed by a `tilegpu.fence_async_shared` of the writing threads: a
    barrier orders it between threads, not before the async proxy's
    writes; the barrier the copy needs after it comes from the conflict.
    Fencing right after the write keeps the fence where the write is (once
    in front of a loop of refills, not in the loop). A fence without
    buffers is left out where a later op of its block fences again
    (another fence, or a wgmma whose lowering fences its operands) with
    only generic shared-memory accesses, mbarrier inits and invals, views
    and ops without memory effects in between.
    With `narrow` (the compiler's pipeline's, unless
    TERRAZZO_NARROW_BARRIERS=0), a barrier reaches only as far as
    the conflicting accesses' threads, except in a function whose warp
    groups take turns that pair up only at the program's barriers
    (tilegpu::turnsNeedProgramBarriers: a first pass and a last wait
    around each of several loops; a form that narrowed those hung at
    D=128, session 36), which keeps the program's barriers; the
    compiler's pipeline runs terrazzo-continuous-turns first, which
    leaves one such pair per function. A
    `local_alloc` with a value, a `local_store` or a `local_load` is made,
    row by row of its buffer, by the warps its layout gives each row, and
    a `warp_group_dot`'s A in shared memory by the warp group whose
    accumulator rows they are; where two such accesses to the same buffer
    value conflict only between threads of one warp (or warp group) in
    every row, the barrier is `scope warp` (`scope warp_group`), which
    orders those accesses only (any other access stays pending against
    them); otherwise, and for accesses of unknown threads, the program's.
    A narrower barrier becomes the program's where the rest of its block
    would then need fewer barriers. A layout conversion whose elements stay
    in their warp (or warp group) passes a barrier of that scope between
    its stores and its loads (recorded on it as `tilegpu.barrier_scope`,
    which its lowering follows), and orders only that. In a program of one
    warp group a group's barrier is the program's.
    Run after terrazzo-allocate-shared-memory.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

#endif // TERRAZZO_BACKENDS_PASSES
