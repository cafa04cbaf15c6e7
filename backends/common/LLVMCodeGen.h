// What every vendor's code generator does with the LLVM IR of a kernel:
// translate it for a target machine, link the functions it calls from a
// bitcode library, run LLVM's O3 pipeline, and print the IR or emit
// assembly or an object file.
#ifndef TERRAZZO_BACKENDS_COMMON_LLVMCODEGEN_H
#define TERRAZZO_BACKENDS_COMMON_LLVMCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "target/Target.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::terrazzo {

/// Links into `module` the definitions it needs from the bitcode file at
/// `path` (`what` names the library in errors, reported on `op`); the
/// library takes the module's triple and data layout.
LogicalResult linkBitcodeLibrary(ModuleOp op, llvm::Module &module,
                                 const std::string &path, StringRef what);

/// What a code generator writes.
enum class CodeGenOutput { LLVMIR, Assembly, Object };

/// The `output` of `op` (in the LLVM dialect and the vendor's) for
/// `target`: its translation to LLVM IR, `prepare` (the vendor's libraries
/// and module flags), LLVM's O3 pipeline, then the IR as text or what the
/// target machine emits. The vendor has registered its LLVM target
/// (`backend` names it in errors, reported on `op`). With `fpFusion` the
/// code generator contracts float multiplies and dependent adds into fused
/// multiply-adds.
FailureOr<std::string>
emitCode(ModuleOp op, const ::terrazzo::Target &target, bool fpFusion,
         CodeGenOutput output, StringRef backend,
         function_ref<LogicalResult(llvm::Module &)> prepare);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_LLVMCODEGEN_H
