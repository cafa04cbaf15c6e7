// Pointers within 2^31 bytes of their kernel argument: see PointerRange.h.
#include "passes/Analysis/PointerRange.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace {

/// The widest `tile.pointer_range` whose addresses i32 offsets (in
/// elements of at least a byte) and 32-bit byte offsets reach.
constexpr int64_t kSmallRangeBits = 32;

bool inRange(Value ptr, DenseSet<Value> &seen) {
  // A value met again on the way (a loop-carried pointer's step) adds no
  // source of its own.
  if (!seen.insert(ptr).second)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(ptr)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(parent))
      return mlir::terrazzo::hasSmallPointerRange(arg);
    // A loop-carried value: what enters the loop and what each iteration
    // yields.
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg == loop.getInductionVar())
        return false;
      return inRange(loop.getTiedLoopInit(arg)->get(), seen) &&
             inRange(loop.getTiedLoopYieldedValue(arg)->get(), seen);
    }
    return false;
  }
  Operation *def = ptr.getDefiningOp();
  if (isa_and_nonnull<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp,
                      tile::ReshapeOp, tile::TransOp, tile::SplitOp,
                      tile::AddPtrOp>(def))
    return inRange(def->getOperand(0), seen);
  // A pointer seen as pointing to another element type (a kernel taking
  // fp8 data as int8).
  if (auto cast = dyn_cast_or_null<tile::BitcastOp>(def))
    return isa<tile::PointerType>(getElementTypeOrSelf(cast->getOperand(0))) &&
           inRange(cast->getOperand(0), seen);
  if (auto join = dyn_cast_or_null<tile::JoinOp>(def))
    return inRange(join->getOperand(0), seen) &&
           inRange(join->getOperand(1), seen);
  if (auto select = dyn_cast_or_null<arith::SelectOp>(def))
    return inRange(select.getTrueValue(), seen) &&
           inRange(select.getFalseValue(), seen);
  if (auto loop = dyn_cast_or_null<scf::ForOp>(def)) {
    unsigned i = cast<OpResult>(ptr).getResultNumber();
    return inRange(loop.getRegionIterArgs()[i], seen);
  }
  if (auto branch = dyn_cast_or_null<scf::IfOp>(def)) {
    unsigned i = cast<OpResult>(ptr).getResultNumber();
    return inRange(branch.thenYield().getOperand(i), seen) &&
           (!branch.elseBlock() ||
            inRange(branch.elseYield().getOperand(i), seen));
  }
  return false;
}

} // namespace

bool mlir::terrazzo::hasSmallPointerRange(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func)
    return false;
  auto range = func.getArgAttrOfType<IntegerAttr>(
      arg.getArgNumber(), tile::TileDialect::kPointerRangeAttrName);
  return range && range.getInt() <= kSmallRangeBits;
}

bool mlir::terrazzo::isInSmallPointerRange(Value ptr) {
  DenseSet<Value> seen;
  return inRange(ptr, seen);
}
