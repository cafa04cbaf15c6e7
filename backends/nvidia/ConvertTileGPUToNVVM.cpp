// The NVIDIA conversion of tilegpu IR: the common lowering
// (backends/common/ConvertToLLVM.h) with NVVM's TargetInfo, the NVIDIA
// patterns (mma.sync, wgmma, cp.async, TMA, fp8, libdevice, fast math) and
// their checks.
#include "backends/nvidia/NVIDIABackend.h"

#include "backends/common/ConvertToLLVM.h"
#include "backends/common/TypeConverter.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "backends/nvidia/NVIDIATargetInfo.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/IR/TmaLayout.h"
#include "terrazzo/TensorMap.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The kernel's tensor-map parameters (the module's
/// tilegpu.host_tensormap_params) become what CUDA passes a CUtensorMap
/// as: 128 bytes by value, `__grid_constant__` so that the
/// kernel may take their address (NVPTX's cvta.param) instead of copying
/// them. TMA reads a map at its generic address, which is what the TMA
/// lowering converted each use to; the parameter is that address. Thread
/// 0 prefetches each map (prefetch.tensormap) on entry. CUDA asks for 64
/// bytes of alignment; they are aligned to 128, so that each lies in one
/// 128-byte line.
LogicalResult passHostTensormapsByValue(ModuleOp module) {
  auto params = module->getAttrOfType<ArrayAttr>(
      tilegpu::TileGPUDialect::kHostTensormapParamsAttrName);
  if (!params)
    return success();
  MLIRContext *context = module.getContext();
  auto generic = LLVM::LLVMPointerType::get(context);
  Builder builder(context);
  LogicalResult result = success();
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (func.isExternal() || !func.isPublic())
      return;
    SmallVector<Type> inputs(func.getFunctionType().getParams());
    for (auto param : params.getAsRange<tilegpu::HostTensormapAttr>()) {
      unsigned index = param.getParameter();
      if (index >= inputs.size()) {
        result = func.emitError("has no parameter ")
                 << index << " for its tensor map (internal error)";
        return;
      }
      BlockArgument argument = func.getArgument(index);
      for (OpOperand &use : llvm::make_early_inc_range(argument.getUses())) {
        auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(use.getOwner());
        if (!cast || cast.getType() != generic) {
          result = use.getOwner()->emitError("uses tensor-map parameter ")
                   << index
                   << " other than by its generic address (internal error)";
          return;
        }
      }
      argument.setType(generic);
      for (Operation *user : llvm::make_early_inc_range(argument.getUsers())) {
        user->getResult(0).replaceAllUsesWith(argument);
        user->erase();
      }
      inputs[index] = generic;
      func.setArgAttr(
          index, LLVM::LLVMDialect::getByValAttrName(),
          TypeAttr::get(LLVM::LLVMArrayType::get(
              builder.getI8Type(), int64_t(::terrazzo::kTensorMapBytes))));
      func.setArgAttr(
          index, LLVM::LLVMDialect::getAlignAttrName(),
          builder.getI64IntegerAttr(int64_t(::terrazzo::kTensorMapBytes)));
      func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                      builder.getUnitAttr());
    }
    func.setFunctionType(
        LLVM::LLVMFunctionType::get(func.getFunctionType().getReturnType(),
                                    inputs, func.getFunctionType().isVarArg()));
    // Thread 0 brings each map into the TMA unit's cache at the start, as
    // CUTLASS and FlashAttention do with theirs, instead of the first copy
    // waiting for it.
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    Value thread = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
    for (auto param : params.getAsRange<tilegpu::HostTensormapAttr>())
      LLVM::InlineAsmOp::create(
          b, loc, TypeRange{},
          ValueRange{func.getArgument(param.getParameter()), thread},
          "{ .reg .pred p; setp.eq.u32 p, $1, 0; @p prefetch.tensormap [$0]; }",
          "l,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
  });
  return result;
}

class NVIDIALowering : public VendorLowering {
public:
  explicit NVIDIALowering(unsigned capability)
      : capability(capability), targetInfo(capability) {}

  const TargetInfo &getTargetInfo() const override { return targetInfo; }

  LogicalResult checkOp(Operation *op) const override {
    if (failed(checkFP8Lowering(op, capability)) ||
        failed(checkMmaLowering(op, capability)) ||
        failed(checkWgmmaLowering(op, capability)) ||
        failed(checkWarpSpecializeLowering(op, capability)))
      return failure();
    return checkTmaLowering(op, capability);
  }

  LogicalResult checkModule(ModuleOp module,
                            ModuleAxisInfoAnalysis &axisInfo) const override {
    return checkAsyncCopyLowering(module, capability, axisInfo);
  }

  int64_t getSharedMemoryAlignment(ModuleOp module) const override {
    // wgmma's swizzled operands need their buffers at multiples of 1024
    // bytes (AllocateSharedMemory.cpp places them so within the block).
    int64_t sharedAlignment = 16;
    module.walk([&](tilegpu::LocalAllocOp alloc) {
      if (isa<tilegpu::NvmmaSharedLayoutAttr>(alloc.getType().getEncoding()))
        sharedAlignment = 1024;
    });
    // Tensor maps and TMA buffers sit at multiples of 128 bytes.
    module.walk([&](Operation *op) {
      if (isa<tilegpu::TensormapCreateOp, tilegpu::AsyncTMACopyGlobalToLocalOp,
              tilegpu::AsyncTMACopyLocalToGlobalOp>(op))
        sharedAlignment = std::max<int64_t>(sharedAlignment, 128);
    });
    return sharedAlignment;
  }

  void populatePatterns(TileGPUTypeConverter &converter,
                        RewritePatternSet &patterns,
                        ModuleAxisInfoAnalysis &axisInfo) const override {
    populateMmaDotOpToLLVMPatterns(converter, patterns);
    populateWgmmaDotOpToLLVMPatterns(converter, patterns);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns, axisInfo,
                                      targetInfo);
    populateFP8ConversionPatterns(converter, patterns);
    if (capability >= 80)
      populatePackedTruncationPatterns(converter, patterns);
    populateTmaOpToLLVMPatterns(converter, patterns, targetInfo);
    populateWarpGroupTurnPatterns(converter, patterns, targetInfo);
    populateWarpSpecializePatterns(converter, patterns);
    // Transcendental functions through libdevice rather than LLVM
    // intrinsics that NVPTX cannot select.
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
    // Above libdevice: float32 exp/exp2 (and tanh marked afn) are the
    // hardware's approximation.
    populateNVIDIAFastMathPatterns(converter, patterns, capability,
                                   /*benefit=*/11);
  }

  void addLegalDialects(ConversionTarget &target) const override {
    target.addLegalDialect<NVVM::NVVMDialect>();
    addWarpSpecializeLegality(target);
  }

  LogicalResult finishModule(ModuleOp module) const override {
    if (failed(lowerWarpSpecialize(module)))
      return failure();
    return passHostTensormapsByValue(module);
  }

private:
  unsigned capability;
  NVIDIATargetInfo targetInfo;
};

} // namespace

namespace terrazzo::nvidia {

LogicalResult convertTileGPUToNVVM(ModuleOp module, const Target &target) {
  return mlir::terrazzo::convertTileGPUToLLVM(
      module, target, NVIDIALowering(target.capability));
}

} // namespace terrazzo::nvidia
