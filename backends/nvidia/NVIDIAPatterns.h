// Lowering patterns only the NVIDIA backend has.
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
class LLVMTypeConverter;
} // namespace mlir

namespace mlir::terrazzo {

class TileGPUTypeConverter;

/// Scalar float ops with a better PTX form than LLVM's default (see
/// FastMathOpToLLVM.cpp); above the upstream arith patterns.
void populateNVIDIAFastMathPatterns(const LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    PatternBenefit benefit);

/// Conversions with fp8 (f8E4M3FN, f8E5M2) on either side: tile.fp_to_fp,
/// arith.extf and arith.truncf, through the cvt instructions of sm_89+
/// (see FP8ConversionToLLVM.cpp); and fp8 constants as their bytes.
void populateFP8ConversionPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns);
/// Emits an error on an fp8 conversion the lowering cannot emit for a
/// target of compute capability `capability` (times ten): before sm_89,
/// f64 to fp8, or a rounding mode other than to-nearest-even; success for
/// every other op.
LogicalResult checkFP8Lowering(Operation *op, unsigned capability);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
