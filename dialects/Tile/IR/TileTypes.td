#ifndef TERRAZZO_TILE_TYPES
#define TERRAZZO_TILE_TYPES

include "dialects/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to a scalar in an address space";
  let description = [{
    `!tile.ptr<f32>` points to global memory (address space 1, the default);
    `!tile.ptr<f16, 3>` names another address space explicitly.
  }];
  let parameters = (ins "Type":$pointeeType,
                        DefaultValuedParameter<"int", "1">:$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def Tile_TensorDescType : Tile_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "Descriptor of a strided global tensor, read and written in blocks";
  let description = [{
    `!tile.tensordesc<tensor<64x64xf16>>` describes a global tensor whose
    blocks have the given shape and element type. On sm_90 it lowers to a TMA
    descriptor, elsewhere to pointer arithmetic.
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// F8E4M3FNUZ and F8E5M2FNUZ are AMD gfx942's fp8 formats (its MFMA takes
// them); the NVIDIA conversion rejects them.
def Tile_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F16,
                            BF16, F32, F64], "floating-point">;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tile_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def Tile_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>], "i1 or tensor of i1">;
def Tile_Ptr : Type<CPred<"::mlir::isa<::mlir::tile::PointerType>($_self)">,
                    "tile.ptr", "::mlir::tile::PointerType">;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int, Tile_Ptr]>;
def Tile_FloatTensor : RankedTensorOf<[Tile_Float]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_Tensor : RankedTensorOf<[Tile_Float, Tile_Int, Tile_Ptr]>;
def Tile_FloatLike : AnyTypeOf<[Tile_Float, Tile_FloatTensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_Type : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TERRAZZO_TILE_TYPES
