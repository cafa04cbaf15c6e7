#include "backends/amd/DeviceLibraries.h"

#include "backends/common/LLVMCodeGen.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <tuple>

using namespace mlir;

namespace terrazzo::amd {
namespace {

/// libdevice's float functions (`__nv_<name>f` on f32, `__nv_<name>` on
/// f64) that ocml has under the same name (`__ocml_<name>_f32`, `_f64`)
/// and signature.
constexpr const char *kSameName[] = {
    "acos",  "acosh",     "asin",  "asinh", "atan",     "atan2",  "atanh",
    "cbrt",  "ceil",      "copysign", "cos", "cosh",    "cospi",  "erf",
    "erfc",  "erfcinv",   "erfcx", "erfinv", "exp",     "exp10",  "exp2",
    "expm1", "fabs",      "fdim",  "floor", "fma",      "fmax",   "fmin",
    "fmod",  "hypot",     "ilogb", "j0",    "j1",       "ldexp",  "lgamma",
    "log",   "log10",     "log1p", "log2",  "logb",     "nearbyint",
    "nextafter", "pow",   "rcbrt", "remainder", "rhypot", "rint", "round",
    "rsqrt", "scalbn",    "sin",   "sinh",  "sinpi",    "sqrt",   "tan",
    "tanh",  "tgamma",    "trunc", "y0",    "y1"};

/// libdevice's float functions whose ocml counterpart has another name.
constexpr std::pair<const char *, const char *> kRenamed[] = {
    {"normcdf", "ncdf"},          {"normcdfinv", "ncdfinv"},
    {"cyl_bessel_i0", "i0"},      {"cyl_bessel_i1", "i1"},
    {"norm3d", "len3"},           {"rnorm3d", "rlen3"},
    {"norm4d", "len4"},           {"rnorm4d", "rlen4"},
    {"powi", "pown"}};

/// Single functions: predicates, correctly rounded forms, fast forms, and
/// integer functions of ockl.
constexpr std::pair<const char *, const char *> kSymbols[] = {
    {"__nv_isnanf", "__ocml_isnan_f32"},
    {"__nv_isnand", "__ocml_isnan_f64"},
    {"__nv_isinff", "__ocml_isinf_f32"},
    {"__nv_isinfd", "__ocml_isinf_f64"},
    {"__nv_finitef", "__ocml_isfinite_f32"},
    {"__nv_isfinited", "__ocml_isfinite_f64"},
    {"__nv_signbitf", "__ocml_signbit_f32"},
    {"__nv_signbitd", "__ocml_signbit_f64"},
    {"__nv_fsqrt_rn", "__ocml_sqrt_f32"},
    {"__nv_dsqrt_rn", "__ocml_sqrt_f64"},
    {"__nv_fmaf_rn", "__ocml_fma_f32"},
    {"__nv_fma_rn", "__ocml_fma_f64"},
    {"__nv_fast_sinf", "__ocml_native_sin_f32"},
    {"__nv_fast_cosf", "__ocml_native_cos_f32"},
    {"__nv_fast_expf", "__ocml_native_exp_f32"},
    {"__nv_fast_exp10f", "__ocml_native_exp10_f32"},
    {"__nv_fast_logf", "__ocml_native_log_f32"},
    {"__nv_fast_log2f", "__ocml_native_log2_f32"},
    {"__nv_fast_log10f", "__ocml_native_log10_f32"},
    {"__nv_fast_tanf", "__ocml_tan_f32"},
    {"__nv_fast_powf", "__ocml_pow_f32"},
    // Integer functions of ockl with libdevice's types (i32 or i64 in and
    // out) and meaning: leading zeros (32 for 0), set bits, the high half
    // of the full product, the product of the low 24 bits.
    {"__nv_clz", "__ockl_clz_u32"},
    {"__nv_popc", "__ockl_popcount_u32"},
    {"__nv_mulhi", "__ockl_mul_hi_i32"},
    {"__nv_umulhi", "__ockl_mul_hi_u32"},
    {"__nv_mul64hi", "__ockl_mul_hi_i64"},
    {"__nv_umul64hi", "__ockl_mul_hi_u64"},
    {"__nv_mul24", "__ockl_mul24_i32"},
    {"__nv_umul24", "__ockl_mul24_u32"}};

const llvm::StringMap<std::string> &libdeviceTable() {
  static const llvm::StringMap<std::string> table = [] {
    llvm::StringMap<std::string> map;
    auto addPair = [&](llvm::StringRef nv, llvm::StringRef ocml) {
      map[("__nv_" + nv + "f").str()] = ("__ocml_" + ocml + "_f32").str();
      map[("__nv_" + nv).str()] = ("__ocml_" + ocml + "_f64").str();
    };
    for (const char *name : kSameName)
      addPair(name, name);
    for (auto [nv, ocml] : kRenamed)
      addPair(nv, ocml);
    for (auto [nv, ocml] : kSymbols)
      map[nv] = ocml;
    return map;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// libdevice's functions that the kernel's module defines itself: LLVM
// intrinsics and IEEE arithmetic with the same meaning as NVIDIA's.
//===----------------------------------------------------------------------===//

using Builder = llvm::IRBuilder<>;
using llvm::Value;

/// A rounding direction of libdevice's `_rn`, `_rz`, `_rd`, `_ru` forms.
enum class Rounding { Nearest, Zero, Down, Up };

/// An optimisation barrier: `value` unchanged, but opaque to the code
/// generator, so that a multiply and an add on either side of it are not
/// contracted into one fma (the compiler contracts by default, as Triton's
/// enable_fp_fusion; libdevice's `_rn` forms are separately rounded, and the
/// exact error terms below need the operands they were given). An empty
/// inline assembly in a VGPR: no instruction. (llvm.arithmetic.fence would
/// say this, but LLVM 22's AMDGPU back end miscompiles it.)
Value *barrier(Builder &b, Value *value) {
  auto *type =
      llvm::FunctionType::get(value->getType(), {value->getType()}, false);
  return b.CreateCall(llvm::InlineAsm::get(type, "", "=v,0", false), {value});
}

bool isBarrier(const llvm::Instruction &instruction) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  auto *assembly =
      call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())
           : nullptr;
  return assembly && assembly->getAsmString().empty() &&
         assembly->getConstraintString() == "=v,0";
}

void removeBarriers(llvm::Function &function) {
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : llvm::make_early_inc_range(block))
      if (isBarrier(instruction)) {
        instruction.replaceAllUsesWith(
            llvm::cast<llvm::CallInst>(instruction).getArgOperand(0));
        instruction.eraseFromParent();
      }
}

llvm::Type *bitsType(Builder &b, Value *x) {
  return b.getIntNTy(x->getType()->getPrimitiveSizeInBits());
}

Value *floatConstant(Value *like, double value) {
  return llvm::ConstantFP::get(like->getType(), value);
}

/// The next representable value above `t` (the smallest denormal above
/// zeros, -MAX above -inf); +inf and NaN unchanged.
Value *nextUp(Builder &b, Value *t) {
  llvm::Type *intType = bitsType(b, t);
  Value *bits = b.CreateBitCast(t, intType);
  Value *zero = floatConstant(t, 0.0);
  Value *stepped = b.CreateSelect(
      b.CreateFCmpOGT(t, zero),
      b.CreateAdd(bits, b.getIntN(intType->getIntegerBitWidth(), 1)),
      b.CreateSub(bits, b.getIntN(intType->getIntegerBitWidth(), 1)));
  stepped = b.CreateSelect(b.CreateFCmpOEQ(t, zero),
                           llvm::ConstantInt::get(intType, 1), stepped);
  Value *up = b.CreateBitCast(stepped, t->getType());
  Value *keep = b.CreateFCmpUEQ(t, floatConstant(t, INFINITY));
  return b.CreateSelect(keep, t, up);
}

Value *nextDown(Builder &b, Value *t) {
  return b.CreateFNeg(nextUp(b, b.CreateFNeg(t)));
}

/// `t`, the nearest value to an exact result, rounded in `mode` instead:
/// `error` has the sign of (exact - t), zero (or NaN) where t is exact or
/// not to be corrected. An overflow to infinity comes with an error of the
/// other sign, which gives the largest finite value towards zero.
Value *directed(Builder &b, Rounding mode, Value *t, Value *error) {
  Value *zero = floatConstant(error, 0.0);
  Value *above = b.CreateFCmpOGT(error, zero);
  Value *below = b.CreateFCmpOLT(error, zero);
  Value *tZero = floatConstant(t, 0.0);
  switch (mode) {
  case Rounding::Nearest:
    return t;
  case Rounding::Up:
    return b.CreateSelect(above, nextUp(b, t), t);
  case Rounding::Down:
    return b.CreateSelect(below, nextDown(b, t), t);
  case Rounding::Zero:
    return b.CreateSelect(
        b.CreateAnd(above, b.CreateFCmpOLT(t, tZero)), nextUp(b, t),
        b.CreateSelect(b.CreateAnd(below, b.CreateFCmpOGT(t, tZero)),
                       nextDown(b, t), t));
  }
  llvm_unreachable("rounding mode");
}

/// The exact error of `s = a + b` (Knuth's TwoSum: s + error == a + b
/// exactly, no overflow), and on an overflow of finite operands the
/// opposite of s, for `directed`.
Value *sumError(Builder &b, Value *a, Value *x, Value *s) {
  Value *xv = b.CreateFSub(s, a);
  Value *av = b.CreateFSub(s, xv);
  Value *error = b.CreateFAdd(b.CreateFSub(a, av), b.CreateFSub(x, xv));
  Value *inf = floatConstant(s, INFINITY);
  Value *overflow = b.CreateAnd(
      b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, s), inf),
      b.CreateAnd(b.CreateFCmpOLT(
                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a), inf),
                  b.CreateFCmpOLT(
                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), inf)));
  return b.CreateSelect(overflow, b.CreateFNeg(s), error);
}

/// An exact zero sum in round-down mode: -0 unless both operands are +0
/// (IEEE 754 6.3), which is -((-a) + (-x)) in round-to-nearest.
Value *zeroSumDown(Builder &b, Value *a, Value *x) {
  return b.CreateFNeg(b.CreateFAdd(b.CreateFNeg(a), b.CreateFNeg(x)));
}

std::pair<Value *, Value *> frexp(Builder &b, Value *x) {
  Value *parts = b.CreateIntrinsic(llvm::Intrinsic::frexp,
                                   {x->getType(), b.getInt32Ty()}, {x});
  return {b.CreateExtractValue(parts, 0), b.CreateExtractValue(parts, 1)};
}

Value *ldexp(Builder &b, Value *x, Value *exponent) {
  return b.CreateIntrinsic(llvm::Intrinsic::ldexp,
                           {x->getType(), b.getInt32Ty()}, {x, exponent});
}

Value *fma(Builder &b, Value *x, Value *y, Value *z) {
  return b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
}

/// float64 a*b, a/b, sqrt(a) rounded in `mode`: the correctly rounded
/// result corrected by the sign of its exact residual, computed on the
/// operands' significands (frexp) so that it neither underflows nor
/// overflows, whatever the result (denormals, zeros, infinities included).
Value *productF64(Builder &b, Rounding mode, Value *x, Value *y) {
  Value *t = b.CreateFMul(x, y);
  auto [mx, ex] = frexp(b, x);
  auto [my, ey] = frexp(b, y);
  Value *tm = ldexp(b, t, b.CreateNeg(b.CreateAdd(ex, ey)));
  return directed(b, mode, t, fma(b, mx, my, b.CreateFNeg(tm)));
}

Value *quotientF64(Builder &b, Rounding mode, Value *x, Value *y) {
  Value *t = b.CreateFDiv(x, y);
  auto [mx, ex] = frexp(b, x);
  auto [my, ey] = frexp(b, y);
  Value *tm = ldexp(b, t, b.CreateSub(ey, ex));
  Value *residual = fma(b, b.CreateFNeg(tm), my, mx);
  // x/y - t has the sign of (mx - tm*my) / my.
  Value *error = b.CreateSelect(b.CreateFCmpOLT(my, floatConstant(my, 0.0)),
                                b.CreateFNeg(residual), residual);
  return directed(b, mode, t, error);
}

Value *sqrtF64(Builder &b, Rounding mode, Value *x) {
  Value *t = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  auto [mx, ex] = frexp(b, x);
  // An even exponent: x = m 2^e with m in [0.5, 2), sqrt(x) = sqrt(m) 2^(e/2).
  Value *odd = b.CreateAnd(ex, b.getInt32(1));
  Value *m = ldexp(b, mx, odd);
  Value *half = b.CreateAShr(b.CreateSub(ex, odd), b.getInt32(1));
  Value *tm = ldexp(b, t, b.CreateNeg(half));
  return directed(b, mode, t, fma(b, b.CreateFNeg(tm), tm, m));
}

Value *sumF64(Builder &b, Rounding mode, Value *x, Value *y) {
  if (mode == Rounding::Nearest)
    return barrier(b, b.CreateFAdd(barrier(b, x), barrier(b, y)));
  x = barrier(b, x);
  y = barrier(b, y);
  Value *t = b.CreateFAdd(x, y);
  Value *result = directed(b, mode, t, sumError(b, x, y, t));
  if (mode != Rounding::Down)
    return result;
  return b.CreateSelect(b.CreateFCmpOEQ(t, floatConstant(t, 0.0)),
                        zeroSumDown(b, x, y), result);
}

/// A float32 result from a float64 value `x` whose error (the exact result
/// minus x) has the sign of `error`, rounded in `mode`: rounding x to
/// float32 to nearest, then correcting by the sign of what that dropped,
/// or where it dropped nothing, of `error`.
Value *toF32(Builder &b, Rounding mode, Value *x, Value *error) {
  Value *t = b.CreateFPTrunc(x, b.getFloatTy());
  if (mode == Rounding::Nearest)
    return t;
  Value *dropped = b.CreateFSub(x, b.CreateFPExt(t, b.getDoubleTy()));
  Value *sign = b.CreateSelect(
      b.CreateFCmpUNE(dropped, floatConstant(dropped, 0.0)), dropped, error);
  return directed(b, mode, t, sign);
}

Value *wide(Builder &b, Value *x) { return b.CreateFPExt(x, b.getDoubleTy()); }
Value *zeroF64(Builder &b) {
  return llvm::ConstantFP::get(b.getDoubleTy(), 0.0);
}

/// float32 arithmetic rounded in `mode`, computed in float64 where the
/// operation is exact (products, and sums, products plus one value, with
/// their TwoSum error) or has an exact residual (quotients, square roots),
/// then rounded once to float32 by `toF32`: no float64 result of these
/// overflows or underflows.
Value *arithmeticF32(Builder &b, Rounding mode, llvm::StringRef op,
                     llvm::ArrayRef<Value *> args) {
  if (mode == Rounding::Nearest &&
      (op == "add" || op == "sub" || op == "mul")) {
    Value *x = barrier(b, args[0]), *y = barrier(b, args[1]);
    Value *r = op == "add"   ? b.CreateFAdd(x, y)
               : op == "sub" ? b.CreateFSub(x, y)
                             : b.CreateFMul(x, y);
    return barrier(b, r);
  }
  if (mode == Rounding::Nearest && op == "div")
    return b.CreateFDiv(args[0], args[1]);
  if (mode == Rounding::Nearest && op == "rcp")
    return b.CreateFDiv(floatConstant(args[0], 1.0), args[0]);
  Value *x = wide(b, args[0]);
  if (op == "rcp" || op == "div") {
    Value *num = op == "rcp" ? floatConstant(x, 1.0) : x;
    Value *den = op == "rcp" ? x : wide(b, args[1]);
    Value *q = b.CreateFDiv(num, den);
    Value *residual = fma(b, b.CreateFNeg(q), den, num);
    Value *error = b.CreateSelect(b.CreateFCmpOLT(den, zeroF64(b)),
                                  b.CreateFNeg(residual), residual);
    return toF32(b, mode, q, error);
  }
  if (op == "sqrt") {
    Value *s = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
    return toF32(b, mode, s, fma(b, b.CreateFNeg(s), s, x));
  }
  if (op == "mul")
    return toF32(b, mode, b.CreateFMul(x, wide(b, args[1])), zeroF64(b));
  // Sums: a + b, a - b, a * b + c (the product exact in float64).
  Value *first = x, *second = nullptr;
  if (op == "fma") {
    first = b.CreateFMul(x, wide(b, args[1]));
    second = wide(b, args[2]);
  } else {
    second = wide(b, args[1]);
    if (op == "sub")
      second = b.CreateFNeg(second);
  }
  Value *s = b.CreateFAdd(first, second);
  Value *result = toF32(b, mode, s, sumError(b, first, second, s));
  if (mode != Rounding::Down)
    return result;
  return b.CreateSelect(
      b.CreateFCmpOEQ(s, zeroF64(b)),
      b.CreateFPTrunc(zeroSumDown(b, first, second), b.getFloatTy()), result);
}

/// float64 a * b + c rounded in `mode` by the hardware: the chips round
/// float64 arithmetic in the mode register's direction, which
/// llvm.set.rounding sets (s_setreg) around a constrained fma, in a
/// strictfp function of its own that the kernel calls (LLVM lowers no
/// strict float64 division or square root, hence the residuals above; an
/// fma's error has no such exact form).
Value *fmaF64Hardware(Builder &b, Rounding mode, llvm::ArrayRef<Value *> args) {
  // llvm.set.rounding's encoding (FLT_ROUNDS): 0 towards zero, 2 up, 3 down.
  unsigned code = mode == Rounding::Zero ? 0 : mode == Rounding::Up ? 2 : 3;
  Value *old = b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::get_rounding,
                                 llvm::ArrayRef<Value *>());
  b.CreateIntrinsic(b.getVoidTy(), llvm::Intrinsic::set_rounding,
                    {b.getInt32(code)});
  Value *r = b.CreateConstrainedFPCall(
      llvm::Intrinsic::getOrInsertDeclaration(
          b.GetInsertBlock()->getModule(),
          llvm::Intrinsic::experimental_constrained_fma, {args[0]->getType()}),
      args, "", llvm::RoundingMode::Dynamic, llvm::fp::ebIgnore);
  b.CreateIntrinsic(b.getVoidTy(), llvm::Intrinsic::set_rounding, {old});
  return r;
}

/// Float to integer, saturating as NVIDIA's cvt does (NaN gives 0, or
/// 0x80000000 from float64 to 32 bits, as an H100/H200 gives).
Value *toInteger(Builder &b, Rounding mode, Value *x, unsigned bits,
                 bool isSigned) {
  llvm::Intrinsic::ID rounding =
      mode == Rounding::Nearest ? llvm::Intrinsic::rint
      : mode == Rounding::Down  ? llvm::Intrinsic::floor
      : mode == Rounding::Up    ? llvm::Intrinsic::ceil
                                : llvm::Intrinsic::trunc;
  Value *r = b.CreateUnaryIntrinsic(rounding, x);
  llvm::Type *intType = b.getIntNTy(bits);
  Value *result = b.CreateIntrinsic(isSigned ? llvm::Intrinsic::fptosi_sat
                                             : llvm::Intrinsic::fptoui_sat,
                                    {intType, x->getType()}, {r});
  if (bits == 32 && x->getType()->isDoubleTy())
    result =
        b.CreateSelect(b.CreateFCmpUNO(x, x), b.getInt32(0x80000000u), result);
  return result;
}

/// An integer to float64 (`bits` 64) or float32 rounded in `mode`: exact
/// in float64 up to 32 bits; a 64-bit value as the sum of its high half
/// times 2^32 and its low half, with that sum's exact error.
Value *fromInteger(Builder &b, Rounding mode, Value *x, bool isSigned,
                   llvm::Type *resultType) {
  unsigned bits = x->getType()->getIntegerBitWidth();
  if (mode == Rounding::Nearest || (bits == 32 && resultType->isDoubleTy()))
    return isSigned ? b.CreateSIToFP(x, resultType)
                    : b.CreateUIToFP(x, resultType);
  llvm::Type *f64 = b.getDoubleTy();
  Value *value, *error;
  if (bits == 32) {
    value = isSigned ? b.CreateSIToFP(x, f64) : b.CreateUIToFP(x, f64);
    error = zeroF64(b);
  } else {
    Value *high = b.CreateTrunc(
        isSigned ? b.CreateAShr(x, 32) : b.CreateLShr(x, 32), b.getInt32Ty());
    Value *low = b.CreateTrunc(x, b.getInt32Ty());
    Value *highF = ldexp(
        b, isSigned ? b.CreateSIToFP(high, f64) : b.CreateUIToFP(high, f64),
        b.getInt32(32));
    Value *lowF = b.CreateUIToFP(low, f64);
    value = b.CreateFAdd(highF, lowF);
    error = sumError(b, highF, lowF, value);
  }
  if (resultType->isFloatTy())
    return toF32(b, mode, value, error);
  return directed(b, mode, value, error);
}

//===----------------------------------------------------------------------===//
// Bessel functions of integer order (jn, yn), from ocml's orders 0 and 1:
// recurrences in float64 (the float32 forms round its result once).
//===----------------------------------------------------------------------===//

/// ocml's float64 function `name` (j0, lgamma, ...) of `x`, declared in
/// the module for the libraries' link to define.
Value *ocmlF64(Builder &b, llvm::StringRef name, Value *x) {
  llvm::Module *module = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee = module->getOrInsertFunction(
      ("__ocml_" + name + "_f64").str(), b.getDoubleTy(), b.getDoubleTy());
  return b.CreateCall(callee, {x});
}

/// A loop in the function being built: `carried` values start at
/// `initial`; while `condition` of them holds, `step` gives the next. The
/// builder continues after the loop; the values at its exit are returned.
llvm::SmallVector<Value *> emitLoop(
    Builder &b, llvm::ArrayRef<Value *> initial,
    const std::function<Value *(Builder &, llvm::ArrayRef<Value *>)> &condition,
    const std::function<llvm::SmallVector<Value *>(
        Builder &, llvm::ArrayRef<Value *>)> &step) {
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = function->getContext();
  llvm::BasicBlock *before = b.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(context, "loop", function);
  auto *body = llvm::BasicBlock::Create(context, "loop.body", function);
  auto *exit = llvm::BasicBlock::Create(context, "loop.exit", function);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::SmallVector<llvm::PHINode *> phis;
  llvm::SmallVector<Value *> values;
  for (Value *value : initial) {
    phis.push_back(b.CreatePHI(value->getType(), 2));
    phis.back()->addIncoming(value, before);
    values.push_back(phis.back());
  }
  b.CreateCondBr(condition(b, values), body, exit);
  b.SetInsertPoint(body);
  llvm::SmallVector<Value *> next = step(b, values);
  for (auto [phi, value] : llvm::zip(phis, next))
    phi->addIncoming(value, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  return values;
}

/// `then()` where `condition` holds, else `otherwise()`, each built in a
/// block of its own (so that a loop in one runs only where it is taken).
Value *emitIf(Builder &b, Value *condition,
              const std::function<Value *(Builder &)> &then,
              const std::function<Value *(Builder &)> &otherwise) {
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = function->getContext();
  auto *thenBlock = llvm::BasicBlock::Create(context, "if.then", function);
  auto *elseBlock = llvm::BasicBlock::Create(context, "if.else", function);
  auto *join = llvm::BasicBlock::Create(context, "if.join", function);
  b.CreateCondBr(condition, thenBlock, elseBlock);
  b.SetInsertPoint(thenBlock);
  Value *thenValue = then(b);
  llvm::BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(elseBlock);
  Value *elseValue = otherwise(b);
  llvm::BasicBlock *elseEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode *phi = b.CreatePHI(thenValue->getType(), 2);
  phi->addIncoming(thenValue, thenEnd);
  phi->addIncoming(elseValue, elseEnd);
  return phi;
}

/// 2k in float64 for an unsigned i32 `k` (up to 2^32 - 1).
Value *twice(Builder &b, Value *k) {
  return b.CreateFMul(b.CreateUIToFP(k, b.getDoubleTy()),
                      llvm::ConstantFP::get(b.getDoubleTy(), 2.0));
}

/// The three-term recurrence C_{k+1} = (2k/x) C_k - C_{k-1} that J and Y
/// both satisfy, upwards from C_0 = `c0`, C_1 = `c1` to C_n (`n` >= 1, an
/// unsigned i32), stopping early at an infinite or NaN term (Y's overflow: the
/// terms only grow from there).
Value *upwardRecurrence(Builder &b, Value *n, Value *x, Value *c0, Value *c1) {
  llvm::SmallVector<Value *> exit = emitLoop(
      b, {b.getInt32(1), c0, c1},
      [&](Builder &b, llvm::ArrayRef<Value *> v) {
        Value *finite = b.CreateFCmpOLT(
            b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v[2]),
            floatConstant(x, INFINITY));
        return b.CreateAnd(b.CreateICmpULT(v[0], n), finite);
      },
      [&](Builder &b, llvm::ArrayRef<Value *> v) -> llvm::SmallVector<Value *> {
        Value *twoK = twice(b, v[0]);
        Value *next = fma(b, b.CreateFDiv(twoK, x), v[2], b.CreateFNeg(v[1]));
        return {b.CreateAdd(v[0], b.getInt32(1)), v[2], next};
      });
  return exit[2];
}

/// (-1)^n as a float64 sign where `odd` (an i1) holds.
Value *signWhere(Builder &b, Value *odd) {
  return b.CreateSelect(odd, llvm::ConstantFP::get(b.getDoubleTy(), -1.0),
                        llvm::ConstantFP::get(b.getDoubleTy(), 1.0));
}

/// Miller's downward recurrence for J_n(x), 0 < x < n: from f_{m+1} = 0,
/// f_m = 1 at m = n + 16 + sqrt(160 n) down to f_0, keeping f_n; whenever a
/// term passes 2^300 the three kept values are scaled by 2^-300 (a step
/// multiplies by at most 2k/x < 2^59 for k < 2^32 and x >= 2^-26, so no
/// term passes 2^360 and f_0^2 + f_1^2 stays finite).
/// J_n = f_n (J_0 f_0 + J_1 f_1) / (f_0^2 + f_1^2).
Value *millerJ(Builder &b, Value *n, Value *nF, Value *x, Value *j0,
               Value *j1) {
  Value *start = b.CreateAdd(
      b.CreateAdd(n, b.getInt32(16)),
      b.CreateFPToUI(b.CreateUnaryIntrinsic(
                         llvm::Intrinsic::sqrt,
                         b.CreateFMul(nF, floatConstant(x, 160.0))),
                     b.getInt32Ty()));
  Value *zero = floatConstant(x, 0.0);
  // (k, f_{k+1}, f_k, f_n so far).
  llvm::SmallVector<Value *> exit = emitLoop(
      b, {start, zero, floatConstant(x, 1.0), zero},
      [&](Builder &b, llvm::ArrayRef<Value *> v) {
        return b.CreateICmpUGT(v[0], b.getInt32(0));
      },
      [&](Builder &b, llvm::ArrayRef<Value *> v) -> llvm::SmallVector<Value *> {
        Value *twoK = twice(b, v[0]);
        Value *below = fma(b, b.CreateFDiv(twoK, x), v[2], b.CreateFNeg(v[1]));
        Value *k = b.CreateSub(v[0], b.getInt32(1));
        Value *kept = b.CreateSelect(b.CreateICmpEQ(k, n), below, v[3]);
        Value *large = b.CreateFCmpOGT(
            b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, below),
            floatConstant(x, 0x1p300));
        Value *scale = b.CreateSelect(large, floatConstant(x, 0x1p-300),
                                      floatConstant(x, 1.0));
        return {k, b.CreateFMul(v[2], scale), b.CreateFMul(below, scale),
                b.CreateFMul(kept, scale)};
      });
  Value *f1 = exit[1], *f0 = exit[2], *fn = exit[3];
  Value *dot = fma(b, j0, f0, b.CreateFMul(j1, f1));
  Value *norm = fma(b, f0, f0, b.CreateFMul(f1, f1));
  return b.CreateFMul(fn, b.CreateFDiv(dot, norm));
}

/// (x/2)^n / n! as the product of the n factors (x/2)/k, each below 1
/// (`half` = x/2 < 2^-27, so n is at most about 40 where this is used).
Value *leadingTerm(Builder &b, Value *n, Value *half) {
  return emitLoop(
      b, {b.getInt32(1), floatConstant(half, 1.0)},
      [&](Builder &b, llvm::ArrayRef<Value *> v) {
        return b.CreateICmpULE(v[0], n);
      },
      [&](Builder &b, llvm::ArrayRef<Value *> v) -> llvm::SmallVector<Value *> {
        Value *k = b.CreateUIToFP(v[0], b.getDoubleTy());
        return {b.CreateAdd(v[0], b.getInt32(1)),
                b.CreateFMul(v[1], b.CreateFDiv(half, k))};
      })[1];
}

/// J_n(x) in float64 for an i32 `n`. J_{-n} = (-1)^n J_n and J_n(-x) =
/// (-1)^n J_n(x) reduce it to n, x >= 0: J_0 and J_1 are ocml's; for n
/// <= x the upward recurrence from them (stable while the order is below
/// x); for n > x Miller's downward recurrence from an order m far enough
/// above n that its arbitrary start (1, 0) has died out by n, rescaled
/// on the way down before it overflows, and normalised by least squares
/// against ocml's J_0 and J_1 (which never vanish together); where the
/// bound |J_n(x)| <= (x/2)^n / n! is below float64's smallest denormal,
/// 0; for x < 2^-26 that leading term of the series itself (the next is
/// below 2^-54 of it). 0 at infinity, NaN for NaN, 1 or 0 at x = 0.
Value *besselJ(Builder &b, Value *order, Value *x) {
  Value *negativeOrder = b.CreateICmpSLT(order, b.getInt32(0));
  // |n| as unsigned (the most negative n stays 2^31).
  Value *n = b.CreateSelect(negativeOrder, b.CreateNeg(order), order);
  Value *odd = b.CreateTrunc(n, b.getInt1Ty());
  Value *negativeX =
      b.CreateICmpSLT(b.CreateBitCast(x, b.getInt64Ty()), b.getInt64(0));
  Value *flip = b.CreateAnd(odd, b.CreateXor(negativeOrder, negativeX));
  Value *ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  Value *nF = b.CreateUIToFP(n, b.getDoubleTy());
  Value *regular = b.CreateAnd(b.CreateFCmpOGT(ax, floatConstant(x, 0.0)),
                               b.CreateFCmpOLT(ax, floatConstant(x, INFINITY)));
  Value *j0 = ocmlF64(b, "j0", ax);
  Value *j1 = ocmlF64(b, "j1", ax);
  Value *zero = floatConstant(x, 0.0);
  // n > x: 0 where the bound underflows, the leading term for tiny x, else
  // Miller's recurrence.
  auto belowOrder = [&](Builder &b) {
    Value *half = b.CreateFMul(ax, floatConstant(x, 0.5));
    Value *logBound = b.CreateFSub(
        b.CreateFMul(nF, ocmlF64(b, "log", half)),
        ocmlF64(b, "lgamma", b.CreateFAdd(nF, floatConstant(x, 1.0))));
    auto nonzero = [&](Builder &b) {
      return emitIf(
          b, b.CreateFCmpOLT(ax, floatConstant(x, 0x1p-26)),
          [&](Builder &b) { return leadingTerm(b, n, half); },
          [&](Builder &b) { return millerJ(b, n, nF, ax, j0, j1); });
    };
    return emitIf(b, b.CreateFCmpOLT(logBound, floatConstant(x, -746.0)),
                  [&](Builder &) { return zero; }, nonzero);
  };
  // n = 0, n = 1, and x = 0, infinite or NaN.
  auto direct = [&](Builder &b) {
    Value *isZeroOrder = b.CreateICmpEQ(n, b.getInt32(0));
    Value *small = b.CreateSelect(isZeroOrder, j0, j1);
    Value *atZero =
        b.CreateSelect(isZeroOrder, floatConstant(x, 1.0), zero);
    Value *special = b.CreateSelect(
        b.CreateFCmpOEQ(ax, zero), atZero,
        b.CreateSelect(b.CreateFCmpUNO(ax, ax), ax, zero));
    return b.CreateSelect(
        b.CreateAnd(regular, b.CreateICmpULT(n, b.getInt32(2))), small,
        special);
  };
  Value *magnitude = emitIf(
      b, b.CreateAnd(regular, b.CreateICmpUGE(n, b.getInt32(2))),
      [&](Builder &b) {
        return emitIf(
            b, b.CreateFCmpOLE(nF, ax),
            [&](Builder &b) { return upwardRecurrence(b, n, ax, j0, j1); },
            belowOrder);
      },
      direct);
  return b.CreateFMul(magnitude, signWhere(b, flip));
}

/// Y_n(x) in float64 for an i32 `n`: Y_{-n} = (-1)^n Y_n; for x > 0 the
/// upward recurrence from ocml's Y_0 and Y_1 (stable: Y grows with the
/// order), which ends at -infinity once a term overflows; -infinity at 0
/// (times the sign), NaN below 0 and for NaN, 0 at infinity.
Value *besselY(Builder &b, Value *order, Value *x) {
  Value *negativeOrder = b.CreateICmpSLT(order, b.getInt32(0));
  Value *n = b.CreateSelect(negativeOrder, b.CreateNeg(order), order);
  Value *flip = b.CreateAnd(b.CreateTrunc(n, b.getInt1Ty()), negativeOrder);
  Value *y0 = ocmlF64(b, "y0", x);
  Value *y1 = ocmlF64(b, "y1", x);
  Value *regular = b.CreateAnd(b.CreateFCmpOGT(x, floatConstant(x, 0.0)),
                               b.CreateFCmpOLT(x, floatConstant(x, INFINITY)));
  Value *magnitude = emitIf(
      b, b.CreateAnd(regular, b.CreateICmpUGE(n, b.getInt32(2))),
      [&](Builder &b) { return upwardRecurrence(b, n, x, y0, y1); },
      [&](Builder &b) {
        Value *small = b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(0)), y0, y1);
        Value *special = b.CreateSelect(
            b.CreateFCmpOEQ(x, floatConstant(x, 0.0)),
            floatConstant(x, -INFINITY),
            b.CreateSelect(b.CreateFCmpOEQ(x, floatConstant(x, INFINITY)),
                           floatConstant(x, 0.0), floatConstant(x, NAN)));
        return b.CreateSelect(regular, small, special);
      });
  return b.CreateFMul(magnitude, signWhere(b, flip));
}

/// rcp64h: 1/x correctly rounded in float64 with its low word cleared (the
/// high word of the reciprocal; NVIDIA's MUFU.RCP64H approximates that
/// word, to within its last bit or so).
Value *reciprocalHighWord(Builder &b, Value *x) {
  Value *q = b.CreateFDiv(floatConstant(x, 1.0), x);
  Value *bits = b.CreateAnd(b.CreateBitCast(q, b.getInt64Ty()),
                            b.getInt64(0xFFFFFFFF00000000ull));
  return b.CreateBitCast(bits, b.getDoubleTy());
}

/// How the module computes one libdevice function: the body of the
/// function from its arguments; `strict` bodies (rounding-mode changes)
/// are strictfp functions of their own, the others are inlined.
struct Definition {
  std::function<Value *(Builder &, llvm::ArrayRef<Value *>)> body;
  bool strict = false;
};

Rounding roundingOf(llvm::StringRef suffix) {
  return suffix == "rz"   ? Rounding::Zero
         : suffix == "rd" ? Rounding::Down
         : suffix == "ru" ? Rounding::Up
                          : Rounding::Nearest;
}

Value *intrinsic(Builder &b, llvm::Intrinsic::ID id, Value *x) {
  return b.CreateIntrinsic(id, {x->getType()}, {x});
}

const llvm::StringMap<Definition> &definitionTable() {
  static const llvm::StringMap<Definition> table = [] {
    llvm::StringMap<Definition> map;
    using Args = llvm::ArrayRef<Value *>;
    auto i32 = [](Builder &b, Value *v) {
      return b.CreateZExtOrTrunc(v, b.getInt32Ty());
    };
    // Bits.
    map["__nv_brev"].body = map["__nv_brevll"].body = [](Builder &b, Args a) {
      return intrinsic(b, llvm::Intrinsic::bitreverse, a[0]);
    };
    map["__nv_clzll"].body = [=](Builder &b, Args a) {
      return i32(b, b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0],
                                            b.getFalse()));
    };
    map["__nv_popcll"].body = [=](Builder &b, Args a) {
      return i32(b, intrinsic(b, llvm::Intrinsic::ctpop, a[0]));
    };
    // ffs: the 1-based position of the lowest set bit, 0 for 0.
    map["__nv_ffs"].body = map["__nv_ffsll"].body = [=](Builder &b, Args a) {
      Value *zeros = i32(
          b, b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, a[0], b.getTrue()));
      Value *isZero =
          b.CreateICmpEQ(a[0], llvm::ConstantInt::get(a[0]->getType(), 0));
      return b.CreateSelect(isZero, b.getInt32(0),
                            b.CreateAdd(zeros, b.getInt32(1)));
    };
    // byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of
    // the eight bytes y:x.
    map["__nv_byte_perm"].body = [](Builder &b, Args a) {
      Value *bytes =
          b.CreateOr(b.CreateShl(b.CreateZExt(a[1], b.getInt64Ty()), 32),
                     b.CreateZExt(a[0], b.getInt64Ty()));
      Value *result = b.getInt32(0);
      for (unsigned i = 0; i < 4; ++i) {
        Value *selector = b.CreateAnd(b.CreateLShr(a[2], 4 * i), 7);
        Value *shift = b.CreateZExt(b.CreateShl(selector, 3), b.getInt64Ty());
        Value *byte = b.CreateAnd(
            b.CreateTrunc(b.CreateLShr(bytes, shift), b.getInt32Ty()), 0xff);
        result = b.CreateOr(result, b.CreateShl(byte, 8 * i));
      }
      return result;
    };
    map["__nv_abs"].body = map["__nv_llabs"].body = [](Builder &b, Args a) {
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a[0], b.getFalse());
    };
    // Halving adds without overflow: (x + y) >> 1 and (x + y + 1) >> 1.
    for (auto [name, isSigned, round] : {std::tuple{"__nv_hadd", true, false},
                                         {"__nv_uhadd", false, false},
                                         {"__nv_rhadd", true, true},
                                         {"__nv_urhadd", false, true}})
      map[name].body = [isSigned, round](Builder &b, Args a) {
        Value *half = isSigned ? b.CreateAShr(b.CreateXor(a[0], a[1]), 1)
                               : b.CreateLShr(b.CreateXor(a[0], a[1]), 1);
        return round ? b.CreateSub(b.CreateOr(a[0], a[1]), half)
                     : b.CreateAdd(b.CreateAnd(a[0], a[1]), half);
      };
    // sad(x, y, z) = |x - y| + z, the difference compared signed or not.
    for (auto [name, isSigned] :
         {std::pair{"__nv_sad", true}, {"__nv_usad", false}})
      map[name].body = [isSigned](Builder &b, Args a) {
        Value *greater = isSigned ? b.CreateICmpSGT(a[0], a[1])
                                  : b.CreateICmpUGT(a[0], a[1]);
        Value *diff = b.CreateSelect(greater, b.CreateSub(a[0], a[1]),
                                     b.CreateSub(a[1], a[0]));
        return b.CreateAdd(diff, a[2]);
      };
    // Bit casts between same-sized floats and integers, and float64 halves.
    for (const char *name :
         {"__nv_int_as_float", "__nv_float_as_int", "__nv_uint_as_float",
          "__nv_float_as_uint", "__nv_longlong_as_double",
          "__nv_double_as_longlong"})
      map[name].body = [](Builder &b, Args a) {
        return b.CreateBitCast(a[0], b.getCurrentFunctionReturnType());
      };
    map["__nv_double2loint"].body = [](Builder &b, Args a) {
      return b.CreateTrunc(b.CreateBitCast(a[0], b.getInt64Ty()),
                           b.getInt32Ty());
    };
    map["__nv_double2hiint"].body = [](Builder &b, Args a) {
      return b.CreateTrunc(
          b.CreateLShr(b.CreateBitCast(a[0], b.getInt64Ty()), 32),
          b.getInt32Ty());
    };
    map["__nv_hiloint2double"].body = [](Builder &b, Args a) {
      Value *bits =
          b.CreateOr(b.CreateShl(b.CreateZExt(a[0], b.getInt64Ty()), 32),
                     b.CreateZExt(a[1], b.getInt64Ty()));
      return b.CreateBitCast(bits, b.getDoubleTy());
    };
    // saturate: clamped to [0, 1], NaN (and -0) to +0.
    map["__nv_saturatef"].body = [](Builder &b, Args a) {
      Value *zero = floatConstant(a[0], 0.0);
      Value *clamped = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, a[0],
                                               floatConstant(a[0], 1.0));
      return b.CreateSelect(b.CreateFCmpOGT(a[0], zero), clamped, zero);
    };
    // The fast division: a/b to about 2 ulp, as AMD's approximate division.
    map["__nv_fast_fdividef"].body = [](Builder &b, Args a) {
      Value *q = b.CreateFDiv(a[0], a[1]);
      llvm::cast<llvm::Instruction>(q)->setHasApproxFunc(true);
      llvm::cast<llvm::Instruction>(q)->setHasAllowReciprocal(true);
      return q;
    };
    // Rounding to integers (llrint, llround: to 64 bits).
    map["__nv_llrintf"].body =
        map["__nv_llrint"].body = [](Builder &b, Args a) {
          return toInteger(b, Rounding::Nearest, a[0], 64, true);
        };
    map["__nv_llroundf"].body =
        map["__nv_llround"].body = [](Builder &b, Args a) {
          Value *r = b.CreateUnaryIntrinsic(llvm::Intrinsic::round, a[0]);
          return b.CreateIntrinsic(llvm::Intrinsic::fptosi_sat,
                                   {b.getInt64Ty(), r->getType()}, {r});
        };
    // 1/sqrt(x) correctly rounded: in float64, then the float32 midpoint
    // next to the result compared exactly (x * m^2 against 1).
    map["__nv_frsqrt_rn"].body = [](Builder &b, Args a) {
      Value *x = wide(b, a[0]);
      Value *y = b.CreateFDiv(floatConstant(x, 1.0),
                              b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x));
      Value *t = b.CreateFPTrunc(y, b.getFloatTy());
      Value *up = nextUp(b, t), *down = nextDown(b, t);
      Value *t64 = wide(b, t);
      Value *half = floatConstant(x, 0.5);
      Value *midUp = b.CreateFMul(b.CreateFAdd(t64, wide(b, up)), half);
      Value *midDown = b.CreateFMul(b.CreateFAdd(t64, wide(b, down)), half);
      Value *one = floatConstant(x, -1.0);
      // 1/sqrt(x) > m exactly when x m^2 < 1 (m^2 is exact in float64).
      Value *aboveUp = b.CreateFCmpOLT(
          fma(b, x, b.CreateFMul(midUp, midUp), one), zeroF64(b));
      Value *belowDown = b.CreateFCmpOGT(
          fma(b, x, b.CreateFMul(midDown, midDown), one), zeroF64(b));
      Value *finite = b.CreateAnd(
          b.CreateFCmpONE(t, floatConstant(t, 0.0)),
          b.CreateFCmpOLT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, t),
                          floatConstant(t, INFINITY)));
      Value *r =
          b.CreateSelect(aboveUp, up, b.CreateSelect(belowDown, down, t));
      return b.CreateSelect(finite, r, t);
    };
    // Arithmetic with a rounding mode.
    for (llvm::StringRef suffix : {"rn", "rz", "rd", "ru"}) {
      Rounding mode = roundingOf(suffix);
      for (llvm::StringRef op :
           {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"}) {
        if ((op == "sqrt" || op == "fma") && mode == Rounding::Nearest)
          continue; // ocml's (kSymbols)
        std::string f32 = op == "fma"
                              ? "__nv_fmaf_" + suffix.str()
                              : "__nv_f" + op.str() + "_" + suffix.str();
        std::string f64 = op == "fma"
                              ? "__nv_fma_" + suffix.str()
                              : "__nv_d" + op.str() + "_" + suffix.str();
        map[f32].body = [mode, op](Builder &b, Args a) {
          return arithmeticF32(b, mode, op, a);
        };
        if (op == "fma") {
          map[f64] = {
              [mode](Builder &b, Args a) { return fmaF64Hardware(b, mode, a); },
              /*strict=*/true};
          continue;
        }
        map[f64].body = [mode, op](Builder &b, Args a) -> Value * {
          if (op == "add")
            return sumF64(b, mode, a[0], a[1]);
          if (op == "sub")
            return sumF64(b, mode, a[0], b.CreateFNeg(a[1]));
          if (op == "mul")
            return mode == Rounding::Nearest
                       ? barrier(b, b.CreateFMul(a[0], a[1]))
                       : productF64(b, mode, a[0], a[1]);
          if (op == "sqrt")
            return sqrtF64(b, mode, a[0]);
          Value *num = op == "rcp" ? floatConstant(a[0], 1.0) : a[0];
          Value *den = op == "rcp" ? a[0] : a[1];
          return mode == Rounding::Nearest ? b.CreateFDiv(num, den)
                                           : quotientF64(b, mode, num, den);
        };
      }
      // Conversions.
      map[("__nv_double2float_" + suffix).str()].body = [mode](Builder &b,
                                                               Args a) {
        return toF32(b, mode, a[0], zeroF64(b));
      };
      for (auto [from, isSigned] : {std::pair{"int", true},
                                    {"uint", false},
                                    {"ll", true},
                                    {"ull", false}}) {
        for (auto [to, bits] : {std::pair{"float", 32}, {"double", 64}}) {
          std::string name =
              "__nv_" + std::string(from) + "2" + to + "_" + suffix.str();
          bool isDouble = bits == 64;
          // (int and uint to double are exact: libdevice has _rn only.)
          if (!isDouble || llvm::StringRef(from).contains("ll") ||
              mode == Rounding::Nearest)
            map[name].body = [mode, isSigned, isDouble](Builder &b, Args a) {
              return fromInteger(b, mode, a[0], isSigned,
                                 isDouble ? b.getDoubleTy() : b.getFloatTy());
            };
          std::string back =
              "__nv_" + std::string(to) + "2" + from + "_" + suffix.str();
          unsigned width = llvm::StringRef(from).contains("ll") ? 64 : 32;
          map[back].body = [mode, width, isSigned](Builder &b, Args a) {
            return toInteger(b, mode, a[0], width, isSigned);
          };
        }
      }
    }
    // Bessel functions of integer order; the float32 forms in float64.
    map["__nv_jn"].body = [](Builder &b, Args a) {
      return besselJ(b, a[0], a[1]);
    };
    map["__nv_yn"].body = [](Builder &b, Args a) {
      return besselY(b, a[0], a[1]);
    };
    map["__nv_jnf"].body = [](Builder &b, Args a) {
      return b.CreateFPTrunc(besselJ(b, a[0], wide(b, a[1])), b.getFloatTy());
    };
    map["__nv_ynf"].body = [](Builder &b, Args a) {
      return b.CreateFPTrunc(besselY(b, a[0], wide(b, a[1])), b.getFloatTy());
    };
    map["__nv_rcp64h"].body = [](Builder &b, Args a) {
      return reciprocalHighWord(b, a[0]);
    };
    return map;
  }();
  return table;
}

/// libdevice's functions with no AMD meaning, and why.
bool hasLibraries(const std::string &folder) {
  return !folder.empty() &&
         llvm::sys::fs::exists(folder + "/ocml.bc") &&
         llvm::sys::fs::exists(folder + "/ockl.bc");
}

bool isKernel(const llvm::Function &function) {
  return function.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
}

/// Whether `module` declares (and so calls) a function named `prefix`...
bool declaresWithPrefix(const llvm::Module &module, llvm::StringRef prefix) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with(prefix))
      return true;
  return false;
}

/// Defines the control constant `name` (an i8 or i32 in the constant
/// address space, declared by the libraries) as `value`, internal to the
/// module.
void defineControl(llvm::Module &module, llvm::StringRef name,
                   uint64_t value) {
  llvm::GlobalVariable *global = module.getGlobalVariable(name);
  if (!global || !global->isDeclaration())
    return;
  auto *type = llvm::cast<llvm::IntegerType>(global->getValueType());
  global->setInitializer(llvm::ConstantInt::get(type, value));
  global->setConstant(true);
  global->setLinkage(llvm::GlobalValue::InternalLinkage);
}

/// Gives the body of its Definition to each libdevice function the module
/// declares and calls: internal, inlined unless strict. Without `fpFusion`
/// the code generator contracts nothing, and the barriers go.
LogicalResult defineLibdeviceFunctions(ModuleOp op, llvm::Module &module,
                                       bool fpFusion) {
  const llvm::StringMap<Definition> &table = definitionTable();
  for (llvm::Function &function : module) {
    auto it = table.find(function.getName());
    if (!function.isDeclaration() || function.use_empty() || it == table.end())
      continue;
    const Definition &definition = it->second;
    Builder b(
        llvm::BasicBlock::Create(module.getContext(), "entry", &function));
    if (definition.strict) {
      b.setIsFPConstrained(true);
      function.addFnAttr(llvm::Attribute::StrictFP);
      function.addFnAttr(llvm::Attribute::NoInline);
    } else {
      function.addFnAttr(llvm::Attribute::AlwaysInline);
    }
    llvm::SmallVector<Value *> args;
    for (llvm::Argument &arg : function.args())
      args.push_back(&arg);
    Value *result = definition.body(b, args);
    if (result->getType() != function.getReturnType())
      return op.emitError("the kernel calls ")
             << function.getName().str()
             << " with another signature than libdevice's";
    b.CreateRet(result);
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (!fpFusion)
      removeBarriers(function);
  }
  return success();
}

} // namespace

std::string ocmlForLibdevice(llvm::StringRef symbol) {
  const llvm::StringMap<std::string> &table = libdeviceTable();
  auto it = table.find(symbol);
  return it == table.end() ? std::string() : it->second;
}

bool definesLibdeviceFunction(llvm::StringRef symbol) {
  return definitionTable().contains(symbol);
}

std::string findDeviceLibraries() {
  if (const char *explicitFolder = std::getenv("TERRAZZO_ROCM_DEVICE_LIBS"))
    return hasLibraries(explicitFolder) ? explicitFolder : "";
  std::vector<std::string> candidates;
  if (const char *root = std::getenv("ROCM_PATH"))
    candidates.push_back(std::string(root) + "/amdgcn/bitcode");
  candidates.push_back("/opt/rocm/amdgcn/bitcode");
  for (const char *multiarch :
       {"x86_64-linux-gnu", "aarch64-linux-gnu", "powerpc64le-linux-gnu"})
    candidates.push_back(std::string("/usr/lib/") + multiarch +
                         "/amdgcn/bitcode");
  for (const std::string &folder : candidates)
    if (hasLibraries(folder))
      return folder;
  return "";
}

unsigned isaVersion(llvm::StringRef processor) {
  llvm::StringRef digits = processor;
  digits.consume_front("gfx");
  if (digits.size() < 3)
    return 0;
  unsigned major = 0, minor = 0, stepping = 0;
  if (digits.drop_back(2).getAsInteger(10, major) ||
      digits.substr(digits.size() - 2, 1).getAsInteger(16, minor) ||
      digits.take_back(1).getAsInteger(16, stepping))
    return 0;
  return major * 1000 + minor * 100 + stepping;
}

LogicalResult linkDeviceLibraries(ModuleOp op, llvm::Module &module,
                                  const Target &target, bool fpFusion) {
  if (failed(defineLibdeviceFunctions(op, module, fpFusion)))
    return failure();
  bool needsOcml = declaresWithPrefix(module, "__ocml_");
  bool needsOckl = declaresWithPrefix(module, "__ockl_");
  if (needsOcml || needsOckl) {
    std::string folder = findDeviceLibraries();
    if (folder.empty())
      return op.emitError(
          "the kernel calls the ROCm device libraries (ocml.bc, ockl.bc), "
          "which were not found; set TERRAZZO_ROCM_DEVICE_LIBS to their "
          "folder or install Debian's rocm-device-libs (or ROCm)");
    // ocml's functions may call ockl's: ocml first.
    if (needsOcml && failed(mlir::terrazzo::linkBitcodeLibrary(
                         op, module, folder + "/ocml.bc", "ocml")))
      return failure();
    if (declaresWithPrefix(module, "__ockl_") &&
        failed(mlir::terrazzo::linkBitcodeLibrary(op, module,
                                                  folder + "/ockl.bc", "ockl")))
      return failure();
  }
  // The control constants a compiler driver would link as oclc_*.bc.
  defineControl(module, "__oclc_ISA_version", isaVersion(target.processor));
  defineControl(module, "__oclc_wavefrontsize64", target.warpSize == 64);
  defineControl(module, "__oclc_finite_only_opt", 0);
  defineControl(module, "__oclc_unsafe_math_opt", 0);
  defineControl(module, "__oclc_daz_opt", 0);
  defineControl(module, "__oclc_correctly_rounded_sqrt32", 1);
  defineControl(module, "__oclc_ABI_version", kCodeObjectVersion);
  // Only the kernels are entry points: the libraries' functions can be
  // inlined and dropped.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !isKernel(function))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);

  // Whatever is still called and not defined would be an undefined symbol
  // of the code object, which the loader rejects.
  std::string undefined;
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && !function.isIntrinsic() &&
        !function.use_empty())
      undefined += (undefined.empty() ? "" : ", ") + function.getName().str();
  if (!undefined.empty())
    return op.emitError("the kernel calls functions that neither it nor the "
                        "ROCm device libraries define: ")
           << undefined;
  // A library's function called with another signature than its own would
  // be undefined behaviour.
  for (const llvm::Function &function : module)
    for (const llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
        if (call->getCalledFunction() == &function &&
            call->getFunctionType() != function.getFunctionType())
          return op.emitError("the kernel calls ")
                 << function.getName().str()
                 << " with another signature than the device library's";
  return success();
}

} // namespace terrazzo::amd
