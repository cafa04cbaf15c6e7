// Helpers of terrazzo-pipeline: see PipelineSupport.h.
#include "passes/PipelineSupport.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::terrazzo;

bool mlir::terrazzo::isLoopInvariant(Value value, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

bool mlir::terrazzo::isZero(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_PosZeroFloat());
}

FailureOr<AheadLoad> mlir::terrazzo::matchAheadLoad(tile::LoadOp load,
                                                    scf::ForOp loop) {
  if (load->getBlock() != loop.getBody() || load.getIsVolatile() ||
      !isa<RankedTensorType>(load.getType()) || !load->hasOneUse())
    return failure();
  AheadLoad ahead;
  ahead.user = *load->user_begin();
  auto arg = dyn_cast<BlockArgument>(load.getPtr());
  if (!arg) {
    if (isLoopInvariant(load.getPtr(), loop))
      return failure();
    return ahead;
  }
  ahead.step = loopAdvance(arg, loop);
  if (!ahead.step)
    return failure();
  ahead.arg = arg;
  return ahead;
}

Value mlir::terrazzo::loopAdvance(BlockArgument arg, scf::ForOp loop) {
  if (arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return {};
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Operation *next = yield.getOperand(arg.getArgNumber() - 1).getDefiningOp();
  Value step;
  if (auto advance = dyn_cast_or_null<tile::AddPtrOp>(next)) {
    if (advance.getPtr() == arg)
      step = advance.getOffset();
  } else if (auto add = dyn_cast_or_null<arith::AddIOp>(next)) {
    step = add.getLhs() == arg   ? add.getRhs()
           : add.getRhs() == arg ? add.getLhs()
                                 : Value();
  }
  return step && isLoopInvariant(step, loop) ? step : Value();
}

FailureOr<SmallVector<Operation *>>
mlir::terrazzo::cloneableSlice(ValueRange values, scf::ForOp loop) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (isLoopInvariant(v, loop) || v == loop.getInductionVar())
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() || def->getNumRegions() ||
        !isMemoryEffectFree(def))
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

void mlir::terrazzo::deriveAdvancedArgs(ValueRange values, scf::ForOp loop) {
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  // The iter_args that the values depend on through the body's ops.
  llvm::SetVector<BlockArgument> args;
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg != iv)
        args.insert(arg);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == body && seen.insert(def).second)
      llvm::append_range(worklist, def->getOperands());
  }
  for (BlockArgument arg : args) {
    Value s = loopAdvance(arg, loop);
    if (!s || arg.getType() != iv.getType())
      continue;
    // iv - lb is k steps into the loop; arg is init + k * s there.
    int64_t factor = 1;
    if (s != loop.getStep()) {
      std::optional<int64_t> sc = getConstantIntValue(s),
                             step = getConstantIntValue(loop.getStep());
      if (!sc || !step || *step <= 0 || *sc % *step != 0)
        continue;
      factor = *sc / *step;
    }
    OpBuilder b = OpBuilder::atBlockBegin(body);
    Location loc = arg.getLoc();
    Value k = arith::SubIOp::create(b, loc, iv, loop.getLowerBound());
    if (factor != 1)
      k = arith::MulIOp::create(
          b, loc, k,
          arith::ConstantOp::create(b, loc, iv.getType(),
                                    b.getIntegerAttr(iv.getType(), factor)));
    arg.replaceAllUsesWith(arith::AddIOp::create(
        b, loc, loop.getInitArgs()[arg.getArgNumber() - 1], k));
  }
}

void mlir::terrazzo::cloneSliceFor(OpBuilder &b, ArrayRef<Operation *> slice,
                                   scf::ForOp loop, Value iv,
                                   IRMapping &mapping) {
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    b.clone(*op, mapping);
}

std::pair<Value, Value> mlir::terrazzo::pointersAndMaskFor(
    OpBuilder &b, tile::LoadOp load, ArrayRef<Operation *> slice,
    scf::ForOp loop, Value iv, Value ptr, IRMapping &mapping) {
  Location loc = load.getLoc();
  auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                        loop.getUpperBound());
  Value mask = tile::SplatOp::create(
      b, loc,
      RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                            ptrType.getEncoding()),
      inRange);
  cloneSliceFor(b, slice, loop, iv, mapping);
  if (!ptr)
    ptr = mapping.lookupOrDefault(load.getPtr());
  if (Value original = load.getMask())
    mask = arith::AndIOp::create(b, loc, mask,
                                 mapping.lookupOrDefault(original));
  return {ptr, mask};
}

namespace {
Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}
} // namespace

int64_t mlir::terrazzo::bufferBytes(ShapedType type) {
  return type.getNumElements() *
         tile::getElementBitWidth(type.getElementType()) / 8;
}

Value mlir::terrazzo::nextStage(OpBuilder &b, Location loc, Value index,
                                int64_t stages) {
  Value next = arith::AddIOp::create(b, loc, index, i32Constant(b, loc, 1));
  Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                     i32Constant(b, loc, stages));
  return arith::SelectOp::create(b, loc, wrap, i32Constant(b, loc, 0), next);
}

Value mlir::terrazzo::previousStage(OpBuilder &b, Location loc, Value index,
                                    int64_t stages) {
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                                      i32Constant(b, loc, 0));
  return arith::SelectOp::create(
      b, loc, first, i32Constant(b, loc, stages - 1),
      arith::SubIOp::create(b, loc, index, i32Constant(b, loc, 1)));
}

Value mlir::terrazzo::flipOnWrap(OpBuilder &b, Location loc, Value next,
                                 Value parity) {
  Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                        i32Constant(b, loc, 0));
  return arith::SelectOp::create(
      b, loc, wrapped,
      arith::XOrIOp::create(b, loc, parity, i32Constant(b, loc, 1)), parity);
}

Operation *mlir::terrazzo::lastReadOfBuffer(Operation *read) {
  Operation *last = read;
  auto type = cast<RankedTensorType>(read->getResult(0).getType());
  if (isa<tilegpu::DotOperandLayoutAttr>(type.getEncoding()))
    return last;
  for (Operation *user : read->getUsers())
    if (isa<tile::DotOp>(user) && user->getBlock() == read->getBlock() &&
        last->isBeforeInBlock(user))
      last = user;
  return last;
}
