// terrazzo-insert-barriers: see Passes.td.
#include "backends/Passes.h"
#include "backends/SharedMemory.h"
#include "backends/common/Patterns.h"
#include "backends/common/Utility.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>
#include <memory>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOINSERTBARRIERS
#include "backends/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// How far a barrier reaches: the threads of one warp, of one warp group,
/// or of the program (tilegpu.barrier's scopes, in that order).
enum class Reach { None = 0, Warp, WarpGroup, Program };

Reach reachOf(tilegpu::BarrierScope scope) {
  switch (scope) {
  case tilegpu::BarrierScope::Warp:
    return Reach::Warp;
  case tilegpu::BarrierScope::WarpGroup:
    return Reach::WarpGroup;
  case tilegpu::BarrierScope::Program:
    break;
  }
  return Reach::Program;
}

tilegpu::BarrierScope scopeOf(Reach reach) {
  switch (reach) {
  case Reach::Warp:
    return tilegpu::BarrierScope::Warp;
  case Reach::WarpGroup:
    return tilegpu::BarrierScope::WarpGroup;
  default:
    return tilegpu::BarrierScope::Program;
  }
}

/// Which threads make an access to a buffer, row by row (index 0 of the
/// buffer's shape): for each row a warp (>= 0), a whole warp group g (-2 -
/// g: a wgmma's operand, which the group's tensor-core work reads), or
/// several or unknown (-1). Accesses to the same buffer value with owners
/// touch each row's bytes only from those threads, whatever the buffer's
/// layout in memory.
struct Owners {
  Value buffer;
  SmallVector<int32_t> rows;

  static int32_t group(int32_t owner) {
    return owner >= 0 ? owner / int32_t(tilegpu::kWarpsPerGroup) : -2 - owner;
  }
  /// The barrier two accesses of row owners `a` and `b` need between them.
  static Reach reach(int32_t a, int32_t b) {
    if (a == -1 || b == -1)
      return Reach::Program;
    if (a >= 0 && a == b)
      return Reach::Warp;
    return group(a) == group(b) ? Reach::WarpGroup : Reach::Program;
  }
  /// The barrier accesses of owners `a` and `b` (either may be unknown)
  /// need between them.
  static Reach reach(const Owners *a, const Owners *b) {
    if (!a || !b || a->buffer != b->buffer || a->rows.size() != b->rows.size())
      return Reach::Program;
    Reach widest = Reach::Warp;
    for (auto [x, y] : llvm::zip_equal(a->rows, b->rows))
      widest = std::max(widest, reach(x, y));
    return widest;
  }
};
using OwnersRef = std::shared_ptr<const Owners>;

/// The warp that holds each index along dim 0 of a tensor of `type` (-1
/// where several warps do; with `wholeGroups`, the warp group, as -2 - g),
/// from its layout; null for unknown layouts.
OwnersRef rowWarps(RankedTensorType type, Value buffer, bool wholeGroups) {
  std::optional<LinearLayout> layout = getLinearLayout(type);
  if (!layout || type.getRank() < 1 || type.getDimSize(0) < 1)
    return nullptr;
  SmallVector<int32_t> holders =
      elementWarps(*layout, wholeGroups ? tilegpu::kWarpsPerGroup : 1);
  int64_t rows = type.getDimSize(0);
  if (holders.size() % rows)
    return nullptr;
  int64_t perRow = holders.size() / rows;
  auto owners = std::make_shared<Owners>();
  owners->buffer = buffer;
  for (int64_t r = 0; r < rows; ++r) {
    ArrayRef<int32_t> row =
        ArrayRef<int32_t>(holders).slice(r * perRow, perRow);
    int32_t holder =
        llvm::all_equal(row) && row.front() >= 0 ? row.front() : -1;
    owners->rows.push_back(holder >= 0 && wholeGroups ? -2 - holder : holder);
  }
  return owners;
}

/// One access to shared memory since the last barrier of the program: its
/// bytes, its threads (null: any), and the widest barrier passed since
/// (accesses of threads that a barrier of that reach orders need no
/// other).
struct Access {
  SharedRange range;
  OwnersRef owners;
  Reach ordered = Reach::None;

  bool operator==(const Access &other) const {
    return range.begin == other.range.begin && range.end == other.range.end &&
           owners == other.owners && ordered == other.ordered;
  }
};

/// Shared-memory accesses since the last barrier, and asynchronous copies
/// that may still be in flight (a barrier does not complete them; an
/// async_wait does, for the waiting thread).
struct Pending {
  SmallVector<Access> reads, writes;
  SmallVector<SharedRange> asyncWrites;

  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
  /// After a barrier of `reach`: the accesses it orders are ordered.
  void order(Reach reach) {
    if (reach == Reach::Program) {
      clear();
      return;
    }
    for (SmallVector<Access> *list : {&reads, &writes})
      for (Access &access : *list)
        access.ordered = std::max(access.ordered, reach);
  }
  /// The barrier an access to `range` by `owners` needs against `accesses`
  /// (Reach::None: none).
  static Reach conflict(ArrayRef<Access> accesses, SharedRange range,
                        const Owners *owners) {
    Reach needed = Reach::None;
    for (const Access &a : accesses) {
      if (!a.range.overlaps(range))
        continue;
      Reach reach = Owners::reach(a.owners.get(), owners);
      if (reach > a.ordered)
        needed = std::max(needed, reach);
    }
    return needed;
  }
  static bool anyOverlap(ArrayRef<SharedRange> ranges, SharedRange range) {
    return llvm::any_of(ranges,
                        [&](const SharedRange &r) { return r.overlaps(range); });
  }
  /// The barrier reading `range` now needs: other threads' writes in
  /// flight.
  Reach readConflicts(SharedRange range, const Owners *owners = nullptr) const {
    return conflict(writes, range, owners);
  }
  /// The barrier writing `range` now needs: other threads' accesses.
  Reach writeConflicts(SharedRange range,
                       const Owners *owners = nullptr) const {
    return std::max(conflict(writes, range, owners),
                    conflict(reads, range, owners));
  }
  static void add(SmallVector<Access> &accesses, Access access) {
    for (Access &a : accesses)
      if (a.range.begin == access.range.begin &&
          a.range.end == access.range.end && a.owners == access.owners) {
        a.ordered = std::min(a.ordered, access.ordered);
        return;
      }
    accesses.push_back(access);
  }
  static void add(SmallVector<SharedRange> &ranges, SharedRange range) {
    for (const SharedRange &r : ranges)
      if (r.begin == range.begin && r.end == range.end)
        return;
    ranges.push_back(range);
  }
  void join(const Pending &other) {
    for (const Access &a : other.reads)
      add(reads, a);
    for (const Access &a : other.writes)
      add(writes, a);
    for (const SharedRange &r : other.asyncWrites)
      add(asyncWrites, r);
  }
  bool operator==(const Pending &other) const {
    auto same = [](const auto &a, const auto &b, auto equal) {
      if (a.size() != b.size())
        return false;
      for (const auto &x : a)
        if (!llvm::any_of(b, [&](const auto &y) { return equal(x, y); }))
          return false;
      return true;
    };
    auto sameRange = [](const SharedRange &a, const SharedRange &b) {
      return a.begin == b.begin && a.end == b.end;
    };
    auto sameAccess = [](const Access &a, const Access &b) { return a == b; };
    return same(reads, other.reads, sameAccess) &&
           same(writes, other.writes, sameAccess) &&
           same(asyncWrites, other.asyncWrites, sameRange);
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
  /// `narrow`: barriers of a warp or warp group where they suffice (not
  /// in a function whose warp groups take turns that pair up only at the
  /// program's barriers: tilegpu::turnsNeedProgramBarriers).
  BarrierInsertion(func::FuncOp func, bool narrow)
      : oneGroup(tilegpu::getTotalNumWarps(func) <= tilegpu::kWarpsPerGroup) {
    this->narrow = narrow && !tilegpu::turnsNeedProgramBarriers(func);
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
  /// A program of one warp group, whose group's barrier is the program's.
  bool oneGroup;
  bool narrow = false;

  Reach widen(Reach reach) const {
    if (reach == Reach::None)
      return reach;
    if (!narrow || (oneGroup && reach == Reach::WarpGroup))
      return Reach::Program;
    return reach;
  }
  /// The threads of `op`'s access (rowWarps), once per op, so that the
  /// walks' states compare equal at a loop's fixed point; none without
  /// `narrow`.
  DenseMap<Operation *, OwnersRef> owners;
  OwnersRef ownersOf(Operation *op, RankedTensorType type, Value buffer,
                     bool wholeGroups) {
    if (!narrow)
      return nullptr;
    auto [it, inserted] = owners.try_emplace(op);
    if (inserted)
      it->second = rowWarps(type, buffer, wholeGroups);
    return it->second;
  }

  /// A barrier of `reach` passed (of a group, with one group: the
  /// program's).
  void passed(Reach reach, Pending &state) const {
    state.order(oneGroup && reach == Reach::WarpGroup ? Reach::Program : reach);
  }

  /// Barriers a walk inserted, or would have (counted with `insert`
  /// unset too).
  unsigned barriers = 0;

  /// A barrier of `reach` (the program's by default) in front of `op`.
  void barrierBefore(Operation *op, Pending &state, bool insert,
                     Reach reach = Reach::Program) {
    reach = widen(reach);
    state.order(reach);
    ++barriers;
    if (!insert)
      return;
    OpBuilder builder(op);
    tilegpu::BarrierOp::create(builder, op->getLoc(), scopeOf(reach));
  }
  /// A barrier of `reach` in front of `op`, when one is needed; of the
  /// program instead where the rest of the block would then need fewer
  /// barriers (a later access of other threads to what is pending now,
  /// which a narrower barrier leaves pending).
  void barrierIf(Reach reach, Operation *op, Pending &state, bool insert) {
    reach = widen(reach);
    if (reach == Reach::None)
      return;
    if (insert && reach != Reach::Program) {
      Pending narrow = state, wide = state;
      narrow.order(reach);
      wide.clear();
      if (barriersFrom(op, wide) < barriersFrom(op, narrow))
        reach = Reach::Program;
    }
    barrierBefore(op, state, insert, reach);
  }
  /// The barriers a walk from `op` to the end of its block would insert.
  unsigned barriersFrom(Operation *op, Pending state) {
    unsigned start = barriers;
    for (Operation *next = op; next; next = next->getNextNode())
      visit(next, state, /*insert=*/false);
    return barriers - start;
  }

  void read(Operation *op, SharedRange range, Pending &state, bool insert,
            OwnersRef owners = nullptr) {
    barrierIf(state.readConflicts(range, owners.get()), op, state, insert);
    Pending::add(state.reads, {range, owners});
  }
  void write(Operation *op, SharedRange range, Pending &state, bool insert,
             OwnersRef owners = nullptr) {
    barrierIf(state.writeConflicts(range, owners.get()), op, state, insert);
    Pending::add(state.writes, {range, owners});
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
    if (auto barrier = dyn_cast<tilegpu::BarrierOp>(op)) {
      passed(reachOf(barrier.getEffectiveScope()), state);
      return;
    }
    if (std::optional<SharedRange> scratch = getScratchRange(op)) {
      // The op writes its scratch, passes its own barrier, reads it back.
      // A layout conversion whose elements stay in their warp (or warp
      // group) passes a barrier of that warp only.
      write(op, *scratch, state, insert);
      Reach own = narrow ? widen(reachOf(getConvertLayoutBarrierScope(op)))
                         : Reach::Program;
      passed(own, state);
      if (insert && own != Reach::Program)
        op->setAttr(
            tilegpu::kScratchBarrierScopeAttrName,
            tilegpu::BarrierScopeAttr::get(op->getContext(), scopeOf(own)));
      Pending::add(state.reads, {*scratch});
      return;
    }
    if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
      if (Value src = alloc.getSrc())
        write(op, *bufferRange(alloc.getResult()), state, insert,
              ownersOf(op, cast<RankedTensorType>(src.getType()),
                       alloc.getResult(),
                       /*wholeGroups=*/false));
      return;
    }
    if (auto store = dyn_cast<tilegpu::LocalStoreOp>(op)) {
      SharedRange range = *bufferRange(store.getBuffer());
      // A pipeliner's refill (kReadsRetiredAttrName) follows its buffer's
      // readers across a barrier: only pending writes conflict.
      OwnersRef owners =
          ownersOf(op, store.getSrc().getType(), store.getBuffer(),
                   /*wholeGroups=*/false);
      if (store->hasAttr(tilegpu::kReadsRetiredAttrName)) {
        barrierIf(state.readConflicts(range, owners.get()), op, state, insert);
        Pending::add(state.writes, {range, owners});
        fenceForTma(op, range, insert);
        return;
      }
      write(op, range, state, insert, owners);
      return;
    }
    if (auto load = dyn_cast<tilegpu::LocalLoadOp>(op)) {
      read(op, *bufferRange(load.getBuffer()), state, insert,
           ownersOf(op, load.getType(), load.getBuffer(),
                    /*wholeGroups=*/false));
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
      // A's rows are read by the warp group whose accumulator rows they
      // are; B by every group.
      if (wgmmaNeedsProxyFence(dot))
        state.clear();
      if (isa<tilegpu::MemDescType>(dot.getA().getType()))
        read(op, *bufferRange(dot.getA()), state, insert,
             ownersOf(op, cast<RankedTensorType>(dot.getD().getType()),
                      dot.getA(),
                      /*wholeGroups=*/true));
      if (isa<tilegpu::MemDescType>(dot.getB().getType()))
        read(op, *bufferRange(dot.getB()), state, insert);
      return;
    }
    if (auto copy = dyn_cast<tilegpu::AsyncCopyGlobalToLocalOp>(op)) {
      // The copy writes at some time before the wait that completes it: it
      // must not start while another thread may still read or write its
      // buffer, and its data is not there to read until that wait.
      SharedRange range = *bufferRange(copy.getResult());
      // A pipeliner's refill (kReadsRetiredAttrName) is known to follow its
      // buffer's readers across a barrier: only pending writes conflict.
      barrierIf(copy->hasAttr(tilegpu::kReadsRetiredAttrName)
                    ? state.readConflicts(range)
                    : state.writeConflicts(range),
                op, state, insert);
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
        Pending::add(state.writes, {range});
      if (wait.getNum() == 0)
        state.asyncWrites.clear();
      return;
    }
    if (isa<func::CallOp>(op)) {
      // The callee may touch any shared memory, and leave it touched.
      if (!state.empty())
        barrierBefore(op, state, insert);
      Pending::add(state.writes, {kEverything});
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
      barrierIf(copy->hasAttr(tilegpu::kReadsRetiredAttrName)
                    ? state.readConflicts(range)
                    : state.writeConflicts(range),
                op, state, insert);
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
  using TerrazzoInsertBarriersBase::TerrazzoInsertBarriersBase;
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      BarrierInsertion insertion(func, narrow);
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
