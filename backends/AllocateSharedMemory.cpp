// terrazzo-allocate-shared-memory: see Passes.td.
#include "backends/Passes.h"
#include "backends/SharedMemory.h"
#include "backends/common/Patterns.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/IR/TmaLayout.h"
#include "target/Target.h"
#include "terrazzo/TensorMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOALLOCATESHAREDMEMORY
#include "backends/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

int64_t mlir::terrazzo::getScratchBytes(Operation *op) {
  // A tensor map is built in shared memory before it is copied to global.
  if (isa<tilegpu::TensormapCreateOp>(op))
    return int64_t(::terrazzo::kTensorMapBytes);
  return std::max({getConvertLayoutScratchBytes(op), getReduceScratchBytes(op),
                   getScanScratchBytes(op), getAtomicScratchBytes(op)});
}

int64_t mlir::terrazzo::getBufferBytes(Operation *alloc) {
  auto type = cast<tilegpu::MemDescType>(alloc->getResult(0).getType());
  int64_t elements = 1;
  for (int64_t size : type.getShape())
    elements *= size;
  return elements * scratchElementBytes(type.getElementType());
}

SmallVector<Operation *> mlir::terrazzo::getBufferUsers(Operation *alloc) {
  SmallVector<Operation *> users;
  SmallVector<Value> views{alloc->getResult(0)};
  while (!views.empty())
    for (Operation *user : views.pop_back_val().getUsers()) {
      users.push_back(user);
      // A view of one buffer of a stack, or of a buffer transposed, aliases
      // it.
      if (isa<tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp>(user))
        views.push_back(user->getResult(0));
    }
  return users;
}

Value mlir::terrazzo::getRootBuffer(Value buffer) {
  while (Operation *view = buffer.getDefiningOp()) {
    if (!isa<tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp>(view))
      break;
    buffer = view->getOperand(0);
  }
  return buffer;
}

namespace {
/// Whether `alloc` is an immutable buffer written only with its value at
/// allocation, whose writes a tilegpu.fence_async_shared naming it, later
/// in the same block and before every other user, publishes to the async
/// proxy. A user in another block (a loop body, structured or, once
/// lowered to branches, not) runs after the whole of this one.
bool isFencedValue(tilegpu::LocalAllocOp alloc) {
  if (alloc.getType().getMutableMemory())
    return false;
  Block *block = alloc->getBlock();
  tilegpu::FenceAsyncSharedOp fence;
  for (Operation *user : alloc->getUsers())
    if (auto found = dyn_cast<tilegpu::FenceAsyncSharedOp>(user))
      if (found->getBlock() == block && alloc->isBeforeInBlock(found))
        fence = found;
  if (!fence)
    return false;
  for (Operation *user : getBufferUsers(alloc)) {
    if (isa<tilegpu::FenceAsyncSharedOp>(user))
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && ancestor->isBeforeInBlock(fence))
      return false;
  }
  return true;
}
} // namespace

BufferWriters mlir::terrazzo::getBufferWriters(Value buffer) {
  auto alloc = getRootBuffer(buffer).getDefiningOp<tilegpu::LocalAllocOp>();
  if (!alloc)
    return BufferWriters::Other;
  if (alloc.getSrc())
    return isFencedValue(alloc) ? BufferWriters::FencedValue
                                : BufferWriters::Other;
  bool cpAsync = false, tma = false;
  for (Operation *user : getBufferUsers(alloc)) {
    cpAsync |= isa<tilegpu::AsyncCopyGlobalToLocalOp>(user);
    tma |= isa<tilegpu::AsyncTMACopyGlobalToLocalOp>(user);
    // A proxy fence writes nothing (a staged operand's, left on the TMA
    // buffer that replaced its value: attention's Q by descriptor).
    if (!isa<tilegpu::AsyncCopyGlobalToLocalOp,
             tilegpu::AsyncTMACopyGlobalToLocalOp, tilegpu::MemDescIndexOp,
             tilegpu::MemDescTransOp, tilegpu::WarpGroupDotOp,
             tilegpu::LocalLoadOp, tilegpu::LocalDeallocOp,
             tilegpu::FenceAsyncSharedOp>(user))
      return BufferWriters::Other;
  }
  if (cpAsync == tma)
    return BufferWriters::Other;
  return cpAsync ? BufferWriters::CpAsyncOnly : BufferWriters::TmaOnly;
}

namespace {
/// The writers of `dot`'s operands in shared memory (A may be registers).
SmallVector<BufferWriters, 2> sharedOperandWriters(Operation *dot) {
  SmallVector<BufferWriters, 2> writers;
  for (Value operand : cast<tilegpu::WarpGroupDotOp>(dot)->getOperands().take_front(2))
    if (isa<tilegpu::MemDescType>(operand.getType()))
      writers.push_back(getBufferWriters(operand));
  return writers;
}
} // namespace

bool mlir::terrazzo::wgmmaNeedsProxyFence(Operation *dot) {
  return llvm::is_contained(sharedOperandWriters(dot), BufferWriters::Other);
}

std::optional<SharedRange> mlir::terrazzo::getScratchRange(Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>(
      tilegpu::TileGPUDialect::kScratchOffsetAttrName);
  int64_t bytes = offset ? getScratchBytes(op) : 0;
  if (!bytes)
    return std::nullopt;
  return SharedRange{offset.getInt(), offset.getInt() + bytes};
}

namespace {

constexpr int64_t kAlignment = 16;
/// Scratch may grow a small kernel's shared memory to this much to sit
/// apart from the previous op's scratch (and save a barrier).
constexpr int64_t kApartBudget = 4096;

int64_t alignUp(int64_t bytes) { return llvm::alignTo(bytes, kAlignment); }

/// One buffer to place: live over [first, last] in program order.
struct Buffer {
  Operation *owner;
  bool isScratch;
  int64_t bytes;
  int64_t first, last;
  int64_t offset = -1;
  /// wgmma's swizzled buffers (nvmma_shared) start at multiples of 1024
  /// bytes: the hardware swizzles address bits, so the pattern must start
  /// at the buffer's first row (8 rows of 128 bytes).
  int64_t alignment = kAlignment;
};

/// Positions of ops in program order (pre-order walk), and the span of
/// each loop, so that a buffer used in a loop it was not allocated in stays
/// live for the whole loop.
class Liveness {
public:
  explicit Liveness(func::FuncOp func) {
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      position[op] = next++;
    });
    func.walk([&](Operation *op) {
      int64_t end = position[op];
      op->walk([&](Operation *inner) { end = std::max(end, position[inner]); });
      spanEnd[op] = end;
    });
  }

  int64_t at(Operation *op) const { return position.lookup(op); }

  /// Where the buffer or scratch of `op` is live: from `first` to `last`,
  /// widened to the whole warp_specialize for a producer's (which runs
  /// beside the consumers, not after them).
  void widenForPartitions(Operation *op, int64_t &first, int64_t &last) const {
    std::optional<tilegpu::WarpSpecializeOp::Partition> partition =
        tilegpu::WarpSpecializeOp::partitionOf(op->getBlock());
    if (!partition || !partition->producer)
      return;
    Operation *ws = op->getParentOfType<tilegpu::WarpSpecializeOp>();
    first = std::min(first, at(ws));
    last = std::max(last, spanEnd.lookup(ws));
  }

  /// The last position at which `alloc`'s buffer is live.
  int64_t lastUse(Operation *alloc) const {
    int64_t last = at(alloc);
    for (Operation *user : getBufferUsers(alloc)) {
      // The outermost loop around the user that does not contain the
      // allocation keeps the buffer live to its end.
      Operation *anchor = user;
      for (Operation *parent = user->getParentOp(); parent;
           parent = parent->getParentOp()) {
        if (parent->isAncestor(alloc))
          break;
        if (isa<LoopLikeOpInterface>(parent))
          anchor = parent;
      }
      last = std::max(last, spanEnd.lookup(anchor));
    }
    return last;
  }

private:
  DenseMap<Operation *, int64_t> position, spanEnd;
  int64_t next = 0;
};

/// First-fit: the lowest aligned offset at which `buffer` overlaps no
/// placed buffer live at the same time, at or after `from`.
int64_t firstFit(const Buffer &buffer, ArrayRef<Buffer> placed, int64_t from) {
  int64_t offset = llvm::alignTo(from, buffer.alignment);
  bool moved = true;
  while (moved) {
    moved = false;
    for (const Buffer &other : placed) {
      if (other.last < buffer.first || buffer.last < other.first)
        continue;
      if (offset < other.offset + other.bytes &&
          other.offset < offset + buffer.bytes) {
        offset = llvm::alignTo(other.offset + other.bytes, buffer.alignment);
        moved = true;
      }
    }
  }
  return offset;
}

/// The buffers live together at the program point where the most bytes
/// are, largest first: what a function that needs more shared memory than
/// its target has holds at its peak.
SmallVector<const Buffer *> peakBuffers(ArrayRef<Buffer> placed) {
  int64_t peakBytes = -1, peak = 0;
  auto liveAt = [](const Buffer &buffer, int64_t point) {
    return buffer.first <= point && point <= buffer.last;
  };
  for (const Buffer &candidate : placed) {
    int64_t bytes = 0;
    for (const Buffer &buffer : placed)
      if (liveAt(buffer, candidate.first))
        bytes += buffer.bytes;
    if (bytes > peakBytes) {
      peakBytes = bytes;
      peak = candidate.first;
    }
  }
  SmallVector<const Buffer *> live;
  for (const Buffer &buffer : placed)
    if (liveAt(buffer, peak))
      live.push_back(&buffer);
  llvm::stable_sort(live, [](const Buffer *a, const Buffer *b) {
    return a->bytes > b->bytes;
  });
  return live;
}

/// Notes on `diag`, at each op whose buffer or scratch is live at the peak
/// of `placed` (the largest few), saying what it holds: the error then
/// names the kernel's lines that take the shared memory.
void notePeakBuffers(InFlightDiagnostic &diag, ArrayRef<Buffer> placed) {
  constexpr size_t kMostNotes = 6;
  SmallVector<const Buffer *> live = peakBuffers(placed);
  for (const Buffer *buffer : ArrayRef(live).take_front(kMostNotes)) {
    Diagnostic &note = diag.attachNote(buffer->owner->getLoc());
    note << buffer->bytes << " bytes live here: ";
    if (buffer->isScratch) {
      note << "scratch of '" << buffer->owner->getName() << "'";
      continue;
    }
    auto type =
        cast<tilegpu::MemDescType>(buffer->owner->getResult(0).getType());
    std::string shape;
    llvm::raw_string_ostream os(shape);
    for (int64_t size : type.getShape())
      os << size << "x";
    os << type.getElementType();
    note << "a buffer of " << shape;
  }
  if (live.size() > kMostNotes) {
    int64_t rest = 0;
    for (const Buffer *buffer : ArrayRef(live).drop_front(kMostNotes))
      rest += buffer->bytes;
    diag.attachNote() << "and " << live.size() - kMostNotes
                      << " more buffers of " << rest << " bytes in all";
  }
}

struct AllocateSharedMemoryPass
    : public mlir::terrazzo::impl::TerrazzoAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t limit = std::numeric_limits<int32_t>::max();
    std::string targetName;
    if (std::optional<::terrazzo::Target> target = tilegpu::getTarget(module)) {
      limit = target->maxSharedMemoryBytes;
      targetName = target->name;
    }
    int64_t total = 0;
    bool tooLarge = false;
    module.walk([&](Operation *op) {
      int64_t need = isa<tilegpu::LocalAllocOp>(op) ? getBufferBytes(op)
                                                    : getScratchBytes(op);
      if (need > limit) {
        op->emitOpError("needs ")
            << need << " bytes of shared memory"
            << (isa<tilegpu::LocalAllocOp>(op)
                    ? ""
                    : " to move its data between threads")
            << ", more than target '" << targetName
            << "' allows in one program instance (" << limit
            << " bytes); use smaller blocks";
        tooLarge = true;
      }
    });
    if (tooLarge)
      return signalPassFailure();
    module.walk([&](func::FuncOp func) {
      SmallVector<Buffer> placed;
      int64_t need = allocate(func, limit, placed);
      if (need > limit) {
        InFlightDiagnostic diag =
            func.emitError("needs ")
            << need
            << " bytes of shared memory for buffers live at the same time, "
               "more than target '"
            << targetName << "' allows in one program instance (" << limit
            << " bytes); use smaller blocks";
        notePeakBuffers(diag, placed);
        tooLarge = true;
      }
      total = std::max(total, need);
    });
    if (tooLarge)
      return signalPassFailure();
    Builder builder(module.getContext());
    if (total)
      module->setAttr(tilegpu::TileGPUDialect::kSharedMemoryAttrName,
                      builder.getI32IntegerAttr(int32_t(total)));
    else
      module->removeAttr(tilegpu::TileGPUDialect::kSharedMemoryAttrName);
  }

  /// Places the buffers of `func` within `limit` bytes (in `placed`);
  /// returns the bytes it needs.
  int64_t allocate(func::FuncOp func, int64_t limit,
                   SmallVectorImpl<Buffer> &placed) {
    Liveness liveness(func);
    SmallVector<Buffer> buffers;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
        buffers.push_back({op, false, alignUp(getBufferBytes(op)),
                           liveness.at(op), liveness.lastUse(op)});
        liveness.widenForPartitions(op, buffers.back().first,
                                    buffers.back().last);
        if (isa<tilegpu::NvmmaSharedLayoutAttr>(alloc.getType().getEncoding()))
          buffers.back().alignment = 1024;
        // TMA reads and writes shared buffers aligned to 128 bytes.
        else if (llvm::any_of(getBufferUsers(op), [](Operation *user) {
                   return isa<tilegpu::AsyncTMACopyGlobalToLocalOp,
                              tilegpu::AsyncTMACopyLocalToGlobalOp>(user);
                 }))
          buffers.back().alignment = 128;
        return;
      }
      op->removeAttr(tilegpu::TileGPUDialect::kScratchOffsetAttrName);
      if (int64_t bytes = getScratchBytes(op)) {
        int64_t last = liveness.at(op);
        // The maps of a group are built at the same time: each one's
        // scratch lives to the group's end.
        if (auto create = dyn_cast<tilegpu::TensormapCreateOp>(op)) {
          create->removeAttr(tilegpu::TileGPUDialect::kTensormapGroupAttrName);
          SmallVector<Operation *, 4> group = create.group();
          if (group.size() > 1) {
            int64_t k = llvm::find(group, op) - group.begin();
            create->setAttr(tilegpu::TileGPUDialect::kTensormapGroupAttrName,
                            DenseI64ArrayAttr::get(op->getContext(),
                                                   {k, int64_t(group.size())}));
            last = liveness.at(group.back());
          }
        }
        buffers.push_back({op, true, alignUp(bytes), liveness.at(op), last});
        liveness.widenForPartitions(op, buffers.back().first,
                                    buffers.back().last);
        // tensormap.replace needs the map aligned like a CUtensorMap.
        if (isa<tilegpu::TensormapCreateOp>(op))
          buffers.back().alignment = 128;
      }
    });
    // Explicit buffers first (longest lived), then scratch in program
    // order.
    std::stable_sort(buffers.begin(), buffers.end(),
                     [](const Buffer &a, const Buffer &b) {
                       return !a.isScratch && b.isScratch;
                     });
    placed.clear();
    int64_t packed = 0; // what first-fit alone needs
    for (Buffer &buffer : buffers) {
      buffer.offset = firstFit(buffer, placed, 0);
      packed = std::max(packed, buffer.offset + buffer.bytes);
      placed.push_back(buffer);
    }
    // Scratch apart from the previous scratch where the budget allows: what
    // the kernel needs anyway (at least kApartBudget); up to the target's
    // limit when it needs more than half of it, since then one program
    // instance fills a multiprocessor's shared memory whatever it grows to.
    int64_t budget = std::max(packed, kApartBudget);
    if (packed > limit / 2)
      budget = std::max(budget, limit);
    placed.clear();
    std::optional<size_t> previousScratch;
    int64_t need = 0;
    for (Buffer &buffer : buffers) {
      int64_t offset = firstFit(buffer, placed, 0);
      if (buffer.isScratch && previousScratch) {
        SharedRange mine{offset, offset + buffer.bytes};
        const Buffer &previous = placed[*previousScratch];
        SharedRange theirs{previous.offset, previous.offset + previous.bytes};
        if (mine.overlaps(theirs)) {
          int64_t apart = firstFit(buffer, placed, alignUp(theirs.end));
          if (apart + buffer.bytes <= budget)
            offset = apart;
        }
      }
      buffer.offset = offset;
      need = std::max(need, offset + buffer.bytes);
      placed.push_back(buffer);
      if (buffer.isScratch)
        previousScratch = placed.size() - 1;
    }
    Builder builder(func.getContext());
    for (const Buffer &buffer : placed)
      buffer.owner->setAttr(
          buffer.isScratch ? tilegpu::TileGPUDialect::kScratchOffsetAttrName
                           : tilegpu::TileGPUDialect::kBufferOffsetAttrName,
          builder.getI64IntegerAttr(buffer.offset));
    return need;
  }
};

} // namespace
