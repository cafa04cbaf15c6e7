// The AMD backend's own conversion patterns (ConvertTileGPUToROCDL.cpp
// adds them to the common ones).
#ifndef TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
#define TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H

#include "backends/amd/BufferAccess.h"
#include "backends/common/TargetInfo.h"
#include "target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TileGPUTypeConverter;

/// tile.dot in #tilegpu.amd_mfma layouts on the target's MFMA instructions
/// (MfmaDotOpToLLVM.cpp).
void populateMfmaDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ::terrazzo::Target &target);

/// tile.fp_to_fp, arith.extf and arith.truncf with an fp8 type (OCP's or
/// FNUZ) on either side, in integer arithmetic (FP8ConversionToLLVM.cpp):
/// from fp8 exactly, to fp8 rounded to nearest even and saturated.
void populateFP8ConversionToLLVMPatterns(TileGPUTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// The buffer pointers (address space 7) of the elements of `op` (a
/// tile.store or atomic at `address`), out of range where inactive: what
/// AMDTargetInfo::maskedAddresses gives the common lowering. The resource
/// (the loads' too) covers 2^31 - 1 bytes from the base (byte offsets are
/// 32-bit: a tensor accessed so must be smaller than 2 GiB, which the
/// base's tile.pointer_range says, as for Triton's buffer operations),
/// with CDNA's flags.
TargetInfo::MaskedAddresses
bufferAddresses(ConversionPatternRewriter &rewriter,
                const TypeConverter &converter, Operation *op,
                const BufferAddress &address);

/// The tile.loads of `accesses` as buffer loads (BufferOpsToLLVM.cpp), in
/// the vectors the common lowering would use: the offsets in bytes,
/// masked-off lanes at an out-of-range offset (the load returns 0; a
/// nonzero `other` is selected after it) instead of a branch.
/// Stores and atomics use the common lowering with buffer pointers
/// (AMDTargetInfo::maskedAddresses).
void populateBufferLoadToLLVMPatterns(TileGPUTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const ModuleAxisInfoAnalysis &axisInfo,
                                      const BufferAccesses &accesses);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
