// The AMD backend's own conversion patterns (ConvertTileGPUToROCDL.cpp
// adds them to the common ones).
#ifndef TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
#define TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H

#include "target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TileGPUTypeConverter;

/// tile.dot in #tilegpu.amd_mfma layouts on the target's MFMA instructions
/// (MfmaDotOpToLLVM.cpp).
void populateMfmaDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ::terrazzo::Target &target);

/// A load's pointers as one scalar base pointer (uniform over the program)
/// plus i32 element offsets known not to be negative.
struct BufferAddress {
  Value base;
  Value offsets;
};
using BufferLoads = llvm::DenseMap<Operation *, BufferAddress>;

/// The tile.loads of `module` that buffer loads can serve: plain (not
/// volatile, no cache hints) loads of a tensor of global memory through
/// `addptr(splat(base), offsets)` (maybe broadcast), the offsets i32 and
/// known not to be negative (isKnownNonNegative), the base a kernel
/// argument with `tile.pointer_range` of at most 32 bits
/// (hasSmallPointerRange: the tensor is smaller than 2 GiB) or such an
/// argument advanced by offsets that are not negative. Found before the
/// conversion, which replaces what the offsets are computed from.
BufferLoads findBufferLoads(ModuleOp module);

/// Those loads as buffer loads (BufferLoadToLLVM.cpp), in the vectors the
/// common lowering would use: a resource descriptor from the base (2^31 - 1
/// bytes), the offsets in bytes, masked-off lanes at an out-of-range offset
/// (the load returns 0; a nonzero `other` is selected after it) instead of
/// a branch. Byte offsets are 32-bit: a tensor read so must be smaller
/// than 2 GiB, which the base's tile.pointer_range says, as for Triton's
/// buffer loads.
void populateBufferLoadToLLVMPatterns(TileGPUTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const ModuleAxisInfoAnalysis &axisInfo,
                                      const BufferLoads &loads);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
