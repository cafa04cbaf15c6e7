// terrazzo-amd-buffer-addresses: see Passes.td.
#include "backends/amd/BufferAccess.h"
#include "backends/amd/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/NonNegative.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOAMDBUFFERADDRESSES
#include "backends/amd/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The i32 tensor of `type`'s shape and encoding.
RankedTensorType offsetsType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(),
                               IntegerType::get(type.getContext(), 32),
                               tensor.getEncoding());
}

/// `ptrs` (a tensor of pointers) as a scalar base pointer plus i32 element
/// offsets (null for none) when it is built from a splat of the base by
/// broadcasts, expand_dims and addptrs of i32 offsets. With a `builder`,
/// the offsets are built at its insertion point (the ops it creates added
/// to `created`); without, only matched.
std::optional<std::pair<Value, Value>>
splitPointers(Value ptrs, OpBuilder *builder,
              SmallVectorImpl<Operation *> *created = nullptr) {
  Operation *def = ptrs.getDefiningOp();
  if (!def)
    return std::nullopt;
  Location loc = def->getLoc();
  if (auto splat = dyn_cast<tile::SplatOp>(def))
    return std::make_pair(splat.getSrc(), Value());
  if (auto addptr = dyn_cast<tile::AddPtrOp>(def)) {
    Value offset = addptr.getOffset();
    if (!getElementTypeOrSelf(offset.getType()).isInteger(32))
      return std::nullopt;
    auto inner = splitPointers(addptr.getPtr(), builder, created);
    if (!inner)
      return std::nullopt;
    if (!builder || !inner->second)
      return std::make_pair(inner->first, offset);
    auto sum = arith::AddIOp::create(*builder, loc, inner->second, offset);
    created->push_back(sum);
    return std::make_pair(inner->first, sum.getResult());
  }
  if (!isa<tile::BroadcastOp, tile::ExpandDimsOp>(def))
    return std::nullopt;
  auto inner = splitPointers(def->getOperand(0), builder, created);
  if (!inner || !builder || !inner->second)
    return inner;
  Type type = offsetsType(ptrs.getType());
  Operation *reshaped =
      isa<tile::BroadcastOp>(def)
          ? tile::BroadcastOp::create(*builder, loc, type, inner->second)
                .getOperation()
          : tile::ExpandDimsOp::create(*builder, loc, type, inner->second,
                                       cast<tile::ExpandDimsOp>(def).getAxis())
                .getOperation();
  created->push_back(reshaped);
  return std::make_pair(inner->first, reshaped->getResult(0));
}

/// Whether `op` accesses global memory through its first operand, the
/// pointers.
bool isAccess(Operation *op) {
  return isa<tile::LoadOp, tile::StoreOp, tile::AtomicRMWOp,
             tile::AtomicCASOp>(op);
}

/// `addptr(splat(base), offsets)` of `type` at the builder's point.
Value pointersAt(OpBuilder &builder, Location loc, RankedTensorType type,
                 Value base, Value offsets) {
  Value splat = tile::SplatOp::create(builder, loc, type, base);
  return tile::AddPtrOp::create(builder, loc, type, splat, offsets);
}

/// Gives access `op`, whose pointers are a chain of addptrs, broadcasts
/// and expand_dims from a splat, the pointers `addptr(splat(base),
/// offsets)` with the chain's offsets summed, where that is a buffer
/// address.
void foldChain(Operation *op) {
  OpOperand &operand = op->getOpOperand(0);
  Value ptrs = operand.get();
  auto type = dyn_cast<RankedTensorType>(ptrs.getType());
  auto addptr = ptrs.getDefiningOp<tile::AddPtrOp>();
  if (!type || !addptr)
    return;
  // Already a base and offsets.
  Value inner = addptr.getPtr();
  if (auto broadcast = inner.getDefiningOp<tile::BroadcastOp>())
    inner = broadcast.getSrc();
  if (inner.getDefiningOp<tile::SplatOp>())
    return;
  auto split = splitPointers(ptrs, nullptr);
  if (!split || !split->second)
    return;
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(addptr);
  SmallVector<Operation *> created;
  Value offsets = splitPointers(ptrs, &builder, &created)->second;
  // The one decision of which addresses buffer operations serve.
  if (!isBufferAddress(split->first, offsets)) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return;
  }
  operand.set(pointersAt(builder, addptr.getLoc(), type, split->first, offsets));
}

/// The step of iter_arg `arg` of `loop` when each iteration yields
/// `addptr(arg, step)` with i32 offsets known not to be negative.
Value nonNegativeStep(scf::ForOp loop, BlockArgument arg) {
  Value yielded = loop.getTiedLoopYieldedValue(arg)->get();
  auto advance = yielded.getDefiningOp<tile::AddPtrOp>();
  if (!advance || advance.getPtr() != arg ||
      !getElementTypeOrSelf(advance.getOffset().getType()).isInteger(32) ||
      !isKnownNonNegative(advance.getOffset()))
    return Value();
  return advance.getOffset();
}

/// Rewrites iter_arg `arg` of `loop` as carried offsets, where it can.
void carryOffsets(scf::ForOp loop, BlockArgument arg) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !isa<tile::PointerType>(type.getElementType()) ||
      llvm::none_of(arg.getUsers(), isAccess))
    return;
  OpOperand *init = loop.getTiedLoopInit(arg);
  Value step = nonNegativeStep(loop, arg);
  auto split = splitPointers(init->get(), nullptr);
  if (!step || !split)
    return;
  Value base = split->first;
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  RankedTensorType intType = offsetsType(type);
  SmallVector<Operation *> created;
  Value initOffsets = splitPointers(init->get(), &builder, &created)->second;
  if (!initOffsets) {
    auto zeros = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(intType, builder.getI32IntegerAttr(0)));
    created.push_back(zeros);
    initOffsets = zeros;
  }
  // The one decision of which addresses buffer operations serve.
  if (!isBufferAddress(base, initOffsets)) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return;
  }
  OpResult result = loop.getTiedLoopResult(arg);
  Value yielded = loop.getTiedLoopYieldedValue(arg)->get();
  init->set(initOffsets);
  arg.setType(intType);
  result.setType(intType);
  // In the loop: the pointers from the carried offsets, which advance by
  // the step.
  builder.setInsertionPointToStart(loop.getBody());
  Value inside = pointersAt(builder, loc, type, base, arg);
  arg.replaceAllUsesExcept(inside, inside.getDefiningOp());
  Operation *yield = loop.getBody()->getTerminator();
  builder.setInsertionPoint(yield);
  Value next = arith::AddIOp::create(builder, loc, arg, step);
  loop.getTiedLoopYieldedValue(arg)->set(next);
  if (yielded.use_empty())
    yielded.getDefiningOp()->erase();
  // After it: the pointers of the last offsets.
  builder.setInsertionPointAfter(loop);
  if (!result.use_empty()) {
    Value after = pointersAt(builder, loc, type, base, result);
    result.replaceAllUsesExcept(after, after.getDefiningOp());
  }
}

struct BufferAddressesPass
    : public mlir::terrazzo::impl::TerrazzoAmdBufferAddressesBase<
          BufferAddressesPass> {
  void runOnOperation() override {
    // Outer loops first, so that an inner loop's initial pointers are
    // already the outer loop's base plus offsets.
    SmallVector<scf::ForOp> loops;
    getOperation().walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      for (BlockArgument arg : loop.getRegionIterArgs())
        carryOffsets(loop, arg);
    getOperation().walk([](Operation *op) {
      if (isAccess(op))
        foldChain(op);
    });
  }
};

} // namespace
