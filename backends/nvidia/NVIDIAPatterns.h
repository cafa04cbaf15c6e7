// Lowering patterns only the NVIDIA backend has.
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
class LLVMTypeConverter;
} // namespace mlir

namespace mlir::terrazzo {

/// Scalar float ops with a better PTX form than LLVM's default (see
/// FastMathOpToLLVM.cpp); above the upstream arith patterns.
void populateNVIDIAFastMathPatterns(const LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    PatternBenefit benefit);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
