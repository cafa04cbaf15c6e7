#ifndef TERRAZZO_TILE_DIALECT
#define TERRAZZO_TILE_DIALECT

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Portable block-level IR of Terrazzo kernels";
  let description = [{
    The `tile` dialect describes a kernel as one program instance operating on
    blocks (tiles) of values and pointers. Blocks are builtin ranked tensors of
    scalars or of `!tile.ptr`; the dialect carries no layouts, which are
    assigned when the module is converted to `tilegpu`.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "scf::SCFDialect",
    "cf::ControlFlowDialect", "func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();

    /// Argument attributes of kernels that the passes read (AxisInfo, the
    /// TMA lowering), set by the frontend's specialisation:
    /// `tile.divisibility = N : i32`, the argument (an integer, or a
    /// pointer's address in bytes) is a multiple of N > 0;
    static constexpr ::llvm::StringLiteral kDivisibilityAttrName = "tile.divisibility";
    /// `tile.nonnegative` (unit), the integer argument is never negative.
    static constexpr ::llvm::StringLiteral kNonNegativeAttrName = "tile.nonnegative";
    /// `tile.pointer_range = N : i32` (1 <= N <= 64), on a pointer: every
    /// address the kernel forms from the argument is less than 2^(N - 1)
    /// bytes above it, so that byte offsets from it fit a signed N-bit
    /// integer; the launch key's "fits in 2^31 bytes" bit gives N = 32.
    /// Offsets derived from such a pointer are not promoted to i64
    /// (terrazzo-promote-offsets), and AMD's buffer loads need N <= 32.
    static constexpr ::llvm::StringLiteral kPointerRangeAttrName = "tile.pointer_range";
    /// Hints on the op that defines a value (tl.multiple_of,
    /// tl.max_contiguous, tl.max_constancy), read by AxisInfo: per
    /// dimension, `tile.divisibility` (above), `tile.contiguity` and
    /// `tile.constancy`.
    static constexpr ::llvm::StringLiteral kContiguityAttrName = "tile.contiguity";
    static constexpr ::llvm::StringLiteral kConstancyAttrName = "tile.constancy";
    /// Loop options on an `scf.for` (tl.range's arguments), i32:
    /// `tile.num_stages = N`, the software-pipelining depth of this loop
    /// (terrazzo-pipeline; below 2, the loop is not pipelined), overriding
    /// the kernel's num_stages; `tile.loop_unroll_factor = N`, N >= 1, the
    /// body repeated N times per iteration (terrazzo-unroll-loops).
    static constexpr ::llvm::StringLiteral kNumStagesAttrName = "tile.num_stages";
    static constexpr ::llvm::StringLiteral kLoopUnrollFactorAttrName = "tile.loop_unroll_factor";
    /// `tile.warp_specialize` (unit): tl.range(..., warp_specialize=True),
    /// the loop's TMA copies issued by a producer warp group of their own
    /// where terrazzo-pipeline can (sm_90), the kernel's warps consuming.
    static constexpr ::llvm::StringLiteral kWarpSpecializeAttrName = "tile.warp_specialize";
    /// `tile.flatten` (unit): tl.range(..., flatten=True), the loop fused
    /// with its inner loop into one by terrazzo-flatten-loops (not in the
    /// compiler's pipeline: a hint).
    static constexpr ::llvm::StringLiteral kFlattenAttrName = "tile.flatten";
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TERRAZZO_TILE_DIALECT
