// Forward layout propagation, the first phase of
// terrazzo-remove-layout-conversions: values whose layout was chosen for a
// reason (tensor-core results, in their instruction's accumulator layout;
// loads, in the layout coalescing picked for their addresses) lend that
// layout to everything computed from them that can run in any layout, so
// the computation follows the data instead of the data being moved to the
// default layouts the computation started in.
#include "passes/LayoutPropagation.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/ShapeLayoutInference.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace mlir::terrazzo {

bool isLayoutAgnosticElementwise(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  // Inline assembly and device-library calls declared pure compute each
  // element a thread holds from the same elements of their operands,
  // whatever the layout (the assembly's `pack` groups a thread's
  // consecutive elements, as Triton's does); they are not speculatable, so
  // isPure does not say it.
  if (isa<tile::InlineAsmOp, tile::ExternElementwiseOp>(op))
    return isMemoryEffectFree(op) &&
           isa<RankedTensorType>(op->getResult(0).getType());
  if (!isPure(op))
    return false;
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return !isa<arith::ConstantOp>(op);
  return isa<tile::AddPtrOp, tile::BitcastOp, tile::IntToPtrOp,
             tile::PtrToIntOp, tile::FpToFpOp>(op);
}

namespace {

RankedTensorType tensorType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// The layout the results of shape op `op` (trans, reshape, join, split)
/// get, as relabellings of its registers, when `operand` has `layout`
/// (for a join, both sources). Null for other ops, and where no relabelling
/// exists (a split whose halves are not in one thread's registers).
Attribute inferShapeResultLayout(Operation *op, Value operand,
                                 Attribute layout) {
  auto type = tensorType(operand);
  if (!type || !isa_and_nonnull<tilegpu::DistributedLayoutAttr>(layout))
    return Attribute();
  RankedTensorType source = type.cloneWithEncoding(layout);
  Attribute current = tensorType(op->getResult(0)).getEncoding();
  if (auto trans = dyn_cast<tile::TransOp>(op))
    return tilegpu::inferTransLayout(source, trans.getOrder(), current);
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op))
    return tilegpu::inferReshapeLayout(source, reshape.getType().getShape(),
                                       current);
  if (isa<tile::JoinOp>(op))
    return tilegpu::inferJoinLayout(source, current);
  if (isa<tile::SplitOp>(op))
    return tilegpu::inferSplitLayout(source, current);
  return Attribute();
}


/// The values an anchor's layout reaches, and the layout each gets.
class Propagation {
public:
  explicit Propagation(bool throughReshapes)
      : throughReshapes(throughReshapes) {}

  /// First layout to reach a value wins; a later, different one leaves a
  /// conversion where it meets the value.
  void propagate(Value value, Attribute layout) {
    RankedTensorType type = tensorType(value);
    if (!type || !layout || !chosen.insert({value, layout}).second)
      return;
    worklist.push_back(value);
  }

  void run() {
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      Attribute layout = chosen.lookup(value);
      for (OpOperand &use : value.getUses())
        visitUse(use, layout);
    }
  }

  const llvm::MapVector<Value, Attribute> &layouts() const { return chosen; }

private:
  void visitUse(OpOperand &use, Attribute layout) {
    Operation *user = use.getOwner();
    if (isa<tilegpu::ConvertLayoutOp>(user) ||
        isa<tile::BroadcastOp>(user) ||
        (isLayoutAgnosticElementwise(user) && tensorType(user->getResult(0)))) {
      propagate(user->getResult(0), layout);
      return;
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(user)) {
      auto slice = dyn_cast<tilegpu::SliceLayoutAttr>(layout);
      if (slice && slice.getDim() == expand.getAxis())
        propagate(expand.getResult(), slice.getParent());
      return;
    }
    if (isa<tile::TransOp, tile::ReshapeOp, tile::JoinOp, tile::SplitOp>(
            user)) {
      if (isa<tile::ReshapeOp>(user) && !throughReshapes)
        return;
      Attribute inferred = inferShapeResultLayout(user, use.get(), layout);
      if (inferred)
        for (Value result : user->getResults())
          propagate(result, inferred);
      return;
    }
    if (auto reduce = dyn_cast<tile::ReduceOp>(user)) {
      auto parent = dyn_cast<tilegpu::DistributedLayoutAttr>(layout);
      // A 1-D source reduces to scalars: no slice (of a rank-1 layout,
      // which is invalid) to propagate.
      if (!parent || parent.getRank() < 2)
        return;
      Attribute slice = tilegpu::SliceLayoutAttr::get(
          user->getContext(), reduce.getAxis(), parent);
      // Other sources get a conversion to this layout, in the rewrite.
      for (Value result : reduce->getResults())
        propagate(result, slice);
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(user)) {
      unsigned first = loop.getNumControlOperands();
      if (use.getOperandNumber() < first)
        return;
      unsigned index = use.getOperandNumber() - first;
      propagate(loop.getRegionIterArg(index), layout);
      propagate(loop->getResult(index), layout);
      return;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      unsigned index = use.getOperandNumber();
      Operation *parent = yield->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        propagate(loop.getRegionIterArg(index), layout);
        propagate(loop->getResult(index), layout);
      } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
        propagate(ifOp->getResult(index), layout);
      }
      return;
    }
  }

  bool throughReshapes;
  llvm::MapVector<Value, Attribute> chosen;
  SmallVector<Value> worklist;
};

/// The type operand `use` must have for its owner to be valid now that
/// some values changed layout, or null when any layout will do; `oldTypes`
/// holds the types values had before.
Type expectedOperandType(OpOperand &use,
                         const DenseMap<Value, Type> &oldTypes) {
  Operation *user = use.getOwner();
  Value operand = use.get();
  RankedTensorType operandType = tensorType(operand);
  if (!operandType)
    return Type();
  auto withLayoutOf = [&](Value like) -> Type {
    return operandType.cloneWithEncoding(tensorType(like).getEncoding());
  };
  if (isa<tilegpu::ConvertLayoutOp>(user))
    return Type();
  if ((isLayoutAgnosticElementwise(user) || isa<tile::BroadcastOp>(user)) &&
      tensorType(user->getResult(0)))
    return withLayoutOf(user->getResult(0));
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(user))
    return operandType.cloneWithEncoding(tilegpu::SliceLayoutAttr::get(
        user->getContext(), expand.getAxis(),
        cast<tilegpu::DistributedLayoutAttr>(
            expand.getType().getEncoding())));
  if (isa<tile::TransOp, tile::ReshapeOp, tile::JoinOp, tile::SplitOp>(user)) {
    // Fine as it is when the op relabels it into its result's layout; a
    // join's other source may have to follow the first.
    Attribute result = tensorType(user->getResult(0)).getEncoding();
    if (inferShapeResultLayout(user, operand, operandType.getEncoding()) ==
        result)
      return Type();
    for (Value other : user->getOperands())
      if (other != operand &&
          inferShapeResultLayout(user, other,
                                 tensorType(other).getEncoding()) == result)
        return operandType.cloneWithEncoding(tensorType(other).getEncoding());
    auto old = oldTypes.find(operand);
    return old == oldTypes.end() ? Type() : old->second;
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(user)) {
    for (Value result : reduce->getResults())
      if (auto type = tensorType(result))
        if (auto slice =
                dyn_cast<tilegpu::SliceLayoutAttr>(type.getEncoding()))
          return operandType.cloneWithEncoding(slice.getParent());
    return withLayoutOf(reduce.getSrcs().front());
  }
  if (auto loop = dyn_cast<scf::ForOp>(user)) {
    unsigned first = loop.getNumControlOperands();
    if (use.getOperandNumber() >= first)
      return loop.getRegionIterArg(use.getOperandNumber() - first).getType();
    return Type();
  }
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    Operation *parent = yield->getParentOp();
    if (isa<scf::ForOp, scf::IfOp>(parent))
      return parent->getResult(use.getOperandNumber()).getType();
  }
  // A value written to shared memory is written from whatever registers
  // hold it (the lowering plans its stores from the layout): a loop that
  // carries a tile loaded for its next iteration (a persistent kernel's
  // next Q) keeps it in the loads' layout instead of converting it, in
  // every iteration and before the loop, to the layout the allocation was
  // built for.
  if (isa<tilegpu::LocalAllocOp, tilegpu::LocalStoreOp>(user) &&
      isa<tilegpu::DistributedLayoutAttr>(operandType.getEncoding()))
    return Type();
  // Everything else keeps what it was built for.
  auto old = oldTypes.find(operand);
  return old == oldTypes.end() ? Type() : old->second;
}

} // namespace

void propagateLayoutsFromAnchors(Operation *root, bool throughReshapes) {
  Propagation propagation(throughReshapes);
  // Tensor-core results first, and to the end: an accumulator computed on
  // (softmax of Q K^T, the rescaled output of attention) and carried by a
  // loop stays in the registers the instruction wrote, with its row
  // vectors in the slices of that layout; only where such a value meets a
  // load's does the load's data move.
  root->walk([&](Operation *op) {
    if (!isa<tile::DotOp, tilegpu::WarpGroupDotOp>(op))
      return;
    RankedTensorType type = tensorType(op->getResult(0));
    if (type && isa_and_nonnull<tilegpu::MatrixAccumulatorLayoutAttr>(
                    type.getEncoding()))
      propagation.propagate(op->getResult(0), type.getEncoding());
  });
  propagation.run();
  root->walk([&](Operation *op) {
    if (isa<tile::LoadOp>(op))
      propagation.propagate(op->getResult(0),
                            tensorType(op->getResult(0))
                                ? tensorType(op->getResult(0)).getEncoding()
                                : Attribute());
  });
  propagation.run();

  // Retype every value that moves; remember what it was.
  DenseMap<Value, Type> oldTypes;
  llvm::SetVector<Operation *> touched;
  for (auto [value, layout] : propagation.layouts()) {
    RankedTensorType type = tensorType(value);
    if (type.getEncoding() == layout)
      continue;
    oldTypes[value] = type;
    value.setType(type.cloneWithEncoding(layout));
    for (Operation *user : value.getUsers())
      touched.insert(user);
    Operation *producer = value.getDefiningOp();
    if (auto arg = dyn_cast<BlockArgument>(value))
      producer = arg.getOwner()->getParentOp();
    touched.insert(producer);
    // Region results are yielded by their regions' terminators.
    if (isa<OpResult>(value))
      for (Region &region : producer->getRegions())
        for (Block &block : region)
          if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
            touched.insert(yield);
  }
  if (oldTypes.empty())
    return;

  // Then give every operand of an op that saw a change the type its op now
  // needs, through a conversion in front of the op.
  for (Operation *op : touched) {
    for (OpOperand &use : op->getOpOperands()) {
      Type expected = expectedOperandType(use, oldTypes);
      if (!expected || expected == use.get().getType())
        continue;
      OpBuilder builder(op);
      Value converted = tilegpu::ConvertLayoutOp::create(
          builder, op->getLoc(), expected, use.get());
      use.set(converted);
    }
  }
}

} // namespace mlir::terrazzo
