// What the shared lowering asks of a GPU vendor (DESIGN.md §5): special
// registers, kernel marking, device-side printing and assertions. NVIDIA and
// AMD implement it; everything else in backends/common is shared.
#ifndef TERRAZZO_BACKENDS_COMMON_TARGETINFO_H
#define TERRAZZO_BACKENDS_COMMON_TARGETINFO_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

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

  /// Turns `func` into a kernel entry point launched with `numThreads`
  /// threads per program instance.
  virtual void markKernel(LLVM::LLVMFuncOp func, unsigned numThreads) const = 0;

  /// Prints `prefix` followed by `values` (scalars of LLVM types; signedness
  /// per value) from the calling thread.
  virtual LogicalResult printf(RewriterBase &rewriter, Location loc,
                               StringRef format, ValueRange values) const = 0;

  /// Stops the kernel with `message` when `failed` (i1) is true.
  virtual LogicalResult assertFail(RewriterBase &rewriter, Location loc,
                                   Value failed, StringRef message,
                                   StringRef file, unsigned line,
                                   StringRef function) const = 0;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_TARGETINFO_H
