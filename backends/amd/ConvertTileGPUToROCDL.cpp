// The AMD conversion of tilegpu IR: the common lowering
// (backends/common/ConvertToLLVM.h) with ROCDL's TargetInfo, math through
// the ROCm device library (ocml), libdevice's functions called by their
// ocml names, tile.dot on MFMA (MfmaDotOpToLLVM.cpp), fp8 conversions
// (FP8ConversionToLLVM.cpp), and located errors for what only NVIDIA
// hardware has.
#include "backends/amd/AMDBackend.h"

#include "backends/amd/AMDPatterns.h"
#include "backends/amd/AMDTargetInfo.h"
#include "backends/amd/DeviceLibraries.h"
#include "backends/common/ConvertToLLVM.h"
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/MathToROCDL/MathToROCDL.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Whether `layout` is, or is derived from, one of NVIDIA's tensor-core
/// layouts (mma.sync/wgmma registers, wgmma's shared operands).
bool isNvidiaLayout(Attribute layout) {
  if (!layout)
    return false;
  if (isa<tilegpu::NvidiaMmaLayoutAttr, tilegpu::NvmmaSharedLayoutAttr>(layout))
    return true;
  if (auto slice = dyn_cast<tilegpu::SliceLayoutAttr>(layout))
    return isNvidiaLayout(slice.getParent());
  if (auto operand = dyn_cast<tilegpu::DotOperandLayoutAttr>(layout))
    return isNvidiaLayout(operand.getParent());
  return false;
}

bool hasNvidiaLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return isNvidiaLayout(tensor.getEncoding());
  if (auto memory = dyn_cast<tilegpu::MemDescType>(type))
    return isNvidiaLayout(memory.getEncoding());
  return false;
}

/// An async_commit_group or async_wait once the copies are synchronous
/// (copySynchronously): nothing to close or wait for; its token is a
/// constant, as the type converter has it.
template <typename Op>
struct AsyncTokenOpConversion : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, LLVM::ConstantOp::create(
                               rewriter, op.getLoc(), rewriter.getI32Type(),
                               rewriter.getI32IntegerAttr(0)));
    return success();
  }
};

/// Each tilegpu.async_copy_global_to_local (cp.async's form, which
/// hand-written tilegpu IR may hold; the AMD pipeline prefetches through
/// registers instead) as the copy done at once: a tile.load of its
/// pointers in their layout (masked elements zero, as the copy's are) and
/// a tilegpu.local_store into its buffer. The copy completes before any
/// async_wait, which then has nothing to wait for; the barriers that
/// terrazzo-insert-barriers placed for the copy (a write to shared memory)
/// and after its wait order the store as they ordered the copy.
void copySynchronously(ModuleOp module) {
  SmallVector<tilegpu::AsyncCopyGlobalToLocalOp> copies;
  module.walk(
      [&](tilegpu::AsyncCopyGlobalToLocalOp copy) { copies.push_back(copy); });
  for (tilegpu::AsyncCopyGlobalToLocalOp copy : copies) {
    OpBuilder builder(copy);
    Location loc = copy.getLoc();
    auto pointers = cast<RankedTensorType>(copy.getSrc().getType());
    auto valueType = pointers.clone(
        cast<tile::PointerType>(pointers.getElementType()).getPointeeType());
    Value other = copy.getOther();
    if (copy.getMask() && !other)
      other = arith::ConstantOp::create(
          builder, loc, valueType,
          DenseElementsAttr::get(
              valueType, builder.getZeroAttr(valueType.getElementType())));
    Value value = tile::LoadOp::create(
        builder, loc, valueType, copy.getSrc(), copy.getMask(), other,
        /*cache=*/nullptr, /*evict=*/nullptr, /*isVolatile=*/nullptr);
    tilegpu::LocalStoreOp::create(builder, loc, value, copy.getResult());
    Value token = tilegpu::AsyncCommitGroupOp::create(builder, loc, ValueRange());
    copy.getToken().replaceAllUsesWith(token);
    copy.erase();
  }
}

/// The first register constraint of inline assembly's `constraints` (outputs
/// `=c`, inputs `c`, comma-separated; `~{...}` clobbers and tied operands
/// aside) that only NVIDIA PTX has -- 16-bit `h`, 64-bit `l`, f32 `f`, f64
/// `d` -- which the AMDGPU back end cannot allocate (it takes `v`, `s`,
/// `a`): the assembly is PTX (a user's tl.inline_asm_elementwise), and a
/// located error beats the back end's.
std::optional<char> ptxRegisterConstraint(StringRef constraints) {
  SmallVector<StringRef> codes;
  constraints.split(codes, ',');
  for (StringRef code : codes) {
    code = code.trim().ltrim("=&+");
    if (code.size() == 1 && StringRef("hlfd").contains(code[0]))
      return code[0];
  }
  return std::nullopt;
}

class AMDLowering : public VendorLowering {
public:
  AMDLowering(const ::terrazzo::Target &target, amdgpu::Chipset chipset,
              BufferAccesses accesses)
      : target(target), chipset(chipset), bufferAccesses(std::move(accesses)),
        targetInfo(target.warpSize, chipset, &bufferAccesses) {}

  const TargetInfo &getTargetInfo() const override { return targetInfo; }

  LogicalResult checkOp(Operation *op) const override {
    if (isa<tilegpu::WarpGroupDotOp, tilegpu::WarpGroupDotWaitOp,
            tilegpu::TensormapCreateOp, tilegpu::MBarrierInitOp,
            tilegpu::MBarrierExpectTxOp, tilegpu::MBarrierWaitOp,
            tilegpu::MBarrierInvalOp, tilegpu::AsyncTMACopyGlobalToLocalOp,
            tilegpu::AsyncTMACopyLocalToGlobalOp, tilegpu::AsyncTMAStoreWaitOp,
            tilegpu::FenceAsyncSharedOp, tilegpu::WarpSpecializeOp>(op))
      return op->emitOpError("is NVIDIA-only (wgmma, TMA, mbarrier, "
                             "setmaxnreg); it has no lowering for ")
             << target.name;
    for (Type type : op->getResultTypes())
      if (hasNvidiaLayout(type))
        return op->emitOpError("has a result in an NVIDIA tensor-core layout "
                               "(mma.sync, wgmma), which ")
               << target.name << " does not have: " << type;
    if (auto dot = dyn_cast<tile::DotOp>(op))
      for (Value operand : dot->getOperands())
        if (hasNvidiaLayout(operand.getType()))
          return op->emitOpError("has an operand in an NVIDIA tensor-core "
                                 "layout, which ")
                 << target.name << " does not have";
    if (failed(checkFP8Rounding(op)))
      return failure();
    if (auto asmOp = dyn_cast<tile::InlineAsmOp>(op))
      if (std::optional<char> ptx = ptxRegisterConstraint(asmOp.getConstraints()))
        return op->emitOpError("has the register constraint '")
               << *ptx
               << "', one of NVIDIA PTX's (h, l, f, d): inline PTX has no "
                  "lowering for "
               << target.name;
    if (auto call = dyn_cast<tile::ExternElementwiseOp>(op);
        call && call.getSymbol().starts_with("__nv_") &&
        !::terrazzo::amd::definesLibdeviceFunction(call.getSymbol())) {
      return op->emitOpError("calls libdevice's '")
             << call.getSymbol()
             << "', which the ROCm device libraries have no counterpart of "
                "for "
             << target.name;
    }
    return success();
  }

  void populatePatterns(TileGPUTypeConverter &converter,
                        RewritePatternSet &patterns,
                        ModuleAxisInfoAnalysis &axisInfo) const override {
    // Transcendental functions through ocml rather than LLVM intrinsics
    // that the AMDGPU back end expands with less accuracy (or cannot
    // select, for f64).
    populateMathToROCDLConversionPatterns(converter, patterns, chipset);
    populateMfmaDotOpToLLVMPatterns(converter, patterns, target);
    populateFP8ConversionToLLVMPatterns(converter, patterns);
    patterns.add<AsyncTokenOpConversion<tilegpu::AsyncCommitGroupOp>,
                 AsyncTokenOpConversion<tilegpu::AsyncWaitOp>>(converter);
    populateBufferLoadToLLVMPatterns(converter, patterns, axisInfo,
                                     bufferAccesses);
  }

  void addLegalDialects(ConversionTarget &conversionTarget) const override {
    conversionTarget.addLegalDialect<ROCDL::ROCDLDialect>();
  }

private:
  const ::terrazzo::Target &target;
  amdgpu::Chipset chipset;
  /// The accesses that use buffer resources, found before the conversion
  /// (the loads' patterns and targetInfo's addresses read them).
  BufferAccesses bufferAccesses;
  AMDTargetInfo targetInfo;
};

/// libdevice's functions (tl.extra.libdevice) called by their ocml names;
/// those without one keep theirs, for checkOp to report.
void renameLibdeviceCalls(ModuleOp module) {
  module.walk([](tile::ExternElementwiseOp call) {
    std::string ocml = ::terrazzo::amd::ocmlForLibdevice(call.getSymbol());
    if (!ocml.empty())
      call.setSymbol(ocml);
  });
}

} // namespace

namespace terrazzo::amd {

LogicalResult convertTileGPUToROCDL(ModuleOp module, const Target &target) {
  // Every hip target is an AMDGPU processor name (target/Target.cpp).
  FailureOr<amdgpu::Chipset> chipset = amdgpu::Chipset::parse(target.processor);
  if (failed(chipset))
    return module.emitError("no AMDGPU chipset is named ") << target.processor;
  renameLibdeviceCalls(module);
  copySynchronously(module);
  return mlir::terrazzo::convertTileGPUToLLVM(
      module, target,
      AMDLowering(target, *chipset, findBufferAccesses(module)));
}

} // namespace terrazzo::amd
