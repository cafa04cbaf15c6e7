// The passes of the NVIDIA backend, which its pipeline hooks add
// (NVIDIABackend.cpp): tf32x3 dots for the tensor cores, and tensor
// descriptors and pointer loads on TMA (sm_90).
#ifndef TERRAZZO_BACKENDS_NVIDIA_PASSES
#define TERRAZZO_BACKENDS_NVIDIA_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoDecomposeTf32x3
    : Pass<"terrazzo-decompose-tf32x3", "::mlir::ModuleOp"> {
  let summary = "Compute float32 dots in tf32x3 precision as three tf32 dots";
  let description = [{
    A `tile.dot` of float32 operands and result with `precision = tf32x3`
    that terrazzo-accelerate-dot would compute on tensor cores if its
    precision were tf32 (for the module's `tilegpu.target` and
    `tilegpu.num-warps`, by that pass's own rules) becomes three tf32 dots.
    Each operand x splits into x_big, x with the low 13 of its 23 mantissa
    bits cleared (a tf32 value, so tf32 takes it exactly), and
    x_small = x - x_big (exact in float32); then

        acc = dot(a_small, b_big, c)
        acc = dot(a_big, b_small, acc)
        d   = dot(a_big, b_big, acc)

    each in precision tf32. What is lost, a_small * b_small (below 2^-20
    of |a| |b|) and the bits of the small parts that tf32 drops (below
    2^-21 of |a| |b| each), is below 2^-19 of |a| |b| per product, so the
    result is nearly as accurate as float32's. The small products come
    first so that they add up among themselves before the large one is
    added. The parts are computed in the layout the operand had before
    its conversion to the dot's operand layout, as terrazzo-accelerate-dot
    expects of the operands it converts.

    An infinite operand has a NaN small part (inf - inf): results that an
    infinity reaches are NaN rather than infinite.

    Other tf32x3 dots (those tensor cores would not compute in tf32: too
    small a K, batched, before sm_80, AMD targets) are left alone: the FMA lowering
    multiplies them in float32, which is more accurate still.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TerrazzoLoadsToDescriptors
    : Pass<"terrazzo-loads-to-descriptors", "::mlir::ModuleOp"> {
  let summary = "Turn pointer loads whose block the pass can prove into tensor-descriptor loads served by TMA (sm_90)";
  let description = [{
    A `tile.load` in a loop whose block only feeds `tile.dot`
    operands (maybe through `tile.trans`) becomes a `tile.desc_load` of a
    `tile.make_tensor_desc` created at the top of the kernel, when the pass
    proves that the load reads exactly a box of a strided tensor, zeros
    outside it:
    - its pointers are a scalar base plus, per dimension d, scale_d *
      (u_d + i_d) for the block index i_d, the innermost scale 1, built
      from `make_range`, `splat`, `expand_dims`, `broadcast`, `addi` and
      products by uniform values, or carried by the loop (from 0 in steps
      of 1) and advanced each iteration by a multiple of one dimension's
      scale;
    - its mask is one bound (v_d + i_d) < bound_d per dimension (and
      optionally (v_d + i_d) >= 0 with v_d = u_d), with extents
      bound_d + u_d - v_d that are the same in every iteration (the linear
      parts cancel: the mask `offs_k < K - k * BK` of pointers advanced by
      BK gives extent K) and computable at the top of the kernel;
    - `other` is zero or absent, and each coordinate u_d is bounded below
      at 0 by the mask or known not to be negative (TMA reads zeros before
      0, the load would read memory there).
    The descriptor is the tensor at the base with those extents, row
    strides scale_d (elements) and the load's block; the desc_load's
    coordinates are u_d. A conversion is kept only where TMA will serve it
    (the checks of terrazzo-lower-tensor-descriptors' keep-tma), so that a
    load never turns into a descriptor lowered back to pointers. An unmasked
    load (which promises that every element it reads exists) takes an
    innermost extent of its constant innermost coordinate plus the block,
    and the largest extent a tensor map holds elsewhere. A 2-D block whose
    contiguous dimension is its first (attention's K^T, `k + cols[None, :]
    * stride + offs_d[:, None]`) is loaded as stored and transposed
    (`tile.trans`). Loads the
    pass cannot prove stay (Triton's matmul tutorial wraps its rows with
    `% M`: rows past M are read from the top of A, which no box describes).
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TerrazzoLowerDescriptorsToTma
    : Pass<"terrazzo-lower-descriptors-to-tma", "::mlir::ModuleOp"> {
  let summary = "Lower tensor-descriptor loads and stores to TMA copies (sm_90)";
  let description = [{
    Runs on tilegpu IR for sm_90, after layouts have settled (the block a
    load produces is read from shared memory straight into the layout its
    user wants). Each kernel with descriptors gets a trailing `!tile.ptr<i8>`
    argument, global scratch of `tilegpu.global_scratch_bytes` (a module
    attribute: 128 bytes per descriptor) per program instance, which the
    launcher allocates. Each `tile.make_tensor_desc` becomes a
    `tilegpu.tensormap_create` in this program's slot of it, with the shared
    layout TMA fills: `#tilegpu.nvmma_shared` with the widest swizzle (up to
    128 bytes) for 2-D blocks of at least 8 rows and 32 bytes per row, else
    a row-major `#tilegpu.swizzled_shared`.

    A `tile.desc_load` becomes a buffer and an mbarrier (`local_alloc`),
    `mbarrier_init`, `mbarrier_expect_tx` of the block's bytes,
    `async_tma_copy_global_to_local`, `mbarrier_wait` on phase 0,
    `mbarrier_inval` and a `local_load` (to the layout of a
    `convert_layout` that is the load's only user, which it replaces).
    Out-of-bounds elements read as zero (the tensor map's zero fill).

    A `tile.desc_store` becomes a `local_alloc` of the value (of the
    tensor-core result it was converted from, for a 16-bit result in an
    `nvidia_mma` layout: written with `stmatrix`, the conversion dropped;
    likewise a 16-bit value in a `linear` layout, such as a half of an
    accumulator split off for an epilogue stored in sub-tiles),
    `fence_async_shared`, `async_tma_copy_local_to_global` and
    `async_tma_store_wait` (0); TMA does not write out-of-bounds elements.
    A store inside `scf.for` loops, and maybe `scf.if`s, only (a persistent
    kernel's epilogue) instead writes a buffer allocated before the outermost loop,
    after `async_tma_store_wait` (0) and a `barrier` (the previous
    iteration's store has finished reading it), with `local_store`; its
    TMA store stays in flight through the next iteration's main loop, and
    one `async_tma_store_wait` (0) follows the outermost loop. The
    descriptor's stores in the same loop nest (an epilogue stored in
    halves) share that buffer, each waiting in the same way for the store
    before it. Not when the loops stage an operand in shared memory for an
    inner loop that ends before the store (a `local_alloc` or a
    `desc_load` of at least the store's bytes, in a block around the
    store, with an `scf.for` between them: attention's Q, per tile): that
    store is lowered as one outside loops, so that its block, live only
    from the store to its wait, can take the operand's place instead of
    adding its bytes for the whole loop (a persistent attention kernel's
    ring, Q and O fit where the ring, Q and a hoisted O would not).

    A descriptor made in `scf.for` loops (and `scf.if`s) has its map
    rebuilt in the same slot each time it is made (a map per tile, or per
    problem of a grouped GEMM); when it is stored through, an
    `async_tma_store_wait` (0) with `complete` precedes the rebuild, since
    the previous iteration's TMA store may still read the map.

    With the module's `tilegpu.host-tensormaps` (the launcher builds maps:
    terrazzo::CompileOptions::hostTensorMaps), a descriptor whose base is a
    kernel argument and whose extents and strides are arguments (or
    widened ones) or positive constants is not built in the kernel at all:
    its map is a `!tile.ptr<i8>` argument appended after the kernel's
    arguments (before the scratch, which the kernel then takes only if some
    map is still built), described by a `#tilegpu.host_tensormap` in the
    module's `tilegpu.host_tensormap_params` (which argument each operand
    is, the box, the swizzle, whether it is stored through), wherever the
    descriptor is made (in a loop too: the same map every iteration). The
    LLVM lowering passes it by value (a grid-constant parameter).

    Descriptors are expected to have been filtered by
    terrazzo-lower-tensor-descriptors with `keep-tma`; one created
    elsewhere than a kernel's body or a nest of `scf.for` and `scf.if`
    there, or whose block TMA cannot copy, is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tile::TileDialect",
                           "::mlir::tilegpu::TileGPUDialect"];
}

#endif // TERRAZZO_BACKENDS_NVIDIA_PASSES
