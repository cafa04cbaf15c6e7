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

FailureOr<SmallVector<Operation *>>
mlir::terrazzo::producerSlice(scf::ForOp loop,
                              ArrayRef<TmaCandidate> candidates) {
  // The loop is at the top of its function, or of the consumers of the
  // function's warp_specialize (an earlier loop's).
  Block *home = loop->getBlock();
  auto ws = dyn_cast<tilegpu::WarpSpecializeOp>(loop->getParentOp());
  if (ws && home != &ws.getConsumers().front())
    return failure();
  auto func = dyn_cast<func::FuncOp>(ws ? ws->getParentOp() : loop->getParentOp());
  if (!func || candidates.empty())
    return failure();
  Block *entry = &func.getBody().front();
  SmallVector<Value> worklist{loop.getLowerBound(), loop.getUpperBound(),
                              loop.getStep()};
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
      // The function's arguments are the producer's too.
      if (cast<BlockArgument>(value).getOwner() != entry)
        return failure();
      continue;
    }
    if ((def->getBlock() != entry && def->getBlock() != home) ||
        !isScalarCode(def))
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  // Program order: the function's block before the consumers'.
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    if (a->getBlock() != b->getBlock())
      return a->getBlock() == entry;
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
  for (Operation *op : slice)
    if (!outside.contains(op->getResult(0)))
      b.clone(*op, outside);
  auto i32 = [&](OpBuilder &builder, int64_t v) -> Value {
    return arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), v);
  };
  // The stage to fill and the parity of its empty mbarrier's phase to wait
  // for: 1 (the phase before the first) until the stage wraps around.
  if (!index) {
    index = i32(b, 0);
    emptyPhase = i32(b, 1);
  }
  return scf::ForOp::create(
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
}
