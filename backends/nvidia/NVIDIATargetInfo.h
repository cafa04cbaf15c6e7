// The NVIDIA side of the shared lowering: NVVM special registers, kernel
// attributes, vprintf and __assertfail.
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H

#include "backends/common/TargetInfo.h"

namespace mlir::terrazzo {

class NVIDIATargetInfo : public TargetInfo {
public:
  /// Named barriers: 0 is the program's (or, in a warp-specialized
  /// program, the consumers'); the warp groups' turns take the next ones
  /// (WarpGroupTurnToLLVM.cpp, at most seven); the warp groups' own
  /// barriers 8 to 14; a warp_specialize's producer has the last.
  static constexpr int64_t kConsumerBarrier = 0;
  static constexpr int64_t kProducerBarrier = 15;
  /// Warp group g's own barrier (tilegpu.barrier scope warp_group): after
  /// the turns' (at most kMaxGroupBarriers groups; more wait for the
  /// program's instead).
  static constexpr int64_t kFirstGroupBarrier = 8;
  static constexpr int64_t kMaxGroupBarriers =
      kProducerBarrier - kFirstGroupBarrier;

  /// `capability`: the CUDA compute capability times ten (80, 90, ...);
  /// it decides which atomic instructions, matrix stores and grid
  /// dependency controls exist.
  explicit NVIDIATargetInfo(unsigned capability = 90) : capability(capability) {}

  Value programId(RewriterBase &rewriter, Location loc,
                  unsigned dim) const override;
  Value numPrograms(RewriterBase &rewriter, Location loc,
                    unsigned dim) const override;
  Value threadId(RewriterBase &rewriter, Location loc) const override;
  /// %globaltimer.
  Value globalTimer(RewriterBase &rewriter, Location loc) const override;
  /// %smid.
  Value processorId(RewriterBase &rewriter, Location loc) const override;
  /// griddepcontrol.wait on sm_90 and newer, nothing before (no
  /// programmatic dependent launch there).
  void waitForGridDependencies(RewriterBase &rewriter,
                               Location loc) const override;
  /// griddepcontrol.launch_dependents on sm_90 and newer, nothing before.
  void launchGridDependents(RewriterBase &rewriter,
                            Location loc) const override;
  /// prefetch.global.L2, predicated on the mask (PTXInstructions.cpp).
  void prefetchGlobal(RewriterBase &rewriter, Location loc, Value ptr,
                      Value mask) const override;
  void barrier(RewriterBase &rewriter, Location loc) const override;
  /// A warp's: bar.warp.sync; a warp group's: named barrier
  /// kFirstGroupBarrier + g of 128 threads for warp group g (a branch per
  /// group, the barrier's number a constant).
  void barrier(RewriterBase &rewriter, Location loc,
               tilegpu::BarrierScope scope) const override;
  /// Runs `body(g)` in a branch of warp group g's own, for each group g
  /// below `groups` that `wanted(g)`: the group's index computed once,
  /// warp-uniform, and g a constant in each branch (a named barrier's
  /// number in a register makes ptxas reserve all 16).
  static void inEachWarpGroup(RewriterBase &rewriter, Location loc,
                              const TargetInfo &target, int64_t groups,
                              llvm::function_ref<bool(int64_t)> wanted,
                              llvm::function_ref<void(int64_t)> body);
  /// `barrier`, for patterns that hold no TargetInfo.
  static void programBarrier(RewriterBase &rewriter, Location loc);
  /// Inline PTX `text` with side effects (PTXInstructions.cpp), its result
  /// of `resultType` (null: none, and a null value).
  static Value inlinePTX(RewriterBase &rewriter, Location loc, Type resultType,
                         ValueRange operands, StringRef text,
                         StringRef constraints);
  Value shuffleIdx(RewriterBase &rewriter, Location loc, Value value,
                   Value lane, unsigned warpSize) const override;
  /// Lane 0's value broadcast by shfl.sync.idx, which ptxas knows to be
  /// warp-uniform: values computed from it, and loops bounded by it, can
  /// then live in uniform registers (see the definition).
  Value warpUniform(RewriterBase &rewriter, Location loc, Value value,
                    unsigned warpSize) const override;
  Value selectWord(RewriterBase &rewriter, Location loc, Value condition,
                   Value a, Value b) const override;
  /// stmatrix: sm_90 and newer.
  bool hasMatrixStores() const override { return capability >= 90; }
  void storeMatrices(RewriterBase &rewriter, Location loc, Value rowAddress,
                     ArrayRef<Value> words) const override;
  SmallVector<Value> loadMatrices(RewriterBase &rewriter, Location loc,
                                  Value rowAddress, unsigned num,
                                  bool transposed) const override;
  Value shuffleXor(RewriterBase &rewriter, Location loc, Value value,
                   unsigned mask, unsigned warpSize) const override;
  void markKernel(LLVM::LLVMFuncOp func, unsigned numThreads) const override;
  /// 32764 bytes: CUDA 12.1 and later, on every architecture Terrazzo
  /// targets (sm_70 and newer; 4096 before).
  std::optional<uint64_t> maxKernelParameterBytes() const override {
    return 32764;
  }
  LogicalResult printf(RewriterBase &rewriter, Location loc, StringRef format,
                       ValueRange values) const override;
  Value loadWithHints(RewriterBase &rewriter, Location loc, Type type,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  void storeWithHints(RewriterBase &rewriter, Location loc, Value value,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  Value loadGlobal(RewriterBase &rewriter, Location loc, Type type, Value ptr,
                   Value mask, Value other,
                   std::optional<tile::CacheModifier> cache,
                   std::optional<tile::EvictionPolicy> evict) const override;
  bool storeGlobal(RewriterBase &rewriter, Location loc, Value value,
                   Value ptr, Value mask,
                   std::optional<tile::CacheModifier> cache,
                   std::optional<tile::EvictionPolicy> evict) const override;
  LogicalResult assertFail(RewriterBase &rewriter, Location loc, Value failed,
                           StringRef message, StringRef file, unsigned line,
                           StringRef function) const override;
  /// NVPTX's names: "block", "device".
  StringRef syncScope(tile::MemScope scope) const override;
  bool hasAtomicRMW(tile::RMWOp op, Type type) const override;
  Value atomicRMW(RewriterBase &rewriter, Location loc, tile::RMWOp op,
                  Value ptr, Value val, tile::MemSemantic sem,
                  tile::MemScope scope, bool needOld) const override;
  Value atomicCAS(RewriterBase &rewriter, Location loc, Value ptr, Value cmp,
                  Value val, tile::MemSemantic sem,
                  tile::MemScope scope) const override;

private:
  unsigned capability;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H
