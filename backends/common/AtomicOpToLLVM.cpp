// tile.atomic_rmw and tile.atomic_cas.
//
// Each element is updated exactly once, by one thread. A layout may give
// several (register, lane, warp) the same element (broadcast); the free
// variables of the linear layout (LinearLayout::getFreeVariableMasks) say
// which copies are redundant: a register with a free register bit set is a
// copy of a register of the same thread, and a thread whose lane or warp
// has a free bit set holds only copies. Only registers and threads with no
// free bit do atomics, predicated on the mask as well. A scalar atomic is
// done by thread 0 alone.
//
// The old values reach every copy: in-thread copies take their register's
// value; when only lanes hold copies, and the redundant lane bits select
// nothing (zero bases), each lane reads the value from the lane with those
// bits cleared with a warp shuffle; otherwise (warps hold copies, a scalar
// atomic with several warps, or lanes whose copies sit in other registers)
// the owners store the old values in the op's shared-memory scratch at the
// elements' row-major offsets, a barrier follows, and every thread loads
// its elements (terrazzo-insert-barriers puts a barrier in front when the
// scratch may still be in use). Nothing of this is emitted when the result is unused, and
// the NVIDIA target then uses `red` instead of `atom` where the ordering
// allows it. Elements whose mask is false are not accessed and return 0.
//
// Each element's update, by what the target can do in one instruction
// (TargetInfo::hasAtomicRMW):
//  * integer ops and float adds the target has: that instruction;
//  * float max/min of f32/f64: the integer-ordering trick. For a value v
//    whose sign bit is clear, signed integer max (min) of the bit patterns
//    orders like the floats; for v with the sign bit set, unsigned integer
//    min (max) does, since larger magnitudes have larger patterns. One of
//    the two atomics runs, chosen by v's sign bit. The result is the
//    maximum (minimum) in IEEE 754 totalOrder: -NaN < -inf < ... < -0.0 <
//    +0.0 < ... < +inf < +NaN (NaNs with larger payloads further out).
//    So max(-0.0, +0.0) = +0.0, a positive NaN wins a max and loses a min,
//    a negative NaN the reverse;
//  * everything else (f16/bf16 max/min and exchange, bf16 add before
//    sm_90): a compare-and-swap loop on the element's bits, which for
//    max/min compares with the same totalOrder key, so every type agrees.
//
// tile.atomic_cas compares bit patterns (so -0.0 != +0.0 and a NaN can
// match itself) and returns the old value.
//
// tile.atomic_load, tile.atomic_store and tile.atomic_poll access each
// element with one LLVM `load atomic` / `store atomic` of the op's ordering
// and syncscope (NVPTX: ld.acquire.gpu, st.release.gpu, ...), done by the
// same owners as the read-modify-writes; loaded values and poll results
// reach the copies the same way. Orderings are the program's, not one
// thread's: a release store is preceded by a barrier of the program's
// threads, so that their earlier accesses come before it, and an acquire
// load or poll is followed by one (the shared-memory broadcast has it
// already), so that all threads' later accesses come after it. A poll
// loads each of a thread's elements until it holds the expected value or
// the timeout (global-timer nanoseconds from the start of the op) has
// passed, after at least one load.
#include "backends/common/MemoryAccessPattern.h"
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// How the old values reach the threads that hold copies.
enum class Broadcast { None, Shuffle, Shared };

/// Which copies of each element do the atomic, from the pointer's layout
/// (its ElementCopies; a scalar's atomic is thread 0's).
struct Ownership : ElementCopies {
  /// For every register, the register of the same thread, with no free
  /// bit, that holds the same element (itself when it has none).
  SmallVector<int32_t> canonical;
  Broadcast broadcast = Broadcast::None;
};

FailureOr<Ownership> analyseOwnership(Operation *op, Type ptrType,
                                      std::string &reason) {
  Ownership own;
  FailureOr<ElementCopies> copies = getElementCopies(ptrType, reason);
  if (failed(copies))
    return failure();
  static_cast<ElementCopies &>(own) = *copies;
  if (own.scalar) {
    own.canonical = {0};
    unsigned warps = tilegpu::getNumWarps(op), warpSize = tilegpu::getThreadsPerWarp(op);
    own.broadcast = warps > 1      ? Broadcast::Shared
                    : warpSize > 1 ? Broadcast::Shuffle
                                   : Broadcast::None;
    return own;
  }
  std::optional<LinearLayout> layout =
      getLinearLayout(cast<RankedTensorType>(ptrType));
  int32_t numRegisters = layout->getInDimSize(kRegister);
  std::map<Coordinates, int32_t> owner;
  for (int32_t reg = 0; reg < numRegisters; ++reg)
    if ((reg & own.registerMask) == 0)
      owner.emplace(registerCoordinates(*layout, reg), reg);
  for (int32_t reg = 0; reg < numRegisters; ++reg) {
    auto it = owner.find(registerCoordinates(*layout, reg));
    if (it == owner.end()) {
      reason = "internal error: a register's element has no owner";
      return failure();
    }
    own.canonical.push_back(it->second);
  }
  if (own.laneMask == 0 && own.warpMask == 0) {
    own.broadcast = Broadcast::None;
  } else {
    bool zeroLaneBases = true;
    for (int i = 0, e = layout->getInDimSizeLog2(kLane); i < e; ++i)
      if (own.laneMask & (1 << i))
        for (int32_t c : layout->getBasis(kLane, i))
          zeroLaneBases &= c == 0;
    own.broadcast = own.warpMask == 0 && zeroLaneBases ? Broadcast::Shuffle
                                                       : Broadcast::Shared;
  }
  return own;
}

/// The addresses of an atomic_rmw's or atomic_cas's elements: the
/// target's (TargetInfo::maskedAddresses) where it has them, else the
/// converted pointers `ptrs`. The accesses branch on their predicates
/// either way.
SmallVector<Value> atomicAddresses(ConversionPatternRewriter &rewriter,
                                   const TypeConverter &converter,
                                   const TargetInfo &target, Operation *op,
                                   SmallVector<Value> ptrs) {
  if (TargetInfo::MaskedAddresses addresses =
          target.maskedAddresses(rewriter, converter, op))
    for (unsigned r = 0; r < ptrs.size(); ++r)
      ptrs[r] = addresses(r, Value());
  return ptrs;
}

bool isAtomicOp(Operation *op) {
  return isa<tile::AtomicRMWOp, tile::AtomicCASOp, tile::AtomicLoadOp,
             tile::AtomicStoreOp, tile::AtomicPollOp>(op);
}

Value getAtomicPtr(Operation *op) {
  if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op))
    return rmw.getPtr();
  if (auto load = dyn_cast<tile::AtomicLoadOp>(op))
    return load.getPtr();
  if (auto store = dyn_cast<tile::AtomicStoreOp>(op))
    return store.getPtr();
  if (auto poll = dyn_cast<tile::AtomicPollOp>(op))
    return poll.getPtr();
  return cast<tile::AtomicCASOp>(op).getPtr();
}

/// The size in bytes of an LLVM scalar (or pointer) in memory.
unsigned accessBytes(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

Value andValues(RewriterBase &rewriter, Location loc, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return LLVM::AndOp::create(rewriter, loc, a, b);
}

/// The integer type with the bits of `type` (an LLVM scalar or pointer).
Type bitsType(RewriterBase &rewriter, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return rewriter.getI64Type();
  return rewriter.getIntegerType(type.getIntOrFloatBitWidth());
}

Value toBits(RewriterBase &rewriter, Location loc, Value value) {
  Type type = bitsType(rewriter, value.getType());
  if (value.getType() == type)
    return value;
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(rewriter, loc, type, value);
  return LLVM::BitcastOp::create(rewriter, loc, type, value);
}

Value fromBits(RewriterBase &rewriter, Location loc, Value bits, Type type) {
  if (bits.getType() == type)
    return bits;
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(rewriter, loc, type, bits);
  return LLVM::BitcastOp::create(rewriter, loc, type, bits);
}

Value intConstant(RewriterBase &rewriter, Location loc, Type type,
                  int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, type,
                                  rewriter.getIntegerAttr(type, value));
}

/// Emits the per-element atomics of one op.
class AtomicEmitter {
public:
  AtomicEmitter(RewriterBase &rewriter, Location loc, const TargetInfo &target,
                tile::MemSemantic sem, tile::MemScope scope, bool needOld)
      : rewriter(rewriter), loc(loc), target(target), sem(sem), scope(scope),
        needOld(needOld) {}

  /// `body` where `pred` (i1, or null for always) holds; its value, or zero
  /// (of `type`) where it does not.
  Value guarded(Value pred, Type type, function_ref<Value()> body) {
    if (!pred)
      return body();
    Value otherwise;
    if (needOld)
      otherwise = LLVM::ZeroOp::create(rewriter, loc, type);
    return emitGuarded(rewriter, loc, pred, otherwise, [&]() -> Value {
      Value v = body();
      return needOld ? v : Value();
    });
  }

  /// Atomic `op` of `val` (an LLVM int or float, or a vector of two halves
  /// for a packed add) at `ptr` where `pred` holds.
  Value rmw(tile::RMWOp op, Value ptr, Value val, Value pred) {
    Type type = val.getType();
    bool isFloat = isa<FloatType>(type);
    // Exchange moves bits: use the integer instruction.
    if (op == tile::RMWOp::Xchg && isFloat) {
      Type bits = bitsType(rewriter, type);
      if (target.hasAtomicRMW(op, bits)) {
        Value old = guarded(pred, bits, [&] {
          return target.atomicRMW(rewriter, loc, op, ptr,
                                  toBits(rewriter, loc, val), sem, scope,
                                  needOld);
        });
        return needOld ? fromBits(rewriter, loc, old, type) : Value();
      }
      return casLoop(op, ptr, val, pred);
    }
    bool floatMinMax =
        isFloat && (op == tile::RMWOp::Max || op == tile::RMWOp::Min);
    if (!floatMinMax) {
      if (target.hasAtomicRMW(op, type))
        return guarded(pred, type, [&] {
          return target.atomicRMW(rewriter, loc, op, ptr, val, sem, scope,
                                  needOld);
        });
      return casLoop(op, ptr, val, pred);
    }
    // Float max/min through integer max/min of the bits.
    Type bits = bitsType(rewriter, type);
    bool isMax = op == tile::RMWOp::Max;
    tile::RMWOp signedOp = isMax ? tile::RMWOp::Max : tile::RMWOp::Min;
    tile::RMWOp unsignedOp = isMax ? tile::RMWOp::UMin : tile::RMWOp::UMax;
    if (!target.hasAtomicRMW(signedOp, bits) ||
        !target.hasAtomicRMW(unsignedOp, bits))
      return casLoop(op, ptr, val, pred);
    Value valBits = toBits(rewriter, loc, val);
    Value nonNegative =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::sge, valBits,
                             intConstant(rewriter, loc, bits, 0));
    Value negative = LLVM::XOrOp::create(
        rewriter, loc, nonNegative,
        intConstant(rewriter, loc, rewriter.getI1Type(), 1));
    Value first = guarded(andValues(rewriter, loc, pred, nonNegative), bits, [&] {
      return target.atomicRMW(rewriter, loc, signedOp, ptr, valBits, sem,
                              scope, needOld);
    });
    Value second;
    Value secondPred = andValues(rewriter, loc, pred, negative);
    if (needOld) {
      second = emitGuarded(rewriter, loc, secondPred, first, [&] {
        return target.atomicRMW(rewriter, loc, unsignedOp, ptr, valBits, sem,
                                scope, true);
      });
      return fromBits(rewriter, loc, second, type);
    }
    guarded(secondPred, bits, [&] {
      return target.atomicRMW(rewriter, loc, unsignedOp, ptr, valBits, sem,
                              scope, false);
    });
    return Value();
  }

  /// Atomic compare-and-swap of `val` for `cmp` at `ptr` where `pred` holds.
  Value cas(Value ptr, Value cmp, Value val, Value pred) {
    Type type = val.getType();
    Type bits = bitsType(rewriter, type);
    Value old = guarded(pred, bits, [&] {
      Value cmpBits = toBits(rewriter, loc, cmp);
      Value valBits = toBits(rewriter, loc, val);
      return target.atomicCAS(rewriter, loc, ptr, cmpBits, valBits, sem,
                              scope);
    });
    return needOld ? fromBits(rewriter, loc, old, type) : Value();
  }

  /// One atomic load of `type` at `ptr` with the op's ordering and scope
  /// where `pred` holds (zero elsewhere).
  Value load(Value ptr, Type type, Value pred) {
    return guarded(pred, type, [&]() -> Value { return loadOnce(ptr, type); });
  }

  /// One atomic store of `val` at `ptr` where `pred` holds.
  void store(Value ptr, Value val, Value pred) {
    auto body = [&]() -> Value {
      LLVM::StoreOp::create(rewriter, loc, val, ptr,
                            accessBytes(val.getType()), /*isVolatile=*/false,
                            /*isNonTemporal=*/false,
                            /*isInvariantGroup=*/false, getAtomicOrdering(sem),
                            target.syncScope(scope));
      return Value();
    };
    if (pred)
      emitGuarded(rewriter, loc, pred, Value(), body);
    else
      body();
  }

  /// Loads at `ptr` until the value equals `expected` (i1 true), or, with a
  /// `timeout` (i64), until the global timer has gone `timeout` past
  /// `start` after a load that did not see it (false); where `pred` does
  /// not hold, nothing is loaded and the result is false.
  Value poll(Value ptr, Value expected, Value start, Value timeout,
             Value pred) {
    Type i1 = rewriter.getI1Type();
    return guarded(pred, i1, [&]() -> Value {
      Block *before = rewriter.getInsertionBlock();
      Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
      Block *exit = rewriter.createBlock(after, {i1}, {loc});
      LLVM::BrOp::create(rewriter, loc, ValueRange{}, after);
      Block *loop = rewriter.createBlock(exit);
      Value seen = loadOnce(ptr, expected.getType());
      Value match = LLVM::ICmpOp::create(rewriter, loc,
                                         LLVM::ICmpPredicate::eq, seen,
                                         expected);
      Value yes = LLVM::ConstantOp::create(rewriter, loc, i1,
                                           rewriter.getBoolAttr(true));
      if (!timeout) {
        LLVM::CondBrOp::create(rewriter, loc, match, exit, ValueRange{yes},
                               loop, ValueRange{});
      } else {
        Block *check = rewriter.createBlock(exit);
        rewriter.setInsertionPointToEnd(loop);
        LLVM::CondBrOp::create(rewriter, loc, match, exit, ValueRange{yes},
                               check, ValueRange{});
        rewriter.setInsertionPointToStart(check);
        Value elapsed = LLVM::SubOp::create(
            rewriter, loc, target.globalTimer(rewriter, loc), start);
        Value expired = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::uge, elapsed, timeout);
        Value no = LLVM::ConstantOp::create(rewriter, loc, i1,
                                            rewriter.getBoolAttr(false));
        LLVM::CondBrOp::create(rewriter, loc, expired, exit, ValueRange{no},
                               loop, ValueRange{});
      }
      rewriter.setInsertionPointToEnd(before);
      LLVM::BrOp::create(rewriter, loc, ValueRange{}, loop);
      rewriter.setInsertionPointToStart(after);
      return exit->getArgument(0);
    });
  }

private:
  Value loadOnce(Value ptr, Type type) {
    return LLVM::LoadOp::create(rewriter, loc, type, ptr, accessBytes(type),
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/false,
                                /*isInvariantGroup=*/false,
                                getAtomicOrdering(sem), target.syncScope(scope));
  }

  /// The key whose unsigned order is IEEE totalOrder on float bits.
  Value totalOrderKey(Value bits) {
    Type type = bits.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    Value negative =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, bits,
                             intConstant(rewriter, loc, type, 0));
    Value flipped = LLVM::XOrOp::create(rewriter, loc, bits,
                                        intConstant(rewriter, loc, type, -1));
    Value marked = LLVM::OrOp::create(
        rewriter, loc, bits,
        LLVM::ConstantOp::create(
            rewriter, loc, type,
            rewriter.getIntegerAttr(type, APInt::getSignMask(width))));
    return LLVM::SelectOp::create(rewriter, loc, negative, flipped, marked);
  }

  /// The new value of a compare-and-swap loop: `op` applied to the old
  /// value and `val`.
  Value update(tile::RMWOp op, Value old, Value val) {
    Type type = val.getType();
    bool isFloat = isa<FloatType>(type);
    switch (op) {
    case tile::RMWOp::Xchg:
      return val;
    case tile::RMWOp::FAdd:
      return LLVM::FAddOp::create(rewriter, loc, old, val);
    case tile::RMWOp::Add:
      return LLVM::AddOp::create(rewriter, loc, old, val);
    case tile::RMWOp::And:
      return LLVM::AndOp::create(rewriter, loc, old, val);
    case tile::RMWOp::Or:
      return LLVM::OrOp::create(rewriter, loc, old, val);
    case tile::RMWOp::Xor:
      return LLVM::XOrOp::create(rewriter, loc, old, val);
    case tile::RMWOp::Max:
    case tile::RMWOp::Min:
    case tile::RMWOp::UMax:
    case tile::RMWOp::UMin: {
      bool isMax = op == tile::RMWOp::Max || op == tile::RMWOp::UMax;
      Value a = val, b = old;
      LLVM::ICmpPredicate pred;
      if (isFloat) {
        a = totalOrderKey(toBits(rewriter, loc, val));
        b = totalOrderKey(toBits(rewriter, loc, old));
        pred = isMax ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::ult;
      } else if (op == tile::RMWOp::Max || op == tile::RMWOp::Min) {
        pred = isMax ? LLVM::ICmpPredicate::sgt : LLVM::ICmpPredicate::slt;
      } else {
        pred = isMax ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::ult;
      }
      Value take = LLVM::ICmpOp::create(rewriter, loc, pred, a, b);
      return LLVM::SelectOp::create(rewriter, loc, take, val, old);
    }
    }
    llvm_unreachable("unknown atomic op");
  }

  /// `op` as a loop of compare-and-swaps on the element's bits.
  Value casLoop(tile::RMWOp op, Value ptr, Value val, Value pred) {
    Type type = val.getType();
    Type bits = bitsType(rewriter, type);
    unsigned bytes = bits.getIntOrFloatBitWidth() / 8;
    Value old = guarded(pred, bits, [&]() -> Value {
      Block *before = rewriter.getInsertionBlock();
      Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
      Block *exit = rewriter.createBlock(after, {bits}, {loc});
      LLVM::BrOp::create(rewriter, loc, ValueRange{}, after);
      Block *loop = rewriter.createBlock(exit, {bits}, {loc});
      Value expected = loop->getArgument(0);
      Value desired = toBits(
          rewriter, loc,
          update(op, fromBits(rewriter, loc, expected, type), val));
      Value seen = target.atomicCAS(rewriter, loc, ptr, expected, desired,
                                    sem, scope);
      Value done = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        seen, expected);
      LLVM::CondBrOp::create(rewriter, loc, done, exit, ValueRange{seen}, loop,
                             ValueRange{seen});
      rewriter.setInsertionPointToEnd(before);
      // The first guess (a relaxed atomic load at the op's scope); the
      // compare-and-swap checks it.
      Value initial = LLVM::LoadOp::create(
          rewriter, loc, bits, ptr, bytes, /*isVolatile=*/false,
          /*isNonTemporal=*/false, /*isInvariant=*/false,
          /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic,
          target.syncScope(scope));
      LLVM::BrOp::create(rewriter, loc, ValueRange{initial}, loop);
      rewriter.setInsertionPointToStart(after);
      return exit->getArgument(0);
    });
    return needOld ? fromBits(rewriter, loc, old, type) : Value();
  }

  RewriterBase &rewriter;
  Location loc;
  const TargetInfo &target;
  tile::MemSemantic sem;
  tile::MemScope scope;
  bool needOld;
};

/// The per-thread side of an atomic op: who does what and how the old
/// values reach every copy.
class AtomicLowering {
public:
  AtomicLowering(Operation *op, const Ownership &own, const TargetInfo &target,
                 RewriterBase &rewriter)
      : op(op), own(own), target(target), rewriter(rewriter),
        loc(op->getLoc()), warpSize(tilegpu::getThreadsPerWarp(op)) {}

  /// True (i1) in the threads that do atomics; null when all do.
  Value threadPredicate() {
    return emitOwnerPredicate(rewriter, loc, target, own,
                              [&] { return position(); });
  }

  /// Given the old values of the registers this thread owns (the others
  /// null or anything), the old value of every register in every thread.
  FailureOr<SmallVector<Value>> broadcast(SmallVector<Value> olds,
                                          Value threadPred) {
    size_t n = olds.size();
    switch (own.broadcast) {
    case Broadcast::None:
      break;
    case Broadcast::Shuffle: {
      Value source = i32Constant(rewriter, loc, 0);
      if (!own.scalar)
        source = LLVM::AndOp::create(
            rewriter, loc, position().lane,
            i32Constant(rewriter, loc, ~own.laneMask & int32_t(warpSize - 1)));
      for (size_t r = 0; r < n; ++r)
        if (own.canonical[r] == int32_t(r))
          olds[r] = shuffleScalar(rewriter, loc, olds[r], [&](Value word) {
            return target.shuffleIdx(rewriter, loc, word, source, warpSize);
          });
      break;
    }
    case Broadcast::Shared: {
      Value scratch = getScratchPointer(rewriter, loc, op);
      if (!scratch)
        return failure();
      Type elementType = olds.front().getType();
      Type memoryType = elementType;
      auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
      unsigned bytes = isa<LLVM::LLVMPointerType>(elementType)
                           ? 8
                           : elementType.getIntOrFloatBitWidth() / 8;
      SmallVector<Value> offsets = elementOffsets(n);
      auto address = [&](Value offset) -> Value {
        return LLVM::GEPOp::create(rewriter, loc, sharedPtr, memoryType,
                                   scratch, ValueRange{offset});
      };
      // No barrier first: terrazzo-insert-barriers puts one in front of the
      // op when an earlier access to this scratch may still be in flight.
      auto storeOwned = [&]() -> Value {
        for (size_t r = 0; r < n; ++r)
          if (own.canonical[r] == int32_t(r))
            LLVM::StoreOp::create(rewriter, loc, olds[r], address(offsets[r]),
                                  bytes);
        return Value();
      };
      if (threadPred)
        emitGuarded(rewriter, loc, threadPred, Value(), storeOwned);
      else
        storeOwned();
      target.barrier(rewriter, loc);
      for (size_t r = 0; r < n; ++r)
        if (own.canonical[r] == int32_t(r))
          olds[r] = LLVM::LoadOp::create(rewriter, loc, memoryType,
                                         address(offsets[r]), bytes);
      break;
    }
    }
    for (size_t r = 0; r < n; ++r)
      olds[r] = olds[own.canonical[r]];
    return olds;
  }

private:
  ThreadPosition position() {
    if (!thread)
      thread = getThreadPosition(rewriter, loc, target, warpSize);
    return *thread;
  }

  /// Each register's element as a row-major offset (i32).
  SmallVector<Value> elementOffsets(size_t n) {
    if (own.scalar)
      return {i32Constant(rewriter, loc, 0)};
    auto type = cast<RankedTensorType>(getAtomicPtr(op).getType());
    std::optional<LinearLayout> layout = getLinearLayout(type);
    auto indices = emitIndices(rewriter, loc, *layout, position());
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<Value> offsets;
    for (size_t r = 0; r < n; ++r) {
      Value offset = i32Constant(rewriter, loc, 0);
      for (size_t d = 0; d < shape.size(); ++d) {
        if (d)
          offset = LLVM::MulOp::create(rewriter, loc, offset,
                                       i32Constant(rewriter, loc, shape[d]));
        offset = LLVM::AddOp::create(rewriter, loc, offset, indices[r][d]);
      }
      offsets.push_back(offset);
    }
    return offsets;
  }

  Operation *op;
  const Ownership &own;
  const TargetInfo &target;
  RewriterBase &rewriter;
  Location loc;
  unsigned warpSize;
  std::optional<ThreadPosition> thread;
};

/// Whether registers 2k and 2k+1 of `ptr` may be updated together with
/// one packed f16x2/bf16x2 add: consecutive and 4-byte aligned in memory,
/// under one mask value.
bool canPairRegisters(const ModuleAxisInfoAnalysis &axisInfo, Value ptr,
                      Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return false;
  std::optional<LinearLayout> layout = getLinearLayout(type);
  const AxisInfo *ptrInfo = axisInfo.getAxisInfo(ptr);
  if (!layout || !ptrInfo)
    return false;
  const AxisInfo *maskInfo = mask ? axisInfo.getAxisInfo(mask) : nullptr;
  if (mask && !maskInfo)
    return false;
  for (unsigned dim = 0, e = type.getRank(); dim < e; ++dim) {
    if (layout->getContiguousRegisters(dim) < 2 ||
        ptrInfo->getContiguity(dim) < 2 || ptrInfo->getDivisibility(dim) < 4)
      continue;
    if (maskInfo && maskInfo->getConstancy(dim) < 2)
      continue;
    return true;
  }
  return false;
}

/// The ownership of an atomic op's elements (see analyseOwnership), or an
/// error on the op saying why they cannot be lowered.
template <typename AtomicOp>
FailureOr<Ownership> ownershipOrError(AtomicOp op) {
  std::string reason;
  FailureOr<Ownership> own = analyseOwnership(op, op.getPtr().getType(), reason);
  if (failed(own))
    op.emitOpError(reason);
  return own;
}

/// What the lowerings of atomic_rmw and atomic_cas share before their
/// atomics: the result's LLVM type, which elements this thread issues
/// (the ownership), whether the old values are used, and the addresses.
struct AtomicPlan {
  Type resultType;
  Ownership own;
  bool needOld = false;
  SmallVector<Value> ptrs;
};

template <typename AtomicOp>
FailureOr<AtomicPlan>
planAtomic(AtomicOp op, Value ptr, const TypeConverter &converter,
           const TargetInfo &target, ConversionPatternRewriter &rewriter) {
  AtomicPlan plan;
  plan.resultType = converter.convertType(op.getType());
  if (!plan.resultType)
    return rewriter.notifyMatchFailure(op, "unconvertible types");
  FailureOr<Ownership> own = ownershipOrError(op);
  if (failed(own))
    return failure();
  plan.own = std::move(*own);
  plan.needOld = !op.getResult().use_empty();
  plan.ptrs = atomicAddresses(rewriter, converter, target, op,
                              elementsOf(rewriter, op.getLoc(), ptr));
  return plan;
}

/// After the atomics: the op replaced by the old values (`olds`, those of
/// the elements this thread issued) broadcast to every holder of each
/// element, or erased when they are not used.
template <typename AtomicOp>
LogicalResult finishAtomic(AtomicOp op, const AtomicPlan &plan,
                           AtomicLowering &lowering, SmallVector<Value> olds,
                           Value threadPred,
                           ConversionPatternRewriter &rewriter) {
  if (!plan.needOld) {
    rewriter.eraseOp(op);
    return success();
  }
  FailureOr<SmallVector<Value>> results =
      lowering.broadcast(std::move(olds), threadPred);
  if (failed(results))
    return failure();
  rewriter.replaceOp(
      op, isa<LLVM::LLVMStructType>(plan.resultType)
              ? packStruct(rewriter, op.getLoc(), plan.resultType, *results)
              : results->front());
  return success();
}

struct AtomicRMWOpConversion : public MemoryAccessPattern<tile::AtomicRMWOp> {
  using MemoryAccessPattern::MemoryAccessPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<AtomicPlan> plan =
        planAtomic(op, adaptor.getPtr(), *getTypeConverter(), target, rewriter);
    if (failed(plan))
      return failure();
    const Ownership &own = plan->own;
    const SmallVector<Value> &ptrs = plan->ptrs;
    SmallVector<Value> vals = elementsOf(rewriter, loc, adaptor.getVal());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    AtomicLowering lowering(op, own, target, rewriter);
    AtomicEmitter emitter(rewriter, loc, target, op.getSem(), op.getScope(),
                          plan->needOld);
    Value threadPred = lowering.threadPredicate();

    // Packed adds of two halves where the layout and AxisInfo allow.
    Type element = vals.front().getType();
    auto pairType = VectorType::get({2}, element);
    bool pairs = op.getRmwOp() == tile::RMWOp::FAdd &&
                 (element.isF16() || element.isBF16()) &&
                 target.hasAtomicRMW(tile::RMWOp::FAdd, pairType) &&
                 canPairRegisters(axisInfo, op.getPtr(), op.getMask());

    SmallVector<Value> olds(ptrs.size());
    for (size_t r = 0; r < ptrs.size(); ++r) {
      if (own.canonical[r] != int32_t(r))
        continue;
      Value pred = andValues(rewriter, loc, threadPred,
                             masks.empty() ? Value() : masks[r]);
      if (pairs && r % 2 == 0 && r + 1 < ptrs.size() &&
          own.canonical[r + 1] == int32_t(r + 1)) {
        Value pair = LLVM::UndefOp::create(rewriter, loc, pairType);
        for (int i = 0; i < 2; ++i)
          pair = LLVM::InsertElementOp::create(rewriter, loc, pair,
                                               vals[r + i],
                                               i32Constant(rewriter, loc, i));
        Value old = emitter.rmw(tile::RMWOp::FAdd, ptrs[r], pair, pred);
        if (plan->needOld)
          for (int i = 0; i < 2; ++i)
            olds[r + i] = LLVM::ExtractElementOp::create(
                rewriter, loc, old, i32Constant(rewriter, loc, i));
        ++r;
        continue;
      }
      olds[r] = emitter.rmw(op.getRmwOp(), ptrs[r], vals[r], pred);
    }
    return finishAtomic(op, *plan, lowering, std::move(olds), threadPred,
                        rewriter);
  }
};

struct AtomicCASOpConversion : public TargetPattern<tile::AtomicCASOp> {
  using TargetPattern<tile::AtomicCASOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<AtomicPlan> plan =
        planAtomic(op, adaptor.getPtr(), *getTypeConverter(), target, rewriter);
    if (failed(plan))
      return failure();
    SmallVector<Value> cmps = elementsOf(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = elementsOf(rewriter, loc, adaptor.getVal());
    AtomicLowering lowering(op, plan->own, target, rewriter);
    AtomicEmitter emitter(rewriter, loc, target, op.getSem(), op.getScope(),
                          plan->needOld);
    Value threadPred = lowering.threadPredicate();
    SmallVector<Value> olds(plan->ptrs.size());
    for (size_t r = 0; r < plan->ptrs.size(); ++r)
      if (plan->own.canonical[r] == int32_t(r))
        olds[r] = emitter.cas(plan->ptrs[r], cmps[r], vals[r], threadPred);
    return finishAtomic(op, *plan, lowering, std::move(olds), threadPred,
                        rewriter);
  }
};

/// Whether the program has more than one thread, so that an ordering of
/// the program's accesses needs a barrier besides the atomic.
bool hasSeveralThreads(Operation *op) {
  return tilegpu::getNumWarps(op) * tilegpu::getThreadsPerWarp(op) > 1;
}

/// The old values of the owned registers `olds` (the others null), given to
/// every copy and as the op's result; with `acquire`, the program's threads
/// wait for the owners' loads.
LogicalResult replaceWithLoaded(Operation *op, Type resultType,
                                SmallVector<Value> olds, const Ownership &own,
                                AtomicLowering &lowering, Value threadPred,
                                bool acquire, const TargetInfo &target,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  bool used = !op->getResult(0).use_empty();
  // Bits narrower than a byte travel through shared memory as bytes
  // (register 0 always has an owner).
  bool widen = olds.front().getType().isInteger(1) &&
               own.broadcast == Broadcast::Shared;
  if (used && own.broadcast != Broadcast::None) {
    for (Value &v : olds)
      if (v && widen)
        v = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI8Type(), v);
    FailureOr<SmallVector<Value>> results =
        lowering.broadcast(std::move(olds), threadPred);
    if (failed(results))
      return failure();
    olds = std::move(*results);
    for (Value &v : olds)
      if (widen)
        v = LLVM::TruncOp::create(rewriter, loc, rewriter.getI1Type(), v);
  } else {
    for (size_t r = 0; r < olds.size(); ++r)
      olds[r] = olds[own.canonical[r]];
  }
  // The shared-memory broadcast ends with a barrier after the owners'
  // loads; elsewhere an acquire needs one of its own.
  bool barrierDone = used && own.broadcast == Broadcast::Shared;
  if (acquire && !barrierDone && hasSeveralThreads(op))
    target.barrier(rewriter, loc);
  if (!used) {
    rewriter.eraseOp(op);
    return success();
  }
  rewriter.replaceOp(op, isa<LLVM::LLVMStructType>(resultType)
                             ? packStruct(rewriter, loc, resultType, olds)
                             : olds.front());
  return success();
}

struct AtomicLoadOpConversion : public TargetPattern<tile::AtomicLoadOp> {
  using TargetPattern<tile::AtomicLoadOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return rewriter.notifyMatchFailure(op, "unconvertible types");
    FailureOr<Ownership> own = ownershipOrError(op);
    if (failed(own))
      return failure();

    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    AtomicLowering lowering(op, *own, target, rewriter);
    AtomicEmitter emitter(rewriter, loc, target, op.getSem(), op.getScope(),
                          /*needOld=*/true);
    Value threadPred = lowering.threadPredicate();
    SmallVector<Value> olds(ptrs.size());
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (own->canonical[r] == int32_t(r))
        olds[r] = emitter.load(
            ptrs[r], elementType,
            andValues(rewriter, loc, threadPred,
                      masks.empty() ? Value() : masks[r]));
    return replaceWithLoaded(op, resultType, std::move(olds), *own, lowering,
                             threadPred,
                             op.getSem() == tile::MemSemantic::Acquire, target,
                             rewriter);
  }
};

struct AtomicStoreOpConversion : public TargetPattern<tile::AtomicStoreOp> {
  using TargetPattern<tile::AtomicStoreOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Ownership> own = ownershipOrError(op);
    if (failed(own))
      return failure();

    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> vals = elementsOf(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    // The program's earlier accesses, by all its threads, come first.
    if (op.getSem() == tile::MemSemantic::Release && hasSeveralThreads(op))
      target.barrier(rewriter, loc);
    AtomicLowering lowering(op, *own, target, rewriter);
    AtomicEmitter emitter(rewriter, loc, target, op.getSem(), op.getScope(),
                          /*needOld=*/false);
    Value threadPred = lowering.threadPredicate();
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (own->canonical[r] == int32_t(r))
        emitter.store(ptrs[r], vals[r],
                      andValues(rewriter, loc, threadPred,
                                masks.empty() ? Value() : masks[r]));
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtomicPollOpConversion : public TargetPattern<tile::AtomicPollOp> {
  using TargetPattern<tile::AtomicPollOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicPollOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unconvertible types");
    FailureOr<Ownership> own = ownershipOrError(op);
    if (failed(own))
      return failure();

    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> expected =
        elementsOf(rewriter, loc, adaptor.getExpected());
    Value timeout = adaptor.getTimeout();
    Value start;
    if (timeout)
      start = target.globalTimer(rewriter, loc);
    AtomicLowering lowering(op, *own, target, rewriter);
    AtomicEmitter emitter(rewriter, loc, target, op.getSem(), op.getScope(),
                          /*needOld=*/true);
    Value threadPred = lowering.threadPredicate();
    SmallVector<Value> matched(ptrs.size());
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (own->canonical[r] == int32_t(r))
        matched[r] =
            emitter.poll(ptrs[r], expected[r], start, timeout, threadPred);
    return replaceWithLoaded(op, resultType, std::move(matched), *own,
                             lowering, threadPred,
                             op.getSem() == tile::MemSemantic::Acquire, target,
                             rewriter);
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkAtomicLowering(Operation *op) {
  if (!isAtomicOp(op))
    return success();
  std::string reason;
  if (failed(analyseOwnership(op, getAtomicPtr(op).getType(), reason)))
    return op->emitOpError(reason);
  return success();
}

int64_t mlir::terrazzo::getAtomicScratchBytes(Operation *op) {
  if (!isAtomicOp(op) || op->getNumResults() == 0 ||
      op->getResult(0).use_empty())
    return 0;
  std::string reason;
  Type ptrType = getAtomicPtr(op).getType();
  FailureOr<Ownership> own = analyseOwnership(op, ptrType, reason);
  if (failed(own) || own->broadcast != Broadcast::Shared)
    return 0;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  int64_t elements = 1;
  if (auto tensor = dyn_cast<RankedTensorType>(ptrType))
    elements = tensor.getNumElements();
  return elements * scratchElementBytes(element);
}

void mlir::terrazzo::populateAtomicOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo, const TargetInfo &target) {
  patterns.add<AtomicRMWOpConversion>(converter, axisInfo, target);
  patterns.add<AtomicCASOpConversion>(converter, target);
  patterns.add<AtomicLoadOpConversion, AtomicStoreOpConversion,
               AtomicPollOpConversion>(converter, target);
}
