// LLVM-dialect kernels to AMDGCN: translation to LLVM IR, the ROCm device
// libraries for what the kernel calls, the O3 pipeline and the AMDGPU
// back end (amdgcn-amd-amdhsa, the chip's processor, its wavefront size);
// the code object linked into an hsaco by ld.lld.
#ifndef TERRAZZO_BACKENDS_AMD_AMDGCNEMITTER_H
#define TERRAZZO_BACKENDS_AMD_AMDGCNEMITTER_H

#include "target/Target.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace terrazzo::amd {

/// Registers the translations from MLIR to LLVM IR that the emitters need.
void registerTranslations(mlir::DialectRegistry &registry);

/// The optimized LLVM IR of `module` (in the LLVM and ROCDL dialects), as
/// text; errors are reported on the module. `fpFusion`: see emitAMDGCN.
mlir::FailureOr<std::string> emitLLVMIR(mlir::ModuleOp module,
                                        const Target &target, bool fpFusion);

/// The AMDGCN assembly of `module`; errors are reported on the module. With
/// `fpFusion` the code generator contracts float multiplies and adds.
mlir::FailureOr<std::string> emitAMDGCN(mlir::ModuleOp module,
                                        const Target &target, bool fpFusion);

/// The hsaco (a code object, an ELF shared object) of `module`: the AMDGPU
/// back end's object file linked by ld.lld.
mlir::FailureOr<std::string> emitHsaco(mlir::ModuleOp module,
                                       const Target &target, bool fpFusion);

/// Where ld.lld is: $TERRAZZO_LLD, the one found when Terrazzo was
/// configured, then ld.lld-22 and ld.lld on PATH; empty when none.
std::string findLld();

} // namespace terrazzo::amd

#endif // TERRAZZO_BACKENDS_AMD_AMDGCNEMITTER_H
