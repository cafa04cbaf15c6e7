#ifndef TERRAZZO_TILEGPU_OPS
#define TERRAZZO_TILEGPU_OPS

include "dialects/TileGPU/IR/TileGPUTypes.td"
include "dialects/TileGPU/IR/TileGPUEnums.td"
include "dialects/Tile/IR/TileTypes.td"
include "dialects/Tile/IR/TileAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SharedMemory : Resource<"::mlir::tilegpu::SharedMemory">;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Move a tensor's elements to another layout";
  let description = [{
    Same shape and element type, another encoding. Lowered to in-thread
    permutation, warp shuffles or a trip through shared memory, depending on
    which hardware bits the two layouts disagree on.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc"> {
  let summary = "Allocate a shared-memory buffer, optionally initialised from a tensor";
  let arguments = (ins Optional<Tile_Tensor>:$src);
  let results = (outs Res<TileGPU_MemDescType, "new buffer",
                          [MemAlloc<SharedMemory>]>:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TileGPU_LocalDeallocOp : TileGPU_Op<"local_dealloc"> {
  let summary = "End the lifetime of a shared-memory buffer";
  let arguments = (ins Arg<TileGPU_MemDescType, "buffer",
                           [MemFree<SharedMemory>]>:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load"> {
  let summary = "Read a shared-memory buffer into a distributed tensor";
  let arguments = (ins Arg<TileGPU_MemDescType, "buffer",
                           [MemRead<SharedMemory>]>:$buffer);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store"> {
  let summary = "Write a distributed tensor into a mutable shared-memory buffer";
  let arguments = (ins Tile_Tensor:$src,
                       Arg<TileGPU_MemDescType, "buffer",
                           [MemWrite<SharedMemory>]>:$buffer);
  let assemblyFormat = "$src `,` $buffer attr-dict `:` type($src) `->` qualified(type($buffer))";
  let hasVerifier = 1;
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier"> {
  let summary = "Wait for every thread of the program instance, of a warp group or of a warp";
  let description = [{
    Every thread of the program instance reaches this point before any goes
    on, and shared-memory accesses before it are visible to all threads
    after it. Inserted by terrazzo-insert-barriers where shared-memory
    accesses of different threads could otherwise conflict. In the consumers
    of a `tilegpu.warp_specialize`, and after it, the program's threads are
    the consumers' (the producer's warps are elsewhere).

    With `scope warp_group` the same holds among the four warps of each
    warp group (warps 4g to 4g + 3) only, each group passing on its own;
    with `scope warp`, among the lanes of each warp. The insertion uses
    them where every conflicting access is made by the threads of one
    group or warp. A target without a narrower barrier (AMD's) waits for
    the whole program instead, which is stronger.

        tilegpu.barrier
        tilegpu.barrier scope warp_group
        tilegpu.barrier scope warp
  }];
  let arguments = (ins OptionalAttr<TileGPU_BarrierScope>:$scope);
  let assemblyFormat = "(`scope` $scope^)? attr-dict";
  let builders = [
    OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::tilegpu::BarrierScopeAttr()); }]>,
    OpBuilder<(ins "::mlir::tilegpu::BarrierScope":$scope), [{
      build($_builder, $_state,
            scope == ::mlir::tilegpu::BarrierScope::Program
                ? ::mlir::tilegpu::BarrierScopeAttr()
                : ::mlir::tilegpu::BarrierScopeAttr::get($_builder.getContext(), scope));
    }]>];
  let extraClassDeclaration = [{
    /// The scope, the program's when none is given.
    ::mlir::tilegpu::BarrierScope getEffectiveScope() {
      return getScope().value_or(::mlir::tilegpu::BarrierScope::Program);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Multi-buffering and asynchronous copies
//===----------------------------------------------------------------------===//

def TileGPU_GlobalMemory : Resource<"::mlir::tile::GlobalMemory">;

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "One buffer of a multi-buffered shared-memory allocation";
  let description = [{
    `src` is a stack of buffers along its leading dimension (the buffer
    count): the result is buffer `index` (an i32 below that count), a view
    of the same memory with the leading dimension dropped. The leading
    dimension must be the slowest of the layout (last in a swizzled
    layout's `order`), so that each buffer is contiguous and laid out like
    the others; the result's layout is the source's without it. A stack of
    `#tilegpu.nvmma_shared` buffers (rank 3, each buffer a multiple of 1024
    bytes) keeps its layout: the result has the same (2-D) attribute.

        %b = tilegpu.memdesc_index %buffers[%i]
            : !tilegpu.memdesc<3x64x32xf16, #s3, mutable>
            -> !tilegpu.memdesc<64x32xf16, #s2, mutable>
  }];
  let arguments = (ins TileGPU_MemDescType:$src, I32:$index);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_MemDescTransOp : TileGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "A 2-D nvmma_shared buffer seen with its dimensions swapped";
  let description = [{
    The same memory as `src` (rank 2, `#tilegpu.nvmma_shared`), indexed
    [j, i] where `src` is indexed [i, j]: the result's shape is the
    source's reversed and its layout the source's with `transposed`
    flipped (the contiguous dimension is the same bytes, now the other
    index). A block a TMA copy wrote N x K, say, is a K x N operand whose K
    runs contiguously, as wgmma reads B.

        %bt = tilegpu.memdesc_trans %b
            : !tilegpu.memdesc<128x64xf16, #nvmma, mutable>
            -> !tilegpu.memdesc<64x128xf16, #nvmma_t, mutable>
  }];
  let arguments = (ins TileGPU_MemDescType:$src);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src), [{
      build($_builder, $_state,
            transposedType(::llvm::cast<MemDescType>(src.getType())), src);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The view's type of a 2-D nvmma_shared buffer of type `src`: its
    /// shape reversed, its layout's `transposed` flipped.
    static MemDescType transposedType(MemDescType src);
    /// Gives the views of `buffer` taken by memdesc_trans the type of the
    /// transposed `buffer` again, after their source changed (an
    /// immutable buffer replaced by one of a mutable stack, say).
    static void retypeViewsOf(::mlir::Value buffer);
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyGlobalToLocalOp
    : TileGPU_Op<"async_copy_global_to_local", [AttrSizedOperandSegments]> {
  let summary = "Start copying a block from global memory into a shared buffer";
  let description = [{
    Each element `src` points to is copied, asynchronously, to its place in
    `result` (a mutable buffer of the same shape and element type). Where
    `mask` is false nothing is read and the element is set to zero; `other`,
    when given, must be that zero (a constant splat of 0): the hardware
    fills masked elements with zeros only. The copy is complete for the
    issuing thread once an `async_wait` lets its group finish; other threads
    see it after a barrier that follows that wait.
  }];
  let arguments = (ins
    Arg<Tile_PtrTensor, "pointers to read", [MemRead<TileGPU_GlobalMemory>]>:$src,
    Arg<TileGPU_MemDescType, "buffer", [MemWrite<SharedMemory>]>:$result,
    Optional<RankedTensorOf<[I1]>>:$mask,
    Optional<Tile_Tensor>:$other);
  let results = (outs TileGPU_AsyncTokenType:$token);
  let assemblyFormat = [{
    $src `,` $result (`mask` $mask^)? (`other` $other^)? attr-dict `:`
    type($src) (`,` type($mask)^)? (`,` type($other)^)? `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_PrefetchGlobalOp : TileGPU_Op<"prefetch_global"> {
  let summary = "Start bringing a block of global memory into the L2 cache";
  let description = [{
    A hint that the elements `ptr` points to (where `mask` holds) will be
    loaded soon: the target starts moving their cache lines into its
    second-level cache, and nothing waits for them. No value changes, and a
    pointer the mask leaves out is not touched. A target without such an
    instruction drops the op (AMD); NVIDIA issues one `prefetch.global.L2`
    per vector of contiguous elements a thread holds (as `tile.load` would
    read them). Not pure: it stays where it is put, and is not removed for
    having no result. terrazzo-prefetch-next-tile creates it.
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Optional<RankedTensorOf<[I1]>>:$mask);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? attr-dict `:` type($ptr) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group"> {
  let summary = "Close the group of asynchronous copies issued since the last one";
  let description = [{
    The copies this thread issued since the previous commit form one group;
    `async_wait` counts groups. `tokens` only document which copies those
    are.
  }];
  let arguments = (ins Variadic<TileGPU_AsyncTokenType>:$tokens);
  let results = (outs TileGPU_AsyncTokenType:$token);
  let assemblyFormat = "(`tokens` $tokens^)? attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "Wait until at most `num` groups of asynchronous copies are pending";
  let description = [{
    Blocks the thread until all but the `num` most recently committed groups
    of its asynchronous copies are complete. Other threads' copies become
    visible only after a barrier (terrazzo-insert-barriers places one).
  }];
  let arguments = (ins Variadic<TileGPU_AsyncTokenType>:$tokens,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let results = (outs TileGPU_AsyncTokenType:$token);
  let assemblyFormat = "(`tokens` $tokens^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Hardware registers and launch control
//===----------------------------------------------------------------------===//

def TileGPU_GlobalTimerOp : TileGPU_Op<"global_timer"> {
  let summary = "Read the GPU's global timer, in nanoseconds";
  let description = [{
    A clock shared by every processor of the GPU, in nanoseconds since an
    unspecified origin, read where the op stands. Not pure: two reads are
    two values, neither merged nor moved across other side effects. NVIDIA:
    `%globaltimer`. AMD: the constant-frequency counter
    (`llvm.readsteadycounter`, `s_memrealtime` on CDNA, 100 MHz) times 10,
    so that the value is nanoseconds on both vendors (resolution 10 ns).
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_ProcessorIdOp : TileGPU_Op<"processor_id", [Pure]> {
  let summary = "The index of the processor running the program instance";
  let description = [{
    Which streaming multiprocessor (NVIDIA, `%smid`) or compute unit (AMD)
    runs the calling program instance. The indices are the hardware's and
    need not be dense: NVIDIA's are below `%nsmid`, which may exceed the
    number of SMs. AMD: bits 15:8 of the `HW_ID` hardware register (CU_ID
    11:8, SH_ID 12, SE_ID 15:13: the compute unit within its shader array,
    the array, the shader engine), and on gfx942 and gfx950, whose
    accelerator complex dies (XCCs) each have such CUs, the die's index
    (`XCC_ID` 3:0) above them, bits 11:8 of the result.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_GridDependencyWaitOp : TileGPU_Op<"grid_dependency_wait"> {
  let summary = "Wait for the grids this one depends on (programmatic dependent launch)";
  let description = [{
    With programmatic dependent launch (NVIDIA sm_90 and later), a grid
    may start before the grid it depends on has finished: this op waits
    until that grid has completed and its memory operations are visible
    (`griddepcontrol.wait`). Without such a launch it returns at once; where
    the target has no programmatic dependent launch (NVIDIA before sm_90,
    AMD) it is nothing.
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_GridDependencyLaunchOp : TileGPU_Op<"grid_dependency_launch"> {
  let summary = "Let the grids that depend on this one start launching";
  let description = [{
    Signals that the grids launched as this one's programmatic dependents
    may be scheduled once every program instance of this grid has signalled
    or finished (`griddepcontrol.launch_dependents`). Without such a launch,
    or where the target has none (NVIDIA before sm_90, AMD), it is nothing.
  }];
  let assemblyFormat = "attr-dict";
}

// The ops only NVIDIA targets have: wgmma, TMA, mbarriers.
include "dialects/TileGPU/IR/NVIDIAOps.td"

#endif // TERRAZZO_TILEGPU_OPS
