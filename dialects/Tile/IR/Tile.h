// The tile dialect: portable block-level IR (DESIGN.md §2).
#ifndef TERRAZZO_DIALECTS_TILE_IR_TILE_H
#define TERRAZZO_DIALECTS_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Tile/IR/TileDialect.h.inc"
#include "dialects/Tile/IR/TileEnums.h.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {

/// Global memory, the resource that loads, stores and atomics touch.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// The pointee type of a pointer, or a tensor of pointees with the shape and
/// encoding of a tensor of pointers. Returns null for anything else.
Type getPointeeType(Type ptrLike);

/// i1, or a tensor of i1 with the shape and encoding of `type`.
Type getI1SameShape(Type type);

/// The bit width of a scalar element: pointers count as 64 bits.
unsigned getElementBitWidth(Type scalar);

/// Whether `op` is or holds an scf.for marked tile.warp_specialize
/// (tl.range(..., warp_specialize=True)).
bool holdsWarpSpecializedLoop(Operation *op);

} // namespace mlir::tile

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.h.inc"

#endif // TERRAZZO_DIALECTS_TILE_IR_TILE_H
