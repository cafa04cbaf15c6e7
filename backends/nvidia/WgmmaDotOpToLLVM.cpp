// tilegpu.warp_group_dot as Hopper's wgmma.mma_async (sm_90a), operands
// read by the tensor cores from shared memory through 64-bit matrix
// descriptors, accumulators in registers laid out as #tilegpu.nvidia_mma
// version 3. A may instead be registers (a 16-bit tensor in the dot-operand
// layout of A): each wgmma then takes four 32-bit registers per thread, the
// m16k16 fragment of mma.sync's A for the thread's warp's 16 rows.
// Synchronous unless `async`: then the lowering issues and commits the
// group and tilegpu.warp_group_dot_wait waits for it.
//
// Sequence (every thread of the program instance runs it):
//   fence.proxy.async.shared::cta  the thread's own generic-proxy stores
//                                  (local_alloc, local_store) become visible
//                                  to the async proxy wgmma reads through
//                                  (not for buffers only cp.async or TMA
//                                  copies write, see wgmmaNeedsProxyFence);
//   bar.sync                       (not for buffers only TMA writes)
//                                  every thread has fenced its stores (the
//                                  fence must come before the barrier, so
//                                  the barrier that terrazzo-insert-barriers
//                                  put before the op is not enough);
//   wgmma.fence                    accumulator registers written before are
//                                  ordered before the wgmma that reads them;
//   wgmma.mma_async ...            one per (64-row tile, N tile, K step);
//   wgmma.commit_group, and unless async wgmma.wait_group 0 (inline
//                                  PTX that passes the accumulators
//                                  through, see waitForGroups).
//
// Matrix descriptor (PTX ISA, "Matrix Descriptor Format"), 64 bits:
//   bits  0-13  start address, (address & 0x3FFFF) >> 4
//   bits 16-29  leading dimension byte offset >> 4 (LBO)
//   bits 32-45  stride dimension byte offset >> 4 (SBO)
//   bits 49-51  base offset: 0, buffers are aligned to the swizzle pattern
//               (terrazzo-allocate-shared-memory aligns nvmma_shared buffers
//               to 1024 bytes, the 128-byte swizzle's 8 rows)
//   bits 62-63  swizzle: 0 none, 1 128B, 2 64B, 3 32B.
//
// LBO and SBO for the layouts of #tilegpu.nvmma_shared (SharedLayouts.h:
// W-byte rows per block of the contiguous dimension, W = 16 without swizzle,
// `rows` rows per block; blocks follow each other), from the PTX ISA's
// canonical layouts, in units of T = 16 bytes along the contiguous
// dimension:
//   K-major, swizzled:   ((8, m), (T, 2k)) : ((W/16 T, SBO), (1, T)):
//       rows W bytes apart, 8-row groups SBO = 8 W apart; K stays within one
//       W-byte row per instruction (its K is 32 bytes), LBO unused (1).
//   K-major, no swizzle: ((8, m), (T, 2k)) : ((1T, SBO), (1, LBO)):
//       8 x 16-byte core matrices, contiguous; SBO = 128 between 8-row
//       groups, LBO = 16 rows between 16-byte blocks of K.
//   MN-major, swizzled:  ((T, W/16, m), (8, k)) : ((1, T, LBO), (W/16 T, SBO)):
//       W bytes of M/N per row, the next block of M/N LBO = W rows apart;
//       K rows W bytes apart, 8-row groups SBO = 8 W apart.
// The start address of a tile at (row s0, contiguous c0), s0 a multiple of
// 8 and c0 at a row start or, for K-major, a K step within the row, is
// (c0 / E) W rows + s0 W + (c0 % E) bytes (E elements per row): the
// unswizzled address, the hardware applies the swizzle to the addresses it
// forms (that is why K steps within a 128-byte row are plain additions).
#include "backends/SharedMemory.h"
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "backends/nvidia/NVIDIATargetInfo.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// How one operand's tiles are addressed.
struct OperandAddressing {
  int64_t rowBytes;     // W
  int64_t rowElements;  // E
  int64_t rows;         // extent of the strided dimension
  int64_t elementBytes;
  unsigned contiguousDim;
  uint64_t descriptorBits; // LBO, SBO and swizzle mode, no address
  bool kMajor;

  /// Byte offset of the tile starting at `origin` (dim0, dim1).
  int64_t offset(int64_t d0, int64_t d1) const {
    int64_t c0 = contiguousDim == 0 ? d0 : d1;
    int64_t s0 = contiguousDim == 0 ? d1 : d0;
    return (c0 / rowElements) * rowBytes * rows + s0 * rowBytes +
           (c0 % rowElements) * elementBytes;
  }
};

OperandAddressing addressing(tilegpu::MemDescType type, unsigned kDim) {
  auto layout = cast<tilegpu::NvmmaSharedLayoutAttr>(type.getEncoding());
  OperandAddressing result;
  unsigned swizzle = layout.getSwizzlingByteWidth();
  result.rowBytes = swizzle ? swizzle : 16;
  result.elementBytes = layout.getElementBitWidth() / 8;
  result.rowElements = result.rowBytes / result.elementBytes;
  result.contiguousDim = layout.getTransposed() ? 0 : 1;
  result.rows = type.getShape()[1 - result.contiguousDim];
  result.kMajor = result.contiguousDim == kDim;
  int64_t lbo, sbo = 8 * result.rowBytes;
  if (result.kMajor)
    lbo = swizzle ? 16 : 16 * result.rows;
  else
    lbo = result.rowBytes * result.rows;
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
  result.descriptorBits = ((uint64_t(lbo >> 4) & 0x3FFF) << 16) |
                          ((uint64_t(sbo >> 4) & 0x3FFF) << 32) | (mode << 62);
  return result;
}

std::optional<NVVM::WGMMATypes> wgmmaType(Type type) {
  if (type.isF16())
    return NVVM::WGMMATypes::f16;
  if (type.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (type.isF32())
    return NVVM::WGMMATypes::tf32;
  if (isa<Float8E4M3FNType>(type))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(type))
    return NVVM::WGMMATypes::e5m2;
  return std::nullopt;
}

Value i64Constant(RewriterBase &rewriter, Location loc, uint64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                  rewriter.getI64IntegerAttr(int64_t(value)));
}

/// wgmma.wait_group `pendings` on `values` (accumulator registers of wgmma
/// groups in flight). The wait must carry the accumulators: they are only
/// valid after it, and nothing would keep their uses from moving above a
/// wait that does not produce them (nvvm.wgmma.wait.group.sync.aligned
/// takes no values). So the wait is inline PTX whose outputs are its
/// inputs, tied to the same registers.
SmallVector<Value> waitForGroups(RewriterBase &rewriter, Location loc,
                                 ArrayRef<Value> values, int32_t pendings) {
  if (values.empty()) {
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, pendings);
    return {};
  }
  std::string constraints;
  SmallVector<Type> types;
  for (size_t i = 0; i < values.size(); ++i) {
    Type type = values[i].getType();
    types.push_back(type);
    constraints += i ? "," : "";
    constraints += type.isF32() ? "=f" : "=r";
  }
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  Type waitType =
      LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types);
  Value waited =
      LLVM::InlineAsmOp::create(
          rewriter, loc, waitType, values,
          "wgmma.wait_group.sync.aligned " + std::to_string(pendings) + ";",
          constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  return unpackStruct(rewriter, loc, waited);
}

struct WarpGroupDotOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::WarpGroupDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto aType = cast<ShapedType>(op.getA().getType());
    auto aBuffer = dyn_cast<tilegpu::MemDescType>(aType);
    tilegpu::MemDescType bType = op.getB().getType();
    RankedTensorType dType = op.getType();
    auto mma = cast<tilegpu::NvidiaMmaLayoutAttr>(dType.getEncoding());
    Type accElement = dType.getElementType();
    if (!accElement.isF32())
      return op.emitOpError("the wgmma lowering supports float32 "
                            "accumulators only");
    std::optional<NVVM::WGMMATypes> aPtx = wgmmaType(aType.getElementType());
    std::optional<NVVM::WGMMATypes> bPtx = wgmmaType(bType.getElementType());
    if (!aPtx || !bPtx)
      return op.emitOpError("no wgmma for operands of type ")
             << aType.getElementType();
    // A from registers: no descriptor, no transpose bit.
    std::optional<OperandAddressing> a;
    if (aBuffer)
      a = addressing(aBuffer, /*kDim=*/1);
    OperandAddressing b = addressing(bType, /*kDim=*/0);
    // MN-major layouts without swizzle are defined differently by the ISA.
    if ((a && !a->kMajor && a->rowBytes == 16) ||
        (!b.kMajor && b.rowBytes == 16))
      return op.emitOpError("MN-major operands need a swizzled "
                            "nvmma_shared layout");
    int64_t instrN = mma.getInstrShape()[1];
    int64_t kStep = mma.getInstrShape()[2];
    int64_t k = aType.getShape()[1];

    LinearLayout dLayout = *getLinearLayout(dType);
    std::map<Coordinates, int32_t> dIndex = registerIndex(dLayout);
    SmallVector<Value> results = unpackStruct(rewriter, loc, adaptor.getC());

    // The warp group's own offset along M and N: the warp bases above the
    // first two (which stack the group's four warps along M), selected by
    // the bits of the warp id.
    Value warp = uniformWarpIndex(rewriter, loc, NVIDIATargetInfo(), 32);
    Value groupM = i32Constant(rewriter, loc, 0);
    Value groupN = i32Constant(rewriter, loc, 0);
    for (int32_t bit = 2, e = dLayout.getInDimSizeLog2("warp"); bit < e;
         ++bit) {
      Value set = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, warp,
                               i32Constant(rewriter, loc, bit)),
          i32Constant(rewriter, loc, 1));
      int32_t alongM = dLayout.getBasis("warp", bit, "dim0");
      int32_t alongN = dLayout.getBasis("warp", bit, "dim1");
      if (alongM)
        groupM = LLVM::AddOp::create(
            rewriter, loc, groupM,
            LLVM::MulOp::create(rewriter, loc, set,
                                i32Constant(rewriter, loc, alongM)));
      if (alongN)
        groupN = LLVM::AddOp::create(
            rewriter, loc, groupN,
            LLVM::MulOp::create(rewriter, loc, set,
                                i32Constant(rewriter, loc, alongN)));
    }
    // Descriptors without the tile offsets: the buffer's address in the
    // shared window plus the warp group's offset (tiles of the group start
    // at multiples of 64 rows of A and of N columns of B, each a whole
    // number of swizzle rows or blocks, so the offset is linear in them).
    // The address field is computed in 32 bits (a shared-window address
    // fits; 64-bit shifts and adds per stage cost more instructions in the
    // loop) and widened only to be merged with the constant fields.
    auto baseDescriptor = [&](Value buffer, const OperandAddressing &x,
                              Value groupOffset, unsigned groupDim) {
      Value address = LLVM::PtrToIntOp::create(rewriter, loc,
                                               rewriter.getI32Type(), buffer);
      int64_t unit = groupDim == 0 ? x.offset(1, 0) : x.offset(0, 1);
      // offset(1, 0) is one element's step; a block-aligned origin g adds
      // g / E blocks when g runs along the contiguous dimension.
      if (groupDim == x.contiguousDim)
        unit = x.rowBytes * x.rows / x.rowElements;
      address = LLVM::AddOp::create(
          rewriter, loc, address,
          LLVM::MulOp::create(rewriter, loc, groupOffset,
                              i32Constant(rewriter, loc, int32_t(unit))));
      Value field = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, address,
                               i32Constant(rewriter, loc, 4)),
          i32Constant(rewriter, loc, 0x3FFF));
      return LLVM::OrOp::create(
          rewriter, loc,
          LLVM::ZExtOp::create(rewriter, loc, rewriter.getI64Type(), field),
          i64Constant(rewriter, loc, x.descriptorBits));
    };
    Value aBase = a ? baseDescriptor(adaptor.getA(), *a, groupM, 0) : Value();
    Value bBase = baseDescriptor(adaptor.getB(), b, groupN, 1);
    // A's registers, looked up by the element (row, k) that lane 0 of the
    // group's first warp holds, as for the accumulator (the warps' own
    // offsets are the same in both layouts), and packed in pairs before
    // wgmma.fence: registers written between the fence and the
    // instructions that read them would make ptxas add a fence of its own
    // before each instruction.
    std::map<std::pair<int32_t, int32_t>, SmallVector<Value>> aFragments;
    if (!a) {
      std::map<Coordinates, int32_t> aIndex = registerIndex(*getLinearLayout(
          cast<RankedTensorType>(op.getA().getType())));
      SmallVector<Value> aValues = unpackStruct(rewriter, loc, adaptor.getA());
      for (int32_t m0 : tileOrigins(dLayout, 0, 64)) {
        for (int64_t k0 = 0; k0 < k; k0 += kStep) {
          // Register r holds (m0 + 8 (r % 2), k0 + 8 (r / 2) + {0, 1}).
          SmallVector<Value> &fragment = aFragments[{m0, int32_t(k0)}];
          for (int32_t r = 0; r < 4; ++r) {
            SmallVector<Value> pair;
            for (int32_t w = 0; w < 2; ++w) {
              auto it = aIndex.find(
                  {m0 + 8 * (r % 2), int32_t(k0) + 8 * (r / 2) + w});
              if (it == aIndex.end())
                return op.emitOpError("internal error: an element of A is "
                                      "missing from the thread's registers");
              pair.push_back(aValues[it->second]);
            }
            fragment.push_back(
                packRegister(rewriter, loc, pair, rewriter.getI32Type()));
          }
        }
      }
    }
    // Adding offset >> 4 to the address field cannot carry out of it: the
    // shared window is below 2^18 bytes.
    auto descriptor = [&](Value base, int64_t offset) -> Value {
      if (offset == 0)
        return base;
      return LLVM::AddOp::create(rewriter, loc, base,
                                 i64Constant(rewriter, loc,
                                             uint64_t(offset) >> 4));
    };

    // Memory only copies write needs no proxy fence: that is how Triton's
    // and CUTLASS's main loops work on Hopper. The fence is not free: it
    // orders every shared-memory access of the thread, the copies still in
    // flight for later stages included, and the pipelined K loop lost about
    // a fifth of its speed to it on the H100. Nor a barrier of its own:
    // terrazzo-insert-barriers put one in front of the first dot that reads
    // cp.async writes an async_wait completed, and none in front of the
    // dots after it (the forward attention loop's second dot); memory only
    // TMA writes needs none (each thread's mbarrier wait made the data
    // visible to it). Other writers: fence this thread's writes, then wait
    // for everyone's.
    if (wgmmaNeedsProxyFence(op)) {
      NVVM::FenceProxyOp::create(
          rewriter, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
      NVIDIATargetInfo::programBarrier(rewriter, loc);
    }
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);

    int64_t fragment = instrN / 2;
    Type structType = LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(fragment, accElement));
    // wgmma.mma_async as inline PTX: nvvm.wgmma.mma_async has no LLVM
    // intrinsic, it only becomes inline assembly in MLIR's NVVM-to-LLVM
    // conversion, which this backend does not run. Operands: the fragment
    // ($0.., tied to the accumulator inputs), the descriptors, and scale-d
    // as a predicate (1: D = A * B + D); A from registers is four 32-bit
    // registers in place of its descriptor. The transpose immediates exist
    // for 16-bit types only: 1 for an MN-major operand (B's alone when A is
    // registers).
    const int64_t aOperands = a ? 1 : 4;
    std::string ptx;
    {
      auto name = [](NVVM::WGMMATypes type) {
        return NVVM::stringifyWGMMATypes(type).str();
      };
      auto operand = [](int64_t i) { return "$" + std::to_string(i); };
      int64_t n = fragment;
      std::string regs;
      for (int64_t i = 0; i < n; ++i)
        regs += (i ? ", " : "") + operand(i);
      std::string aText = operand(2 * n);
      if (!a) {
        aText = "{";
        for (int64_t i = 0; i < aOperands; ++i)
          aText += (i ? ", " : "") + operand(2 * n + i);
        aText += "}";
      }
      ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, " +
            operand(2 * n + aOperands + 1) +
            ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
            std::to_string(instrN) + "k" + std::to_string(kStep) + ".f32." +
            name(*aPtx) + "." + name(*bPtx) + " {" + regs + "}, " + aText +
            ", " + operand(2 * n + aOperands) + ", p, 1, 1";
      if (aType.getElementType().getIntOrFloatBitWidth() == 16) {
        if (a)
          ptx += std::string(", ") + (a->kMajor ? "0" : "1");
        ptx += std::string(", ") + (b.kMajor ? "0" : "1");
      }
      ptx += ";\n}";
    }
    std::string wgmmaConstraints;
    for (int64_t i = 0; i < fragment; ++i)
      wgmmaConstraints += (i ? ",=f" : "=f");
    for (int64_t i = 0; i < fragment; ++i)
      wgmmaConstraints += "," + std::to_string(i);
    wgmmaConstraints += a ? ",l" : ",r,r,r,r";
    wgmmaConstraints += ",l,r";
    Value one = i32Constant(rewriter, loc, 1);
    // scale-d of each tile's first K step: 0 makes it D = A * B.
    Value firstScale = one;
    if (Value useC = adaptor.getUseC())
      firstScale =
          LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), useC);
    auto emitWgmma = [&](RewriterBase &rewriter, Location loc, Type structType,
                         Value acc, ValueRange aParts, Value descB,
                         Value scale) -> Value {
      SmallVector<Value> operands = unpackStruct(rewriter, loc, acc);
      llvm::append_range(operands, aParts);
      operands.push_back(descB);
      operands.push_back(scale);
      return LLVM::InlineAsmOp::create(
                 rewriter, loc, structType, operands, ptx, wgmmaConstraints,
                 /*has_side_effects=*/true, /*is_align_stack=*/false,
                 LLVM::tailcallkind::TailCallKind::None,
                 /*asm_dialect=*/LLVM::AsmDialectAttr(),
                 /*operand_attrs=*/ArrayAttr())
          .getResult(0);
    };
    for (int32_t m0 : tileOrigins(dLayout, 0, 64)) {
      for (int32_t n0 : tileOrigins(dLayout, 1, int32_t(instrN))) {
        // Accumulator register i of lane 0 of the group's first warp:
        // (m0 + 8 ((i / 2) % 2), n0 + 8 (i / 4) + i % 2) (the mma.sync
        // fragment, instrN / 8 tiles side by side).
        SmallVector<int32_t> regs;
        for (int32_t i = 0; i < fragment; ++i) {
          auto it = dIndex.find(
              {m0 + 8 * ((i / 2) % 2), n0 + 8 * (i / 4) + i % 2});
          if (it == dIndex.end())
            return op.emitOpError("internal error: a wgmma accumulator is "
                                  "missing from the thread's registers");
          regs.push_back(it->second);
        }
        Value acc = LLVM::UndefOp::create(rewriter, loc, structType);
        for (auto [i, reg] : llvm::enumerate(regs))
          acc = LLVM::InsertValueOp::create(rewriter, loc, acc, results[reg],
                                            int64_t(i));
        for (int64_t k0 = 0; k0 < k; k0 += kStep) {
          SmallVector<Value> aParts;
          if (a)
            aParts.push_back(descriptor(aBase, a->offset(m0, k0)));
          else
            aParts = aFragments[{m0, int32_t(k0)}];
          Value descB = descriptor(bBase, b.offset(k0, n0));
          acc = emitWgmma(rewriter, loc, structType, acc, aParts, descB,
                          k0 == 0 ? firstScale : one);
        }
        for (auto [i, reg] : llvm::enumerate(regs))
          results[reg] =
              LLVM::ExtractValueOp::create(rewriter, loc, acc, int64_t(i));
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (!op.getIsAsync())
      results = waitForGroups(rewriter, loc, results, 0);
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dType),
                                      results));
    return success();
  }
};

/// tilegpu.warp_group_dot_wait: one wait over the registers of all its
/// inputs.
struct WarpGroupDotWaitOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> registers;
    SmallVector<size_t> sizes;
    for (Value input : adaptor.getInputs()) {
      SmallVector<Value> values = unpackStruct(rewriter, loc, input);
      sizes.push_back(values.size());
      llvm::append_range(registers, values);
    }
    SmallVector<Value> waited =
        waitForGroups(rewriter, loc, registers, int32_t(op.getPendings()));
    SmallVector<Value> results;
    size_t next = 0;
    for (auto [output, size] : llvm::zip_equal(op.getOutputs(), sizes)) {
      results.push_back(packStruct(
          rewriter, loc, getTypeConverter()->convertType(output.getType()),
          ArrayRef<Value>(waited).slice(next, size)));
      next += size;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkWgmmaLowering(Operation *op,
                                                 unsigned capability) {
  if (!isa<tilegpu::WarpGroupDotOp, tilegpu::WarpGroupDotWaitOp>(op) ||
      capability / 10 == 9)
    return success();
  return op->emitOpError("needs wgmma, which sm_")
         << capability << " does not have (sm_90 only)";
}

void mlir::terrazzo::populateWgmmaDotOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotOpConversion, WarpGroupDotWaitOpConversion>(
      converter);
}
