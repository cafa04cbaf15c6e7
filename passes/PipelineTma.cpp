// terrazzo-pipeline's TMA form: see PipelineTma.h.
#include "passes/PipelineTma.h"
#include "passes/PipelineSupport.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Whether `read` (a local_load of the buffer) only feeds dot operands in
/// `body`.
bool feedsOnlyDotOperands(tilegpu::LocalLoadOp read, Block *body) {
  return llvm::all_of(read->getUses(), [&](OpOperand &use) {
    Operation *owner = use.getOwner();
    bool operand =
        (isa<tile::DotOp>(owner) && use.getOperandNumber() <= 1) ||
        (isa<tilegpu::WarpGroupDotOp>(owner) && use.getOperandNumber() == 0);
    return operand && owner->getBlock() == body;
  });
}

} // namespace

std::optional<TmaCandidate>
mlir::terrazzo::matchTmaCandidate(tilegpu::AsyncTMACopyGlobalToLocalOp copy,
                                  scf::ForOp loop) {
  Block *body = loop.getBody();
  if (copy->getBlock() != body || !isLoopInvariant(copy.getTensormap(), loop))
    return std::nullopt;
  auto buffer = copy.getResult().getDefiningOp<tilegpu::LocalAllocOp>();
  auto barrier = copy.getBarrier().getDefiningOp<tilegpu::LocalAllocOp>();
  if (!buffer || !barrier || buffer.getSrc() || barrier.getSrc() ||
      buffer->getBlock() != body || barrier->getBlock() != body)
    return std::nullopt;
  // Stacked, each buffer starts where wgmma's and TMA's swizzle patterns
  // start (1024 bytes).
  tilegpu::MemDescType type = buffer.getType();
  if (!isa<tilegpu::NvmmaSharedLayoutAttr>(type.getEncoding()) ||
      type.getShape().size() != 2 || bufferBytes(type) % 1024 != 0)
    return std::nullopt;

  TmaCandidate c;
  c.copy = copy;
  c.buffer = buffer;
  c.barrier = barrier;
  // The mbarrier is this copy's alone: initialised, armed for the buffer's
  // bytes, waited for in phase 0 and invalidated, in that order.
  Operation *init = nullptr, *expect = nullptr, *inval = nullptr;
  for (Operation *user : barrier->getUsers()) {
    if (user == copy.getOperation())
      continue;
    if (user->getBlock() != body)
      return std::nullopt;
    if (auto op = dyn_cast<tilegpu::MBarrierInitOp>(user);
        op && !init && op.getCount() == 1)
      init = op;
    else if (auto op = dyn_cast<tilegpu::MBarrierExpectTxOp>(user);
             op && !expect && op.getBytes() == bufferBytes(type))
      expect = op;
    else if (auto op = dyn_cast<tilegpu::MBarrierWaitOp>(user);
             op && !c.wait && matchPattern(op.getPhase(), m_Zero()))
      c.wait = op;
    else if (isa<tilegpu::MBarrierInvalOp>(user) && !inval)
      inval = user;
    else
      return std::nullopt;
  }
  if (!init || !expect || !c.wait || !inval ||
      !init->isBeforeInBlock(expect) || !expect->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(c.wait) || !c.wait->isBeforeInBlock(inval))
    return std::nullopt;
  c.barrierOps = {init, expect, c.wait, inval};

  bool anyReader = false;
  for (Operation *user : buffer->getUsers()) {
    if (user == copy.getOperation())
      continue;
    if (user->getBlock() != body || !c.wait->isBeforeInBlock(user))
      return std::nullopt;
    anyReader = true;
    if (isa<tilegpu::WarpGroupDotOp>(user))
      continue;
    if (isa<tilegpu::MemDescTransOp>(user)) {
      if (!llvm::all_of(user->getUsers(), [&](Operation *dot) {
            return isa<tilegpu::WarpGroupDotOp>(dot) &&
                   dot->getBlock() == body;
          }))
        return std::nullopt;
      continue;
    }
    auto read = dyn_cast<tilegpu::LocalLoadOp>(user);
    if (!read || !feedsOnlyDotOperands(read, body))
      return std::nullopt;
    c.onlyWgmmaReaders = false;
  }
  if (!anyReader)
    return std::nullopt;
  FailureOr<SmallVector<Operation *>> slice =
      cloneableSlice(copy.getCoords(), loop);
  if (failed(slice))
    return std::nullopt;
  c.coordSlice = std::move(*slice);
  return c;
}

Value TmaRing::barrierAt(OpBuilder &b, Location loc, Value stack,
                         Value index) {
  return tilegpu::MemDescIndexOp::create(
      b, loc, tilegpu::getMBarrierType(b.getContext()), stack, index);
}

void TmaRing::allocate(OpBuilder &b, Location loc, bool publish) {
  MLIRContext *context = b.getContext();
  for (TmaCandidate &c : candidates) {
    tilegpu::MemDescType type = c.buffer.getType();
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, type.getShape());
    c.stack = tilegpu::LocalAllocOp::create(
        b, loc,
        tilegpu::MemDescType::get(context, shape, type.getElementType(),
                                  type.getEncoding(), /*mutableMemory=*/true),
        Value());
  }
  // One mbarrier per stage, stacked as memdesc_index wants (the stage
  // dimension slowest).
  auto stackLayout =
      tilegpu::SwizzledSharedLayoutAttr::get(context, 1, 1, 1, {1, 0});
  auto stackType = tilegpu::MemDescType::get(
      context, {stages, 1}, IntegerType::get(context, 64), stackLayout,
      /*mutableMemory=*/true);
  barriers = tilegpu::LocalAllocOp::create(b, loc, stackType, Value());
  if (releaseArrivals)
    emptyBarriers = tilegpu::LocalAllocOp::create(b, loc, stackType, Value());
  for (int64_t s = 0; s < stages; ++s) {
    Value stage = arith::ConstantIntOp::create(b, loc, b.getI32Type(), s);
    tilegpu::MBarrierInitOp::create(b, loc, barrierAt(b, loc, barriers, stage),
                                    1);
    if (releaseArrivals)
      tilegpu::MBarrierInitOp::create(
          b, loc, barrierAt(b, loc, emptyBarriers, stage),
          int32_t(releaseArrivals));
  }
  // Every thread sees them initialised before the first copy is issued:
  // the copies are issued conditionally, and terrazzo-insert-barriers would
  // otherwise put a barrier in each branch and at the loop's head (on the
  // paths that skip them the initialisation is still pending).
  if (publish)
    tilegpu::BarrierOp::create(b, loc);
}

TmaRingStorage TmaRing::storage() const {
  TmaRingStorage result;
  for (TmaCandidate &c : candidates) {
    result.stacks.push_back(c.stack);
    result.bufferTypes.push_back(c.buffer.getType());
  }
  result.barriers = barriers;
  result.emptyBarriers = emptyBarriers;
  result.stages = stages;
  result.releaseArrivals = releaseArrivals;
  return result;
}

bool TmaRing::canAdopt(const TmaRingStorage &other) const {
  return other.barriers && stages == other.stages &&
         releaseArrivals == other.releaseArrivals &&
         candidates.size() == other.bufferTypes.size() &&
         llvm::all_of(llvm::zip_equal(candidates, other.bufferTypes),
                      [](auto pair) {
                        return std::get<0>(pair).buffer.getType() ==
                               std::get<1>(pair);
                      });
}

void TmaRing::adopt(const TmaRingStorage &other) {
  for (auto [c, stack] : llvm::zip_equal(candidates, other.stacks))
    c.stack = stack;
  barriers = other.barriers;
  emptyBarriers = other.emptyBarriers;
}

void TmaRing::issue(OpBuilder &b, Location loc, Value iv, Value index,
                    Value emptyPhase, const IRMapping *outside) {
  OpBuilder tb = b;
  if (!outside) {
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          iv, loop.getUpperBound());
    auto guard = scf::IfOp::create(b, loc, TypeRange{}, inRange,
                                   /*withElseRegion=*/false);
    tb = guard.getThenBodyBuilder();
  }
  const bool released = releaseArrivals && emptyPhase;
  if (released)
    tilegpu::MBarrierWaitOp::create(
        tb, loc, barrierAt(tb, loc, emptyBarriers, index), emptyPhase);
  Value barrier = barrierAt(tb, loc, barriers, index);
  int64_t bytes = 0;
  for (TmaCandidate &c : candidates)
    bytes += bufferBytes(c.buffer.getType());
  tilegpu::MBarrierExpectTxOp::create(tb, loc, barrier, int32_t(bytes));
  for (TmaCandidate &c : candidates) {
    IRMapping mapping = outside ? *outside : IRMapping();
    cloneSliceFor(tb, c.coordSlice, loop, iv, mapping);
    SmallVector<Value> coords;
    for (Value coord : c.copy.getCoords())
      coords.push_back(mapping.lookupOrDefault(coord));
    Value buffer = tilegpu::MemDescIndexOp::create(tb, c.copy.getLoc(),
                                                   c.buffer.getType(), c.stack,
                                                   index);
    auto copy = tilegpu::AsyncTMACopyGlobalToLocalOp::create(
        tb, c.copy.getLoc(), mapping.lookupOrDefault(c.copy.getTensormap()),
        coords, buffer, barrier);
    // Every warp released the stage before the wait above.
    if (released)
      copy->setAttr(tilegpu::kReadsRetiredAttrName, tb.getUnitAttr());
  }
}

void TmaRing::releaseStage(OpBuilder &b, Location loc, Value index) {
  tilegpu::MBarrierArriveOp::create(b, loc,
                                    barrierAt(b, loc, emptyBarriers, index));
}

bool TmaRing::isStageOf(Value buffer, Value &index) const {
  if (auto trans = buffer.getDefiningOp<tilegpu::MemDescTransOp>())
    buffer = trans.getSrc();
  auto view = buffer.getDefiningOp<tilegpu::MemDescIndexOp>();
  if (!view || !llvm::any_of(candidates, [&](const TmaCandidate &c) {
        return c.stack == view.getSrc();
      }))
    return false;
  index = view.getIndex();
  return true;
}

TmaRing::StageRead TmaRing::readStage(scf::ForOp newLoop, Value index,
                                      Value phase) {
  loop = newLoop;
  Operation *firstWait = candidates.front().wait;
  for (TmaCandidate &c : candidates)
    if (c.wait->isBeforeInBlock(firstWait))
      firstWait = c.wait;
  OpBuilder b(firstWait);
  Location loc = firstWait->getLoc();
  StageRead read;
  read.wait = tilegpu::MBarrierWaitOp::create(
      b, loc, barrierAt(b, loc, barriers, index), phase);
  Operation *&lastRead = read.lastRead;
  for (TmaCandidate &c : candidates) {
    Value buffer = tilegpu::MemDescIndexOp::create(b, c.copy.getLoc(),
                                                   c.buffer.getType(), c.stack,
                                                   index);
    for (Operation *user : c.buffer->getUsers()) {
      if (user == c.copy.getOperation())
        continue;
      SmallVector<Operation *> reads{user};
      if (isa<tilegpu::LocalLoadOp>(user))
        reads = {lastReadOfBuffer(user)};
      else if (isa<tilegpu::MemDescTransOp>(user))
        reads = llvm::to_vector(user->getUsers());
      for (Operation *reader : reads)
        if (!lastRead || lastRead->isBeforeInBlock(reader))
          lastRead = reader;
    }
    c.buffer.getResult().replaceUsesWithIf(buffer, [&](OpOperand &use) {
      return use.getOwner() != c.copy.getOperation();
    });
  }
  return read;
}

void TmaRing::eraseOriginals() {
  for (TmaCandidate &c : candidates) {
    c.copy.erase();
    for (Operation *op : llvm::reverse(c.barrierOps))
      op->erase();
    c.barrier.erase();
    c.buffer.erase();
    for (Operation *op : llvm::reverse(c.coordSlice))
      if (op->use_empty())
        op->erase();
  }
}

void TmaRing::release(OpBuilder &b, Location loc) {
  for (int64_t s = 0; s < stages; ++s) {
    Value stage = arith::ConstantIntOp::create(b, loc, b.getI32Type(), s);
    tilegpu::MBarrierInvalOp::create(b, loc,
                                     barrierAt(b, loc, barriers, stage));
    if (releaseArrivals)
      tilegpu::MBarrierInvalOp::create(
          b, loc, barrierAt(b, loc, emptyBarriers, stage));
  }
  for (TmaCandidate &c : candidates)
    tilegpu::LocalDeallocOp::create(b, loc, c.stack);
  tilegpu::LocalDeallocOp::create(b, loc, barriers);
  if (releaseArrivals)
    tilegpu::LocalDeallocOp::create(b, loc, emptyBarriers);
}
