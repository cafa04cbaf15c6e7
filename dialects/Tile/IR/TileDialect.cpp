#include "dialects/Tile/IR/Inlining.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "dialects/Tile/IR/TileDialect.cpp.inc"
#include "dialects/Tile/IR/TileEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/IR/TileOps.cpp.inc"
      >();
  addInterfaces<InlineEveryOp>();
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Type type;
  if (regionIndex < op->getNumRegions() && !op->getRegion(regionIndex).empty() &&
      argIndex < op->getRegion(regionIndex).getNumArguments())
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  else if (auto function = dyn_cast<FunctionOpInterface>(op);
           function && argIndex < function.getNumArguments())
    type = function.getArgumentTypes()[argIndex];
  bool integer = type && type.isSignlessInteger();
  if (name == kDivisibilityAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isSignlessInteger(32) || value.getInt() <= 0)
      return op->emitError("'") << name << "' of argument #" << argIndex
                                << " must be a positive i32, got "
                                << attr.getValue();
    if (type && !integer && !isa<PointerType>(type))
      return op->emitError("'") << name << "' is for integer and pointer "
                                   "arguments, not argument #"
                                << argIndex << " of type " << type;
    return success();
  }
  if (name == kPointerRangeAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isSignlessInteger(32) || value.getInt() < 1 ||
        value.getInt() > 64)
      return op->emitError("'") << name << "' of argument #" << argIndex
                                << " must be an i32 from 1 to 64, got "
                                << attr.getValue();
    if (type && !isa<PointerType>(type))
      return op->emitError("'") << name << "' is for pointer arguments, not "
                                   "argument #"
                                << argIndex << " of type " << type;
    return success();
  }
  if (name == kNonNegativeAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'") << name << "' of argument #" << argIndex
                                << " must be a unit attribute, got "
                                << attr.getValue();
    if (type && !integer)
      return op->emitError("'") << name << "' is for integer arguments, not "
                                   "argument #"
                                << argIndex << " of type " << type;
    return success();
  }
  return op->emitError("unknown tile argument attribute '") << name << "'";
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  // The loop options; the value hints (tile.divisibility, tile.contiguity,
  // tile.constancy) are read and checked by AxisInfo, and other tile.*
  // attributes an op may carry (a test's tag) mean nothing to the passes.
  StringRef name = attr.getName().strref();
  if (name == kNumStagesAttrName || name == kLoopUnrollFactorAttrName) {
    if (!isa<scf::ForOp>(op))
      return op->emitError("'") << name << "' is a loop option, for scf.for only";
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    int64_t least = name == kNumStagesAttrName ? 0 : 1;
    if (!value || !value.getType().isSignlessInteger(32) ||
        value.getInt() < least)
      return op->emitError("'")
             << name << "' must be an i32 of at least " << least << ", got "
             << attr.getValue();
    return success();
  }
  if (name == kWarpSpecializeAttrName || name == kFlattenAttrName) {
    if (!isa<scf::ForOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError("'")
             << name << "' is a unit loop option, for scf.for only";
    return success();
  }
  return success();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/IR/TileTypes.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointeeType, int addressSpace) {
  if (!isa<IntegerType, FloatType, PointerType>(pointeeType))
    return emitError() << "pointee must be an integer, float or pointer type, got "
                       << pointeeType;
  if (addressSpace < 0)
    return emitError() << "address space must be non-negative, got "
                       << addressSpace;
  return success();
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (!blockType.hasStaticShape())
    return emitError() << "descriptor block must have a static shape, got "
                       << blockType;
  Type element = blockType.getElementType();
  if (!isa<IntegerType, FloatType>(element))
    return emitError() << "descriptor block elements must be integers or "
                          "floats, got "
                       << element;
  for (int64_t dim : blockType.getShape())
    if (!llvm::isPowerOf2_64(dim))
      return emitError() << "descriptor block dimensions must be powers of "
                            "two, got "
                         << blockType;
  return success();
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mlir::tile::getPointeeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
  return {};
}

Type mlir::tile::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

bool mlir::tile::holdsWarpSpecializedLoop(Operation *op) {
  return op
      ->walk([](scf::ForOp loop) {
        return loop->hasAttr(TileDialect::kWarpSpecializeAttrName)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

unsigned mlir::tile::getElementBitWidth(Type scalar) {
  if (isa<PointerType>(scalar))
    return 64;
  return scalar.getIntOrFloatBitWidth();
}
