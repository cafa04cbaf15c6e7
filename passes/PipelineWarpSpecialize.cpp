// terrazzo-pipeline's warp-specialized form: see PipelineWarpSpecialize.h.
#include "passes/PipelineWarpSpecialize.h"
#include "passes/PipelineSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// What a producer thread keeps in registers is a loop counter, a stage
/// index and parity, the coordinates and two tensor-map addresses: 40
/// registers hold it, and the rest of the register file goes to the
/// consumers.
constexpr unsigned kProducerRegisters = 40;
/// setmaxnreg's ceiling as the consumers use it (FlashAttention-3's).
constexpr unsigned kMaxConsumerRegisters = 240;

bool isScalarCode(Operation *op) {
  auto scalar = [](Type type) { return !isa<ShapedType>(type); };
  return op->getNumRegions() == 0 &&
         llvm::all_of(op->getOperandTypes(), scalar) &&
         llvm::all_of(op->getResultTypes(), scalar) &&
         (isMemoryEffectFree(op) || isa<tilegpu::TensormapCreateOp>(op));
}

} // namespace

scf::ForOp mlir::terrazzo::tileLoopOf(scf::ForOp loop) {
  auto tile = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!tile)
    return {};
  Operation *parent = tile->getParentOp();
  auto ws = dyn_cast<tilegpu::WarpSpecializeOp>(parent);
  if (ws ? tile->getBlock() != &ws.getConsumers().front()
         : !isa<func::FuncOp>(parent))
    return {};
  return tile;
}

FailureOr<SmallVector<Operation *>>
mlir::terrazzo::producerSlice(scf::ForOp loop,
                              ArrayRef<TmaCandidate> candidates) {
  // The loop is at the top of its function, or of the consumers of the
  // function's warp_specialize (an earlier loop's), or in the body of a
  // loop there (a persistent kernel's loop over tiles).
  scf::ForOp tile = tileLoopOf(loop);
  Operation *top = tile ? tile.getOperation() : loop.getOperation();
  Block *home = loop->getBlock();
  Block *topBlock = top->getBlock();
  auto ws = dyn_cast<tilegpu::WarpSpecializeOp>(top->getParentOp());
  if (ws && topBlock != &ws.getConsumers().front())
    return failure();
  auto func =
      dyn_cast<func::FuncOp>(ws ? ws->getParentOp() : top->getParentOp());
  if (!func || candidates.empty())
    return failure();
  Block *entry = &func.getBody().front();
  SmallVector<Value> worklist{loop.getLowerBound(), loop.getUpperBound(),
                              loop.getStep()};
  if (tile)
    llvm::append_range(
        worklist,
        ValueRange{tile.getLowerBound(), tile.getUpperBound(), tile.getStep()});
  for (TmaCandidate c : candidates) {
    worklist.push_back(c.copy.getTensormap());
    llvm::SetVector<Operation *> inLoop(c.coordSlice.begin(),
                                        c.coordSlice.end());
    auto fromOutside = [&](ValueRange values) {
      for (Value value : values)
        if (isLoopInvariant(value, loop))
          worklist.push_back(value);
    };
    fromOutside(c.copy.getCoords());
    for (Operation *op : inLoop)
      fromOutside(op->getOperands());
  }
  llvm::SetVector<Operation *> slice;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def) {
      // The function's arguments are the producer's too, and so is the
      // tile loop's induction variable (its own loop over the tiles).
      auto arg = cast<BlockArgument>(value);
      if (arg.getOwner() != entry && !(tile && arg == tile.getInductionVar()))
        return failure();
      continue;
    }
    if ((def->getBlock() != entry && def->getBlock() != topBlock &&
         def->getBlock() != home) ||
        !isScalarCode(def))
      return failure();
    // A tensor map built per tile: the producer, running ahead, would
    // rebuild it while its copies of the tile before may still read it.
    if (isa<tilegpu::TensormapCreateOp>(def) && def->getBlock() == home && tile)
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  // Program order: the function's block, the consumers' (or the
  // function's) top block, the tile loop's body.
  auto rank = [&](Operation *op) {
    return op->getBlock() == entry ? 0 : op->getBlock() == topBlock ? 1 : 2;
  };
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    if (rank(a) != rank(b))
      return rank(a) < rank(b);
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

tilegpu::WarpSpecializeOp
mlir::terrazzo::getOrCreateWarpSpecialize(scf::ForOp loop,
                                          unsigned producerWarps) {
  auto func = loop->getParentOfType<func::FuncOp>();
  Block &entry = func.getBody().front();
  for (Operation &op : entry)
    if (auto ws = dyn_cast<tilegpu::WarpSpecializeOp>(&op))
      return ws;
  MLIRContext *context = loop.getContext();
  unsigned consumers = tilegpu::getNumWarps(loop);
  unsigned total = consumers + producerWarps;
  unsigned launch = tilegpu::WarpSpecializeOp::launchRegisters(
      total, tilegpu::getMaxRegisters(loop));
  unsigned producer = std::min(kProducerRegisters, launch);
  // The consumers take what the producer gives up.
  unsigned consumer = std::min<unsigned>(
      kMaxConsumerRegisters,
      (launch + producerWarps * (launch - producer) / consumers) / 8 * 8);
  OpBuilder b(context);
  b.setInsertionPointToStart(&entry);
  auto ws = tilegpu::WarpSpecializeOp::create(
      b, func.getLoc(), b.getI32IntegerAttr(int32_t(producerWarps)),
      b.getI32IntegerAttr(int32_t(producer)),
      b.getI32IntegerAttr(int32_t(consumer)));
  Block *consumersBlock = b.createBlock(&ws.getConsumers());
  Block *producerBlock = b.createBlock(&ws.getProducer());
  consumersBlock->getOperations().splice(
      consumersBlock->end(), entry.getOperations(),
      std::next(Block::iterator(ws)), Block::iterator(entry.getTerminator()));
  b.setInsertionPointToEnd(consumersBlock);
  tilegpu::PartitionEndOp::create(b, func.getLoc());
  b.setInsertionPointToEnd(producerBlock);
  tilegpu::PartitionEndOp::create(b, func.getLoc());
  func->getParentOfType<ModuleOp>()->setAttr(
      tilegpu::TileGPUDialect::kTotalNumWarpsAttrName,
      b.getI32IntegerAttr(int32_t(total)));
  return ws;
}

scf::ForOp mlir::terrazzo::buildProducer(tilegpu::WarpSpecializeOp ws,
                                         scf::ForOp loop, TmaRing &ring,
                                         int64_t buffers,
                                         ArrayRef<Operation *> slice,
                                         IRMapping &outside, Value index,
                                         Value emptyPhase) {
  Block &producer = ws.getProducer().front();
  OpBuilder b = OpBuilder::atBlockTerminator(&producer);
  Location loc = loop.getLoc();
  auto i32 = [&](OpBuilder &builder, int64_t v) -> Value {
    return arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), v);
  };
  scf::ForOp tile = tileLoopOf(loop);
  Block *tileBody = tile ? tile.getBody() : nullptr;
  // In a loop over tiles, the producer's own loop over the same tiles
  // (built by the first specialized loop of the tile), which carries the
  // ring's stage and empty parity from one tile to the next; this loop's
  // producer goes at the end of its body.
  scf::ForOp producerTile;
  if (tile)
    if (Value iv = outside.lookupOrNull(tile.getInductionVar()))
      producerTile =
          cast<scf::ForOp>(cast<BlockArgument>(iv).getOwner()->getParentOp());
  // What lies outside the tile loop first, once per function (in front of
  // the producer's tile loop, when an earlier loop built it).
  if (producerTile)
    b.setInsertionPoint(producerTile);
  for (Operation *op : slice)
    if (op->getBlock() != tileBody && !outside.contains(op->getResult(0)))
      b.clone(*op, outside);
  if (tile) {
    if (!producerTile) {
      producerTile = scf::ForOp::create(
          b, tile.getLoc(), outside.lookupOrDefault(tile.getLowerBound()),
          outside.lookupOrDefault(tile.getUpperBound()),
          outside.lookupOrDefault(tile.getStep()),
          ValueRange{i32(b, 0), i32(b, 1)},
          [&](OpBuilder &tb, Location l, Value, ValueRange args) {
            scf::YieldOp::create(tb, l, args);
          });
      outside.map(tile.getInductionVar(), producerTile.getInductionVar());
    }
    b.setInsertionPoint(producerTile.getBody()->getTerminator());
    for (Operation *op : slice)
      if (op->getBlock() == tileBody && !outside.contains(op->getResult(0)))
        b.clone(*op, outside);
    if (!index) {
      index = producerTile.getRegionIterArgs()[0];
      emptyPhase = producerTile.getRegionIterArgs()[1];
    }
  }
  // The stage to fill and the parity of its empty mbarrier's phase to wait
  // for: 1 (the phase before the first) until the stage wraps around.
  if (!index) {
    index = i32(b, 0);
    emptyPhase = i32(b, 1);
  }
  auto result = scf::ForOp::create(
      b, loc, outside.lookupOrDefault(loop.getLowerBound()),
      outside.lookupOrDefault(loop.getUpperBound()),
      outside.lookupOrDefault(loop.getStep()), ValueRange{index, emptyPhase},
      [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
        Value stage = args[0], parity = args[1];
        ring.issue(lb, loc, iv, stage, parity, &outside);
        Value next = nextStage(lb, loc, stage, buffers);
        scf::YieldOp::create(
            lb, loc, ValueRange{next, flipOnWrap(lb, loc, next, parity)});
      });
  // The next tile goes on where this loop leaves the ring.
  if (producerTile)
    producerTile.getBody()->getTerminator()->setOperands(result.getResults());
  return result;
}
