// The NVIDIA side of the shared lowering: NVVM special registers, kernel
// attributes, vprintf and __assertfail.
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H

#include "backends/common/TargetInfo.h"

namespace mlir::terrazzo {

class NVIDIATargetInfo : public TargetInfo {
public:
  Value programId(RewriterBase &rewriter, Location loc,
                  unsigned dim) const override;
  Value numPrograms(RewriterBase &rewriter, Location loc,
                    unsigned dim) const override;
  Value threadId(RewriterBase &rewriter, Location loc) const override;
  void barrier(RewriterBase &rewriter, Location loc) const override;
  Value shuffleIdx(RewriterBase &rewriter, Location loc, Value value,
                   Value lane, unsigned warpSize) const override;
  Value shuffleXor(RewriterBase &rewriter, Location loc, Value value,
                   unsigned mask, unsigned warpSize) const override;
  void markKernel(LLVM::LLVMFuncOp func, unsigned numThreads) const override;
  LogicalResult printf(RewriterBase &rewriter, Location loc, StringRef format,
                       ValueRange values) const override;
  Value loadWithHints(RewriterBase &rewriter, Location loc, Type type,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  void storeWithHints(RewriterBase &rewriter, Location loc, Value value,
                      Value ptr, std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) const override;
  LogicalResult assertFail(RewriterBase &rewriter, Location loc, Value failed,
                           StringRef message, StringRef file, unsigned line,
                           StringRef function) const override;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIATARGETINFO_H
