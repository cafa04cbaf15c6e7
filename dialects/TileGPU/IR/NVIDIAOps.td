// The tilegpu ops that only NVIDIA targets have (sm_90's wgmma, the tensor
// memory accelerator and its mbarriers), included by TileGPUOps.td: the
// portable ops are those of TileGPUOps.td itself.
#ifndef TERRAZZO_TILEGPU_NVIDIA_OPS
#define TERRAZZO_TILEGPU_NVIDIA_OPS

//===----------------------------------------------------------------------===//
// Warp-group MMA (wgmma, sm_90)
//===----------------------------------------------------------------------===//

def TileGPU_WarpGroupDotOp : TileGPU_Op<"warp_group_dot",
    [AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a * b + c on Hopper's wgmma, operands in shared memory "
                "(A maybe in registers)";
  let description = [{
    `a` (M x K) and `b` (K x N) are shared buffers in `#tilegpu.nvmma_shared`
    layouts, read by the tensor cores through matrix descriptors; or `a` is
    a 16-bit tensor in registers, in the `#tilegpu.dot_operand` layout (A,
    2 elements per register) whose parent is the result's layout; `c` and
    the result are M x N tensors in a `#tilegpu.nvidia_mma` layout of
    version 3. Every warp group (four consecutive warps) computes its 64-row
    tiles. Without `async` the op completes before it returns (the lowering
    waits for the instructions it issues). With `async` it only issues them,
    as one wgmma group: the result's registers, and the operands' buffers,
    belong to the tensor cores until a `tilegpu.warp_group_dot_wait` whose
    `pendings` leaves this group complete; until then the result may only
    flow into that wait or into the accumulator of the next async
    warp_group_dot (the hardware chains accumulators). With `use_c` false
    the result is `a * b` and `c` is not read (a loop that starts from
    zeros need not initialise the accumulator registers). Element types follow
    `tile.dot`'s tensor-core cases: f16 -> f16/f32, bf16 -> f32, f32 (tf32)
    -> f32, f8E4M3FN/f8E5M2 -> f16/f32.

        %d = tilegpu.warp_group_dot %a, %b, %c
            : !tilegpu.memdesc<64x64xf16, #nvmma>,
              !tilegpu.memdesc<64x64xf16, #nvmma> -> tensor<64x64xf32, #mma>
  }];
  let arguments = (ins
    Arg<AnyTypeOf<[TileGPU_MemDescType, Tile_Tensor]>,
        "operand A: a shared buffer or registers", [MemRead<SharedMemory>]>:$a,
    Arg<TileGPU_MemDescType, "operand B", [MemRead<SharedMemory>]>:$b,
    Tile_Tensor:$c,
    Optional<I1>:$useC,
    DefaultValuedAttr<Tile_InputPrecision,
                      "::mlir::tile::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    UnitAttr:$isAsync);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    (`async` $isAsync^)? $a `,` $b `,` $c (`use_c` `=` $useC^)?
    (`precision` `=` $inputPrecision^)? attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpGroupDotWaitOp : TileGPU_Op<"warp_group_dot_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait until at most `pendings` async wgmma groups are in flight";
  let description = [{
    Blocks the warp group until all but the `pendings` most recently issued
    groups of its `async` warp_group_dots are complete (wgmma.wait_group).
    `inputs` are results of those dots; `outputs` are the same values,
    readable once the groups that produce them are complete. With
    `pendings` = 1 after a loop's dot, the previous iteration's dot is done
    (its buffers may be refilled) while this iteration's still runs.

        %acc = tilegpu.warp_group_dot_wait %d {pendings = 1 : i32}
            : tensor<128x128xf32, #mma>
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs Variadic<Tile_Tensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

class TileGPU_WarpGroupTurnOp<string mnemonic, list<Trait> traits = []>
    : TileGPU_Op<mnemonic, traits> {
  let arguments = (ins Variadic<Tile_Tensor>:$values,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntNonNegative]>>:$only);
  let hasVerifier = 1;
}

def TileGPU_WarpGroupTurnWaitOp : TileGPU_WarpGroupTurnOp<"warp_group_turn_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait until the previous warp group passes this one the turn";
  let description = [{
    The program's warp groups (four consecutive warps each; the module's
    `tilegpu.num-warps` a multiple of 8) take turns in a ring: warp group
    g waits here until warp group g - 1 (the last one, for g = 0) has
    passed it the turn (`tilegpu.warp_group_turn_pass`). Between the two,
    a warp group issues its tensor-core work, so that one group's
    `warp_group_dot`s run while the others compute on the previous
    results (FlashAttention-3's ping-pong). With `only`, that warp group
    alone waits (the others go on). Each wait consumes one pass; a
    program's passes and waits must pair up (one initial pass, by the last
    group to group 0, and one final wait of group 0, balance a loop).

    `values`, when given, come out as `outputs` unchanged, but computed
    only after the turn arrives: what is derived from an output (the
    exponentials of attention's softmax, from the row maximum) cannot be
    moved in front of the wait by the assembler, which schedules
    arithmetic across barriers by its data alone. The lowering reads a
    word of shared memory after the barrier and folds it into the values
    through an identity that is zero for every word.

        tilegpu.warp_group_turn_wait
        tilegpu.warp_group_turn_wait {only = 0 : i32}
        %m = tilegpu.warp_group_turn_wait(%max : tensor<128xf32, #slice>)
  }];
  let results = (outs Variadic<Tile_Tensor>:$outputs);
  let assemblyFormat = "(`(` $values^ `:` type($values) `)`)? attr-dict";
}

def TileGPU_WarpGroupTurnPassOp : TileGPU_WarpGroupTurnOp<"warp_group_turn_pass"> {
  let summary = "Pass the turn to the next warp group";
  let description = [{
    Warp group g passes the turn to warp group g + 1 (to group 0 from the
    last), without waiting; see `tilegpu.warp_group_turn_wait`. With
    `only`, that warp group alone passes.

    With `values`, the pass waits for them: it happens only after they
    are computed (the row sum of attention's softmax, after its
    exponentials), which the assembler would otherwise not keep.

        tilegpu.warp_group_turn_pass
        tilegpu.warp_group_turn_pass {only = 1 : i32}
        tilegpu.warp_group_turn_pass(%sum : tensor<128xf32, #slice>)
  }];
  let assemblyFormat = "(`(` $values^ `:` type($values) `)`)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization (sm_90)
//===----------------------------------------------------------------------===//

def TileGPU_WarpSpecializeOp : TileGPU_Op<"warp_specialize",
    [RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "Split the program's warps into consumers and a producer";
  let description = [{
    Every warp of the program reaches the op (it opens with a barrier of all
    of them, which publishes what they did before, such as mbarrier
    initialisations). Then the module's `tilegpu.num-warps` warps (the
    consumers, warps 0 to num-warps - 1) run `consumers` and go on after
    the op, while `producerWarps` more warps (the module's
    `tilegpu.total-num-warps` counts them) run `producer` and end there:
    the program's launch has total-num-warps warps. Each warp group first
    moves its register budget with `setmaxnreg`: the producer's down to
    `producerRegisters` per thread, the consumers' up to
    `consumerRegisters`: what the producer gives up is what the consumers
    take (the program is launched with `launchRegisters` per thread).

    The producer holds scalar code only (no tensors: the layouts describe
    the consumers' warps), typically a loop issuing TMA copies into a ring
    of buffers whose full and empty mbarriers are the only synchronisation
    between the two (a producer has no barrier with the consumers). Inside
    `consumers`, and after the op, a barrier of the program synchronises the
    consumers only; one thread of a partition is its first thread.

        tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
          ... consumer code ...
          tilegpu.partition_end
        } producer {
          ... scalar code, TMA copies ...
          tilegpu.partition_end
        }
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$producerWarps,
                       I32Attr:$producerRegisters,
                       I32Attr:$consumerRegisters);
  // One block each until terrazzo's lowering turns structured control flow
  // into branches (then any number, each path ending in partition_end).
  let regions = (region AnyRegion:$consumers, AnyRegion:$producer);
  let assemblyFormat = [{
    `producer_warps` `=` $producerWarps `registers` `=` $producerRegisters `,`
    $consumerRegisters $consumers `producer` $producer attr-dict
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The partition of the warps that run `block` (nested in a
    /// warp_specialize), if any: its first warp and how many warps it has.
    struct Partition {
      unsigned firstWarp = 0;
      unsigned numWarps = 0;
      bool producer = false;
    };
    static std::optional<Partition> partitionOf(Block *block);
    /// Registers per thread a program of `totalWarps` warps is compiled
    /// and launched with (ptxas's .maxnreg), which setmaxnreg moves
    /// between the warp groups: the register file's 64K split evenly, in
    /// multiples of 8, at most 248, and at most `maxRegisters` (the
    /// module's tilegpu.max-registers: more programs per multiprocessor).
    static unsigned launchRegisters(unsigned totalWarps,
                                    std::optional<unsigned> maxRegisters);
  }];
}

def TileGPU_PartitionEndOp : TileGPU_Op<"partition_end",
    [Pure, Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "The end of a warp_specialize partition";
  let description = [{
    Ends `consumers` (the consumers go on after the `tilegpu.warp_specialize`)
    or `producer` (the producer's warps are done).
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Tensor memory accelerator (TMA, sm_90) and mbarriers
//===----------------------------------------------------------------------===//

def TileGPU_TensormapCreateOp : TileGPU_Op<"tensormap_create",
    [AttrSizedOperandSegments]> {
  let summary = "Write a TMA tensor map for a strided global tensor";
  let description = [{
    Builds, in the 128 bytes of global memory at `slot` (aligned to 128),
    the tensor map (CUtensorMap) that TMA copies read: the tensor at `base`
    with `shape` (i32) and `strides` (i64, in elements; the last one must
    be 1), read and written in boxes of `boxShape` elements, whose
    innermost dimension is swizzled in `swizzleBytes`-byte rows (0: none)
    as `#tilegpu.nvmma_shared` lays them out. The result is the map's
    address (`slot`), valid for every thread of the program instance once
    the op returns (the lowering publishes it to the tensor-map proxy and
    passes a barrier). Every thread must reach it. The hardware reads
    tensor maps from global memory only, which is why a program builds its
    own in a global scratch slot.

    Consecutive tensormap_create ops (the ops between them free of memory
    effects and of uses of the maps built so far; at most one per warp of
    the program or of its warp_specialize partition: `group()`) are built
    at the same time, the k-th by warp k, and every map of the group is
    valid once the group's last op returns: the group passes one barrier
    and one round trip to global memory instead of one per map.

        %map = tilegpu.tensormap_create %slot, %base, [%m, %n], [%s0, %c1]
            box = [64, 64] swizzle = 128
            : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
  }];
  let arguments = (ins
    Arg<Tile_Ptr, "tensor-map slot", [MemWrite<TileGPU_GlobalMemory>]>:$slot,
    Tile_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
    DenseI32ArrayAttr:$boxShape, I32Attr:$swizzleBytes);
  let results = (outs Tile_Ptr:$tensormap);
  let assemblyFormat = [{
    $slot `,` $base `,` `[` $shape `]` `,` `[` $strides `]`
    `box` `=` $boxShape `swizzle` `=` $swizzleBytes attr-dict `:`
    qualified(type($slot)) `,` qualified(type($base)) `->`
    qualified(type($tensormap))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tensormap_create ops built at the same time as this one, in
    /// program order (this one included): see the description.
    ::llvm::SmallVector<::mlir::Operation *, 4> group();
  }];
}

def TileGPU_MBarrierInitOp : TileGPU_Op<"mbarrier_init"> {
  let summary = "Initialise an mbarrier expecting `count` arrivals per phase";
  let description = [{
    `barrier` is a mutable shared buffer of one i64. One thread initialises
    it (phase 0); other threads may use it only after a barrier
    (terrazzo-insert-barriers places one).
  }];
  let arguments = (ins
    Arg<TileGPU_MemDescType, "mbarrier", [MemWrite<SharedMemory>]>:$barrier,
    ConfinedAttr<I32Attr, [IntPositive]>:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierExpectTxOp : TileGPU_Op<"mbarrier_expect_tx"> {
  let summary = "Arrive on an mbarrier, expecting `bytes` more bytes of TMA copies";
  let description = [{
    One thread arrives on `barrier` and raises the byte count its current
    phase waits for by `bytes`: the phase completes once the TMA copies
    signalling it have written that many bytes (out-of-bounds fill
    included).
  }];
  let arguments = (ins
    Arg<TileGPU_MemDescType, "mbarrier", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$barrier,
    ConfinedAttr<I32Attr, [IntPositive]>:$bytes);
  let assemblyFormat = "$barrier `,` $bytes attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierWaitOp : TileGPU_Op<"mbarrier_wait"> {
  let summary = "Wait until the mbarrier phase of parity `phase` completes";
  let description = [{
    Every thread blocks until the phase of `barrier` whose parity is
    `phase` (an i32, 0 or 1) has completed; the writes of the TMA copies
    that signalled it are then visible to the thread.
  }];
  // Declared as a write too: a wait with only a read would be dead code
  // to DCE, and it orders the thread's later accesses (acquire).
  let arguments = (ins
    Arg<TileGPU_MemDescType, "mbarrier", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$barrier,
    I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierArriveOp : TileGPU_Op<"mbarrier_arrive"> {
  let summary = "Arrive on an mbarrier once per warp";
  let description = [{
    Each warp arrives once on `barrier`, after all of its lanes have reached
    the op: an mbarrier a pipelined loop's readers release a buffer with is
    initialised expecting one arrival per warp of the kernel. The arrival
    orders the warp's earlier accesses before those of the threads that
    wait for the phase (release).

        tilegpu.mbarrier_arrive %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
  }];
  let arguments = (ins
    Arg<TileGPU_MemDescType, "mbarrier", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierInvalOp : TileGPU_Op<"mbarrier_inval"> {
  let summary = "End an mbarrier's life so its memory may be reused";
  let description = [{
    One thread invalidates `barrier`; no thread may still wait on it (a
    barrier before this op, placed by terrazzo-insert-barriers, ensures
    that).
  }];
  let arguments = (ins
    Arg<TileGPU_MemDescType, "mbarrier", [MemWrite<SharedMemory>]>:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_AsyncTMACopyGlobalToLocalOp
    : TileGPU_Op<"async_tma_copy_global_to_local"> {
  let summary = "Start TMA copies of a block of a global tensor into a shared buffer";
  let description = [{
    One thread issues the TMA copies (cp.async.bulk.tensor) that fill
    `result` with the block of the tensor `tensormap` describes whose first
    element is at `coords` (i32, one per dimension, outermost first; they
    may be negative). Elements outside the tensor read as zero. `result`
    is laid out as the tensor map's swizzle writes it: `#tilegpu.nvmma_shared`
    (rank 2, not transposed, every box one swizzle row wide) or a row-major
    `#tilegpu.swizzled_shared` without swizzle (one box). The copies signal
    `barrier` with the bytes they write (the whole block).

        tilegpu.async_tma_copy_global_to_local %map[%i, %j] %buf, %bar
            : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nvmma, mutable>,
              !tilegpu.memdesc<1xi64, #bar, mutable>
  }];
  let arguments = (ins
    Arg<Tile_Ptr, "tensor map", [MemRead<TileGPU_GlobalMemory>]>:$tensormap,
    Variadic<I32>:$coords,
    Arg<TileGPU_MemDescType, "buffer", [MemWrite<SharedMemory>]>:$result,
    Arg<TileGPU_MemDescType, "mbarrier", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$barrier);
  let assemblyFormat = [{
    $tensormap `[` $coords `]` $result `,` $barrier attr-dict `:`
    qualified(type($tensormap)) `,` qualified(type($result)) `,`
    qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncTMACopyLocalToGlobalOp
    : TileGPU_Op<"async_tma_copy_local_to_global"> {
  let summary = "Start TMA copies of a shared buffer into a block of a global tensor";
  let description = [{
    One thread issues the TMA stores of `src` (laid out as for
    async_tma_copy_global_to_local) to the block at `coords`, as one bulk
    async-group; elements outside the tensor are not written. Writes to
    `src` by other threads must be fenced for the async proxy
    (`tilegpu.fence_async_shared`) and followed by a barrier before this op;
    `src` may be written again only after an `async_tma_store_wait` and a
    barrier.
  }];
  let arguments = (ins
    Arg<Tile_Ptr, "tensor map", [MemRead<TileGPU_GlobalMemory>, MemWrite<TileGPU_GlobalMemory>]>:$tensormap,
    Variadic<I32>:$coords,
    Arg<TileGPU_MemDescType, "buffer", [MemRead<SharedMemory>]>:$src);
  let assemblyFormat = [{
    $tensormap `[` $coords `]` $src attr-dict `:`
    qualified(type($tensormap)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncTMAStoreWaitOp : TileGPU_Op<"async_tma_store_wait"> {
  let summary = "Wait until at most `pendings` TMA store groups still read shared memory";
  let description = [{
    The thread that issued TMA stores waits until all but the `pendings`
    most recent groups have finished reading their shared buffers
    (cp.async.bulk.wait_group.read). With `complete`, until they are
    complete (cp.async.bulk.wait_group): their writes done and their tensor
    maps no longer read, so that a map may be rewritten.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings,
                       UnitAttr:$complete);
  let assemblyFormat = "attr-dict";
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared"> {
  let summary = "Order this thread's shared-memory writes before async-proxy reads";
  let description = [{
    fence.proxy.async.shared::cta: the thread's earlier generic writes to
    shared memory become visible to TMA and wgmma (after a barrier, for
    other threads' TMA operations and wgmma). The fence covers all of
    shared memory; `buffers`, if given, name the buffers whose writes it is
    for, so that their readers know they need no fence of their own (see
    getBufferWriters).

        tilegpu.fence_async_shared %q : !tilegpu.memdesc<128x64xf16, #nvmma>
  }];
  let arguments = (ins Variadic<TileGPU_MemDescType>:$buffers);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange()); }]>];
  let assemblyFormat = "($buffers^ `:` qualified(type($buffers)))? attr-dict";
}

#endif // TERRAZZO_TILEGPU_NVIDIA_OPS
