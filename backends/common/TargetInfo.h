// What the shared lowering asks of a GPU vendor (DESIGN.md §5): special
// registers, barriers, warp shuffles, kernel marking, device-side printing
// and assertions. NVIDIA and AMD implement it; everything else in
// backends/common is shared.
#ifndef TERRAZZO_BACKENDS_COMMON_TARGETINFO_H
#define TERRAZZO_BACKENDS_COMMON_TARGETINFO_H

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir {
class ConversionPatternRewriter;
class TypeConverter;
} // namespace mlir
namespace mlir::tilegpu {
enum class BarrierScope : uint32_t;
} // namespace mlir::tilegpu

namespace mlir::terrazzo {

class TargetInfo {
public:
  virtual ~TargetInfo();

  /// The index of this program instance (block) along grid dimension `dim`.
  virtual Value programId(RewriterBase &rewriter, Location loc,
                          unsigned dim) const = 0;
  /// The number of program instances along grid dimension `dim`.
  virtual Value numPrograms(RewriterBase &rewriter, Location loc,
                            unsigned dim) const = 0;
  /// The thread's index within its program instance (i32).
  virtual Value threadId(RewriterBase &rewriter, Location loc) const = 0;

  /// Waits until every thread of the program instance reaches this point,
  /// with their shared-memory accesses before it visible to all after it.
  virtual void barrier(RewriterBase &rewriter, Location loc) const = 0;
  /// The same among the threads of `scope` (tilegpu.barrier's): those of
  /// the calling thread's warp group or warp, each passing on its own. A
  /// target without narrower barriers waits for the program instance,
  /// which is stronger (the default).
  virtual void barrier(RewriterBase &rewriter, Location loc,
                       tilegpu::BarrierScope scope) const {
    barrier(rewriter, loc);
  }

  /// The i32 `value` of lane `lane` (i32) of the calling thread's warp, in
  /// which every lane takes part.
  virtual Value shuffleIdx(RewriterBase &rewriter, Location loc, Value value,
                           Value lane, unsigned warpSize) const = 0;

  /// The i32 `value` of the lane whose index is the calling lane's XOR
  /// `mask` (a butterfly shuffle), in which every lane takes part.
  virtual Value shuffleXor(RewriterBase &rewriter, Location loc, Value value,
                           unsigned mask, unsigned warpSize) const = 0;

  /// `value`, a scalar (integer, float or pointer) that every lane of the
  /// calling warp holds equal -- a scalar load, the total of a reduction --
  /// in a form the code generator can tell is the same in every lane, in
  /// which every lane takes part; `value` itself (the default) where the
  /// target gains nothing from knowing it.
  virtual Value warpUniform(RewriterBase &rewriter, Location loc, Value value,
                            unsigned warpSize) const {
    return value;
  }

  /// A warp's cooperative load of `num` (1, 2 or 4) 8 x 8 matrices of
  /// 16-bit elements from shared memory, each lane giving the address of one
  /// 16-byte row (lanes 8i..8i+7 the rows of matrix i); lane l receives, of
  /// matrix i, the 32-bit word at row l / 4, columns 2 (l % 4) and
  /// 2 (l % 4) + 1 (of the transposed matrix when `transposed`). Empty when
  /// the target has no such instruction.
  virtual SmallVector<Value> loadMatrices(RewriterBase &rewriter, Location loc,
                                          Value rowAddress, unsigned num,
                                          bool transposed) const {
    return {};
  }

  /// Whether storeMatrices exists on this target.
  virtual bool hasMatrixStores() const { return false; }
  /// The inverse of loadMatrices (not transposed) with num = words.size()
  /// (1, 2 or 4): lane l gives the address of row l % 8 of matrix l / 8 and
  /// word i of each lane is its part of matrix i. Only where
  /// hasMatrixStores().
  virtual void storeMatrices(RewriterBase &rewriter, Location loc,
                             Value rowAddress, ArrayRef<Value> words) const {}

  /// select(condition, a, b) on i32 words, as one instruction the code
  /// generator will not narrow (see selectScanValue in ScanOpToLLVM.cpp).
  virtual Value selectWord(RewriterBase &rewriter, Location loc,
                           Value condition, Value a, Value b) const {
    return LLVM::SelectOp::create(rewriter, loc, condition, a, b);
  }

  /// Turns `func` into a kernel entry point launched with `numThreads`
  /// threads per program instance.
  virtual void markKernel(LLVM::LLVMFuncOp func, unsigned numThreads) const = 0;
  /// The most bytes of parameters a launch passes a kernel, if the target
  /// has such a limit (a kernel taking a tensor by value can exceed it).
  virtual std::optional<uint64_t> maxKernelParameterBytes() const {
    return std::nullopt;
  }

  /// Prints `prefix` followed by `values` (scalars of LLVM types; signedness
  /// per value) from the calling thread.
  virtual LogicalResult printf(RewriterBase &rewriter, Location loc,
                               StringRef format, ValueRange values) const = 0;

  /// A load of `type` (a scalar or vector of at most 16 bytes) from global
  /// `ptr` with a cache modifier and/or eviction hint, neither of which LLVM
  /// IR can express. Called only when at least one is set.
  virtual Value loadWithHints(RewriterBase &rewriter, Location loc, Type type,
                              Value ptr,
                              std::optional<tile::CacheModifier> cache,
                              std::optional<tile::EvictionPolicy> evict) const = 0;
  /// The store counterpart of loadWithHints.
  virtual void storeWithHints(RewriterBase &rewriter, Location loc, Value value,
                              Value ptr,
                              std::optional<tile::CacheModifier> cache,
                              std::optional<tile::EvictionPolicy> evict) const = 0;

  /// A load of `type` (as loadWithHints) that happens only where `mask`
  /// (i1) holds, giving `other` (of `type`; zero when null) elsewhere, as
  /// one predicated instruction; null when the target has none, and the
  /// caller branches around a plain load instead.
  virtual Value loadGlobal(RewriterBase &rewriter, Location loc, Type type,
                           Value ptr, Value mask, Value other,
                           std::optional<tile::CacheModifier> cache,
                           std::optional<tile::EvictionPolicy> evict) const {
    return Value();
  }
  /// The store counterpart of loadGlobal; false when the target has none.
  virtual bool storeGlobal(RewriterBase &rewriter, Location loc, Value value,
                           Value ptr, Value mask,
                           std::optional<tile::CacheModifier> cache,
                           std::optional<tile::EvictionPolicy> evict) const {
    return false;
  }

  /// Given the index of one of a thread's registers of an access and
  /// whether it is accessed (i1, or null for always), an address of its
  /// element at which the access does nothing where it is not.
  using MaskedAddresses = std::function<Value(unsigned reg, Value active)>;
  /// Addresses through which `op` (a tile.store, tile.atomic_rmw or
  /// tile.atomic_cas of global memory) may access its elements instead of
  /// its converted pointers, so that a masked store needs no branch (AMD:
  /// buffer pointers, out of range where masked); null where the target
  /// has none for `op`, and the caller uses the pointers, branching around
  /// the accesses a mask leaves out. Atomics branch on their masks anyway
  /// (their old values need it).
  virtual MaskedAddresses maskedAddresses(ConversionPatternRewriter &rewriter,
                                          const TypeConverter &converter,
                                          Operation *op) const {
    return {};
  }

  /// The LLVM syncscope of atomics at `scope` (the target's names; the
  /// system is LLVM's default scope, "").
  virtual StringRef syncScope(tile::MemScope scope) const = 0;

  /// Whether atomicRMW does `op` on `type` in one instruction. `type` is an
  /// LLVM integer (i32, i64) for And/Or/Xor/Add/Max/Min/UMax/UMin/Xchg
  /// (Max/Min compare as signed integers here: the shared lowering builds
  /// float max/min from them), or a float (f16, bf16, f32, f64) or a vector
  /// of two f16 or bf16 for FAdd. Anything else goes through a
  /// compare-and-swap loop (see backends/common/AtomicOpToLLVM.cpp).
  virtual bool hasAtomicRMW(tile::RMWOp op, Type type) const = 0;
  /// One atomic read-modify-write of global `ptr` with `val` (see
  /// hasAtomicRMW for the types), with memory ordering `sem` at `scope`.
  /// Returns the old value; with `needOld` false, the target may use an
  /// instruction that returns nothing, and the result is null.
  virtual Value atomicRMW(RewriterBase &rewriter, Location loc, tile::RMWOp op,
                          Value ptr, Value val, tile::MemSemantic sem,
                          tile::MemScope scope, bool needOld) const = 0;
  /// Atomic compare-and-swap of the i16, i32 or i64 at global `ptr`:
  /// stores `val` where the memory equals `cmp`; returns the old value.
  virtual Value atomicCAS(RewriterBase &rewriter, Location loc, Value ptr,
                          Value cmp, Value val, tile::MemSemantic sem,
                          tile::MemScope scope) const = 0;

  /// The GPU's global timer in nanoseconds (i64; tilegpu.global_timer,
  /// tile.atomic_poll's timeout).
  virtual Value globalTimer(RewriterBase &rewriter, Location loc) const = 0;

  /// The index (i32) of the processor (NVIDIA SM, AMD compute unit) that
  /// runs the calling program instance (tilegpu.processor_id).
  virtual Value processorId(RewriterBase &rewriter, Location loc) const = 0;

  /// Waits for the grids this one depends on through a programmatic
  /// dependent launch (tilegpu.grid_dependency_wait); nothing where the
  /// target has no such launch.
  virtual void waitForGridDependencies(RewriterBase &rewriter,
                                       Location loc) const {}
  /// Lets this grid's programmatic dependents start launching
  /// (tilegpu.grid_dependency_launch); nothing where the target has no such
  /// launch.
  virtual void launchGridDependents(RewriterBase &rewriter,
                                    Location loc) const {}

  /// Starts bringing the global memory at `ptr` (an access's address) into
  /// the L2 cache where `mask` (i1, or null: always) holds, waiting for
  /// nothing (tilegpu.prefetch_global); nothing where the target has no
  /// such instruction.
  virtual void prefetchGlobal(RewriterBase &rewriter, Location loc, Value ptr,
                              Value mask) const {}

  /// Stops the kernel with `message` when `failed` (i1) is true.
  virtual LogicalResult assertFail(RewriterBase &rewriter, Location loc,
                                   Value failed, StringRef message,
                                   StringRef file, unsigned line,
                                   StringRef function) const = 0;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_TARGETINFO_H
