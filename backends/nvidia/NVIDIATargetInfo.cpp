#include "backends/nvidia/NVIDIATargetInfo.h"

#include "backends/common/Utility.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::terrazzo;


Value NVIDIATargetInfo::programId(RewriterBase &rewriter, Location loc,
                                  unsigned dim) const {
  Type i32 = rewriter.getI32Type();
  switch (dim) {
  case 0:
    return NVVM::BlockIdXOp::create(rewriter, loc, i32);
  case 1:
    return NVVM::BlockIdYOp::create(rewriter, loc, i32);
  default:
    return NVVM::BlockIdZOp::create(rewriter, loc, i32);
  }
}

Value NVIDIATargetInfo::numPrograms(RewriterBase &rewriter, Location loc,
                                    unsigned dim) const {
  Type i32 = rewriter.getI32Type();
  switch (dim) {
  case 0:
    return NVVM::GridDimXOp::create(rewriter, loc, i32);
  case 1:
    return NVVM::GridDimYOp::create(rewriter, loc, i32);
  default:
    return NVVM::GridDimZOp::create(rewriter, loc, i32);
  }
}

Value NVIDIATargetInfo::threadId(RewriterBase &rewriter, Location loc) const {
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  // In a warp_specialize's producer, the thread's index in its partition.
  std::optional<tilegpu::WarpSpecializeOp::Partition> partition =
      tilegpu::WarpSpecializeOp::partitionOf(rewriter.getInsertionBlock());
  if (!partition || !partition->firstWarp)
    return tid;
  return LLVM::SubOp::create(
      rewriter, loc, tid,
      i32Constant(rewriter, loc, int64_t(partition->firstWarp) * 32));
}

Value NVIDIATargetInfo::globalTimer(RewriterBase &rewriter,
                                    Location loc) const {
  return NVVM::GlobalTimerOp::create(rewriter, loc, rewriter.getI64Type());
}

Value NVIDIATargetInfo::processorId(RewriterBase &rewriter,
                                    Location loc) const {
  return NVVM::SmIdOp::create(rewriter, loc, rewriter.getI32Type());
}

void NVIDIATargetInfo::waitForGridDependencies(RewriterBase &rewriter,
                                               Location loc) const {
  if (capability >= 90)
    NVVM::GriddepcontrolOp::create(rewriter, loc,
                                   NVVM::GridDepActionKind::wait);
}

void NVIDIATargetInfo::launchGridDependents(RewriterBase &rewriter,
                                            Location loc) const {
  if (capability >= 90)
    NVVM::GriddepcontrolOp::create(rewriter, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
}

void NVIDIATargetInfo::barrier(RewriterBase &rewriter, Location loc) const {
  programBarrier(rewriter, loc);
}

void NVIDIATargetInfo::barrier(RewriterBase &rewriter, Location loc,
                               tilegpu::BarrierScope scope) const {
  Operation *anchor = rewriter.getInsertionBlock()->getParentOp();
  int64_t warps = tilegpu::getTotalNumWarps(anchor);
  int64_t groups = warps / tilegpu::kWarpsPerGroup;
  switch (scope) {
  case tilegpu::BarrierScope::Program:
    break;
  case tilegpu::BarrierScope::Warp:
    NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));
    return;
  case tilegpu::BarrierScope::WarpGroup: {
    if (groups < 1 || groups > kMaxGroupBarriers ||
        warps % tilegpu::kWarpsPerGroup)
      break;
    // In the consumers of a warp_specialize, a branch for each of their
    // groups only (elsewhere, one for every group of the program).
    std::optional<tilegpu::WarpSpecializeOp::Partition> partition =
        tilegpu::WarpSpecializeOp::partitionOf(rewriter.getInsertionBlock());
    auto ownGroup = [&](int64_t g) {
      int64_t firstWarp = g * tilegpu::kWarpsPerGroup;
      return !partition ||
             (firstWarp >= int64_t(partition->firstWarp) &&
              firstWarp < int64_t(partition->firstWarp + partition->numWarps));
    };
    inEachWarpGroup(
        rewriter, loc, *this, groups, ownGroup, [&](int64_t g) {
          inlinePTX(rewriter, loc, Type(), ValueRange{},
                    "bar.sync " + std::to_string(kFirstGroupBarrier + g) +
                        ", " + std::to_string(32 * tilegpu::kWarpsPerGroup) +
                        ";",
                    "");
        });
    return;
  }
  }
  programBarrier(rewriter, loc);
}

void NVIDIATargetInfo::inEachWarpGroup(RewriterBase &rewriter, Location loc,
                                       const TargetInfo &target, int64_t groups,
                                       llvm::function_ref<bool(int64_t)> wanted,
                                       llvm::function_ref<void(int64_t)> body) {
  Value group = LLVM::UDivOp::create(
      rewriter, loc, uniformWarpIndex(rewriter, loc, target, 32),
      i32Constant(rewriter, loc, tilegpu::kWarpsPerGroup));
  for (int64_t g = 0; g < groups; ++g) {
    if (!wanted(g))
      continue;
    Value mine = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                      group, i32Constant(rewriter, loc, g));
    emitGuarded(rewriter, loc, mine, Value(), [&] {
      body(g);
      return Value();
    });
  }
}

void NVIDIATargetInfo::programBarrier(RewriterBase &rewriter, Location loc) {
  // With a warp_specialize in the module, a barrier synchronises the
  // warps of its partition: the producer's, or the consumers' (in the
  // consumers and after the op alike; the producer's warps are elsewhere).
  Block *block = rewriter.getInsertionBlock();
  Operation *anchor = block->getParentOp();
  unsigned consumers = tilegpu::getNumWarps(anchor);
  if (tilegpu::getTotalNumWarps(anchor) == consumers) {
    NVVM::Barrier0Op::create(rewriter, loc);
    return;
  }
  std::optional<tilegpu::WarpSpecializeOp::Partition> partition =
      tilegpu::WarpSpecializeOp::partitionOf(block);
  bool producer = partition && partition->producer;
  int64_t id = producer ? kProducerBarrier : kConsumerBarrier;
  int64_t threads = 32 * int64_t(producer ? partition->numWarps : consumers);
  LLVM::InlineAsmOp::create(
      rewriter, loc, TypeRange{}, ValueRange{},
      "bar.sync " + std::to_string(id) + ", " + std::to_string(threads) + ";",
      "", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
}

Value NVIDIATargetInfo::shuffleIdx(RewriterBase &rewriter, Location loc,
                                   Value value, Value lane,
                                   unsigned warpSize) const {
  Value allLanes = i32Constant(rewriter, loc, -1);
  // shfl.sync.idx: c = 0x1f (no segments, clamp at the last lane).
  Value clamp = i32Constant(rewriter, loc, warpSize - 1);
  return NVVM::ShflOp::create(rewriter, loc, rewriter.getI32Type(), allLanes,
                              value, lane, clamp, NVVM::ShflKind::idx,
                              UnitAttr());
}

// ptxas holds a value that it can prove equal in every lane of a warp (a
// kernel parameter, a special register, a shuffle from one lane for all)
// in a uniform register, and computes what depends on such values alone on
// the uniform datapath, beside the vector one. A loaded value it cannot
// prove uniform, and a loop whose trip count depends on one may diverge,
// so the loop's scalar work goes to vector registers: tutorial 08's
// grouped GEMM, whose problem sizes and addresses are loaded, executed 29%
// more warp instructions than tutorial 09's persistent kernel on the same
// problem (vector IMAD, ISETP, SEL and R2UR where the latter has UIADD3,
// USEL, UISETP), 14% more with the broadcast (Nsight Compute,
// bench/RESULTS.md, session 19).
Value NVIDIATargetInfo::warpUniform(RewriterBase &rewriter, Location loc,
                                    Value value, unsigned warpSize) const {
  Value lane0 = i32Constant(rewriter, loc, 0);
  return shuffleScalar(rewriter, loc, value, [&](Value word) {
    return shuffleIdx(rewriter, loc, word, lane0, warpSize);
  });
}

Value NVIDIATargetInfo::shuffleXor(RewriterBase &rewriter, Location loc,
                                   Value value, unsigned mask,
                                   unsigned warpSize) const {
  Value allLanes = i32Constant(rewriter, loc, -1);
  // shfl.sync.bfly: c = 0x1f (no segments).
  Value clamp = i32Constant(rewriter, loc, warpSize - 1);
  return NVVM::ShflOp::create(rewriter, loc, rewriter.getI32Type(), allLanes,
                              value, i32Constant(rewriter, loc, mask), clamp,
                              NVVM::ShflKind::bfly, UnitAttr());
}

void NVIDIATargetInfo::markKernel(LLVM::LLVMFuncOp func,
                                  unsigned numThreads) const {
  Builder builder(func.getContext());
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                builder.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
  // Triton's maxnreg (a warp-specialized kernel's launch budget replaces it
  // after the conversion, below the same cap).
  if (std::optional<unsigned> registers = tilegpu::getMaxRegisters(func))
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  builder.getI32IntegerAttr(int32_t(*registers)));
}

LogicalResult NVIDIATargetInfo::printf(RewriterBase &rewriter, Location loc,
                                       StringRef format,
                                       ValueRange values) const {
  MLIRContext *context = rewriter.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto vprintf = getOrDeclareFunction(
      rewriter, loc, "vprintf",
      LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptr, ptr}));
  Value formatPtr =
      stringConstant(rewriter, loc, "printfFormat", format);
  Value buffer;
  if (values.empty()) {
    buffer = LLVM::ZeroOp::create(rewriter, loc, ptr);
  } else {
    // vprintf reads its arguments from a buffer laid out like a struct.
    SmallVector<Type> fields;
    for (Value value : values)
      fields.push_back(value.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(context, fields);
    Value one = i32Constant(rewriter, loc, 1);
    buffer = LLVM::AllocaOp::create(rewriter, loc, ptr, structType, one,
                                    /*alignment=*/8);
    for (auto [i, value] : llvm::enumerate(values)) {
      Value field = LLVM::GEPOp::create(
          rewriter, loc, ptr, structType, buffer,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, value, field);
    }
  }
  LLVM::CallOp::create(rewriter, loc, vprintf, ValueRange{formatPtr, buffer});
  return success();
}

LogicalResult NVIDIATargetInfo::assertFail(RewriterBase &rewriter, Location loc,
                                           Value failed, StringRef message,
                                           StringRef file, unsigned line,
                                           StringRef function) const {
  MLIRContext *context = rewriter.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto assertfail = getOrDeclareFunction(
      rewriter, loc, "__assertfail",
      LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(context),
          {ptr, ptr, rewriter.getI32Type(), ptr, rewriter.getI64Type()}));
  emitGuarded(rewriter, loc, failed, Value(), [&]() -> Value {
    Value messagePtr = stringConstant(rewriter, loc, "assertMessage", message);
    Value filePtr = stringConstant(rewriter, loc, "assertFile", file);
    Value functionPtr = stringConstant(rewriter, loc, "assertFunction", function);
    Value lineValue = i32Constant(rewriter, loc, line);
    Value charSize = LLVM::ConstantOp::create(rewriter, loc,
                                              rewriter.getI64Type(),
                                              rewriter.getI64IntegerAttr(1));
    LLVM::CallOp::create(
        rewriter, loc, assertfail,
        ValueRange{messagePtr, filePtr, lineValue, functionPtr, charSize});
    return Value();
  });
  return success();
}

SmallVector<Value> NVIDIATargetInfo::loadMatrices(RewriterBase &rewriter,
                                                  Location loc,
                                                  Value rowAddress,
                                                  unsigned num,
                                                  bool transposed) const {
  MLIRContext *context = rewriter.getContext();
  Type i32 = rewriter.getI32Type();
  Type resultType =
      num == 1 ? i32
               : LLVM::LLVMStructType::getLiteral(
                     context, SmallVector<Type>(num, i32));
  auto load = NVVM::LdMatrixOp::create(
      rewriter, loc, resultType, rowAddress, num,
      transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
      NVVM::LdStMatrixEltType::B16);
  if (num == 1)
    return {load.getResult()};
  SmallVector<Value> words;
  for (unsigned i = 0; i < num; ++i)
    words.push_back(LLVM::ExtractValueOp::create(rewriter, loc,
                                                 load.getResult(), i));
  return words;
}

void NVIDIATargetInfo::storeMatrices(RewriterBase &rewriter, Location loc,
                                     Value rowAddress,
                                     ArrayRef<Value> words) const {
  NVVM::StMatrixOp::create(
      rewriter, loc, rowAddress, words, NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(rewriter.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
}

Value NVIDIATargetInfo::selectWord(RewriterBase &rewriter, Location loc,
                                   Value condition, Value a, Value b) const {
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc, rewriter.getI32Type(), ValueRange{a, b, condition},
      "selp.b32 $0, $1, $2, $3;", "=r,r,r,b", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
  return asmOp.getResult(0);
}

StringRef NVIDIATargetInfo::syncScope(tile::MemScope scope) const {
  switch (scope) {
  case tile::MemScope::CTA:
    return "block";
  case tile::MemScope::GPU:
    return "device";
  case tile::MemScope::System:
    return "";
  }
  llvm_unreachable("unknown scope");
}
