#include "backends/amd/AMDTargetInfo.h"

#include "backends/common/Utility.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// LLVM's AMDGPU address spaces.
constexpr unsigned kFlatAddressSpace = 0;
constexpr unsigned kConstantAddressSpace = 4;

/// Bytes of a scalar or vector of scalars (or pointers) in memory.
unsigned memoryBytes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * memoryBytes(vector.getElementType());
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

/// A run-time lane index as ds_bpermute takes it: a byte address of the
/// source lane's dword.
Value bpermute(RewriterBase &rewriter, Location loc, Value value, Value lane) {
  Value address = LLVM::ShlOp::create(rewriter, loc, lane,
                                      i32Constant(rewriter, loc, 2));
  return ROCDL::DsBpermuteOp::create(rewriter, loc, rewriter.getI32Type(),
                                     address, value);
}

/// The ordering of a failed compare-and-swap for `success`: no release.
LLVM::AtomicOrdering failureOrdering(LLVM::AtomicOrdering success) {
  switch (success) {
  case LLVM::AtomicOrdering::acq_rel:
  case LLVM::AtomicOrdering::acquire:
    return LLVM::AtomicOrdering::acquire;
  default:
    return LLVM::AtomicOrdering::monotonic;
  }
}

LLVM::AtomicBinOp atomicBinOp(tile::RMWOp op) {
  switch (op) {
  case tile::RMWOp::And:
    return LLVM::AtomicBinOp::_and;
  case tile::RMWOp::Or:
    return LLVM::AtomicBinOp::_or;
  case tile::RMWOp::Xor:
    return LLVM::AtomicBinOp::_xor;
  case tile::RMWOp::Add:
    return LLVM::AtomicBinOp::add;
  case tile::RMWOp::FAdd:
    return LLVM::AtomicBinOp::fadd;
  case tile::RMWOp::Max:
    return LLVM::AtomicBinOp::max;
  case tile::RMWOp::Min:
    return LLVM::AtomicBinOp::min;
  case tile::RMWOp::UMax:
    return LLVM::AtomicBinOp::umax;
  case tile::RMWOp::UMin:
    return LLVM::AtomicBinOp::umin;
  case tile::RMWOp::Xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  llvm_unreachable("unknown read-modify-write operation");
}

/// Atomics on device memory, as HIP's compiler assumes by default: the
/// memory is neither fine-grained host memory nor another device's, so
/// float additions may use the chip's atomic instructions.
void markDeviceMemoryAtomic(Operation *op) {
  MLIRContext *context = op->getContext();
  op->setAttr(ROCDL::ROCDLDialect::NoFineGrainedMemoryAttrHelper::getNameStr(),
              UnitAttr::get(context));
  op->setAttr(ROCDL::ROCDLDialect::NoRemoteMemoryAttrHelper::getNameStr(),
              UnitAttr::get(context));
}

/// `text` as a printf format that prints it literally.
std::string literalFormat(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

} // namespace

Value AMDTargetInfo::programId(RewriterBase &rewriter, Location loc,
                               unsigned dim) const {
  Type i32 = rewriter.getI32Type();
  switch (dim) {
  case 0:
    return ROCDL::BlockIdXOp::create(rewriter, loc, i32);
  case 1:
    return ROCDL::BlockIdYOp::create(rewriter, loc, i32);
  default:
    return ROCDL::BlockIdZOp::create(rewriter, loc, i32);
  }
}

Value AMDTargetInfo::numPrograms(RewriterBase &rewriter, Location loc,
                                 unsigned dim) const {
  // The op's translation calls ockl's size_t function: an i64.
  Type i64 = rewriter.getI64Type();
  Value count;
  switch (dim) {
  case 0:
    count = ROCDL::GridDimXOp::create(rewriter, loc, i64);
    break;
  case 1:
    count = ROCDL::GridDimYOp::create(rewriter, loc, i64);
    break;
  default:
    count = ROCDL::GridDimZOp::create(rewriter, loc, i64);
    break;
  }
  return LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), count);
}

Value AMDTargetInfo::threadId(RewriterBase &rewriter, Location loc) const {
  return ROCDL::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
}

Value AMDTargetInfo::globalTimer(RewriterBase &rewriter, Location loc) const {
  Type i64 = rewriter.getI64Type();
  Value ticks = LLVM::CallIntrinsicOp::create(
                    rewriter, loc, i64,
                    rewriter.getStringAttr("llvm.readsteadycounter"),
                    ValueRange{})
                    .getResult(0);
  Value ten = LLVM::ConstantOp::create(rewriter, loc, i64,
                                       rewriter.getI64IntegerAttr(10));
  return LLVM::MulOp::create(rewriter, loc, ticks, ten);
}

/// s_getreg_b32 of `size` bits from `offset` of hardware register `id`
/// (LLVM's AMDGPU hwreg encoding), zero-extended to i32.
static Value readHardwareRegister(RewriterBase &rewriter, Location loc,
                                  unsigned id, unsigned offset,
                                  unsigned size) {
  Type i32 = rewriter.getI32Type();
  Value field = i32Constant(rewriter, loc,
                            int64_t(id | offset << 6 | (size - 1) << 11));
  return LLVM::CallIntrinsicOp::create(
             rewriter, loc, i32, rewriter.getStringAttr("llvm.amdgcn.s.getreg"),
             ValueRange{field})
      .getResult(0);
}

Value AMDTargetInfo::processorId(RewriterBase &rewriter, Location loc) const {
  // LLVM's ids of the registers (hwreg(HW_REG_HW_ID), ...).
  constexpr unsigned kHwId = 4, kXccId = 20, kHwId1 = 23;
  auto shifted = [&](Value field, unsigned shift) -> Value {
    return LLVM::ShlOp::create(rewriter, loc, field,
                               i32Constant(rewriter, loc, shift));
  };
  if (chipset.majorVersion >= 10) {
    Value wgp = readHardwareRegister(rewriter, loc, kHwId1, 10, 4);
    Value array = readHardwareRegister(rewriter, loc, kHwId1, 16, 1);
    Value engine = readHardwareRegister(rewriter, loc, kHwId1, 18, 3);
    Value engineBits = shifted(engine, 5);
    Value arrayBits = shifted(array, 4);
    Value high = LLVM::OrOp::create(rewriter, loc, engineBits, arrayBits);
    return LLVM::OrOp::create(rewriter, loc, high, wgp);
  }
  Value cu = readHardwareRegister(rewriter, loc, kHwId, 8, 8);
  if (chipset < amdgpu::Chipset(9, 4, 0))
    return cu;
  Value xcc = readHardwareRegister(rewriter, loc, kXccId, 0, 4);
  return LLVM::OrOp::create(rewriter, loc, shifted(xcc, 8), cu);
}

void AMDTargetInfo::barrier(RewriterBase &rewriter, Location loc) const {
  LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::release,
                        "workgroup");
  ROCDL::SBarrierOp::create(rewriter, loc);
  LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acquire,
                        "workgroup");
}

Value AMDTargetInfo::shuffleIdx(RewriterBase &rewriter, Location loc,
                                Value value, Value lane,
                                unsigned warpSize) const {
  if (matchPattern(lane, m_Constant()))
    return ROCDL::ReadlaneOp::create(rewriter, loc, value.getType(), value,
                                     lane);
  return bpermute(rewriter, loc, value, lane);
}

Value AMDTargetInfo::shuffleXor(RewriterBase &rewriter, Location loc,
                                Value value, unsigned mask,
                                unsigned warpSize) const {
  Type i32 = rewriter.getI32Type();
  if (mask == 1 || mask == 2) {
    // quad_perm: lane i of each quad reads lane perm[i] of it.
    unsigned control = 0;
    for (unsigned i = 0; i < 4; ++i)
      control |= (i ^ mask) << (2 * i);
    return ROCDL::DPPUpdateOp::create(rewriter, loc, i32, value, value,
                                      control, /*rowMask=*/0xf,
                                      /*bankMask=*/0xf, /*boundCtrl=*/false);
  }
  if (mask < 32) {
    // Bit mode: in each group of 32 lanes, lane j reads lane
    // ((j & and) | or) ^ xor, with and = 0x1f, or = 0, xor = mask.
    unsigned offset = (mask << 10) | 0x1f;
    return ROCDL::DsSwizzleOp::create(rewriter, loc, i32, value,
                                      i32Constant(rewriter, loc, offset));
  }
  Value lane = LLVM::AndOp::create(rewriter, loc, threadId(rewriter, loc),
                                   i32Constant(rewriter, loc, warpSize - 1));
  Value source = LLVM::XOrOp::create(rewriter, loc, lane,
                                     i32Constant(rewriter, loc, mask));
  return bpermute(rewriter, loc, value, source);
}

void AMDTargetInfo::markKernel(LLVM::LLVMFuncOp func,
                               unsigned numThreads) const {
  Builder builder(func.getContext());
  func->setAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  // Every launch has exactly num_warps wavefronts.
  std::string size = std::to_string(numThreads);
  func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                builder.getStringAttr(size + "," + size));
  func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                builder.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
}

LogicalResult AMDTargetInfo::printf(RewriterBase &rewriter, Location loc,
                                    StringRef format,
                                    ValueRange values) const {
  // The ROCm runtime's printf protocol (ockl): a message begins, the format
  // string and then the arguments, seven 64-bit words at a time, are
  // appended, the last part marked as such.
  MLIRContext *context = rewriter.getContext();
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  auto flat = LLVM::LLVMPointerType::get(context, kFlatAddressSpace);
  auto begin = getOrDeclareFunction(rewriter, loc, "__ockl_printf_begin",
                                    LLVM::LLVMFunctionType::get(i64, {i64}));
  auto appendString = getOrDeclareFunction(
      rewriter, loc, "__ockl_printf_append_string_n",
      LLVM::LLVMFunctionType::get(i64, {i64, flat, i64, i32}));
  constexpr unsigned kArgsPerCall = 7;
  SmallVector<Type> argTypes = {i64, i32};
  argTypes.append(kArgsPerCall, i64);
  argTypes.push_back(i32);
  auto appendArgs = getOrDeclareFunction(
      rewriter, loc, "__ockl_printf_append_args",
      LLVM::LLVMFunctionType::get(i64, argTypes));

  auto i64Constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i64,
                                    rewriter.getI64IntegerAttr(value));
  };
  Value message =
      LLVM::CallOp::create(rewriter, loc, begin, ValueRange{i64Constant(0)})
          .getResult();
  Value formatPtr = LLVM::AddrSpaceCastOp::create(
      rewriter, loc, flat,
      stringConstant(rewriter, loc, "printfFormat", format,
                     kConstantAddressSpace));
  message = LLVM::CallOp::create(
                rewriter, loc, appendString,
                ValueRange{message, formatPtr,
                           i64Constant(int64_t(format.size()) + 1),
                           i32Constant(rewriter, loc, values.empty())})
                .getResult();
  for (size_t first = 0; first < values.size(); first += kArgsPerCall) {
    size_t count = std::min<size_t>(kArgsPerCall, values.size() - first);
    SmallVector<Value> operands = {message, i32Constant(rewriter, loc, count)};
    for (size_t i = 0; i < kArgsPerCall; ++i) {
      if (i >= count) {
        operands.push_back(i64Constant(0));
        continue;
      }
      // Each argument travels as a 64-bit word (C varargs promotion is
      // done already: i32, i64, f64 or a pointer).
      Value value = values[first + i];
      Type type = value.getType();
      if (isa<LLVM::LLVMPointerType>(type))
        value = LLVM::PtrToIntOp::create(rewriter, loc, i64, value);
      else if (isa<FloatType>(type))
        value = LLVM::BitcastOp::create(rewriter, loc, i64, value);
      else if (type.getIntOrFloatBitWidth() < 64)
        value = LLVM::ZExtOp::create(rewriter, loc, i64, value);
      operands.push_back(value);
    }
    bool last = first + count == values.size();
    operands.push_back(i32Constant(rewriter, loc, last));
    message =
        LLVM::CallOp::create(rewriter, loc, appendArgs, operands).getResult();
  }
  return success();
}

Value AMDTargetInfo::loadWithHints(
    RewriterBase &rewriter, Location loc, Type type, Value ptr,
    std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  // .cv reads memory again each time (volatile); streaming and evict-first
  // accesses are nontemporal; the other hints have no AMDGPU counterpart
  // that LLVM IR can express.
  bool isVolatile = cache == tile::CacheModifier::CV;
  bool nonTemporal = cache == tile::CacheModifier::CS ||
                     evict == tile::EvictionPolicy::First;
  return LLVM::LoadOp::create(rewriter, loc, type, ptr, memoryBytes(type),
                              isVolatile, nonTemporal);
}

void AMDTargetInfo::storeWithHints(
    RewriterBase &rewriter, Location loc, Value value, Value ptr,
    std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  bool isVolatile = cache == tile::CacheModifier::WT;
  bool nonTemporal = cache == tile::CacheModifier::CS ||
                     evict == tile::EvictionPolicy::First;
  LLVM::StoreOp::create(rewriter, loc, value, ptr,
                        memoryBytes(value.getType()), isVolatile, nonTemporal);
}

LogicalResult AMDTargetInfo::assertFail(RewriterBase &rewriter, Location loc,
                                        Value failed, StringRef message,
                                        StringRef file, unsigned line,
                                        StringRef function) const {
  std::string text = (file + ":" + Twine(line) + ": " + function +
                      ": Assertion `" + message + "` failed.\n")
                         .str();
  LogicalResult result = success();
  emitGuarded(rewriter, loc, failed, Value(), [&]() -> Value {
    result = printf(rewriter, loc, literalFormat(text), ValueRange{});
    LLVM::Trap::create(rewriter, loc);
    return Value();
  });
  return result;
}

StringRef AMDTargetInfo::syncScope(tile::MemScope scope) const {
  switch (scope) {
  case tile::MemScope::CTA:
    return "workgroup";
  case tile::MemScope::GPU:
    return "agent";
  case tile::MemScope::System:
    return "";
  }
  llvm_unreachable("unknown scope");
}

bool AMDTargetInfo::hasAtomicRMW(tile::RMWOp op, Type type) const {
  return true;
}

Value AMDTargetInfo::atomicRMW(RewriterBase &rewriter, Location loc,
                               tile::RMWOp op, Value ptr, Value val,
                               tile::MemSemantic sem, tile::MemScope scope,
                               bool needOld) const {
  auto rmw = LLVM::AtomicRMWOp::create(
      rewriter, loc, atomicBinOp(op), ptr, val, getAtomicOrdering(sem),
      syncScope(scope), memoryBytes(val.getType()));
  markDeviceMemoryAtomic(rmw);
  return rmw.getResult();
}

Value AMDTargetInfo::atomicCAS(RewriterBase &rewriter, Location loc,
                               Value ptr, Value cmp, Value val,
                               tile::MemSemantic sem,
                               tile::MemScope scope) const {
  LLVM::AtomicOrdering success = getAtomicOrdering(sem);
  auto cas = LLVM::AtomicCmpXchgOp::create(
      rewriter, loc, ptr, cmp, val, success, failureOrdering(success),
      syncScope(scope), memoryBytes(val.getType()));
  markDeviceMemoryAtomic(cas);
  return LLVM::ExtractValueOp::create(rewriter, loc, cas, 0);
}

TargetInfo::MaskedAddresses
AMDTargetInfo::maskedAddresses(ConversionPatternRewriter &rewriter,
                               const TypeConverter &converter,
                               Operation *op) const {
  if (!bufferAccesses || !isa<tile::StoreOp, tile::AtomicRMWOp,
                                tile::AtomicCASOp>(op))
    return {};
  auto found = bufferAccesses->find(op);
  if (found == bufferAccesses->end())
    return {};
  return bufferAddresses(rewriter, converter, op, found->second);
}
