#include "backends/amd/DeviceLibraries.h"

#include "backends/common/LLVMCodeGen.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

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

} // namespace

std::string ocmlForLibdevice(llvm::StringRef symbol) {
  const llvm::StringMap<std::string> &table = libdeviceTable();
  auto it = table.find(symbol);
  return it == table.end() ? std::string() : it->second;
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
                                  const Target &target) {
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
