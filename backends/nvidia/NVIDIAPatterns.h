// Lowering patterns only the NVIDIA backend has.
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class ConversionTarget;
class LLVMTypeConverter;
} // namespace mlir

namespace mlir::terrazzo {

class TileGPUTypeConverter;

/// Scalar float ops with a better PTX form than LLVM's default (see
/// FastMathOpToLLVM.cpp) on compute capability `capability`; above the
/// upstream arith patterns.
void populateNVIDIAFastMathPatterns(const LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    unsigned capability,
                                    PatternBenefit benefit);

/// arith.truncf of float32 tensors to float16 or bfloat16, two elements per
/// cvt (sm_80+; see PackedTruncationToLLVM.cpp).
void populatePackedTruncationPatterns(TileGPUTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// Conversions with fp8 (f8E4M3FN, f8E5M2) on either side: tile.fp_to_fp,
/// arith.extf and arith.truncf, through the cvt instructions of sm_89+
/// (see FP8ConversionToLLVM.cpp).
void populateFP8ConversionPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns);
/// Emits an error on an fp8 conversion the lowering cannot emit for a
/// target of compute capability `capability` (times ten): before sm_89,
/// f64 to fp8, or a rounding mode other than to-nearest-even; success for
/// every other op.
LogicalResult checkFP8Lowering(Operation *op, unsigned capability);

class ModuleAxisInfoAnalysis;
class TargetInfo;
class TileGPUTypeConverter;

/// tilegpu.async_copy_global_to_local, async_commit_group and async_wait as
/// cp.async (see AsyncCopyOpToLLVM.cpp).
void populateAsyncCopyOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const ModuleAxisInfoAnalysis &axisInfo,
                                       const TargetInfo &target);
/// Emits an error on every asynchronous-copy op of `module` that cannot be
/// lowered: any before sm_80 (`capability` is the compute capability times
/// ten), a copy with a nonzero `other` or whose vectors would be narrower
/// than 4 bytes. Needs AxisInfo, so it runs after the other checks.
LogicalResult checkAsyncCopyLowering(ModuleOp module, unsigned capability,
                                     const ModuleAxisInfoAnalysis &axisInfo);

/// tile.dot whose result is in an mma.sync layout (#tilegpu.nvidia_mma
/// version 2) as nvvm.mma.sync instructions (see MmaDotOpToLLVM.cpp).
void populateMmaDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Emits an error on a tile.dot in an mma.sync layout for a target of
/// compute capability `capability` (times ten) below sm_80, whose tensor
/// cores have no m16n8k16; success otherwise.
LogicalResult checkMmaLowering(Operation *op, unsigned capability);

/// tilegpu.warp_group_dot as wgmma.mma_async on sm_90a (see
/// WgmmaDotOpToLLVM.cpp).
void populateWgmmaDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// Emits an error on a warp_group_dot or warp_group_dot_wait for a target
/// of compute capability `capability` (times ten) other than sm_90, the
/// only one with wgmma; success otherwise.
LogicalResult checkWgmmaLowering(Operation *op, unsigned capability);

/// tilegpu.warp_group_turn_wait / _pass on named barriers (see
/// WarpGroupTurnToLLVM.cpp).
void populateWarpGroupTurnPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);

/// The TMA and mbarrier ops (tensormap_create, mbarrier_*, async_tma_*,
/// fence_async_shared) on sm_90 (see TmaOpToLLVM.cpp).
/// tilegpu.warp_specialize: its regions converted in place during the
/// conversion (the op legal once they are), so that the ops inside know
/// their partition; lowerWarpSpecialize finishes it afterwards.
void populateWarpSpecializePatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns);
void addWarpSpecializeLegality(ConversionTarget &target);
LogicalResult lowerWarpSpecialize(ModuleOp module);
/// tilegpu.warp_specialize on sm_90 or newer (setmaxnreg).
LogicalResult checkWarpSpecializeLowering(Operation *op, unsigned capability);

void populateTmaOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const TargetInfo &target);
/// Emits an error on a TMA or mbarrier op for a target of compute
/// capability `capability` (times ten) below sm_90; success otherwise.
LogicalResult checkTmaLowering(Operation *op, unsigned capability);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIAPATTERNS_H
