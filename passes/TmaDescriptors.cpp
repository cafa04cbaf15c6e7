// Which tensor descriptors TMA can serve (TmaDescriptors.h): read by
// terrazzo-lower-tensor-descriptors, which leaves those for the NVIDIA
// passes, and by those passes.
#include "passes/TmaDescriptors.h"

#include "dialects/TileGPU/IR/TmaLayout.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The divisibility AxisInfo knows of the scalar `value` (1 if none).
int64_t knownDivisibility(const ModuleAxisInfoAnalysis &axisInfo,
                          Value value) {
  const AxisInfo *info = axisInfo.getAxisInfo(value);
  return info && info->getRank() ? info->getDivisibility(0) : 1;
}

/// The block coordinates of every load and store of `desc`.
SmallVector<ValueRange> accessCoordinates(tile::MakeTensorDescOp desc) {
  SmallVector<ValueRange> coordinates;
  for (Operation *user : desc->getUsers()) {
    if (auto load = dyn_cast<tile::DescLoadOp>(user))
      coordinates.push_back(load.getIndices());
    else if (auto store = dyn_cast<tile::DescStoreOp>(user))
      coordinates.push_back(store.getIndices());
  }
  return coordinates;
}

} // namespace

Operation *mlir::terrazzo::kernelOfStraightNest(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto func = dyn_cast<func::FuncOp>(parent))
      return func.isPublic() && !func.isExternal() ? func.getOperation()
                                                   : nullptr;
    if (!isa<scf::ForOp, scf::IfOp>(parent))
      return nullptr;
  }
  return nullptr;
}

bool mlir::terrazzo::isSpecializedArgument(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def))
      return false;
    value = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(value);
  return isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

std::optional<SmallVector<TmaRuntimeCheck>>
mlir::terrazzo::getTmaRuntimeChecks(tile::MakeTensorDescOp desc,
                                    const ModuleAxisInfoAnalysis &axisInfo) {
  Operation *func = kernelOfStraightNest(desc);
  if (!func)
    return std::nullopt;
  for (Operation *user : desc->getUsers())
    if (!isa<tile::DescLoadOp, tile::DescStoreOp>(user) ||
        user->getParentOfType<func::FuncOp>().getOperation() != func)
      return std::nullopt;
  RankedTensorType block = desc.getType().getBlockType();
  int64_t elementBytes = block.getElementTypeBitWidth() / 8;
  // A box whose innermost coordinate is not a whole number of 16 bytes
  // faults with an illegal instruction on the H100, for device- and
  // host-encoded maps alike, Triton 3.6's included (scripts/tma-probe.py:
  // float32 column 30 faults, 0, 16, 40 and 60 do not, whatever the row
  // and extents). Such coordinates keep the pointer lowering, which reads
  // zeros outside the tensor.
  for (ValueRange indices : accessCoordinates(desc))
    if ((knownDivisibility(axisInfo, indices.back()) * elementBytes) % 16)
      return std::nullopt;
  tilegpu::SharedLayoutAttr layout = tilegpu::getTmaSharedLayout(
      desc.getContext(), block.getShape(), block.getElementType());
  if (!layout)
    return std::nullopt;
  SmallVector<TmaRuntimeCheck> checks;
  if (knownDivisibility(axisInfo, desc.getBase()) % 16)
    checks.push_back({desc.getBase(), 16});
  ValueRange strides = desc.getStrides();
  // The frontend's 1 is an extended i32 constant until canonicalization.
  const AxisInfo *inner = axisInfo.getAxisInfo(strides.back());
  if (!matchPattern(strides.back(), m_One()) &&
      !(inner && inner->getConstantValue() == 1)) {
    // A constant other than 1 never is.
    if (matchPattern(strides.back(), m_Constant()) ||
        (inner && inner->getConstantValue()))
      return std::nullopt;
    checks.push_back({strides.back(), 0});
  }
  // Elements of 1, 2, 4 or 8 bytes: a stride is a whole number of 16 bytes
  // when it is a multiple of 16 / elementBytes elements.
  for (Value stride : strides.drop_back())
    if ((knownDivisibility(axisInfo, stride) * elementBytes) % 16)
      checks.push_back({stride, 16 / elementBytes});
  return checks;
}

bool mlir::terrazzo::canLowerToTma(tile::MakeTensorDescOp desc,
                                   const ModuleAxisInfoAnalysis &axisInfo) {
  std::optional<SmallVector<TmaRuntimeCheck>> checks =
      getTmaRuntimeChecks(desc, axisInfo);
  return checks && checks->empty();
}

SmallVector<tile::DescStoreOp>
mlir::terrazzo::getUnguardedStores(tile::MakeTensorDescOp desc) {
  // Loads at negative coordinates (the innermost one a whole number of 16
  // bytes) read zeros outside the tensor correctly; stores there fault
  // with an illegal instruction (scripts/tma-probe.py, negative-* cases:
  // float32 and float16 loads at (-8, -16), (0, -32), (-20, -64), ... right,
  // in Triton 3.6 too; float32 stores at (-8, -16) fault).
  SmallVector<tile::DescStoreOp> stores;
  for (Operation *user : desc->getUsers())
    if (auto store = dyn_cast<tile::DescStoreOp>(user))
      if (!llvm::all_of(store.getIndices(),
                        [](Value index) { return isKnownNonNegative(index); }))
        stores.push_back(store);
  return stores;
}

std::optional<TmaRuntimeCheck>
mlir::terrazzo::getStoreExtentCheck(tile::MakeTensorDescOp desc,
                                    const ModuleAxisInfoAnalysis &axisInfo) {
  // A TMA store of a box reaching past the tensor's innermost extent
  // writes up to the next 16 bytes on the H100 (45 float32 columns:
  // columns 45..47 written, scripts/tma-probe.py); stores need that extent
  // a multiple of 16 bytes. (1-D, 3-D and unswizzled blocks, which faulted
  // in session 4 before the innermost-coordinate rule, ran correctly in
  // the probe, tails included.)
  if (llvm::none_of(desc->getUsers(), llvm::IsaPred<tile::DescStoreOp>))
    return std::nullopt;
  RankedTensorType block = desc.getType().getBlockType();
  int64_t elementBytes = block.getElementTypeBitWidth() / 8;
  Value extent = desc.getShape().back();
  if ((knownDivisibility(axisInfo, extent) * elementBytes) % 16 == 0)
    return std::nullopt;
  return TmaRuntimeCheck{extent, 16 / elementBytes};
}

bool mlir::terrazzo::isTmaValidated(tile::MakeTensorDescOp desc,
                                    const ModuleAxisInfoAnalysis &axisInfo) {
  return getUnguardedStores(desc).empty() &&
         !getStoreExtentCheck(desc, axisInfo);
}
