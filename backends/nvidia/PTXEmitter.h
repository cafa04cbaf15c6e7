// LLVM-dialect kernels to PTX: translation to LLVM IR, libdevice for the
// math functions the kernel calls, the O3 pipeline, and the NVPTX backend.
#ifndef TERRAZZO_BACKENDS_NVIDIA_PTXEMITTER_H
#define TERRAZZO_BACKENDS_NVIDIA_PTXEMITTER_H

#include "target/Target.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace terrazzo::nvidia {

/// Registers the translations from MLIR to LLVM IR that emitPTX needs.
void registerTranslations(mlir::DialectRegistry &registry);

/// The optimized LLVM IR of `module` (in the LLVM and NVVM dialects), as
/// text; errors are reported on the module. `fpFusion`: see emitPTX.
mlir::FailureOr<std::string> emitLLVMIR(mlir::ModuleOp module,
                                        const Target &target, bool fpFusion);

/// The PTX of `module`; errors are reported on the module. With `fpFusion`
/// the code generator contracts float multiplies and adds into fma.
mlir::FailureOr<std::string> emitPTX(mlir::ModuleOp module,
                                     const Target &target, bool fpFusion);

/// Where libdevice is: $TERRAZZO_LIBDEVICE, then the CUDA installation
/// ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda); empty when not found.
std::string findLibdevice();

} // namespace terrazzo::nvidia

#endif // TERRAZZO_BACKENDS_NVIDIA_PTXEMITTER_H
