#ifndef TERRAZZO_TILEGPU_DIALECT
#define TERRAZZO_TILEGPU_DIALECT

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tile IR with layouts, shared memory and GPU synchronisation";
  let description = [{
    `tilegpu` keeps the tensors of `tile` but puts a layout in their encoding
    slot: which register, lane, warp and block holds each element. It adds
    layout conversions and shared-memory values. The module carries the
    launch configuration:

    * `tilegpu.num-warps` (i32): warps per program instance, a power of two;
    * `tilegpu.threads-per-warp` (i32): 32 on NVIDIA, 32 or 64 on AMD;
    * `tilegpu.target` (string): `cuda:<sm>` or `hip:<gfx arch>`.
  }];
  let dependentDialects = ["tile::TileDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    static constexpr ::llvm::StringLiteral kNumWarpsAttrName = "tilegpu.num-warps";
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttrName = "tilegpu.threads-per-warp";
    /// Warps a program is launched with when a tilegpu.warp_specialize adds
    /// producer warps to the num-warps consumers (set by the pass that
    /// creates it); num-warps when unset.
    static constexpr ::llvm::StringLiteral kTotalNumWarpsAttrName = "tilegpu.total-num-warps";
    /// Registers per thread the program may use (Triton's maxnreg), which
    /// sets how many programs share a multiprocessor: on NVIDIA targets the
    /// kernel's .maxnreg, and for a warp_specialize the launch budget that
    /// setmaxnreg moves when it is below the even split. Unset: the code
    /// generator's choice.
    static constexpr ::llvm::StringLiteral kMaxRegistersAttrName = "tilegpu.max-registers";
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tilegpu.target";
    /// Stages (i32) terrazzo-pipeline keeps in flight for the module's
    /// loops, overriding its option (a loop's own tile.num_stages
    /// overrides both).
    static constexpr ::llvm::StringLiteral kNumStagesAttrName = "tilegpu.num-stages";
    /// Dynamic shared memory (bytes) the kernel needs; set by
    /// terrazzo-allocate-shared-memory.
    static constexpr ::llvm::StringLiteral kSharedMemoryAttrName = "tilegpu.shared";
    /// Byte offsets (i64) in that memory, set by the same pass: of an op's
    /// scratch, and of a local_alloc's buffer.
    static constexpr ::llvm::StringLiteral kScratchOffsetAttrName = "tilegpu.scratch_offset";
    static constexpr ::llvm::StringLiteral kBufferOffsetAttrName = "tilegpu.buffer_offset";
    /// The bytes (i32) of global scratch each program instance needs (its
    /// tensor maps), passed to the kernel as a trailing `!tile.ptr<i8>`
    /// argument; set by terrazzo-lower-descriptors-to-tma.
    static constexpr ::llvm::StringLiteral kGlobalScratchAttrName = "tilegpu.global_scratch_bytes";
    /// Set (a unit attribute) when the launcher builds tensor maps from the
    /// kernel's arguments (terrazzo::CompileOptions::hostTensorMaps):
    /// terrazzo-lower-descriptors-to-tma then passes those maps as
    /// parameters instead of building them in global scratch.
    static constexpr ::llvm::StringLiteral kHostTensormapsAttrName = "tilegpu.host-tensormaps";
    /// The kernel's tensor-map parameters, an array of
    /// #tilegpu.host_tensormap in parameter order; set by the same pass.
    static constexpr ::llvm::StringLiteral kHostTensormapParamsAttrName = "tilegpu.host_tensormap_params";
    /// Of a tensormap_create built at the same time as others (its
    /// group(), of n > 1 ops), set by the same pass (which keeps their
    /// scratch apart): array<i64: k, n>, its position k in the group (the
    /// warp that builds it).
    static constexpr ::llvm::StringLiteral kTensormapGroupAttrName = "tilegpu.tensormap_group";
  }];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

#endif // TERRAZZO_TILEGPU_DIALECT
