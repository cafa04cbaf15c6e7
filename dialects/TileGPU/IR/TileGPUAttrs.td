#ifndef TERRAZZO_TILEGPU_ATTRS
#define TERRAZZO_TILEGPU_ATTRS

include "dialects/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// Layout interfaces
//===----------------------------------------------------------------------===//

def TileGPU_DistributedLayout : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::mlir::tilegpu";
  let description = [{
    A layout that distributes the elements of a tensor over the registers,
    lanes and warps of one program instance. Every named layout is a
    constructor of a linear layout (DESIGN.md §3); this interface is what
    passes ask of a layout without knowing which one it is.
  }];
  let methods = [
    InterfaceMethod<"Rank of the tensors this layout distributes.",
      "unsigned", "getRank">,
    InterfaceMethod<"Warps the layout spans.", "unsigned", "getNumWarps">,
    InterfaceMethod<"Threads per warp the layout assumes.",
      "unsigned", "getWarpSize">,
    InterfaceMethod<[{
        Checks that a tensor of `shape` can carry this layout; reports why
        not through `emitError`.
      }], "::mlir::LogicalResult", "verifyTensorShape",
      (ins "::llvm::ArrayRef<int64_t>":$shape,
           "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>
  ];
}

def TileGPU_MatrixAccumulatorLayout
    : AttrInterface<"MatrixAccumulatorLayoutAttr"> {
  let cppNamespace = "::mlir::tilegpu";
  let description = [{
    The result layout of a matrix instruction (NVIDIA's mma.sync and
    wgmma, AMD's MFMA): what layout propagation anchors at a dot, and
    whose slices and elementwise results stay in it.
  }];
}

def TileGPU_SharedLayout : AttrInterface<"SharedLayoutAttr"> {
  let cppNamespace = "::mlir::tilegpu";
  let description = [{
    A layout of a buffer in shared memory: where each element lives, as a
    function of its coordinates.
  }];
  let methods = [
    InterfaceMethod<"Rank of the buffers this layout describes.",
      "unsigned", "getRank">
  ];
}

// A list of unsigned integers, written and printed in square brackets:
// `[1, 4]`. (The default ArrayRefParameter syntax is an unbracketed list,
// which cannot be followed by another parameter of a struct.)
class TileGPU_UnsignedArrayParameter<string desc = "">
    : ArrayRefParameter<"unsigned", desc> {
  let parser = "::mlir::tilegpu::parseUnsignedArray($_parser)";
  let printer = "::mlir::tilegpu::printUnsignedArray($_printer, $_self)";
}

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def TileGPU_BlockedLayout : TileGPU_Attr<"BlockedLayout", "blocked",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Each thread holds a block of elements; threads and warps tile the tensor";
  let description = [{
    `sizePerThread[d]` consecutive elements of dimension `d` per thread,
    `threadsPerWarp[d]` threads and `warpsPerCTA[d]` warps along it; `order`
    lists dimensions from fastest- to slowest-varying. The pattern repeats
    to cover tensors larger than one tile.

        #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
                          warpsPerCTA = [4, 1], order = [1, 0]}>
  }];
  let parameters = (ins
    TileGPU_UnsignedArrayParameter<>:$sizePerThread,
    TileGPU_UnsignedArrayParameter<>:$threadsPerWarp,
    TileGPU_UnsignedArrayParameter<>:$warpsPerCTA,
    TileGPU_UnsignedArrayParameter<>:$order);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SliceLayout : TileGPU_Attr<"SliceLayout", "slice",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "The parent layout with dimension `dim` removed";
  let description = [{
    The layout of a reduction's result along `dim`, and the layout that
    `expand_dims` at `dim` turns back into the parent.

        #tilegpu.slice<{dim = 1, parent = #blocked}>
  }];
  let parameters = (ins "unsigned":$dim, "DistributedLayoutAttr":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_LinearLayoutAttr : TileGPU_Attr<"LinearLayout", "linear",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A linear layout given by its bases";
  let description = [{
    The layout itself (DESIGN.md §3), for tensors whose layout no named
    layout describes, e.g. the results of `trans`, `reshape`, `join` and
    `split` laid out so that the op moves no data. For each hardware input
    (`register`, `lane`, `warp`, `block`), its bases: basis `i` is the
    coordinate (one entry per tensor dimension) of the element that input
    `2^i` holds when every other input is 0; other inputs hold the XOR of the
    bases of their set bits. The warp size is 2^(number of lane bases) and
    the number of warps 2^(number of warp bases).

        #tilegpu.linear<{register = [[0, 1], [2, 0]],
                         lane = [[0, 2], [0, 4], [0, 8], [0, 16], [1, 0]],
                         warp = [[4, 0], [8, 0]], block = []}>

    A tensor carrying it must have the rank of the bases and power-of-two
    sizes, and every element must be held somewhere; coordinates must be
    below the sizes (checked where the tensor type is parsed). (As the parent of a `#tilegpu.slice`, it describes the
    parent shape with the sliced dimension of size 1: coordinates along it
    are dropped, and register bases left zero are removed.)
  }];
  let parameters = (ins
    "unsigned":$tensorRank,
    ArrayRefParameter<"int32_t", "register bases, flattened">:$registerBases,
    ArrayRefParameter<"int32_t", "lane bases, flattened">:$laneBases,
    ArrayRefParameter<"int32_t", "warp bases, flattened">:$warpBases,
    ArrayRefParameter<"int32_t", "block bases, flattened">:$blockBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TileGPU_DotOperandLayout : TileGPU_Attr<"DotOperandLayout", "dot_operand",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
     DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Operand A (opIdx 0) or B (opIdx 1) of a tensor-core dot";
  let description = [{
    The registers from which the instruction whose accumulators are laid
    out as `parent` reads its operands: `kWidth` consecutive elements along
    K per 32-bit register (2 for 16-bit types, 4 for 8-bit ones, 1 for
    tf32). Rows of A follow the parent's rows (warps along N hold copies),
    columns of B its columns (warps along M hold copies). The parent is an
    mma.sync layout (version 2), or for A only a wgmma one (version 3): the
    registers wgmma reads A from, each warp's 16 rows of its warp group's
    64 laid out as mma.sync's A (so that the accumulator of one wgmma is,
    register for register, the A of the next when their shapes match).
    With an MFMA parent (`#tilegpu.amd_mfma`), `kWidth` (1 to 16) is the
    number of consecutive k each lane holds for one instruction.

        #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
  }];
  let parameters = (ins "unsigned":$opIdx, "DistributedLayoutAttr":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

def TileGPU_SwizzledSharedLayout : TileGPU_Attr<"SwizzledSharedLayout", "swizzled_shared",
    [DeclareAttrInterfaceMethods<TileGPU_SharedLayout>]> {
  let summary = "Row-major shared buffer whose vectors are XOR-swizzled per row";
  let description = [{
    Rows (along `order[0]`) are split into vectors of `vec` elements; the
    vector index of row `r` is XORed with `(r / perPhase) % maxPhase`, which
    spreads column accesses over the shared-memory banks. `vec = 1,
    perPhase = 1, maxPhase = 1` is no swizzle.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, TileGPU_UnsignedArrayParameter<>:$order);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

// The layouts only NVIDIA targets have: mma.sync / wgmma accumulators and
// wgmma's shared operands.
include "dialects/TileGPU/IR/NVIDIAAttrs.td"
// The layouts only AMD targets have: MFMA accumulators.
include "dialects/TileGPU/IR/AMDAttrs.td"

#endif // TERRAZZO_TILEGPU_ATTRS
