// The lowering of tilegpu IR to the LLVM dialect that every GPU target
// shares; target specifics come in through TargetInfo.
#ifndef TERRAZZO_BACKENDS_COMMON_PATTERNS_H
#define TERRAZZO_BACKENDS_COMMON_PATTERNS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace mlir::tilegpu {
enum class BarrierScope : uint32_t;
} // namespace mlir::tilegpu

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TargetInfo;
class TileGPUTypeConverter;

/// The module's dynamic shared memory, declared by the lowering when some op
/// needs scratch there, and the module attribute (i32) that records how many
/// bytes the kernel must be launched with.
inline constexpr const char *kSharedMemoryGlobalName = "global_smem";


/// Bytes one element of a tensor of `elementType` (a tile-level scalar or
/// pointer type) takes in shared-memory scratch.
unsigned scratchElementBytes(Type elementType);
/// The shared-memory scratch `op` needs when lowered: a convert_layout that
/// moves data between threads needs its whole tensor; 0 for everything else.
int64_t getConvertLayoutScratchBytes(Operation *op);
/// The threads a convert_layout through shared memory waits for between
/// its stores and its loads: those of one warp when every element goes
/// back to the warp that stored it, of one warp group when to its group,
/// else the program's (and always in rounds).
tilegpu::BarrierScope getConvertLayoutBarrierScope(Operation *op);

/// The shared-memory scratch a tile.reduce needs when lowered: its partial
/// results, one per output element and warp along the axis, when warps
/// hold different parts of the axis; 0 otherwise.
int64_t getReduceScratchBytes(Operation *op);

/// The shared-memory scratch a tile.atomic_rmw or tile.atomic_cas needs
/// when lowered: when its old values are used and reach the copies of an
/// element in other warps (or lanes that hold it in other registers), one
/// slot per element of the tensor (one for a scalar atomic with several
/// warps); 0 otherwise.
int64_t getAtomicScratchBytes(Operation *op);
/// Emits an error on an atomic op whose pointers' layout the lowering
/// cannot handle; success for every other op.
LogicalResult checkAtomicLowering(Operation *op);

/// The shared-memory scratch a tile.scan needs when lowered: for each run of
/// warps along the axis, one total per block of that level and warp of the
/// run, for every source; the largest such need; 0 when the axis stays in
/// each warp.
int64_t getScanScratchBytes(Operation *op);
/// Emits an error on a tile.scan whose layouts the lowering cannot handle;
/// success for every other op.
LogicalResult checkScanLowering(Operation *op);

/// `axisInfo` proves some registers equal, which then share one op. fp8
/// constants are their bytes.
void populateElementwiseOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ModuleAxisInfoAnalysis &axisInfo);
/// The element types of `op` when it is a conversion (tile.fp_to_fp,
/// arith.extf, arith.truncf) with an fp8 type on either side; else nullopt.
std::optional<std::pair<FloatType, FloatType>> getFP8Conversion(Operation *op);
/// Emits an error on a conversion to fp8 that no target rounds once: from
/// f64, or in a rounding mode other than to-nearest-even; success for
/// every other op.
LogicalResult checkFP8Rounding(Operation *op);
/// A vendor's fp8 conversion of a thread's `values` (fp8 as its bytes, i8)
/// of type `from` to `to`; no values where it has none (its check has
/// reported the op).
using FP8Converter = std::function<SmallVector<Value>(
    RewriterBase &rewriter, Location loc, FloatType from, FloatType to,
    ArrayRef<Value> values)>;
/// The fp8 conversions (getFP8Conversion) through `convert`, element by
/// element, above the generic elementwise and tile.fp_to_fp lowerings.
void populateFP8ConversionOpPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const FP8Converter &convert);
/// Emits an error on each tile.extern_elementwise that calls a symbol with
/// other argument or result types than an earlier call in `module` (one
/// declaration serves them all), and on each tile.inline_asm whose tensors
/// are not all in one layout.
LogicalResult checkExternLowering(ModuleOp module);
/// tile.extern_elementwise as a call of its function per element (declared
/// in the module by its symbol); tile.inline_asm as llvm.inline_asm per
/// `pack` elements.
void populateExternOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateShapeOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);
/// Emits an error on a trans, reshape, join or split whose result layout
/// is not the one inferred from its source's (dialects/TileGPU/Layout/
/// ShapeLayouts.h), which the lowering requires; success for other ops.
LogicalResult checkShapeTransformLowering(Operation *op);
/// trans, reshape, join and split, as relabellings of registers (their
/// results must have the layouts inferred from their sources').
void populateShapeTransformOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                            RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const TargetInfo &target);
void populateScanOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &target);
void populatePointerOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ModuleAxisInfoAnalysis &axisInfo,
                                    const TargetInfo &target);
void populateAtomicOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ModuleAxisInfoAnalysis &axisInfo,
                                    const TargetInfo &target);
void populateGridOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &target);
void populateBarrierOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const TargetInfo &target);
/// Emits an error on a tile.dot whose operands are not in the FMA layouts
/// of its result's layout; success for every other op.
LogicalResult checkDotLowering(Operation *op);
/// tile.dot as fused multiply-adds (no tensor cores).
void populateDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateDebugOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);
/// local_alloc, local_load, local_store, local_dealloc and memdesc_index.
void populateSharedMemoryOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const TargetInfo &target);
/// How many consecutive registers of `ptr` (a tensor of pointers to
/// `element`) one global access may cover: as wide as the layout, the
/// pointers' contiguity and alignment (AxisInfo), the mask's constancy and
/// 16 bytes allow.
unsigned getGlobalAccessWidth(const ModuleAxisInfoAnalysis &axisInfo,
                              Value ptr, Value mask, Type element);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_PATTERNS_H
