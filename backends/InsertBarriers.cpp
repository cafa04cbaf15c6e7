// terrazzo-insert-barriers: see Passes.td.
#include "backends/Passes.h"
#include "backends/SharedMemory.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOINSERTBARRIERS
#include "backends/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Shared-memory accesses since the last barrier, and asynchronous copies
/// that may still be in flight (a barrier does not complete them; an
/// async_wait does, for the waiting thread).
struct Pending {
  SmallVector<SharedRange> reads, writes, asyncWrites;

  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
  static bool anyOverlap(ArrayRef<SharedRange> ranges, SharedRange range) {
    return llvm::any_of(ranges,
                        [&](const SharedRange &r) { return r.overlaps(range); });
  }
  /// Whether reading `range` now could see another thread's write in flight.
  bool readConflicts(SharedRange range) const {
    return anyOverlap(writes, range);
  }
  /// Whether writing `range` now could race with other threads' accesses.
  bool writeConflicts(SharedRange range) const {
    return anyOverlap(writes, range) || anyOverlap(reads, range);
  }
  static void add(SmallVector<SharedRange> &ranges, SharedRange range) {
    for (const SharedRange &r : ranges)
      if (r.begin == range.begin && r.end == range.end)
        return;
    ranges.push_back(range);
  }
  void join(const Pending &other) {
    for (const SharedRange &r : other.reads)
      add(reads, r);
    for (const SharedRange &r : other.writes)
      add(writes, r);
    for (const SharedRange &r : other.asyncWrites)
      add(asyncWrites, r);
  }
  bool operator==(const Pending &other) const {
    auto same = [](ArrayRef<SharedRange> a, ArrayRef<SharedRange> b) {
      if (a.size() != b.size())
        return false;
      for (const SharedRange &r : a)
        if (!llvm::any_of(b, [&](const SharedRange &s) {
              return s.begin == r.begin && s.end == r.end;
            }))
          return false;
      return true;
    };
    return same(reads, other.reads) && same(writes, other.writes) &&
           same(asyncWrites, other.asyncWrites);
  }
};

constexpr SharedRange kEverything{0, std::numeric_limits<int64_t>::max()};

/// The range of the buffer a tilegpu.local_* op accesses, if allocated.
std::optional<SharedRange> bufferRange(Value buffer) {
  if (auto trans = buffer.getDefiningOp<tilegpu::MemDescTransOp>())
    return bufferRange(trans.getSrc());
  if (auto index = buffer.getDefiningOp<tilegpu::MemDescIndexOp>()) {
    // One buffer of a stack: that buffer when the index is a constant, else
    // (as in a pipelined loop) any of them.
    SharedRange stack = *bufferRange(index.getSrc());
    APInt constant;
    if (stack.end == kEverything.end ||
        !matchPattern(index.getIndex(), m_ConstantInt(&constant)))
      return stack;
    int64_t bytes = (stack.end - stack.begin) /
                    index.getSrc().getType().getShape().front();
    int64_t begin = stack.begin + constant.getSExtValue() * bytes;
    return SharedRange{begin, begin + bytes};
  }
  Operation *alloc = buffer.getDefiningOp();
  if (!alloc || !isa<tilegpu::LocalAllocOp>(alloc))
    return kEverything; // unknown buffer: assume the worst
  auto offset = alloc->getAttrOfType<IntegerAttr>(
      tilegpu::TileGPUDialect::kBufferOffsetAttrName);
  if (!offset)
    return kEverything;
  return SharedRange{offset.getInt(), offset.getInt() + getBufferBytes(alloc)};
}

class BarrierInsertion {
public:
  /// The memory TMA copies write in `func` (a producer warp group's
  /// included).
  explicit BarrierInsertion(func::FuncOp func) {
    func.walk([&](tilegpu::AsyncTMACopyGlobalToLocalOp copy) {
      Pending::add(tmaWritten, *bufferRange(copy.getResult()));
    });
  }

  /// Walks `block` from `state`; inserts barriers when `insert` is set.
  Pending walk(Block &block, Pending state, bool insert) {
    for (Operation &op : block)
      visit(&op, state, insert);
    return state;
  }

private:
  SmallVector<SharedRange> tmaWritten;

  /// Barriers a walk inserted, or would have (counted with `insert`
  /// unset too).
  unsigned barriers = 0;

  void barrierBefore(Operation *op, Pending &state, bool insert) {
    state.clear();
    ++barriers;
    if (!insert)
      return;
    OpBuilder builder(op);
    tilegpu::BarrierOp::create(builder, op->getLoc());
  }

  void read(Operation *op, SharedRange range, Pending &state, bool insert) {
    if (state.readConflicts(range))
      barrierBefore(op, state, insert);
    Pending::add(state.reads, range);
  }
  void write(Operation *op, SharedRange range, Pending &state, bool insert) {
    if (state.writeConflicts(range))
      barrierBefore(op, state, insert);
    Pending::add(state.writes, range);
    fenceForTma(op, range, insert);
  }
  /// A generic-proxy write to memory that a TMA copy writes too (an
  /// mbarrier or scratch that the copy's buffer reuses, say) is followed by
  /// a proxy fence of the writing threads: a barrier orders it between
  /// threads but not before the async proxy's writes. The barrier (or the
  /// mbarrier hand-over to a producer warp group) that the copy needs after
  /// the write comes from the conflicts as before.
  void fenceForTma(Operation *op, SharedRange range, bool insert) {
    if (!insert || !Pending::anyOverlap(tmaWritten, range))
      return;
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    tilegpu::FenceAsyncSharedOp::create(builder, op->getLoc());
  }

  void visit(Operation *op, Pending &state, bool insert) {
    if (isa<tilegpu::BarrierOp>(op)) {
      state.clear();
      return;
    }
    if (std::optional<SharedRange> scratch = getScratchRange(op)) {
      // The op writes its scratch, passes its own barrier, reads it back.
      write(op, *scratch, state, insert);
      state.clear();
      Pending::add(state.reads, *scratch);
      return;
    }
    if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
      if (alloc.getSrc())
        write(op, *bufferRange(alloc.getResult()), state, insert);
      return;
    }
    if (auto store = dyn_cast<tilegpu::LocalStoreOp>(op)) {
      SharedRange range = *bufferRange(store.getBuffer());
      // A pipeliner's refill (kReadsRetiredAttrName) follows its buffer's
      // readers across a barrier: only pending writes conflict.
      if (store->hasAttr(tilegpu::kReadsRetiredAttrName)) {
        if (state.readConflicts(range))
          barrierBefore(op, state, insert);
        Pending::add(state.writes, range);
        fenceForTma(op, range, insert);
        return;
      }
      write(op, range, state, insert);
      return;
    }
    if (auto load = dyn_cast<tilegpu::LocalLoadOp>(op)) {
      read(op, *bufferRange(load.getBuffer()), state, insert);
      return;
    }
    if (auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(op)) {
      // With an operand that not only copies or a fenced value write, its
      // lowering fences the thread's generic-proxy writes for the async
      // proxy and passes a barrier of its own. Otherwise it is a plain
      // reader: a barrier goes in front of it only while writes to an
      // operand are pending (cp.async writes an async_wait completed, a
      // fenced value), so that a second dot reading what the first one's
      // barrier published gets none (TMA's writes are never pending, see
      // visitTma). The tensor cores' reads stay pending until the next
      // barrier (a later write to either operand needs one: other warp
      // groups may still be reading).
      if (wgmmaNeedsProxyFence(dot))
        state.clear();
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (isa<tilegpu::MemDescType>(operand.getType()))
          read(op, *bufferRange(operand), state, insert);
      return;
    }
    if (auto copy = dyn_cast<tilegpu::AsyncCopyGlobalToLocalOp>(op)) {
      // The copy writes at some time before the wait that completes it: it
      // must not start while another thread may still read or write its
      // buffer, and its data is not there to read until that wait.
      SharedRange range = *bufferRange(copy.getResult());
      // A pipeliner's refill (kReadsRetiredAttrName) is known to follow its
      // buffer's readers across a barrier: only pending writes conflict.
      bool conflict = copy->hasAttr(tilegpu::kReadsRetiredAttrName)
                          ? state.readConflicts(range)
                          : state.writeConflicts(range);
      if (conflict)
        barrierBefore(op, state, insert);
      Pending::add(state.asyncWrites, range);
      return;
    }
    if (auto wait = dyn_cast<tilegpu::AsyncWaitOp>(op)) {
      // The copies it completes are this thread's writes, which others may
      // read only after a barrier. Which groups complete is not tracked:
      // every copy in flight counts as written here, and stays in flight
      // unless the wait leaves no group pending (more barriers than
      // needed, never fewer).
      for (const SharedRange &range : state.asyncWrites)
        Pending::add(state.writes, range);
      if (wait.getNum() == 0)
        state.asyncWrites.clear();
      return;
    }
    if (isa<func::CallOp>(op)) {
      // The callee may touch any shared memory, and leave it touched.
      if (!state.empty())
        barrierBefore(op, state, insert);
      Pending::add(state.writes, kEverything);
      fenceForTma(op, kEverything, insert);
      return;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Pending thenState = walk(ifOp.getThenRegion().front(), state, insert);
      Pending elseState =
          ifOp.getElseRegion().empty()
              ? state
              : walk(ifOp.getElseRegion().front(), state, insert);
      thenState.join(elseState);
      state = thenState;
      return;
    }
    if (auto ws = dyn_cast<tilegpu::WarpSpecializeOp>(op)) {
      // It opens with a barrier of every warp. Its producer meets the
      // consumers through mbarriers only (the ring's full and empty
      // phases), and holds no barrier: its accesses are not tracked. The
      // consumers go on after the op.
      state.clear();
      state = walk(ws.getConsumers().front(), state, insert);
      return;
    }
    if (isa<LoopLikeOpInterface>(op)) {
      auto [entry, needed] = loopEntry(op, state);
      // A barrier the body needs only for accesses made before the loop
      // (the first read of a buffer written in front of it, say) goes in
      // front of the loop, where it runs once: when the body would need
      // fewer barriers after one there.
      if (!state.empty()) {
        Pending cleared = state;
        cleared.clear();
        auto [clearedEntry, neededAfter] = loopEntry(op, cleared);
        if (neededAfter < needed) {
          barrierBefore(op, state, insert);
          entry = clearedEntry;
        }
      }
      Pending end = walkBody(op, entry, insert);
      // Zero iterations leave the state before the loop.
      state.join(end);
      state.join(entry);
      return;
    }
    if (visitTma(op, state, insert))
      return;
    // Regions of other ops (combine regions of reductions and scans) hold
    // scalar code only.
  }

  Pending walkBody(Operation *loop, Pending state, bool insert) {
    for (Region &region : loop->getRegions())
      for (Block &block : region)
        state = walk(block, state, insert);
    return state;
  }

  /// The barriers a walk of `loop`'s body from `entry` would insert, and
  /// the state at its end.
  std::pair<Pending, unsigned> countingWalk(Operation *loop,
                                            const Pending &entry) {
    unsigned start = barriers;
    Pending end = walkBody(loop, entry, /*insert=*/false);
    return {end, barriers - start};
  }

  /// The state at the top of an iteration of `loop` entered with `before`
  /// (before the loop, or at the end of the previous iteration, grown to a
  /// fixed point), and the barriers an iteration from there needs.
  std::pair<Pending, unsigned> loopEntry(Operation *loop,
                                         const Pending &before) {
    Pending entry = before;
    for (int round = 0; round < 8; ++round) {
      auto [end, needed] = countingWalk(loop, entry);
      Pending next = before;
      next.join(end);
      if (next == entry)
        return {entry, needed};
      entry = next;
    }
    return {entry, countingWalk(loop, entry).second};
  }

  /// TMA and mbarrier ops. An mbarrier's init and inval are plain writes
  /// of one thread; arrivals, waits and the copies that signal it are
  /// atomic and conflict only with those. A TMA load writes its buffer
  /// asynchronously until a wait on its mbarrier, which makes the data
  /// visible to every waiting thread (no barrier needed after it). A TMA
  /// store reads its buffer until its issuing thread's store wait; later
  /// writes by others need a barrier after that wait.
  bool visitTma(Operation *op, Pending &state, bool insert) {
    if (isa<tilegpu::MBarrierInitOp, tilegpu::MBarrierInvalOp>(op)) {
      write(op, *bufferRange(op->getOperand(0)), state, insert);
      return true;
    }
    if (isa<tilegpu::MBarrierExpectTxOp, tilegpu::MBarrierArriveOp>(op)) {
      read(op, *bufferRange(op->getOperand(0)), state, insert);
      return true;
    }
    if (auto copy = dyn_cast<tilegpu::AsyncTMACopyGlobalToLocalOp>(op)) {
      read(op, *bufferRange(copy.getBarrier()), state, insert);
      SharedRange range = *bufferRange(copy.getResult());
      // A refill marked kReadsRetiredAttrName follows its buffer's readers
      // through an mbarrier they released it on: only pending writes
      // conflict.
      bool conflict = copy->hasAttr(tilegpu::kReadsRetiredAttrName)
                          ? state.readConflicts(range)
                          : state.writeConflicts(range);
      if (conflict)
        barrierBefore(op, state, insert);
      Pending::add(state.asyncWrites, range);
      return true;
    }
    if (auto wait = dyn_cast<tilegpu::MBarrierWaitOp>(op)) {
      read(op, *bufferRange(wait.getBarrier()), state, insert);
      // The copies it may complete: those signalling its mbarrier, or any
      // mbarrier of its stack (a pipelined loop's ring).
      Operation *barrierAlloc = getRootBuffer(wait.getBarrier()).getDefiningOp();
      if (!barrierAlloc)
        return true;
      for (Operation *user : getBufferUsers(barrierAlloc))
        if (auto copy = dyn_cast<tilegpu::AsyncTMACopyGlobalToLocalOp>(user)) {
          SharedRange range = *bufferRange(copy.getResult());
          llvm::erase_if(state.asyncWrites, [&](const SharedRange &r) {
            return r.begin == range.begin && r.end == range.end;
          });
        }
      return true;
    }
    if (auto store = dyn_cast<tilegpu::AsyncTMACopyLocalToGlobalOp>(op)) {
      read(op, *bufferRange(store.getSrc()), state, insert);
      return true;
    }
    return false;
  }
};

/// Whether a later op of `fence`'s block fences the thread's generic
/// writes again (another fence, or a wgmma whose lowering fences its
/// operands) before anything else could happen through the async proxy or
/// hand memory to another thread: only generic shared-memory accesses,
/// mbarrier inits and invals, views and ops without memory effects may
/// come between. fence.proxy.async orders all of the thread's earlier
/// generic writes, so `fence` is then redundant.
bool fencedAgainLater(tilegpu::FenceAsyncSharedOp fence) {
  for (Operation *op = fence->getNextNode(); op; op = op->getNextNode()) {
    if (isa<tilegpu::FenceAsyncSharedOp>(op))
      return true;
    if (isa<tilegpu::WarpGroupDotOp>(op) && wgmmaNeedsProxyFence(op))
      return true;
    if (getScratchRange(op) || op->getNumRegions() != 0)
      return false;
    if (!isa<tilegpu::LocalAllocOp, tilegpu::LocalStoreOp, tilegpu::LocalLoadOp,
             tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp,
             tilegpu::MBarrierInitOp, tilegpu::MBarrierInvalOp>(op) &&
        !isMemoryEffectFree(op))
      return false;
  }
  return false;
}

struct InsertBarriersPass
    : public mlir::terrazzo::impl::TerrazzoInsertBarriersBase<
          InsertBarriersPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      BarrierInsertion insertion(func);
      insertion.walk(func.getBody().front(), Pending(), /*insert=*/true);
      // Fences without buffers (fenceForTma's among them) that a later op
      // repeats.
      SmallVector<tilegpu::FenceAsyncSharedOp> redundant;
      func.walk([&](tilegpu::FenceAsyncSharedOp fence) {
        if (fence.getBuffers().empty() && fencedAgainLater(fence))
          redundant.push_back(fence);
      });
      for (tilegpu::FenceAsyncSharedOp fence : redundant)
        fence.erase();
    });
  }
};

} // namespace
