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
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TERRAZZO_TILE_DIALECT
