#ifndef TERRAZZO_TILE_OPS
#define TERRAZZO_TILE_OPS

include "dialects/Tile/IR/TileDialect.td"
include "dialects/Tile/IR/TileTypes.td"
include "dialects/Tile/IR/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def GlobalMemory : Resource<"::mlir::tile::GlobalMemory">;

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program instance along a grid dimension";
  let arguments = (ins Tile_ProgramDim:$dim);
  let results = (outs I32:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of program instances along a grid dimension";
  let arguments = (ins Tile_ProgramDim:$dim);
  let results = (outs I32:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Creating and reshaping blocks
//===----------------------------------------------------------------------===//

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The 1-D block [start, end) of consecutive i32 values";
  let description = [{
    `end - start` must be a power of two no larger than 2^20 elements, and the
    result is a `tensor<(end - start) x i32>`.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `to` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "A block whose every element is the given scalar";
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeat a block along its dimensions of size 1";
  let description = [{
    The result has the rank and element type of the source; each dimension is
    either equal to the source's or the source's is 1.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Insert a dimension of size 1 at `axis`";
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Reinterpret a block with another shape of the same size";
  let description = [{
    Elements keep their row-major order unless `allow_reorder` is set, in which
    case the compiler may assign them to any position (useful for reductions
    whose result does not depend on order).
  }];
  let arguments = (ins Tile_Tensor:$src, UnitAttr:$allowReorder);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allowReorder^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "Permute the dimensions of a block";
  let description = [{
    Result dimension `i` is source dimension `order[i]`.
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src $order attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Tile_JoinOp : Tile_Op<"join", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Stack two blocks along a new innermost dimension of size 2";
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplitOp : Tile_Op<"split", [Pure, AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "Split a block along its innermost dimension, which has size 2";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$outLHS, Tile_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by a number of elements";
  let description = [{
    Offsets count elements of the pointee type, not bytes. A tensor of
    pointers takes a tensor of offsets of the same shape; a scalar pointer
    takes a scalar offset.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type is the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other has the type of the result", "ptr", "other",
                           "::mlir::tile::getPointeeType($_self)">]> {
  let summary = "Load from global memory, optionally masked";
  let description = [{
    Lanes whose `mask` is false are not accessed and take the value `other`
    (undefined when `other` is absent). `other` requires `mask`. A volatile
    load is also treated as writing memory, so that it is neither removed nor
    merged with another load.
  }];
  let arguments = (ins
    Tile_PtrLike:$ptr,
    Optional<Tile_BoolLike>:$mask,
    Optional<Tile_Type>:$other,
    OptionalAttr<Tile_CacheModifier>:$cache,
    OptionalAttr<Tile_EvictionPolicy>:$evict,
    UnitAttr:$isVolatile);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cache` `=` $cache | `evict` `=` $evict)
    (`volatile` $isVolatile^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    TypesMatchWith<"value type is the pointee type of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Store to global memory, optionally masked";
  let arguments = (ins
    Arg<Tile_PtrLike, "pointers to write", [MemWrite<GlobalMemory>]>:$ptr,
    Tile_Type:$value,
    Optional<Tile_BoolLike>:$mask,
    OptionalAttr<Tile_CacheModifier>:$cache,
    OptionalAttr<Tile_EvictionPolicy>:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cache` `=` $cache | `evict` `=` $evict) attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    TypesMatchWith<"val type is the pointee type of ptr", "ptr", "val",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result type is the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Atomic read-modify-write of global memory; returns the old values";
  let arguments = (ins
    Tile_RMWOp:$rmwOp,
    Arg<Tile_PtrLike, "pointers to update",
        [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$ptr,
    Tile_Type:$val,
    Optional<Tile_BoolLike>:$mask,
    Tile_MemSemantic:$sem,
    Tile_MemScope:$scope);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $rmwOp `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    TypesMatchWith<"cmp type is the pointee type of ptr", "ptr", "cmp",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"val type is the pointee type of ptr", "ptr", "val",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result type is the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">]> {
  let summary = "Atomic compare-and-swap on global memory; returns the old values";
  let arguments = (ins
    Arg<Tile_PtrLike, "pointers to update",
        [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$ptr,
    Tile_Type:$cmp, Tile_Type:$val,
    Tile_MemSemantic:$sem, Tile_MemScope:$scope);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicLoadOp : Tile_Op<"atomic_load", [
    TypesMatchWith<"result type is the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Atomic load from global memory with a memory ordering";
  let description = [{
    Each element is read in one access, with ordering `sem` (`relaxed` or
    `acquire`) at `scope`; an acquire load also orders the program's later
    accesses, by all its threads, after it. Lanes whose `mask` is false are
    not accessed and read as zero. The op is treated as writing memory as
    well, so that it is neither removed, merged with another load nor moved
    out of a loop.
  }];
  let arguments = (ins
    Arg<Tile_PtrLike, "pointers to read",
        [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$ptr,
    Optional<Tile_BoolLike>:$mask,
    Tile_MemSemantic:$sem,
    Tile_MemScope:$scope);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicStoreOp : Tile_Op<"atomic_store", [
    TypesMatchWith<"value type is the pointee type of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Atomic store to global memory with a memory ordering";
  let description = [{
    Each element is written in one access, with ordering `sem` (`relaxed` or
    `release`) at `scope`; a release store also orders the program's earlier
    accesses, by all its threads, before it. Lanes whose `mask` is false are
    not written.
  }];
  let arguments = (ins
    Arg<Tile_PtrLike, "pointers to write",
        [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$ptr,
    Tile_Type:$value,
    Optional<Tile_BoolLike>:$mask,
    Tile_MemSemantic:$sem,
    Tile_MemScope:$scope);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicPollOp : Tile_Op<"atomic_poll", [
    TypesMatchWith<"expected type is the pointee type of ptr", "ptr", "expected",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result is i1 with the shape of ptr", "ptr", "result",
                   "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Wait until global memory holds the expected values";
  let description = [{
    Each element is read with atomic loads (ordering `sem`, `relaxed` or
    `acquire`, at `scope`) until it equals `expected` (16-, 32- or 64-bit
    integers). With `timeout` (i64 nanoseconds of the GPU's global timer,
    compared unsigned, counted from the start of the op), an element stops
    waiting once the time has passed, after at least one load; the result
    is true where the expected value was seen and false where the wait
    timed out (and then nothing is acquired). Without `timeout` the wait
    has no end but the expected value, and the result is all true. As for
    `tile.atomic_load`, an acquire poll orders all the program's threads.
  }];
  let arguments = (ins
    Arg<Tile_PtrLike, "pointers to poll",
        [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$ptr,
    Tile_Type:$expected,
    Optional<I64>:$timeout,
    Tile_MemSemantic:$sem,
    Tile_MemScope:$scope);
  let results = (outs Tile_BoolLike:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $expected (`timeout` $timeout^)? attr-dict
    `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

def Tile_MakeTensorDescOp : Tile_Op<"make_tensor_desc", [Pure, AttrSizedOperandSegments]> {
  let summary = "Describe a strided global tensor for block loads and stores";
  let description = [{
    `shape` (i32) and `strides` (i64, in elements) have one entry per
    dimension of the descriptor's block type; the innermost stride is
    expected to be 1.
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides);
  let results = (outs Tile_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DescLoadOp : Tile_Op<"desc_load"> {
  let summary = "Load the block of a tensor descriptor starting at the given indices";
  let description = [{
    Elements outside the described tensor read as zero.
  }];
  let arguments = (ins
    Arg<Tile_TensorDescType, "descriptor", [MemRead<GlobalMemory>]>:$desc,
    Variadic<I32>:$indices,
    OptionalAttr<Tile_CacheModifier>:$cache,
    OptionalAttr<Tile_EvictionPolicy>:$evict);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` oilist(`cache` `=` $cache | `evict` `=` $evict)
    attr-dict `:` type($desc) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DescStoreOp : Tile_Op<"desc_store"> {
  let summary = "Store a block through a tensor descriptor at the given indices";
  let description = [{
    Elements outside the described tensor are not written.
  }];
  let arguments = (ins
    Arg<Tile_TensorDescType, "descriptor", [MemWrite<GlobalMemory>]>:$desc,
    Variadic<I32>:$indices, Tile_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Computation
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product with accumulation: d = a * b + c";
  let description = [{
    `a` is M x K, `b` is K x N and `c`, `d` are M x N, with an optional
    leading batch dimension shared by all four. Allowed element types
    (a, b -> c): f16 -> f16/f32, bf16 -> f32, f32 -> f32, f64 -> f64,
    f8E4M3FN/f8E5M2 (mixed allowed) -> f16/f32, i8 -> i32; also the FNUZ
    fp8 formats f8E4M3FNUZ/f8E5M2FNUZ, AMD gfx942's (the target decides
    which formats it multiplies: terrazzo-accelerate-dot).
    `precision` selects how f32 inputs use tensor cores.
  }];
  let arguments = (ins
    Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
    DefaultValuedAttr<Tile_InputPrecision,
                      "::mlir::tile::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`precision` `=` $inputPrecision^)? attr-dict
    `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [
    RecursiveMemoryEffects, RecursivelySpeculatable, SingleBlock]> {
  let summary = "Reduce blocks along an axis with a combine region";
  let description = [{
    All sources have the same shape. The region takes 2 * N scalars (the
    accumulated values of the N sources, then the new ones) and yields N
    scalars with `tile.reduce.return`. Results have the shape of the sources
    with `axis` removed, or are scalars when the sources are 1-D.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, $result) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ReduceReturnOp : Tile_Op<"reduce.return",
    [HasParent<"ReduceOp">, Pure, Terminator, ReturnLike]> {
  let summary = "Yield the combined values of a reduction step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tile_ScanOp : Tile_Op<"scan", [
    RecursiveMemoryEffects, RecursivelySpeculatable, SingleBlock]> {
  let summary = "Inclusive associative scan along an axis with a combine region";
  let description = [{
    Like `tile.reduce`, but the results keep the shape of the sources and
    element `i` combines elements `0..i` (`n-1..i` when `reverse` is set).
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis (`reverse` $reverse^)? attr-dict
    `:` functional-type($srcs, $result) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanReturnOp : Tile_Op<"scan.return",
    [HasParent<"ScanOp">, Pure, Terminator, ReturnLike]> {
  let summary = "Yield the combined values of a scan step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def Tile_FpToFpOp : Tile_Op<"fp_to_fp", [Pure]> {
  let summary = "Convert between floating-point types, including fp8";
  let description = [{
    A narrowing conversion needs a rounding mode; a widening one is exact and
    takes none.
  }];
  let arguments = (ins Tile_FloatLike:$src, OptionalAttr<Tile_RoundingMode>:$rounding);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = [{
    $src (`rounding` `=` $rounding^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BitcastOp : Tile_Op<"bitcast", [Pure]> {
  let summary = "Reinterpret the bits of each element as another type of the same width";
  let arguments = (ins Tile_Type:$src);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure]> {
  let summary = "Turn 64-bit addresses into pointers";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure]> {
  let summary = "Turn pointers into 64-bit addresses";
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Call a device-library function element by element";
  let description = [{
    Operands and the result are all scalars or all blocks of one shape. A
    call that is not `pure` is treated as writing memory. The symbol is a
    function name: letters, digits, `_` and `$`, not starting with a digit.
  }];
  let arguments = (ins Variadic<Tile_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs Tile_Type:$result);
  let assemblyFormat = "$symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)";
  let hasVerifier = 1;
}

def Tile_InlineAsmOp : Tile_Op<"inline_asm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Run inline assembly on the elements of its operands";
  let description = [{
    `asm_string` runs once for every `pack` consecutive elements a thread
    holds, with LLVM's inline-assembly `constraints` (outputs first, then
    inputs, then `~{...}` clobbers; `$i` names the i-th). Operands and
    results are all scalars or all blocks of one shape; each result has its
    own element type. Elements narrower than 32 bits share 32-bit registers
    (`getElementsPerRegister`: four i8 or two f16 a register), so an operand
    or result of such a type has `getRegisterCount` registers per invocation
    and the constraints must name that many. An op that is not `pure` is
    treated as reading and writing memory, and is never removed.

    ```mlir
    %0:2 = tile.inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;"
        constraints "=r,=r,r,r" (%a, %b) {pack = 1 : i32, pure = true}
        : (tensor<512xi32>, tensor<512xi32>) -> (tensor<512xi32>, tensor<512xi32>)
    ```
  }];
  let arguments = (ins Variadic<Tile_Type>:$args, StrAttr:$asm_string,
                       StrAttr:$constraints, BoolAttr:$pure, I32Attr:$pack);
  let results = (outs Variadic<Tile_Type>:$results);
  let assemblyFormat = [{
    $asm_string `constraints` $constraints ` ` `(` $args `)` attr-dict `:`
    functional-type($args, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How many elements of `element` share one register of the assembly:
    /// 32 / width for types narrower than 32 bits (i1 counted as 8 bits),
    /// 1 for wider types and pointers.
    static unsigned getElementsPerRegister(Type element);
    /// The registers of an operand or result of `element` in one
    /// invocation of `pack` elements.
    static unsigned getRegisterCount(Type element, unsigned pack);
  }];
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "Print a prefix and values from every program instance";
  let description = [{
    `is_signed` has one entry per argument (1 for signed integers); it may be
    omitted, in which case integers print as signed. Arguments follow a colon,
    `tile.print "x: " : %a, %b : i32, f32`, so that a print without arguments
    cannot take the result names of the next op for its own arguments.
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex, Variadic<Tile_Type>:$args,
                       OptionalAttr<DenseI32ArrayAttr>:$isSigned);
  let assemblyFormat = [{
    $prefix (`hex` $hex^)? attr-dict (`:` $args^ `:` type($args))?
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "Stop the kernel with a message where the condition is false";
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

#endif // TERRAZZO_TILE_OPS
