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
    Other conversions are left to the generic lowering.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

#endif // TERRAZZO_BACKENDS_AMD_PASSES
