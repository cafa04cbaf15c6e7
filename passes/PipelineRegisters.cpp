// terrazzo-pipeline's register-prefetch form: see PipelineRegisters.h and
// Passes.td.
#include "passes/PipelineRegisters.h"
#include "passes/PipelineSupport.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "target/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// A load to prefetch: through the loop-carried pointers `ptrArg` advanced
/// by the loop-invariant `step`, or through pointers computed in the loop
/// from the induction variable and loop invariants (`slice`, which also
/// computes the mask and `other` when they are in the loop).
struct Prefetch {
  tile::LoadOp load;
  tilegpu::LocalAllocOp alloc;
  BlockArgument ptrArg; // null: pointers computed in the loop
  Value step;
  SmallVector<Operation *> slice;
  // Filled in by the rewrite.
  Value stack;
  Value aheadPtrArg;
};

/// Bytes of the buffer `alloc` creates.
int64_t allocBytes(tilegpu::LocalAllocOp alloc) {
  return bufferBytes(alloc.getType());
}

/// At most the bytes of scratch `op` takes while it runs: a layout
/// conversion, reduction or scan through shared memory passes its whole
/// operand at most, sub-byte elements as bytes (what the allocation gives
/// it is computed with the lowering, after this pass).
int64_t scratchBound(Operation *op) {
  if (!isa<tilegpu::ConvertLayoutOp, tile::ReduceOp, tile::ScanOp>(op))
    return 0;
  int64_t bytes = 0;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<RankedTensorType>(operand.getType()))
      bytes += type.getNumElements() *
               std::max<int64_t>(
                   1, tile::getElementBitWidth(type.getElementType()) / 8);
  return bytes;
}

/// The most shared memory `loop` needs at once with `prefetches` done:
/// their two buffers each for the whole loop, plus at each op of the body
/// (in program order, nested ops included) the body's other buffers live
/// there and the op's scratch.
int64_t peakLoopBytes(scf::ForOp loop, ArrayRef<Prefetch> prefetches) {
  int64_t stacks = 0;
  llvm::SmallPtrSet<Operation *, 4> replaced;
  for (const Prefetch &p : prefetches) {
    stacks += 2 * allocBytes(p.alloc);
    replaced.insert(p.alloc);
  }
  DenseMap<Operation *, int64_t> position;
  SmallVector<Operation *> order;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    position[op] = order.size();
    order.push_back(op);
  });
  // Each other buffer's [allocation, last use] (uses through views).
  SmallVector<std::tuple<int64_t, int64_t, int64_t>> intervals;
  for (Operation *op : order) {
    auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op);
    if (!alloc || replaced.contains(op))
      continue;
    int64_t last = position[op];
    SmallVector<Value> views{alloc.getResult()};
    while (!views.empty())
      for (Operation *user : views.pop_back_val().getUsers()) {
        if (auto it = position.find(user); it != position.end())
          last = std::max(last, it->second);
        else
          last = int64_t(order.size()); // used after the loop
        if (isa<tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp>(user))
          views.push_back(user->getResult(0));
      }
    intervals.push_back({position[op], last, allocBytes(alloc)});
  }
  int64_t peak = stacks;
  for (auto [index, op] : llvm::enumerate(order)) {
    int64_t live = stacks + scratchBound(op);
    for (auto [first, last, bytes] : intervals)
      if (first <= int64_t(index) && int64_t(index) <= last)
        live += bytes;
    peak = std::max(peak, live);
  }
  return peak;
}

std::optional<Prefetch> matchPrefetch(tile::LoadOp load, scf::ForOp loop) {
  // Used once, by a swizzled buffer that only local_loads of the loop read.
  FailureOr<AheadLoad> ahead = matchAheadLoad(load, loop);
  if (failed(ahead))
    return std::nullopt;
  BlockArgument arg = ahead->arg;
  auto alloc = dyn_cast<tilegpu::LocalAllocOp>(ahead->user);
  if (!alloc || alloc->getBlock() != loop.getBody() || alloc->use_empty() ||
      !isa<tilegpu::SwizzledSharedLayoutAttr>(alloc.getType().getEncoding()))
    return std::nullopt;
  for (Operation *user : alloc->getUsers())
    if (!isa<tilegpu::LocalLoadOp>(user) || user->getBlock() != loop.getBody())
      return std::nullopt;
  SmallVector<Value> recomputed;
  if (!arg)
    recomputed.push_back(load.getPtr());
  for (Value value : {load.getMask(), load.getOther()})
    if (value)
      recomputed.push_back(value);
  FailureOr<SmallVector<Operation *>> slice = cloneableSlice(recomputed, loop);
  if (failed(slice))
    return std::nullopt;
  return Prefetch{load, alloc, arg, ahead->step, std::move(*slice), {}, {}};
}

/// The type of two buffers of `alloc`'s type, stacked (the stack dimension
/// slowest), or of one of them (`stacked` false), writable.
tilegpu::MemDescType bufferType(tilegpu::LocalAllocOp alloc, bool stacked) {
  tilegpu::MemDescType type = alloc.getType();
  auto layout = cast<tilegpu::SwizzledSharedLayoutAttr>(type.getEncoding());
  if (!stacked)
    return tilegpu::MemDescType::get(type.getContext(), type.getShape(),
                                     type.getElementType(), layout,
                                     /*mutableMemory=*/true);
  SmallVector<unsigned> order;
  for (unsigned dim : layout.getOrder())
    order.push_back(dim + 1);
  order.push_back(0);
  SmallVector<int64_t> shape{2};
  llvm::append_range(shape, type.getShape());
  return tilegpu::MemDescType::get(
      type.getContext(), shape, type.getElementType(),
      tilegpu::SwizzledSharedLayoutAttr::get(
          type.getContext(), layout.getVec(), layout.getPerPhase(),
          layout.getMaxPhase(), order),
      /*mutableMemory=*/true);
}

Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// The load of `p` for the iteration whose induction variable is `iv`
/// (maybe past the loop's end: then it loads nothing), through `ptr` (the
/// carried pointers; null: computed for `iv`).
Value loadFor(OpBuilder &b, Prefetch &p, scf::ForOp loop, Value iv,
              Value ptr) {
  Location loc = p.load.getLoc();
  IRMapping mapping;
  Value mask;
  std::tie(ptr, mask) =
      pointersAndMaskFor(b, p.load, p.slice, loop, iv, ptr, mapping);
  Value other = p.load.getOther() ? mapping.lookupOrDefault(p.load.getOther())
                                  : Value();
  return tile::LoadOp::create(b, loc, p.load.getType(), ptr, mask, other,
                              p.load.getCacheAttr(), p.load.getEvictAttr(),
                              p.load.getIsVolatileAttr())
      .getResult();
}

/// Stores `value` into buffer `index` of `p`'s stack.
void storeInto(OpBuilder &b, Prefetch &p, Value value, Value index,
               bool readsRetired) {
  Location loc = p.load.getLoc();
  Value buffer = tilegpu::MemDescIndexOp::create(
      b, loc, bufferType(p.alloc, /*stacked=*/false), p.stack, index);
  auto store = tilegpu::LocalStoreOp::create(b, loc, value, buffer);
  if (readsRetired)
    store->setAttr(tilegpu::kReadsRetiredAttrName, b.getUnitAttr());
}

} // namespace

LogicalResult mlir::terrazzo::prefetchThroughRegisters(scf::ForOp loop) {
  SmallVector<Prefetch> prefetches;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<tile::LoadOp>(&op))
      if (std::optional<Prefetch> p = matchPrefetch(load, loop))
        prefetches.push_back(std::move(*p));
  // Two buffers per load, live across the whole loop, must fit the
  // target's shared memory with what the loop body has live at each point
  // (its other buffers, between their allocation and last use, and the
  // scratch of a layout conversion, reduction or scan as it runs): the
  // largest loads stay as they are until they do (none prefetched is the
  // loop unpipelined).
  std::optional<::terrazzo::Target> target = tilegpu::getTarget(loop);
  if (target && target->maxSharedMemoryBytes > 0) {
    llvm::stable_sort(prefetches, [&](const Prefetch &a, const Prefetch &b) {
      return allocBytes(a.alloc) < allocBytes(b.alloc);
    });
    while (!prefetches.empty() && peakLoopBytes(loop, prefetches) >
                                      int64_t(target->maxSharedMemoryBytes))
      prefetches.pop_back();
    // Program order again, for the order of the loads and stores.
    llvm::sort(prefetches, [](const Prefetch &a, const Prefetch &b) {
      tilegpu::LocalAllocOp first = a.alloc, second = b.alloc;
      return first->isBeforeInBlock(second);
    });
  }
  if (prefetches.empty())
    return failure();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // Before the loop: the stacks, and iteration 0's loads in buffer 0 (with
  // nothing of the loop's pending yet, so no reads_retired: the memory may
  // be what an earlier use still reads); the pointers of iteration 1 are
  // carried.
  SmallVector<Value> extraInits;
  for (Prefetch &p : prefetches) {
    p.stack = tilegpu::LocalAllocOp::create(
        b, loc, bufferType(p.alloc, /*stacked=*/true), Value());
    Value ptr =
        p.ptrArg ? loop.getInitArgs()[p.ptrArg.getArgNumber() - 1] : Value();
    storeInto(b, p, loadFor(b, p, loop, loop.getLowerBound(), ptr),
              constantI32(b, loc, 0), /*readsRetired=*/false);
    if (ptr)
      extraInits.push_back(
          tile::AddPtrOp::create(b, loc, ptr.getType(), ptr, p.step));
  }
  const unsigned readArg = extraInits.size();
  extraInits.push_back(constantI32(b, loc, 0));
  IRRewriter rewriter(loop.getContext());
  loop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, extraInits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
        // Set below, once the body is rewritten.
        return SmallVector<Value>(args.begin(), args.end());
      }));
  Block *body = loop.getBody();
  const unsigned firstExtra = loop.getNumRegionIterArgs() - extraInits.size();
  auto extraArg = [&](unsigned i) {
    return loop.getRegionIterArgs()[firstExtra + i];
  };
  unsigned carried = 0;
  for (Prefetch &p : prefetches)
    if (p.ptrArg)
      p.aheadPtrArg = extraArg(carried++);
  Value readIndex = extraArg(readArg);

  // First in the body: the loads of iteration i + 1, whose latency the
  // reads of this iteration's buffers and the dots then cover.
  OpBuilder lb = OpBuilder::atBlockBegin(body);
  Value aheadIv = arith::AddIOp::create(lb, loc, loop.getInductionVar(),
                                        loop.getStep());
  SmallVector<Value> ahead;
  for (Prefetch &p : prefetches)
    ahead.push_back(loadFor(lb, p, loop, aheadIv, p.aheadPtrArg));
  // The buffers' readers read this iteration's buffer of the stack.
  for (Prefetch &p : prefetches) {
    OpBuilder rb(p.alloc);
    p.alloc.replaceAllUsesWith(
        tilegpu::MemDescIndexOp::create(rb, p.load.getLoc(),
                                        bufferType(p.alloc, false), p.stack,
                                        readIndex)
            .getResult());
  }
  // Last: the loaded values into the other buffer. Its readers (the
  // previous iteration's local_loads) finished before the barrier that
  // precedes this iteration's reads: terrazzo-insert-barriers, which cannot
  // tell the buffers of a stack apart by their dynamic index, needs none in
  // front of these stores (reads_retired). One barrier per iteration.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder sb(yield);
  Value writeIndex =
      arith::XOrIOp::create(sb, loc, readIndex, constantI32(sb, loc, 1));
  SmallVector<Value> nextPtrs;
  for (auto [p, value] : llvm::zip_equal(prefetches, ahead)) {
    storeInto(sb, p, value, writeIndex, /*readsRetired=*/true);
    if (p.aheadPtrArg)
      nextPtrs.push_back(tile::AddPtrOp::create(
          sb, loc, p.aheadPtrArg.getType(), p.aheadPtrArg, p.step));
  }
  for (auto [i, ptr] : llvm::enumerate(nextPtrs))
    yield->setOperand(firstExtra + unsigned(i), ptr);
  yield->setOperand(firstExtra + readArg, writeIndex);
  for (Prefetch &p : prefetches) {
    p.alloc.erase();
    p.load.erase();
    for (Operation *op : llvm::reverse(p.slice))
      if (op->use_empty())
        op->erase();
  }
  OpBuilder ab(loop->getBlock(), std::next(Block::iterator(loop)));
  for (Prefetch &p : prefetches)
    tilegpu::LocalDeallocOp::create(ab, loc, p.stack);
  return success();
}
