#ifndef TERRAZZO_PASSES
#define TERRAZZO_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoCombine : Pass<"terrazzo-combine"> {
  let summary = "Fuse tile-level idioms into single operations";
  let description = [{
    Rewrites patterns that the frontend produces naturally into the single op
    that the backend lowers better:

    * `dot(a, b, 0) + c` (and `c + dot(a, b, 0)`) into `dot(a, b, c)`, when the
      dot has no other user: the accumulator then lives in the tensor-core
      registers instead of needing a second pass over the result;
    * `addptr(addptr(p, x), y)` into `addptr(p, x + y)` when `x` and `y` have
      one type, which gives AxisInfo one offset expression to analyse;
    * `select(m, load(p, m), o)` into `load(p, m, o)` when the load has no
      `other` and no other user, and the select follows it in the same block
      with nothing that may write memory in between (the new load takes the
      select's place).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tile::TileDialect"];
}

def TerrazzoPromoteOffsets : Pass<"terrazzo-promote-offsets"> {
  let summary = "Compute in i64 the i32 offset arithmetic that may overflow";
  let description = [{
    Offsets written as in Triton (`pid * BLOCK + tl.arange(0, BLOCK)`) are
    i32 and wrap around past 2^31 - 1 elements: a tensor of more than 2^31
    elements was read at negative offsets, and its masks (`offs < n`, with
    `n` an i64 argument) compared the wrapped values. This pass bounds every
    i32 expression by interval arithmetic through `arith.addi`, `subi`,
    `muli`, `tile.splat`, `broadcast` and `expand_dims` (a constant is
    itself, `make_range` its bounds, `program_id` [0, 2^31 - 1], a K
    loop's tail `K - k * BLOCK_K` in the body of `scf.for k` from a bound
    that is not negative by steps of 1 to `ceil(K / BLOCK_K)` [1, K],
    anything else any i32). Where an expression may wrap and is used as an address
    (`tile.addptr`'s offset) or compared (`arith.cmpi`, signed or equality
    predicates, on it or on its `arith.extsi` to i64) into the mask of a
    load, store or atomic, that use gets the exact value, at the cost of as
    few 64-bit values as it can:
    * A tensor of offsets is split into a uniform part (splats of scalars:
      the block's start, loop counters times strides) and a part per
      element, through add, sub, mul by a uniform factor, broadcast and
      expand_dims. The uniform part is computed in i64 and advances the
      scalar base pointer once (through the splat, broadcast, expand_dims
      and addptr chain of the pointers; else one i64 step splat over the
      block); the part per element stays i32 where it cannot wrap, and is
      computed in i64 where it can.
    * A mask `x <pred> y` with x = splat(ux) + vx, y = splat(uy) + vy
      becomes `vx - vy <pred> uy - ux`: i32 per element where vx - vy
      cannot wrap, against the scalar uy - ux computed in i64 and clamped
      to just outside the range of vx - vy (to multiples of 2^16, which
      keeps AxisInfo's divisibility), which changes no outcome.
    * Otherwise the expression is rebuilt on i64 (the ops that may wrap
      and the splats, broadcasts and constants above them; what cannot
      wrap is sign-extended). A tensor's i64 twin is built just before the
      use that needs it, never shared from before a loop to after it. In a
      loop whose iterations change the offsets, offsets whose part per
      element may wrap are rebuilt whole there (split, that part would
      not change per iteration and LICM would keep it, i64 per element,
      live across the loop).
    An op carrying hints (tl.multiple_of, tl.max_contiguous) is not split
    (the rebuilt op keeps them). Other uses keep Triton's wrapping i32
    arithmetic (a causal mask's comparison in an attention loop stays i32).
    Expressions proven to stay in i32 (block offsets such as
    `rows[:, None] * 64 + cols[None, :]`) are left alone.
    Only offsets that address, or mask accesses through, pointers that may
    reach more than 2^31 bytes past their kernel argument are promoted: an
    argument carrying `tile.pointer_range` of at most 32 bits (the launch
    key's "fits in 2^31 bytes" bit: a tensor whose storage from its data
    pointer is smaller) bounds every address formed from it, and offsets
    from it stay as Triton computes them (a mask is promoted when any
    access it masks may reach further). So kernels on tensors below 2 GiB
    keep their code; the matmul kernels of tutorials 03 and 09 need more
    registers where promoted (`bench/offsets_registers.py`,
    bench/RESULTS.md). `all-pointers` promotes the offsets of every
    pointer (TERRAZZO_PROMOTE_OFFSETS=1; =0 leaves the pass out of the
    pipeline).
  }];
  let options = [
    Option<"allPointers", "all-pointers", "bool", /*default=*/"false",
           "Promote the offsets of pointers with a tile.pointer_range of "
           "at most 32 bits too">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tile::TileDialect"];
}

def TerrazzoUnrollLoops : Pass<"terrazzo-unroll-loops"> {
  let summary = "Unroll the loops that tl.range(..., loop_unroll_factor=N) marks";
  let description = [{
    An `scf.for` carrying `tile.loop_unroll_factor = N` (N > 1) gets its
    body repeated N times per iteration of a loop N times as long in steps,
    followed by a loop over the iterations left when the trip count (maybe
    known only at run time) is not a multiple of N (MLIR's
    `loopUnrollByFactor`); the attribute goes, as does a factor of 1. A loop
    with a negative or dynamic step is left as it is, without the
    attribute, with a remark: the factor is a hint, as in Triton. So is a
    factor that would make the body more than 2^16 operations. Runs on
    tile IR, before layouts are assigned, so that later passes (coalescing,
    pipelining) see the unrolled body.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TerrazzoFlattenLoops : Pass<"terrazzo-flatten-loops"> {
  let summary = "Fuse the loops that tl.range(..., flatten=True) marks with their inner loop";
  let description = [{
    An `scf.for` carrying `tile.flatten` (a persistent kernel's loop over
    tiles) whose body is a prologue of computations (ops free of memory
    effects and of regions: the tile's coordinates), then one inner `scf.for` (the K loop) whose bounds, step and
    start values are defined outside the outer loop, then an epilogue (any
    ops after the inner loop, loops excepted), becomes one loop over the
    steps of all its tiles: step i (counting from 0 by 1) runs inner
    iteration i % K of tile i / K, K the inner trip count, with the tile's
    and the inner loop's induction variables computed from those indices;
    the prologue is recomputed in every step (scalar arithmetic in a
    persistent GEMM; tensors that loop-invariant code motion took out of
    the inner loop are recomputed too), the inner body follows, and
    on a tile's last step (i % K == K - 1) an `scf.if` runs the epilogue
    (yielding the outer loop's carried values, unchanged on the other
    steps), while `arith.select`s put the inner loop's carried values back
    to their start values for the next tile. The flat loop carries the
    outer loop's values, then the inner loop's, and takes the loop options
    (tile.num_stages) of the inner loop, else of the outer one. So the
    software pipeliner (terrazzo-pipeline) sees one loop, and
    its copies ahead run across a tile's end: the next tile's first blocks
    load while this tile's last ones are multiplied and it is stored.

    The flat loop runs under an `scf.if` that K is above 0 and that the
    number of steps fits the induction variable's type; the nest, as it
    was, runs otherwise (exactly what it computed before, every tile's
    epilogue included). A nest of another form (a prologue that accesses
    memory or holds regions, inner bounds or start values that depend on
    the tile, a second loop, a loop marked tile.warp_specialize) keeps its
    loops, with a remark: the hint is a hint, as in Triton. Meant for tile
    IR after loop-invariant code motion (which leaves the prologue only what
    depends on the tile).

    Not in the compiler's pipeline (terrazzo-opt runs it): on the H100 the
    flattened form of tutorial 09's TMA kernel measured slower than its
    nest, whose K loop is pipelined inside the loop over tiles with the
    TMA store left in flight (8192^3 bfloat16: 527.7 TFLOP/s, 0.80 of
    cuBLAS, against the nest's 666.3, 1.00, in session 11;
    bench/RESULTS.md), so `flatten=True` stays a hint that changes nothing.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TerrazzoConvertTileToTileGPU
    : Pass<"terrazzo-convert-tile-to-tilegpu", "::mlir::ModuleOp"> {
  let summary = "Give every tensor a layout and the module its launch configuration";
  let description = [{
    Sets the module attributes `tilegpu.num-warps`, `tilegpu.threads-per-warp`
    and `tilegpu.target`, and puts the default blocked layout of its shape in
    the encoding of every tensor (lanes along the last dimension first, then
    warps). Where an op needs its operands in a layout related to its
    result's, the pass inserts `tilegpu.convert_layout`:

    * `expand_dims` takes its source in the slice of the result's layout;
    * `broadcast` takes its source in the result's layout;
    * `reduce` produces the slice of its source's layout, converted back to
      the default layout for its users.
    * `trans`, `reshape`, `join` and `split` produce the layout inferred
      from their source's (a blocked layout where one describes it, else a
      `#tilegpu.linear`), in which they only relabel registers, converted
      back to the default layout for their users; `split` first converts a
      source that does not hold both halves of an element in one thread.

    Later passes (coalesce, layout-conversion removal) improve the choice.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cuda:80\"",
           "Target, e.g. cuda:80, cuda:90 or hip:gfx942">,
    Option<"numWarps", "num-warps", "unsigned",
           /*default=*/"::terrazzo::kDefaultNumWarps",
           "Warps per program instance (a power of two from 1 to 32)">,
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", /*default=*/"0",
           "Threads per warp; 0 takes the target's warp size">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoCoalesce : Pass<"terrazzo-coalesce", "::mlir::ModuleOp"> {
  let summary = "Choose the layout of each global memory access for coalescing and vector width";
  let options = [
    Option<"bandRows", "band-rows", "::mlir::terrazzo::BandRows",
           /*default=*/"::mlir::terrazzo::BandRows::Never",
           "Where, with more than one warp group, each warp gets a band of "
           "whole rows of the slowest dimension",
           [{::llvm::cl::values(
             clEnumValN(::mlir::terrazzo::BandRows::Never, "never", "nowhere"),
             clEnumValN(::mlir::terrazzo::BandRows::WarpSpecialized,
                        "warp-specialized",
                        "in functions with a warp-specialized loop"),
             clEnumValN(::mlir::terrazzo::BandRows::Always, "always",
                        "in every function"))}]>,
  ];
  let description = [{
    For every `tile.load` and `tile.store` of a block of pointers, AxisInfo
    gives the contiguity and alignment of the addresses along each dimension.
    The access gets a blocked layout whose fastest dimension is the most
    contiguous one and whose threads each hold as many consecutive elements
    as contiguity, alignment and 16 bytes allow (without leaving threads
    idle), so that a warp reads whole cache lines with vector instructions.
    Atomics (`tile.atomic_rmw`, `tile.atomic_cas`) are laid out the same way
    with one element per thread, or two for f16/bf16 adds, which the
    lowering pairs into `f16x2`/`bf16x2` atomics. With more than one
    warp group, in the functions `band-rows` names (`always`; or
    `warp-specialized`: those with a loop marked `tile.warp_specialize`,
    what the compiler's pipeline asks for; by default `never`), a layout
    whose warps would take the rows of its slowest dimension in turns gives
    each thread those rows as consecutive elements instead (a band of whole
    rows per warp, as a wgmma's accumulator has them), which leaves the
    accesses to global memory as they were and lets the shared memory such
    a tensor goes through be ordered by a barrier of a warp or warp group
    (terrazzo-insert-barriers' `narrow`). Only warp-specialized functions,
    whose consumer warp groups work apart: there the bands let the D=128
    attention forward's barriers narrow (with the causal mask 2-7% faster
    up to 4k keys on an H200, bench/RESULTS.md session 39), elsewhere they made tutorial 09's
    pointer persistent GEMM 7% slower (session 37). Operands are converted
    to that layout and the result back with
    `tilegpu.convert_layout`; terrazzo-remove-layout-conversions then moves
    the rest of the computation to where it needs no conversion.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoRemoveLayoutConversions
    : Pass<"terrazzo-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Remove layout conversions by computing values in the layout their users need";
  let description = [{
    First, layouts propagate forward from anchors: tensor-core results
    (`tile.dot` and `tilegpu.warp_group_dot` in `#tilegpu.nvidia_mma`
    layouts) first, then loads; what is computed from them elementwise,
    broadcast, reduced (results in the slice layout), carried by loops or
    yielded by ifs takes the anchor's layout, so that a softmax of a dot's
    result and the accumulators a loop carries stay in the accumulator
    layout. A value stored into shared memory (`local_alloc`,
    `local_store`) is stored from whatever layout it reaches, so a loop
    that carries a block loaded for its next iteration carries it in the
    load's layout (no conversion through shared memory, with its barriers,
    in every iteration).

    Then a conversion of a value that is cheap to compute in any layout
    (splats, ranges, constants, elementwise arithmetic, pointer arithmetic,
    broadcasts and expand_dims of such values) is replaced by computing
    that value directly in the target layout, recursively; chains of
    conversions fold and code left unused disappears; a conversion between
    two attributes of the same linear layout (which moves nothing) stays
    rather than have its producer computed twice. A load used only by a
    conversion is issued in the target layout instead. Loop-carried values
    (`scf.for` iter_args) and `scf.if` results move into the layout their
    users want, once per value; a loop result moves into its users' layout
    after the loop only where the body computes in that layout already.
    What remains converts values that are expensive or impossible to
    recompute: loads with several users in different layouts and results
    of reductions. A narrowing cast of a tensor-core accumulator, or of a
    part of one that reshape, trans and split took apart (an epilogue
    stored in sub-tiles), comes before the conversion instead of after it,
    which then moves half the bytes.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoPrefetchNextTile : Pass<"terrazzo-prefetch-next-tile"> {
  let summary = "Prefetch into L2 what the next iteration of a loop over tiles loads";
  let description = [{
    A persistent kernel walks its tiles in a loop whose body holds the
    tile's own loop (over K, or over keys): a block the body loads before
    that inner loop (attention's Q) comes from memory while the program
    waits, at every tile. This pass gives such a `tile.load` a
    `tilegpu.prefetch_global` right after it, of the pointers the same
    load takes in the next iteration (the induction variable plus the
    step), masked by the load's mask for that iteration and by that
    iteration existing: the next tile's block is then in L2 a whole tile
    before its load. Tutorial 06's persistent forward at D=64 and 1k keys
    ran 3.7% faster so (bench/RESULTS.md, session 31).

    A load is prefetched when it is in the loop's body itself (not in a
    nested region), of a tensor (a scalar is one access), and its pointers
    and mask are computed in the body, by ops without memory effects or
    regions, from the induction variable and values defined outside the
    loop. Left alone: loops without a loop inside (their next iteration
    follows at once; the pipeliner overlaps those loads), loads in the
    inner loop, and loads whose pointers or mask depend on a value the
    loop carries or on memory (the next iteration's address is not known
    then).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tile::TileDialect",
                           "::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoPipeline : Pass<"terrazzo-pipeline", "::mlir::ModuleOp"> {
  let summary = "Software-pipeline the dot operands of loops through shared memory";
  let description = [{
    In an `scf.for` (signed integer bounds), a `tile.load` of loop-carried
    pointers that advance by a loop-invariant step every iteration, whose
    block is only used through one `tilegpu.convert_layout` as an operand of
    `tile.dot`, is replaced by a stack of `num-stages` shared buffers
    (swizzled, vectors as long as one copy) filled by asynchronous copies:
    before the loop, the copies of iterations 0 .. num-stages-2, one group
    each; in the loop, `async_wait {num = num-stages - 2}` (this
    iteration's group has landed), a `local_load` of its buffer in the
    conversion's layout, then the copy of iteration i + num-stages - 1 into
    the buffer read in the previous iteration, one group; after the loop a
    wait for all copies. Copies of iterations past the loop's end copy
    nothing (their mask is false); the load's own mask, when it is computed
    in the loop from the induction variable and loop invariants, is
    recomputed for the iteration each copy is for; a nonzero `other` keeps
    the load as it is. A load whose block is only used through one
    `tilegpu.convert_layout` feeding other ops of the loop (a row vector
    such as attention backward's log-sum-exp, which the conversion takes
    through shared memory anyway) joins the copies the same way, read from
    its stack in the conversion's layout, unless the loop takes one of the
    forms below that keep their dots' operands alone in flight (a rotated
    chain, an accumulator in flight, a producer warp group): it then stays
    a load. A TMA copy (terrazzo-lower-descriptors-to-tma's: a buffer and
    mbarrier of its own per iteration, waited for at once) is pipelined
    likewise when its coordinates are computed from the induction variable
    and loop invariants; an integer the loop carries and advances by a
    multiple of its step (Triton's attention tutorial advances its K and V
    row offset so) counts as such, its uses reading
    `init + (iv - lb) * (advance / step)` instead. In a ring of two stages
    whose copies are all TMA copies and whose every read of a stage is
    complete when its iteration ends (no dot left in flight, not rotated,
    no producer warp group: the forms below), the copies ahead are issued
    right after the wait for this iteration's stage rather than after its
    last read: the stage they refill was last read in the previous
    iteration, and each copy gets a whole iteration to land instead of
    what follows the last read (in attention's forward, the second dot
    alone); terrazzo-insert-barriers puts a barrier of the program in
    front of them. Tutorial 06's two-stage D=64 forward runs 2-5% faster
    from 1k to 4k keys so; with three stages (its backward's dQ loop),
    where the copies have a whole iteration either way, the early copies
    and their barrier ahead of the dots made it 1-5% slower
    (bench/RESULTS.md, session 42). cp.async copies stay after the reads:
    the wait for their groups counts those issued after it. With several
    warp groups such a ring's stages are released as a rotated chain's
    are (below: an empty mbarrier per stage, one arrival per warp after
    its last read of the stage, the refill waiting for it) instead of the
    barrier of the program in front of the copies; in a program of one
    warp group the barrier stays (tutorial 06's 64 x 128 D=64 forward
    measured 0-5% slower with the releases, session 43).

    The wgmma form (sm_90a): a load whose only use is a `tilegpu.local_alloc`
    in a `#tilegpu.nvmma_shared` layout that only `tilegpu.warp_group_dot`s
    read (as operands) becomes a stack of `num-stages` buffers in that
    layout (each a multiple of 1024 bytes, and contiguous along the
    dimension the loads' vectors run, else the load stays); the dots read
    `memdesc_index` of this iteration's buffer directly, and the copies
    ahead are issued after the last of them. (terrazzo-insert-barriers puts
    a barrier in front of the first dot that reads the copies an
    async_wait completed; no proxy fence is needed for cp.async writes.)
    When the loop's only dot is such a
    `warp_group_dot` whose result only feeds its own accumulator through
    the yield, it becomes `async`, followed by `warp_group_dot_wait
    {pendings = 1}` (the previous iteration's dot is complete, this one's
    overlaps the next iteration's copies and waits), with a wait for none
    after the loop; the copies come after that wait, into the buffer the
    previous iteration's dot read (terrazzo-insert-barriers puts a barrier
    in front of them: other warp groups may still be reading it until their
    own wait). An accumulator that starts as zeros starts
    as `ub.poison` with `use_c` false in the first iteration (a loop-carried
    flag), and the zeros are selected after the loop's wait when the loop
    did not run: registers set before the loop would flow into that wait on
    the path that skips the loop, which makes ptxas serialize every wgmma.
    The dot also stays in flight when the loop reads its result only inside
    the regions of `scf.if`s (conditions are scalars: the same in every
    thread) and resets it with an `arith.select` of zeros on a scalar
    condition -- a flattened tile loop, which stores the tile and clears
    the accumulator on each tile's last step: each such if gets the
    accumulator as one more result, a region that reads it waiting for no
    group in flight (`warp_group_dot_wait {pendings = 0}`) first and
    yielding what it waited for, the other yielding it in flight, and the
    loop carries that result; the select goes, the carried `use_c` flag
    becoming false after a reset (and the zeros after the loop are taken
    when it is false). An accumulator read anywhere else in the body keeps
    the dot synchronous.

    A loop with several such dots gets them overlapped within the iteration:
    each becomes `async`, issued in the order its result is needed and as
    early as its operands allow, and is waited for in front of its first
    user with the dots issued since left in flight (the carried results at
    the end of the iteration). A dot chain -- two dots, the first one's
    result reaching the second's A operand in registers and the second's
    result carried only into its own accumulator, as in attention's
    `S = Q K^T; P = softmax(S); O = P V + O * alpha` -- whose loads all take
    the wgmma form is first rotated over two stages (FlashAttention-3's
    intra-warp-group overlap): the stacks get one buffer more (the second dot
    reads the previous iteration's buffer while this iteration's copies are
    issued); the first iteration's first dot and softmax are peeled in front
    of the loop, and the last iteration's second dot and the ops that only
    feed it other than through A (the accumulator's rescaling) behind it,
    under an `scf.if` that the loop runs; each iteration issues its first dot
    and the previous iteration's second dot (P, the row scale and the buffer
    index carried), waits for the first with the second in flight, and
    computes the softmax while the tensor cores run the second. Not in a
    program of one warp group (4 warps) unless its loop is marked for warp
    specialization (`rotate-one-warp-group` rotates it anyway): such
    programs run several to an SM, whose warp groups overlap each other's
    dots and softmax, and the rotation's extra buffers and registers cost
    programs. On an H200 (tutorial 06's forward at head dimension 64, 4
    warps, bench/RESULTS.md, session 33) the unrotated chain was 16-30%
    faster where the rotation's buffers left two programs per SM instead of
    three (64 x 128 blocks, 2 stages) or three instead of five (64 x 64, 2
    stages), and as fast or up to 5% faster at the same three programs
    (64 x 64, 3 stages). Nor a chain of several warp groups not marked for
    warp specialization whose loads are all copies of a two-stage TMA ring
    (unless `ping-pong=always` asks for turns, which need the rotation):
    its ring is refilled at the top of each iteration instead (above), and
    the rotation's second block of scores in registers costs programs. On
    an H200 (tutorial 06's D=64 forward on 128 x 128 blocks at 8 warps,
    bench/RESULTS.md, session 43) the rotated loop took 186 registers, one
    program per SM, 0.55-0.64 of SDPA from 1k to 4k; unrotated, 127, two
    programs, 0.97-1.03 at 1k and 2k. A chain
    whose loads are TMA copies gets, besides its full mbarriers, an empty
    mbarrier per stage expecting one arrival per warp
    (`tilegpu.mbarrier_arrive`): each iteration arrives on the one of the
    stage the previous iteration's second dot read, right after the wait
    for that dot, and a refill first waits for its stage's empty phase (a
    carried parity, 1 until the stage was filled once), its copies marked
    `tilegpu.reads_retired`; so the warp groups are never made to wait for
    each other at a barrier of the whole program, only a refill for the
    release of its stage. With `ping-pong`, warp groups that hold rows of
    their own also take turns issuing such a chain's dots
    (`tilegpu.warp_group_turn_wait` in front of the first dot,
    `tilegpu.warp_group_turn_pass` after the second; the last group passes
    the first turn before the loop, group 0 takes the last pass after it):
    FlashAttention-3's inter-warp-group ping-pong. By default (`auto`)
    only a warp-specialized chain whose first dot reduces over 128 or more
    elements (attention's head dimension) takes turns: on the H100
    (tutorial 06's forward, bench/RESULTS.md, session 22) that is 0-10%
    faster at head dimension 128, and 1-6% slower at 64, where the softmax
    weighs more against the dots; without a producer warp group it
    measured 1-3% slower. `always` and `never` force it on or off.

    With `softmax`, a warp-specialized chain with the softmax's shape -- a
    two-dimensional `math.exp2` of a value computed from row vectors of the
    body (`tile.expand_dims` of a one-dimensional value: the row maximum),
    whose result a `tile.reduce` reads (the row sum) -- takes turns around
    its exponentials instead (cuDNN's schedule): the chain is not rotated
    (each dot waited for at once, the stage released after the wait for
    the second; the ring has num-stages buffers), each iteration waits for
    its turn once the row vectors are computed, which pass through the wait
    (`tilegpu.warp_group_turn_wait(%max ...)`: everything derived from them, the
    exponentials among it, comes after it), and passes it once the row sums
    are (`turn_pass(%sum ...)`), so that one warp group's exponentials run alone
    on the special-function units while the other's dots and row maximum
    run. On the H100 (tutorial 06's forward at head dimension 64,
    bench/RESULTS.md, session 30) that runs at `auto`'s speed, so `auto`
    does not choose it.

    Such a TMA chain in a loop marked `tile.warp_specialize`
    (tl.range(..., warp_specialize=True)), or a loop on TMA alone whose one
    dot keeps its accumulator in flight and never resets it in the loop (a
    GEMM's K loop), is warp-specialized when the loop
    sits at the top of its function (or of the consumers of an earlier
    loop's split), or directly in the body of a loop there (a persistent
    kernel's loop over tiles), its warps form whole warp groups, everything
    its copies need from outside the loop (bounds, tensor maps, the
    coordinates' inputs) is scalar code in the function's top block or the
    tile loop's body (from its induction variable, not from what it
    carries; no tensor map built per tile, which the producer, running
    ahead, would rebuild while its copies of the tile before still read
    it), and the rings and stacks of all the function's pipelined
    loops fit in shared memory together with the buffers staged outside
    them (in no loop whose own body holds a dot; or the largest conversion
    or block staged for a TMA store there, an epilogue's, written when the
    staged operands are dead) and 1 KiB (a specialized loop's ring lives
    as long as the kernel). The function's body then becomes the consumers
    of a `tilegpu.warp_specialize` with one producer warp group (the module's
    `tilegpu.total-num-warps` counts it); the ring is allocated and
    initialised in front of it (no barrier of its own: the op opens with
    one) and invalidated after it; the producer clones that scalar code
    (once per function: a second loop reuses the tensor maps) and runs a
    loop over the iterations that waits for each stage's empty phase and
    issues its copies, and the consumers keep the rotated chain without any
    copy and release the stages (taking turns as `ping-pong` says). A
    GEMM's consumers release, after each iteration's wait that completes
    the previous iteration's dot, the stage that dot read (none in the
    first iteration), and after
    the loop's last wait the last one's (if the loop ran; in a branch of its
    own, not the wait's, in which ptxas spilled); the accumulator's zeros
    stay the loop's start, not no value (else they were set apart while
    the last group was in flight, and ptxas spilled); the ring has
    num-stages buffers, not one more. A later specialized loop of
    the function whose copies fill buffers of the same types and number
    shares the first one's ring (counted once in the fit): its producer
    loop starts from the stage and empty parity the earlier producer loop
    ended with, its consumers from the read stage and full parity of the
    earlier chain's guard, in which the stage that the earlier loop's last
    iteration read is released after its second dot (that loop had no
    refill to release it for). In a loop over tiles, the producer runs a
    loop over the same tiles (the tile-body scalar code cloned in it)
    around its loops, carrying the ring's stage and empty parity from tile
    to tile, and the tile loop gains two iter_args that carry the
    consumers' stage to read and full parity (from 0, through each tile's
    last guard); each loop's guard releases the stage its last iteration
    read, for the next tile's refills: the producer goes on into the next
    tile's copies while the consumers finish a tile. Otherwise the hint is
    ignored.

    Last, a `tilegpu.local_alloc` of a value outside loops (an operand
    staged once, attention's Q), with its `tilegpu.fence_async_shared`,
    moves down to its first reader in its block when a pipelined loop's
    setup (tensor maps, mbarrier initialisation, the TMA or cp.async
    copies ahead, in guards) lies between, never past a loop: the value's load is issued
    first and lands while the setup runs.

    In the other forms every copy in the loop is marked
    `tilegpu.reads_retired`: its buffer's readers (local_loads, or a
    synchronous dot) finished before the iteration's barrier, so
    terrazzo-insert-barriers adds none between this iteration's reads and
    the copies. Loads whose copies would be narrower than 4 bytes (AxisInfo:
    contiguity, alignment, mask constancy) are left alone, as is everything
    when the stage count is below 2.

    The register-prefetch form (`registers`, for targets without
    asynchronous copies into shared memory: AMD's hooks ask for it): a load
    whose only use is a `tilegpu.local_alloc` in a
    `#tilegpu.swizzled_shared` layout that only `tilegpu.local_load`s of the
    loop read (terrazzo-amd-dot-operands-to-lds makes those of MFMA
    operands) becomes a stack of two buffers in that layout: before the
    loop, iteration 0's load stored into buffer 0; first in each iteration,
    the load of iteration i + 1 into registers (masked off past the loop's
    end; the load's mask and `other` recomputed for that iteration), then
    the reads of this iteration's buffer and the dots, and last the loaded
    values stored into the other buffer (`local_store`, marked
    `tilegpu.reads_retired`: that buffer's readers finished before the
    barrier in front of this iteration's reads, so that the iteration has
    one barrier). Any stage count of 2 or more gives two buffers. The
    stacks are live across the whole loop, so they must fit the target's
    shared memory (`Target::maxSharedMemoryBytes`: 64 KiB on gfx90a and
    gfx942, 160 KiB on gfx950) with what the loop body has live at each of
    its ops, nested ones included: the loop's other buffers between their
    allocation and last use, and the op's scratch (a layout conversion,
    reduction or scan, bounded by its operands' bytes), as a flattened
    persistent kernel's epilogue in the loop needs. Loads stay as they are,
    the largest first, until the rest fit; none left is the loop
    unpipelined, which is what a chip with less LDS gets where the
    program's buffers fit only one at a time (Triton's AMD pipeliner
    likewise pipelines only what fits the LDS); a program that does not fit
    even so keeps terrazzo-allocate-shared-memory's located error. The module attribute
    `tilegpu.num-stages` (i32), when present, overrides the option, and a
    loop's own `tile.num_stages` (tl.range's num_stages) overrides both for
    that loop.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "Buffers per pipelined load (copies in flight + 1)">,
    Option<"registers", "registers", "bool", /*default=*/"false",
           "The register-prefetch form, for targets without asynchronous "
           "copies (AMD)">,
    Option<"rotateOneWarpGroup", "rotate-one-warp-group", "bool",
           /*default=*/"false",
           "Rotate a dot chain also in a program of one warp group whose "
           "loop is not marked for warp specialization">,
    Option<"pingPong", "ping-pong", "std::string", /*default=*/"\"auto\"",
           "When warp groups of a TMA dot chain take turns: auto (around "
           "the dots of a warp-specialized chain whose first dot reduces "
           "over 128 or more), always (around the dots), never, or softmax "
           "(around the exponentials of an unrotated warp-specialized "
           "chain)">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::ub::UBDialect"];
}

def TerrazzoAccelerateDot : Pass<"terrazzo-accelerate-dot", "::mlir::ModuleOp"> {
  let summary = "Compute tile.dot on tensor cores where the target and types allow";
  let description = [{
    On sm_80 and newer, a 2-D `tile.dot` whose types `mma.sync` computes
    (float16 -> float32/float16, bfloat16 -> float32, float32 with
    `precision = tf32`, int8 -> int32; K a multiple of the instruction's)
    gets its result in `#tilegpu.nvidia_mma` (version 2) and its operands in
    `#tilegpu.dot_operand` layouts, through `tilegpu.convert_layout`s that
    terrazzo-remove-layout-conversions then moves or removes. Warps are
    spread over M and N by the number of 16 x 8 tiles each would get. Other
    dots (float64, float32 in ieee or tf32x3 precision, batched, too small
    a K) keep the FMA lowering's layouts (terrazzo-decompose-tf32x3, run
    before, leaves only the tf32x3 dots no tensor core would take). On
    sm_90a, wgmma comes first (AccelerateDotWgmma.h), fp8 operands
    included: its operands are stored into `#tilegpu.nvmma_shared` buffers
    (once, where they are defined, when that is outside the dot's block),
    except a 16-bit A computed from another dot's result (attention's
    probabilities: through elementwise ops, broadcasts, reductions and the
    branches of an `scf.if` choosing among such values, as a softmax that
    recomputes P only when a row's maximum moves), which stays in registers
    in the `#tilegpu.dot_operand`
    layout of the wgmma accumulator (a relabelling of the first dot's
    result when the warp groups tile M only); an accumulator that is zero
    becomes `use_c = false`. A 16-bit A defined outside the
    warp-specialized loop of its dot (attention's Q) also stays in
    registers, converted once where it is defined, when the warp groups
    tile M only and the loop's dots, that A included, hold at most 160
    registers a thread (accumulators, and A operands in registers): every
    iteration's wgmma then reads only B from shared memory, which made
    attention's forward at head dimension 64 (a loop bound by power) 1-3%
    faster from 4k keys on an H200, the same at 1k-2k; at head dimension
    128 (192 registers) it was 1-4% slower (bench/RESULTS.md, session 32). Not outside
    warp specialization, where the registers can halve the programs that
    fit on a multiprocessor (tutorial 06's D=64 causal kernel: 14-24%
    slower).

    fp8 dots (f8E4M3FN, f8E5M2, mixed) that wgmma does not take get their
    operands converted to float16 (`tile.fp_to_fp`, exact) and are then
    treated as float16 dots, as Triton does where no instruction multiplies
    fp8. That conversion needs sm_89: before, an fp8 dot is an error, as
    is a dot of the FNUZ fp8 formats on any cuda target.

    On hip targets (CDNA) a 2-D dot takes the first of the target's
    matrix-core instructions (`Target::matrixInstructions`,
    AccelerateDotMfma.h) whose operand types match and whose tile fits
    (M, N at least its 32 or 16, K a multiple of its k): its result in
    `#tilegpu.amd_mfma`, its operands in that layout's
    `#tilegpu.dot_operand`s with the instruction's k per lane as kWidth;
    warps are spread as for mma.sync, by instruction tiles. float32 is xf32
    for `precision = tf32` where the chip has it (gfx942) and MFMA float32
    otherwise. fp8 must be in the chip's formats (FNUZ on gfx942, OCP on
    gfx950): other fp8 dots are errors. Dots no instruction takes keep the
    FMA lowering's layouts.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::ub::UBDialect"];
}

def TerrazzoLowerTensorDescriptors
    : Pass<"terrazzo-lower-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "Rewrite tensor-descriptor loads and stores into masked pointer accesses";
  let description = [{
    Every `tile.desc_load` and `tile.desc_store` becomes a `tile.load` /
    `tile.store` of the block's pointers, computed from its descriptor's
    `tile.make_tensor_desc` (base + sum of index * stride per dimension),
    masked by the descriptor's shape: elements outside the described tensor
    (before index 0 or at and past the shape, in any dimension) read as
    zero and are not written. An innermost stride that is the constant 1 is
    not multiplied, so that the accesses stay visibly contiguous for
    coalescing. The descriptors are then erased.

    A load or store whose descriptor does not come from a
    `tile.make_tensor_desc` in the same function (a function argument, a
    loop-carried value) is an error, as is any other use of a descriptor.

    With `keep-tma` (sm_90), descriptors that TMA can serve stay for
    terrazzo-lower-descriptors-to-tma: created in a kernel's body or in
    scf.for loops and scf.if branches there, used only by loads and stores,
    a block TMA can copy (elements of 1, 2, 4 or 8 bytes, power-of-two
    sizes, at least 16 bytes and a multiple of 16 along the innermost
    dimension) and, by AxisInfo, a base aligned to 16 bytes, an innermost
    stride of 1 and other strides multiples of 16 bytes, and the innermost
    block coordinate a known multiple of 16 bytes.
    Of those, descriptors stored through stay only with an innermost extent
    known to be a multiple of 16 bytes (a TMA store writes past an extent
    that is not, up to the next 16 bytes), and a store at coordinates not
    known to be non-negative (a TMA store at a negative coordinate faults on
    the H100; loads there are right) goes into the then branch of an
    `scf.if` on their being so, with, in its else branch, the same store
    through a copy of the descriptor, which is rewritten as above; neither
    unless `keep-unvalidated`. The others are rewritten as above, so either
    way every descriptor works.

    With `keep-tma`, a descriptor that fails only on what AxisInfo does not
    know of its base and strides (a base and row strides loaded from
    memory: a grouped GEMM's per-problem operands as Triton's tutorial 08
    writes them) is versioned on a check of those facts at run time: the
    ops of its block from the first such descriptor through the last op
    holding a use of one go into the then branch of an `scf.if` on the
    check (base a multiple of 16 bytes, strides whole 16 bytes, innermost
    stride 1; for a descriptor stored through, an innermost extent of whole
    16 bytes), where the descriptors stay for TMA, and a copy into its else
    branch, where they become pointer accesses; values the range defines
    and later ops use are the `scf.if`'s results. The descriptors of one
    block share one check; side-effect-free ops computing a checked value
    after the first descriptor (the frontend's extension of a stride to
    i64) move in front of it. Not versioned (pointer accesses): a
    descriptor checked on a kernel argument (the launcher specialises on
    its alignment, so one not known aligned is not), on a value loaded in
    the range, or whose range holds a warp-specialized loop (the producer
    is built from the function's one copy of the loop), and descriptors
    nested in another's range.
  }];
  let options = [
    Option<"keepTma", "keep-tma", "bool", /*default=*/"false",
           "Leave the descriptors TMA can serve for "
           "terrazzo-lower-descriptors-to-tma">,
    Option<"keepUnvalidated", "keep-unvalidated", "bool", /*default=*/"false",
           "With keep-tma, also leave descriptors stored through at "
           "coordinates that may be negative, or with an innermost extent "
           "not known to be a whole number of 16 bytes (TMA stores past "
           "it); for tests of the lowering">
  ];
  // The TMA check builds the shared layouts TMA would use.
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tile::TileDialect",
                           "::mlir::tilegpu::TileGPUDialect"];
}

#endif // TERRAZZO_PASSES
