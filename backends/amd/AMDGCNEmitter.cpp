#include "backends/amd/AMDGCNEmitter.h"

#include "backends/amd/DeviceLibraries.h"
#include "backends/common/ExternalTool.h"
#include "backends/common/LLVMCodeGen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

#ifndef TERRAZZO_LLD_PATH
#define TERRAZZO_LLD_PATH ""
#endif

using namespace mlir;

namespace terrazzo::amd {
namespace {

void initializeAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // Objects of code with inline assembly (ockl's) assemble it.
    LLVMInitializeAMDGPUAsmParser();
  });
}

bool isExecutable(const std::string &path) {
  return !path.empty() && llvm::sys::fs::can_execute(path);
}

/// The hsaco ld.lld links from `object`; false with `error` set.
bool linkHsaco(const std::string &object, std::string &hsaco,
               std::string &error) {
  std::string lld = findLld();
  if (lld.empty()) {
    error = "ld.lld (LLVM 22's, Debian's lld-22) was not found to link the "
            "hsaco; set TERRAZZO_LLD to it or install lld-22";
    return false;
  }
  return mlir::terrazzo::runExternalTool(
      lld, "ld.lld", object, "o", "hsaco",
      [](llvm::StringRef input, llvm::StringRef output) {
        return std::vector<std::string>{"-flavor", "gnu", "-shared",
                                        "--no-undefined", "-o", output.str(),
                                        input.str()};
      },
      hsaco, error);
}

/// `op`'s `output` through the AMDGPU back end, as a code object v5 with
/// the ROCm device libraries the kernel calls.
FailureOr<std::string> emit(ModuleOp op, const Target &target, bool fpFusion,
                            mlir::terrazzo::CodeGenOutput output) {
  initializeAMDGPU();
  return mlir::terrazzo::emitCode(
      op, target, fpFusion, output, "AMDGPU", [&](llvm::Module &module) {
        module.addModuleFlag(llvm::Module::Error,
                             "amdhsa_code_object_version", kCodeObjectVersion);
        return linkDeviceLibraries(op, module, target, fpFusion);
      });
}

} // namespace

void registerTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}

std::string findLld() {
  if (const char *explicitPath = std::getenv("TERRAZZO_LLD"))
    return isExecutable(explicitPath) ? explicitPath : "";
  if (isExecutable(TERRAZZO_LLD_PATH))
    return TERRAZZO_LLD_PATH;
  // Debian's plain ld.lld may be an older LLVM's; its versioned name first.
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name))
      return *path;
  return "";
}

FailureOr<std::string> emitLLVMIR(ModuleOp op, const Target &target,
                                  bool fpFusion) {
  return emit(op, target, fpFusion, mlir::terrazzo::CodeGenOutput::LLVMIR);
}

FailureOr<std::string> emitAMDGCN(ModuleOp op, const Target &target,
                                  bool fpFusion) {
  return emit(op, target, fpFusion, mlir::terrazzo::CodeGenOutput::Assembly);
}

FailureOr<std::string> emitHsaco(ModuleOp op, const Target &target,
                                 bool fpFusion) {
  FailureOr<std::string> object =
      emit(op, target, fpFusion, mlir::terrazzo::CodeGenOutput::Object);
  if (failed(object))
    return failure();
  std::string hsaco, error;
  if (!linkHsaco(*object, hsaco, error))
    return op.emitError(error);
  return hsaco;
}

} // namespace terrazzo::amd
