// The passes of the AMD backend, which its pipeline hooks add
// (AMDBackend.cpp).
#ifndef TERRAZZO_BACKENDS_AMD_PASSES
#define TERRAZZO_BACKENDS_AMD_PASSES

include "mlir/Pass/PassBase.td"

def TerrazzoAmdDotOperandsToLds
    : Pass<"terrazzo-amd-dot-operands-to-lds", "::mlir::ModuleOp"> {
  let summary = "Move MFMA operands into swizzled LDS buffers";
  let description = [{
    A `tilegpu.convert_layout` to a `#tilegpu.dot_operand` of an
    `#tilegpu.amd_mfma` parent (2-D, sizes powers of two, from a
    distributed layout) becomes a `tilegpu.local_alloc` of its source in a
    `#tilegpu.swizzled_shared` buffer and a `tilegpu.local_load` of it in
    the operand's layout. The buffer's rows run along K (order [1, 0] for A,
    [0, 1] for B), so that each lane reads its kWidth consecutive k as one
    vector (ds_read_b64, or ds_read_b128 for 16 bytes), and the vector index
    is XORed with the row's phase (LdsSwizzle.h: vectors of kWidth elements,
    at most 16 bytes; rows sharing a 128-byte line of banks share a phase;
    as many phases as the lanes one line of reads serves need) so that the
    consecutive rows that consecutive lanes read fall on distinct banks.
    Other conversions are left to the generic lowering, and so are those
    it does without shared memory (a relabelling of registers or warp
    shuffles: a transposed MFMA result to the next dot's A operand).
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TerrazzoAmdBufferAddresses
    : Pass<"terrazzo-amd-buffer-addresses", "::mlir::ModuleOp"> {
  let summary = "Address global accesses as a base pointer plus i32 "
                "offsets, which buffer operations take";
  let description = [{
    Tilegpu IR, after terrazzo-pipeline (whose register-prefetch form
    matches loads through carried pointers, and carries the pointers of
    the iteration ahead). Buffer operations (BufferAccess.h) take an
    access whose pointers are `addptr(splat(base), offsets)`; this pass
    gives that form to two more:

    * A loop-carried tensor of pointers (an `scf.for` iter_arg) whose
      initial value is a scalar base pointer plus element offsets (splats,
      broadcasts, expand_dims and addptrs of i32 offsets) and which each
      iteration advances by `addptr(ptrs, step)` becomes an i32 offset
      tensor (in the pointers' layout) that starts at those offsets and
      advances by `arith.addi(offsets, step)`; its uses in the loop and
      after it read `addptr(splat(base), offsets)`. Tutorial 03's matmul,
      whose `a_ptrs += BLOCK_K * stride_ak` made loads with no base and
      offsets to split them into, gets buffer loads. Only where the loop
      loads, stores or updates through the pointers and the step is known
      not to be negative (so that the carried offsets are too:
      isKnownNonNegative's loop-carried rule).
    * A load, store or atomic whose pointers are such a chain (`base +
      rows * stride` broadcast, plus the columns) reads
      `addptr(splat(base), summed offsets)`.

    Either only where the base and offsets are a buffer address
    (isBufferAddress: global memory, i32 offsets known not to be
    negative): the offsets are i32, as a buffer operation's are, so what
    gates buffer operations gates this rewrite. Everything else is left
    as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tile::TileDialect"];
}

#endif // TERRAZZO_BACKENDS_AMD_PASSES
