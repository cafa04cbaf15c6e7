// The NVIDIA conversion of tilegpu IR: the common lowering
// (backends/common/ConvertToLLVM.h) with NVVM's TargetInfo, the NVIDIA
// patterns (mma.sync, wgmma, cp.async, TMA, fp8, libdevice, fast math) and
// their checks.
#include "backends/nvidia/NVIDIABackend.h"

#include "backends/common/ConvertToLLVM.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/nvidia/NVIDIATargetInfo.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

class NVIDIALowering : public VendorLowering {
public:
  explicit NVIDIALowering(unsigned capability)
      : capability(capability), targetInfo(capability) {}

  const TargetInfo &getTargetInfo() const override { return targetInfo; }

  LogicalResult checkOp(Operation *op) const override {
    if (failed(checkFP8Lowering(op, capability)) ||
        failed(checkMmaLowering(op, capability)) ||
        failed(checkWgmmaLowering(op, capability)))
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
    return lowerWarpSpecialize(module);
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
