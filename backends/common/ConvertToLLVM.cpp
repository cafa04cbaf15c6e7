// The lowering to LLVM that every vendor shares: see ConvertToLLVM.h.
#include "backends/common/ConvertToLLVM.h"
#include "backends/SharedMemory.h"

#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

VendorLowering::~VendorLowering() = default;

namespace {
/// Pointer arguments known to be aligned tell LLVM so; the frontend's
/// divisibility and non-negativity hints are otherwise consumed by
/// AxisInfo and the range analyses, and pointer ranges by the passes and
/// the vendor's choices made before (buffer loads), so they go (LLVM's
/// translation would warn about each).
void lowerArgumentHints(ModuleOp module) {
  Builder builder(module.getContext());
  module.walk([&](func::FuncOp func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      func.removeArgAttr(i, tile::TileDialect::kPointerRangeAttrName);
      func.removeArgAttr(i, tile::TileDialect::kNonNegativeAttrName);
      auto hint = func.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::kDivisibilityAttrName);
      if (!hint)
        continue;
      func.removeArgAttr(i, tile::TileDialect::kDivisibilityAttrName);
      if (isa<tile::PointerType>(func.getArgument(i).getType()))
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        builder.getI64IntegerAttr(hint.getInt()));
    }
  });
}

/// Declares the module's dynamic shared-memory array when the allocation
/// (terrazzo-allocate-shared-memory, which also checks the target's limit)
/// gave the kernel some; every op that needs scratch must have been given
/// its place.
LogicalResult declareSharedMemory(ModuleOp module, int64_t sharedAlignment) {
  bool unallocated = false;
  module.walk([&](Operation *op) {
    if (getScratchBytes(op) &&
        !op->hasAttr(tilegpu::TileGPUDialect::kScratchOffsetAttrName)) {
      op->emitOpError("needs shared memory that was not allocated; run "
                      "terrazzo-allocate-shared-memory (and "
                      "terrazzo-insert-barriers) first");
      unallocated = true;
    }
  });
  if (unallocated)
    return failure();
  auto bytes = module->getAttrOfType<IntegerAttr>(
      tilegpu::TileGPUDialect::kSharedMemoryAttrName);
  if (!bytes || bytes.getInt() == 0)
    return success();
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToStart(module.getBody());
  if (!module.lookupSymbol(kSharedMemoryGlobalName)) {
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), 0);
    LLVM::GlobalOp::create(builder, module.getLoc(), type,
                           /*isConstant=*/false, LLVM::Linkage::External,
                           kSharedMemoryGlobalName, Attribute(),
                           /*alignment=*/sharedAlignment,
                           /*addrSpace=*/3);
  }
  return success();
}

} // namespace

LogicalResult mlir::terrazzo::convertTileGPUToLLVM(
    ModuleOp module, const ::terrazzo::Target &target,
    const VendorLowering &vendor) {
  MLIRContext *context = module.getContext();
  const TargetInfo &targetInfo = vendor.getTargetInfo();
  // Tensor constants lower only when uniform. Rejected here, once: a
  // failing pattern would let the upstream arith lowering turn them into
  // invalid LLVM constants of struct type instead.
  bool unsupported = false;
  module.walk([&](arith::ConstantOp op) {
    if (isa<RankedTensorType>(op.getType()) &&
        !isa<SplatElementsAttr>(op.getValue())) {
      op.emitOpError("non-uniform tensor constants cannot be lowered yet; "
                     "build the values with make_range and arithmetic "
                     "instead");
      unsupported = true;
    }
  });
  // Public functions with bodies become kernels (below), and a kernel
  // returns nothing: NVPTX would emit PTX that ptxas rejects.
  module.walk([&](func::FuncOp func) {
    if (func.isPublic() && !func.isExternal() && func.getNumResults()) {
      func.emitError("kernel '")
          << func.getName()
          << "' returns values; a kernel (a public function) must return "
             "nothing: store results through pointer arguments, or make "
             "it private to call it from a kernel";
      unsupported = true;
    }
  });
  // Ops whose lowering has not been written yet get one clear error each
  // rather than the conversion driver's "failed to legalize".
  module.walk([&](Operation *op) {
    if (failed(checkAtomicLowering(op)) || failed(checkDotLowering(op)))
      unsupported = true;
    if (failed(checkShapeTransformLowering(op)))
      unsupported = true;
    if (failed(checkScanLowering(op)))
      unsupported = true;
    if (failed(vendor.checkOp(op)))
      unsupported = true;
    if (failed(checkTypeLowering(op)))
      unsupported = true;
    if (isa<tile::MakeTensorDescOp, tile::DescLoadOp,
            tile::DescStoreOp>(op)) {
      op->emitOpError("cannot be lowered to ")
          << target.name << " by this version of Terrazzo yet";
      unsupported = true;
    }
  });
  if (failed(checkExternLowering(module)))
    unsupported = true;
  if (unsupported)
    return failure();
  if (failed(declareSharedMemory(module,
                                 vendor.getSharedMemoryAlignment(module))))
    return failure();

  // AxisInfo reads the frontend's hints, so it runs before they change.
  ModuleAxisInfoAnalysis axisInfo(module);
  if (failed(vendor.checkModule(module, axisInfo)))
    return failure();
  lowerArgumentHints(module);

  LowerToLLVMOptions options(context);
  TileGPUTypeConverter converter(context, options);
  RewritePatternSet patterns(context);
  populateElementwiseOpToLLVMPatterns(converter, patterns, axisInfo);
  populateShapeOpToLLVMPatterns(converter, patterns, targetInfo);
  populateExternOpToLLVMPatterns(converter, patterns);
  populateShapeTransformOpToLLVMPatterns(converter, patterns);
  populateReduceOpToLLVMPatterns(converter, patterns, targetInfo);
  populateScanOpToLLVMPatterns(converter, patterns, targetInfo);
  populatePointerOpToLLVMPatterns(converter, patterns);
  populateMemoryOpToLLVMPatterns(converter, patterns, axisInfo, targetInfo);
  populateAtomicOpToLLVMPatterns(converter, patterns, axisInfo, targetInfo);
  populateGridOpToLLVMPatterns(converter, patterns, targetInfo);
  populateDebugOpToLLVMPatterns(converter, patterns, targetInfo);
  populateBarrierOpToLLVMPatterns(converter, patterns, targetInfo);
  populateDotOpToLLVMPatterns(converter, patterns);
  populateSharedMemoryOpToLLVMPatterns(converter, patterns, targetInfo);
  vendor.populatePatterns(converter, patterns, axisInfo);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  // ub.poison: accumulators of loops that start from no value.
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);

  LLVMConversionTarget conversionTarget(*context);
  vendor.addLegalDialects(conversionTarget);
  conversionTarget.addLegalOp<ModuleOp>();
  conversionTarget.addIllegalDialect<tile::TileDialect, tilegpu::TileGPUDialect,
                                     scf::SCFDialect, ub::UBDialect>();
  if (failed(applyFullConversion(module, conversionTarget,
                                 std::move(patterns))))
    return failure();

  // Producer warps of a warp_specialize included.
  unsigned threads =
      tilegpu::getTotalNumWarps(module) * tilegpu::getThreadsPerWarp(module);
  // A kernel's parameters within what a launch passes (a tensor argument
  // goes by value, one thread's registers of it): a located error rather
  // than a module the code generator chews on for minutes and gigabytes.
  std::optional<uint64_t> maxParameterBytes =
      targetInfo.maxKernelParameterBytes();
  DataLayout dataLayout(module);
  WalkResult walk = module.walk([&](LLVM::LLVMFuncOp func) {
    if (func.isExternal() || !func.isPublic())
      return WalkResult::advance();
    uint64_t bytes = 0;
    for (Type type : func.getArgumentTypes())
      bytes += dataLayout.getTypeSize(type);
    if (maxParameterBytes && bytes > *maxParameterBytes) {
      func.emitError() << "the kernel's parameters take " << bytes
                       << " bytes, more than the " << *maxParameterBytes
                       << " a launch can pass (a tensor argument is passed "
                          "by value: pass a pointer to it instead)";
      return WalkResult::interrupt();
    }
    targetInfo.markKernel(func, threads);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return vendor.finishModule(module);
}
