#include "backends/nvidia/PTXEmitter.h"

#include "backends/common/LLVMCodeGen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace mlir;

namespace terrazzo::nvidia {
namespace {

void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory pointers: the shared window is far smaller than
    // 4 GiB, and 64-bit addresses cost a register pair and two-word
    // arithmetic for every shared access and wgmma descriptor. The data
    // layout the target machine creates follows this flag.
    auto &registered = llvm::cl::getRegisteredOptions();
    auto shortPointers = registered.find("nvptx-short-ptr");
    if (shortPointers != registered.end())
      static_cast<llvm::cl::opt<bool> *>(shortPointers->second)->setValue(true);
  });
}

bool callsLibdevice(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

LogicalResult linkLibdevice(ModuleOp op, llvm::Module &module) {
  std::string path = findLibdevice();
  if (path.empty())
    return op.emitError(
        "the kernel uses math functions from libdevice, which was not found; "
        "set TERRAZZO_LIBDEVICE to libdevice.10.bc or install the CUDA "
        "toolkit");
  if (failed(mlir::terrazzo::linkBitcodeLibrary(op, module, path, "libdevice")))
    return failure();
  // Only the kernels are entry points; the library functions can be
  // inlined and dropped.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  // libdevice asks __nvvm_reflect whether to flush denormals: it should not.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                       uint32_t(0));
  return success();
}

} // namespace

void registerTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

std::string findLibdevice() {
  auto exists = [](const std::string &path) {
    return !path.empty() && llvm::sys::fs::exists(path);
  };
  if (const char *explicitPath = std::getenv("TERRAZZO_LIBDEVICE"))
    return exists(explicitPath) ? explicitPath : "";
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable)) {
      std::string path = std::string(root) + "/nvvm/libdevice/libdevice.10.bc";
      if (exists(path))
        return path;
    }
  std::string fallback = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
  return exists(fallback) ? fallback : "";
}

/// `op`'s `output` through the NVPTX back end, with libdevice linked
/// where the kernel calls it. With fusion the PTX has fma where a multiply
/// feeds an add; without it the PTX spells mul.rn and add.rn, which ptxas
/// does not contract either.
static FailureOr<std::string> emit(ModuleOp op, const Target &target,
                                   bool fpFusion,
                                   mlir::terrazzo::CodeGenOutput output) {
  initializeNVPTX();
  return mlir::terrazzo::emitCode(
      op, target, fpFusion, output, "NVPTX", [&](llvm::Module &module) {
        return callsLibdevice(module) ? linkLibdevice(op, module) : success();
      });
}

FailureOr<std::string> emitLLVMIR(ModuleOp op, const Target &target,
                                  bool fpFusion) {
  return emit(op, target, fpFusion, mlir::terrazzo::CodeGenOutput::LLVMIR);
}

FailureOr<std::string> emitPTX(ModuleOp op, const Target &target,
                                bool fpFusion) {
  return emit(op, target, fpFusion, mlir::terrazzo::CodeGenOutput::Assembly);
}

} // namespace terrazzo::nvidia
